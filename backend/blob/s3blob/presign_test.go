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

// TestPresignPut stores objects through presigned PUTs with a plain HTTP
// client, as a browser would: the bytes land under the key with the ETag
// the PUT answered, and a PUT of another length than the one signed is
// refused by the store and leaves the object as it was.
func TestPresignPut(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s, _ := open(t)
	const key, content = "uploads/u1/00001", "0123456789"
	link, err := s.PresignPut(ctx, key, int64(len(content)), time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(link, "captionqa-test-secret") {
		t.Fatalf("the link carries the secret: %s", link)
	}
	put := func(body io.Reader, length int64) (*http.Response, error) {
		t.Helper()
		req, err := http.NewRequestWithContext(ctx, http.MethodPut, link, body)
		if err != nil {
			t.Fatal(err)
		}
		req.ContentLength = length
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return nil, err
		}
		resp.Body.Close()
		return resp, nil
	}
	resp, err := put(strings.NewReader(content), int64(len(content)))
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || resp.Header.Get("ETag") == "" {
		t.Fatalf("PUT: %d, ETag %q; want 200 with an ETag", resp.StatusCode, resp.Header.Get("ETag"))
	}
	rc, info, err := s.Get(ctx, key, nil)
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(rc)
	rc.Close()
	if err != nil || string(got) != content || info.ETag != resp.Header.Get("ETag") {
		t.Fatalf("stored %q (%v), ETag %s; want %q with the PUT's ETag %s", got, err, info.ETag, content, resp.Header.Get("ETag"))
	}
	for _, tc := range []struct {
		name   string
		body   io.Reader
		length int64
	}{
		{"more bytes", strings.NewReader(content + "x"), int64(len(content)) + 1},
		{"fewer bytes", strings.NewReader(content[:3]), 3},
		{"chunked", io.MultiReader(strings.NewReader(content)), -1},
	} {
		// A store may answer 403 and hang up before the body is sent,
		// which the client sees as a broken connection: refused too.
		if resp, err := put(tc.body, tc.length); err == nil && resp.StatusCode != http.StatusForbidden {
			t.Errorf("PUT of %s: %d; want 403", tc.name, resp.StatusCode)
		}
	}
	if _, after, err := s.Get(ctx, key, nil); err != nil || after.ETag != info.ETag || after.Size != int64(len(content)) {
		t.Errorf("after the refused PUTs: %+v, %v; want the object as it was", after, err)
	}
	for _, tc := range []struct {
		key     string
		size    int64
		expires time.Duration
	}{
		{"../x", 1, time.Minute},
		{key, -1, time.Minute},
		{key, 5<<30 + 1, time.Minute},
		{key, 1, 0},
		{key, 1, 8 * 24 * time.Hour},
	} {
		if _, err := s.PresignPut(ctx, tc.key, tc.size, tc.expires); apperr.KindOf(err) != apperr.BadRequest {
			t.Errorf("PresignPut(%q, %d, %v) = %v, want bad_request", tc.key, tc.size, tc.expires, err)
		}
	}
}
