package s3blob_test

import (
	"context"
	"io"
	"mime"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
)

// TestPresignGet fetches presigned links with a plain HTTP client, as a
// browser would: the bytes, ranges, and the Content-Disposition asked for.
func TestPresignGet(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := open(t)
	const key, content = "artifacts/p1/out.srt", "1\n00:00:01,000 --> 00:00:02,000\nhello\n"
	if _, err := s.Put(ctx, key, strings.NewReader(content), int64(len(content))); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, download, rangeHeader string
		wantStatus                  int
		wantBody                    string
	}{
		{"plain name", "out.srt", "", http.StatusOK, content},
		{"name needing encoding", `résumé "final" report.srt`, "", http.StatusOK, content},
		{"no name", "", "", http.StatusOK, content},
		{"range", "out.srt", "bytes=2-13", http.StatusPartialContent, content[2:14]},
	} {
		t.Run(tc.name, func(t *testing.T) {
			link, err := s.PresignGet(ctx, key, time.Minute, tc.download)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(link, "captionqa-test-secret") {
				t.Fatalf("the link carries the secret: %s", link)
			}
			req, err := http.NewRequestWithContext(ctx, http.MethodGet, link, nil)
			if err != nil {
				t.Fatal(err)
			}
			if tc.rangeHeader != "" {
				req.Header.Set("Range", tc.rangeHeader)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			body, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != tc.wantStatus || string(body) != tc.wantBody {
				t.Fatalf("GET: %d %q, want %d %q", resp.StatusCode, body, tc.wantStatus, tc.wantBody)
			}
			want := ""
			if tc.download != "" {
				want = mime.FormatMediaType("attachment", map[string]string{"filename": tc.download})
			}
			if got := resp.Header.Get("Content-Disposition"); got != want {
				t.Errorf("Content-Disposition %q, want %q", got, want)
			}
			if want != "" {
				if _, params, err := mime.ParseMediaType(want); err != nil || params["filename"] != tc.download {
					t.Errorf("the header does not give the name back: %v %v", params, err)
				}
			}
		})
	}
	for _, tc := range []struct {
		key     string
		expires time.Duration
		kind    apperr.Kind
	}{
		{"artifacts/none", time.Minute, apperr.NotFound},
		{"../x", time.Minute, apperr.BadRequest},
		{key, 0, apperr.BadRequest},
		{key, 8 * 24 * time.Hour, apperr.BadRequest},
	} {
		if _, err := s.PresignGet(ctx, tc.key, tc.expires, "x.srt"); apperr.KindOf(err) != tc.kind {
			t.Errorf("PresignGet(%q, %v) = %v, want %s", tc.key, tc.expires, err, tc.kind.Code())
		}
	}
}
