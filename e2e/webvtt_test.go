package e2e

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption/format"
	"github.com/captionqa/captionqa/backend/caption/readback"
)

// trackPage loads a WebVTT file as the <track> of a <video> and gives its
// cues as the browser parsed them: times in milliseconds, and the text a
// viewer sees (the cue's DOM, getCueAsHTML, as text).
const trackPage = `<!doctype html><meta charset="utf-8"><title>track</title><body><script>
async function cues(url) {
  const video = document.createElement("video");
  const track = document.createElement("track");
  track.kind = "subtitles";
  track.src = url;
  video.append(track);
  document.body.append(video);
  const loaded = new Promise((ok, fail) => {
    track.onload = ok;
    track.onerror = () => fail(new Error("the track " + url + " did not load"));
  });
  track.track.mode = "hidden";
  await loaded;
  return Array.from(track.track.cues, c => ({
    startMs: Math.round(c.startTime * 1000), endMs: Math.round(c.endTime * 1000), text: c.getCueAsHTML().textContent,
  }));
}
</script>`

// TestWebVTTTrackCues writes each read-back input (readback.Inputs) as
// WebVTT, as a delivery has it (with its REGION and STYLE blocks), loads
// it in Chromium as a video's track, and compares track.cues with the
// track, cue by cue: the cues WebVTT delivers (format.Delivers), their
// times to the millisecond and their text as the browser shows it
// (readback.Text).
func TestWebVTTTrackCues(t *testing.T) {
	t.Parallel()
	files := map[string][]byte{}
	inputs := readback.Inputs()
	for i, rel := range inputs {
		data, err := os.ReadFile(filepath.Join(corpusDir(t), filepath.FromSlash(rel)))
		if err != nil {
			t.Fatal(err)
		}
		_, track, _, err := format.Read(filepath.Base(rel), "", data)
		if err != nil {
			t.Fatalf("%s: %v", rel, err)
		}
		var out bytes.Buffer
		if err := format.Write(format.VTT, &out, track); err != nil {
			t.Fatal(err)
		}
		files[fmt.Sprintf("/%d.vtt", i)] = out.Bytes()
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/" {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = w.Write([]byte(trackPage))
			return
		}
		b, ok := files[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/vtt; charset=utf-8")
		_, _ = w.Write(b)
	}))
	t.Cleanup(srv.Close)
	b := newBrowser(t, srv.URL)
	b.open("/")
	for i, rel := range inputs {
		name := fmt.Sprintf("/%d.vtt", i)
		_, track, _, err := format.Read(filepath.Base(rel), "", mustRead(t, filepath.Join(corpusDir(t), filepath.FromSlash(rel))))
		if err != nil {
			t.Fatal(err)
		}
		got := eval[[]readback.Cue](b, fmt.Sprintf("cues(%q)", name))
		readback.Compare(t, rel+" in Chromium", got, readback.Delivered(format.VTT, track), 0)
		if t.Failed() && !strings.Contains(t.Name(), "/") {
			t.Logf("%s as WebVTT:\n%s", rel, files[name])
		}
	}
}

// corpusDir returns the test corpus, found as backend/internal/corpus finds
// it (docs/development.md, The test corpus), which a package outside
// backend may not import: CAPTIONQA_CORPUS, else the folder next to the
// checkout. Without it the test skips, and under CI=true fails.
func corpusDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("CAPTIONQA_CORPUS")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "corpus") // from e2e/, the package's folder
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		if os.Getenv("CI") == "true" {
			t.Fatalf("the test corpus %s is absent; CI runs the read-back tests on it", dir)
		}
		t.Skipf("the test corpus %s is absent: read-back test skipped (CI=true makes this a failure)", dir)
	}
	return dir
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
