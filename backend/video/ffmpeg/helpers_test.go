package ffmpeg

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/blob"
	"github.com/captionqa/captionqa/backend/blob/fsblob"
	"github.com/captionqa/captionqa/backend/video/ffmpeg/fftest"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// newTestRunner returns a Runner on a fresh fsblob store and work dir;
// edit adjusts the options first.
func newTestRunner(t testing.TB, edit func(*Options)) (*Runner, *fsblob.Store) {
	t.Helper()
	fftest.Need(t)
	store, err := fsblob.Open(t.TempDir(), fsblob.Options{})
	if err != nil {
		t.Fatal(err)
	}
	o := Options{WorkDir: t.TempDir(), Blobs: store}
	if edit != nil {
		edit(&o)
	}
	r, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	return r, store
}

// put stores the file at path under key.
func put(t testing.TB, store blob.Store, key, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := store.Put(context.Background(), key, f, -1); err != nil {
		t.Fatal(err)
	}
}

// putBytes stores b under key.
func putBytes(t testing.TB, store blob.Store, key string, b []byte) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "obj")
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	put(t, store, key, path)
}

// runFolders lists the run folders in r's work dir.
func runFolders(t testing.TB, r *Runner) []string {
	t.Helper()
	entries, err := os.ReadDir(r.workDir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return names
}

// vtt writes cues as WebVTT.
func vtt(cues []fftest.Cue) []byte {
	var b strings.Builder
	b.WriteString("WEBVTT\n\n")
	for _, c := range cues {
		fmt.Fprintf(&b, "%s --> %s\n%s\n\n", clock(c.Start, "."), clock(c.End, "."), c.Text)
	}
	return []byte(b.String())
}

// ass writes cues as ASS for a w×h video, white text with a black
// outline at the bottom centre, as the service's burn-in does.
func ass(w, h int, cues []fftest.Cue) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "[Script Info]\nScriptType: v4.00+\nPlayResX: %d\nPlayResY: %d\nWrapStyle: 0\n\n", w, h)
	b.WriteString("[V4+ Styles]\nFormat: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding\n")
	fmt.Fprintf(&b, "Style: Default,DejaVu Sans,%d,&H00FFFFFF,&H00FFFFFF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,3,0,2,20,20,%d,1\n\n", h/12, h/20)
	b.WriteString("[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n")
	for _, c := range cues {
		fmt.Fprintf(&b, "Dialogue: 0,%s,%s,Default,,0,0,0,,%s\n", assTime(c.Start), assTime(c.End), strings.ReplaceAll(c.Text, "\n", `\N`))
	}
	return []byte(b.String())
}

func clock(d time.Duration, sep string) string {
	ms := d.Milliseconds()
	return fmt.Sprintf("%02d:%02d:%02d%s%03d", ms/3600000, ms/60000%60, ms/1000%60, sep, ms%1000)
}

func assTime(d time.Duration) string {
	cs := d.Milliseconds() / 10
	return fmt.Sprintf("%d:%02d:%02d.%02d", cs/360000, cs/6000%60, cs/100%60, cs%100)
}
