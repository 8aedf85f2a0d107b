package httpapi_test

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// exportedArtifact exports a ready project of secret's account to lms
// and returns the artifact's id and its sha256.
func (ts *testServer) exportedArtifact(secret string) (id, sum string) {
	ts.t.Helper()
	p := ts.mustProject(secret, `{"name":"Course","ir":`+jsonString(validIR)+`}`)
	f := ts.mustExport(secret, p, `{"presets":["lms"]}`)["artifacts"].([]any)[0].(map[string]any)
	return f["artifactId"].(string), f["sha256"].(string)
}

func TestArtifactLink(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	owner := ts.pro("artifacts@example.com")
	other := ts.pro("artifacts-other@example.com")
	id, _ := ts.exportedArtifact(owner)
	for _, tt := range []struct {
		name, secret, path string
		status             int
		field              string
	}{
		{"ttl too short", owner, "/api/v1/artifacts/" + id + "?ttlSeconds=59", 400, "ttlSeconds"},
		{"ttl too long", owner, "/api/v1/artifacts/" + id + "?ttlSeconds=86401", 400, "ttlSeconds"},
		{"ttl zero", owner, "/api/v1/artifacts/" + id + "?ttlSeconds=0", 400, "ttlSeconds"},
		{"ttl not a number", owner, "/api/v1/artifacts/" + id + "?ttlSeconds=soon", 400, "ttlSeconds"},
		{"bad uuid", owner, "/api/v1/artifacts/nope", 400, "artifactId"},
		{"unknown", owner, "/api/v1/artifacts/" + unknownID, 404, ""},
		{"another account's", other, "/api/v1/artifacts/" + id, 404, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := ts.get(tt.path, tt.secret)
			if r.status != tt.status {
				t.Fatalf("status %d, want %d: %s", r.status, tt.status, r.body)
			}
			if e := r.apiError(t); tt.field != "" && e.Details["field"] != tt.field {
				t.Errorf("details = %v, want field %s", e.Details, tt.field)
			}
		})
	}
	for _, tt := range []struct {
		query string
		ttl   time.Duration
	}{{"", time.Hour}, {"?ttlSeconds=60", time.Minute}, {"?ttlSeconds=86400", 24 * time.Hour}} {
		r := ts.get("/api/v1/artifacts/"+id+tt.query, owner)
		if r.status != 200 {
			t.Fatalf("%s: %d %s", tt.query, r.status, r.body)
		}
		m := r.json(t)
		exp, err := time.Parse(time.RFC3339, m["expiresAt"].(string))
		if err != nil || !exp.Equal(ts.clock.Now().Add(tt.ttl)) {
			t.Errorf("%s: expiresAt = %v, want now + %v", tt.query, m["expiresAt"], tt.ttl)
		}
		if m["artifactId"] != id || !strings.HasPrefix(m["filename"].(string), "Course-lms.") || m["bytes"].(float64) <= 0 {
			t.Errorf("link = %v", m)
		}
		if u := m["url"].(string); strings.Contains(strings.ToLower(u), "cqa_") || strings.Contains(u, "key") || strings.Contains(u, "token") {
			t.Errorf("url looks like it carries a key: %s", u)
		}
	}
}

func TestArtifactDownload(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	owner := ts.pro("downloads@example.com")
	id, sum := ts.exportedArtifact(owner)
	link := ts.get("/api/v1/artifacts/"+id+"?ttlSeconds=60", owner).json(t)
	u := link["url"].(string)
	fetch := func(rawURL string, header http.Header) response {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, rawURL, nil)
		if err != nil {
			t.Fatal(err)
		}
		for k, v := range header {
			req.Header[k] = v
		}
		return ts.send(req, true) // no key
	}

	r := fetch(u, nil)
	got := sha256.Sum256(r.body)
	if r.status != 200 || hex.EncodeToString(got[:]) != sum || int64(len(r.body)) != int64(link["bytes"].(float64)) {
		t.Fatalf("download: %d, %d bytes, sha %x, want %s", r.status, len(r.body), got, sum)
	}
	if ct := r.header.Get("Content-Type"); ct != link["contentType"] {
		t.Errorf("Content-Type = %q, want %q", ct, link["contentType"])
	}
	if cd := r.header.Get("Content-Disposition"); cd != `attachment; filename=`+link["filename"].(string) {
		t.Errorf("Content-Disposition = %q", cd)
	}
	// The browser neither guesses a type nor runs what it opens.
	if r.header.Get("X-Content-Type-Options") != "nosniff" || r.header.Get("Content-Security-Policy") != "sandbox" {
		t.Errorf("download headers %v; want nosniff and a sandbox policy", r.header)
	}
	whole := r.body

	r = fetch(u, http.Header{"Range": {"bytes=2-9"}})
	if r.status != http.StatusPartialContent || string(r.body) != string(whole[2:10]) || r.header.Get("Content-Range") == "" {
		t.Errorf("range: %d %q (Content-Range %q), want %q", r.status, r.body, r.header.Get("Content-Range"), whole[2:10])
	}
	r = fetch(u, http.Header{"Range": {"bytes=-5"}})
	if r.status != http.StatusPartialContent || string(r.body) != string(whole[len(whole)-5:]) {
		t.Errorf("suffix range: %d %q", r.status, r.body)
	}

	parsed, _ := url.Parse(u)
	q := parsed.Query()
	alter := func(f func(p *url.URL, q url.Values)) string {
		p := *parsed
		v := url.Values{"expires": {q.Get("expires")}, "sig": {q.Get("sig")}}
		f(&p, v)
		p.RawQuery = v.Encode()
		return p.String()
	}
	flip := func(s string) string {
		b := []byte(s)
		if b[0] == '0' {
			b[0] = '1'
		} else {
			b[0] = '0'
		}
		return string(b)
	}
	for name, bad := range map[string]string{
		"signature altered": alter(func(_ *url.URL, v url.Values) { v.Set("sig", flip(v.Get("sig"))) }),
		"expiry extended":   alter(func(_ *url.URL, v url.Values) { v.Set("expires", v.Get("expires")+"0") }),
		"no signature":      alter(func(_ *url.URL, v url.Values) { v.Del("sig") }),
		"other artifact":    alter(func(p *url.URL, _ url.Values) { p.Path = "/api/artifacts/" + unknownID }),
	} {
		if r := fetch(bad, nil); r.status != 403 || r.apiError(t).Code != "forbidden" {
			t.Errorf("%s: %d %s", name, r.status, r.body)
		}
	}

	ts.clock.Advance(61 * time.Second)
	if r := fetch(u, nil); r.status != 403 || r.apiError(t).Details["reason"] != "expired" {
		t.Errorf("expired link: %d %s", r.status, r.body)
	}
}
