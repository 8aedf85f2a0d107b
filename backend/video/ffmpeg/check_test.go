package ffmpeg

import (
	"context"
	"strings"
	"testing"
)

func TestCheck(t *testing.T) {
	t.Parallel()
	r, _ := newTestRunner(t, nil)
	if err := r.Check(context.Background()); err != nil {
		t.Fatalf("Check with the installed ffmpeg: %v", err)
	}
}

// TestCheckNamesWhatIsMissing: an ffmpeg built without libass and libx264
// is refused, with both named.
func TestCheckNamesWhatIsMissing(t *testing.T) {
	t.Parallel()
	bin := script(t, `case "$2" in
-filters) echo " ... subtitles         V->V       Render text subtitles" ;;
-encoders) echo " V....D libx265              libx265 H.265" ;;
-protocols) printf 'Supported file protocols:\nInput:\n  file\n  subfile\n' ;;
esac
`)
	r, _ := newTestRunner(t, func(o *Options) { o.FFmpeg = bin })
	err := r.Check(context.Background())
	if err == nil {
		t.Fatal("Check passed an ffmpeg without libass and libx264")
	}
	for _, want := range []string{"ass filter", "libx264"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not name %s", err, want)
		}
	}
	if strings.Contains(err.Error(), "subfile") {
		t.Errorf("error %q names subfile, which is there", err)
	}
}

func TestNewRefuses(t *testing.T) {
	t.Parallel()
	_, store := newTestRunner(t, nil)
	dir := t.TempDir()
	cases := []struct {
		name string
		o    Options
	}{
		{"no work dir", Options{Blobs: store}},
		{"no blob store", Options{WorkDir: dir}},
		{"no such ffmpeg", Options{WorkDir: dir, Blobs: store, FFmpeg: "/nonexistent/ffmpeg"}},
		{"no such ffprobe", Options{WorkDir: dir, Blobs: store, FFprobe: "/nonexistent/ffprobe"}},
	}
	for _, c := range cases {
		if _, err := New(c.o); err == nil {
			t.Errorf("%s: accepted", c.name)
		}
	}
}
