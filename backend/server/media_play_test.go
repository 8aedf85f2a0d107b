package server_test

import (
	"bytes"
	"io"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/video/ffmpeg/fftest"
)

// TestMediaPlayLink: the link a player is given serves the media inline
// with byte ranges and no key; an altered link, an expired one, and
// another account's request for a link are refused.
func TestMediaPlayLink(t *testing.T) {
	t.Parallel()
	e := newVideoEnv(t, nil)
	clip := fftest.Clip(t, fftest.ClipOptions{Seconds: 2})
	want, err := os.ReadFile(clip)
	if err != nil {
		t.Fatal(err)
	}
	pid := e.newProject("Play", mediaIR)
	up := e.uploadFile(pid, clip)

	var link struct {
		URL         string    `json:"url"`
		ExpiresAt   time.Time `json:"expiresAt"`
		ContentType string    `json:"contentType"`
		Bytes       int64     `json:"bytes"`
	}
	e.call("GET", "/api/v1/media/upload/"+up.UploadID+"/link?ttlSeconds=120", nil, 200, &link)
	if link.Bytes != int64(len(want)) || link.ContentType != "video/mp4" || !strings.Contains(link.URL, "/api/media/"+up.UploadID+"?") {
		t.Fatalf("link = %+v", link)
	}
	get := func(url, rng string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest("GET", url, nil)
		if rng != "" {
			req.Header.Set("Range", rng)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res, b
	}
	res, b := get(link.URL, "")
	if res.StatusCode != 200 || !bytes.Equal(b, want) || res.Header.Get("Content-Type") != "video/mp4" || res.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Fatalf("play: %d %s, %d bytes", res.StatusCode, res.Header, len(b))
	}
	res, b = get(link.URL, "bytes=100-199")
	if res.StatusCode != 206 || !bytes.Equal(b, want[100:200]) {
		t.Errorf("range: %d, %d bytes", res.StatusCode, len(b))
	}
	if res, _ := get(strings.Replace(link.URL, "sig=", "sig=00", 1), ""); res.StatusCode != 403 {
		t.Errorf("altered link: %d; want 403", res.StatusCode)
	}
	// A play link is not an artifact link, nor the other way round.
	if res, _ := get(strings.Replace(link.URL, "/api/media/", "/api/artifacts/", 1), ""); res.StatusCode != 403 && res.StatusCode != 404 {
		t.Errorf("a play link as an artifact link: %d", res.StatusCode)
	}
	e.clock.advance(3 * time.Minute)
	if res, _ := get(link.URL, ""); res.StatusCode != 403 {
		t.Errorf("expired link: %d; want 403", res.StatusCode)
	}
	other := e.otherAccount("player@example.com")
	e.callAs(other, "GET", "/api/v1/media/upload/"+up.UploadID+"/link", nil, 404, nil)
}
