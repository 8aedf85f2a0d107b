package cluster_test

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/httpapi"
)

// TestThreeNodes runs three nodes of role all (burst limits lifted) and,
// on them, the daily cap, a revoked key, and an upload, render and
// download through three nodes (media_test.go).
func TestThreeNodes(t *testing.T) {
	if testing.Short() {
		t.Skip("starts cluster nodes")
	}
	t.Parallel()
	c := newCluster(t, burstOff, roleAll, roleAll, roleAll)
	t.Run("DailyCap", func(t *testing.T) { testDailyCap(t, c) })
	t.Run("RevokedKey", func(t *testing.T) { testRevokedKey(t, c) })
	t.Run("UploadRenderDownload", func(t *testing.T) { testUploadRenderDownload(t, c) })
}

// processForm is a process request's multipart body: a two-cue SRT for
// the youtube preset.
func processForm(t *testing.T) ([]byte, string) {
	t.Helper()
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	f, err := w.CreateFormFile("file", "cues.srt")
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.Write([]byte("1\n00:00:01,000 --> 00:00:03,000\nHello from the cluster.\n\n2\n00:00:04,000 --> 00:00:06,000\nA second cue.\n"))
	if err := w.WriteField("preset", "youtube"); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), w.FormDataContentType()
}

// details is the error envelope's details object.
func (r response) details() map[string]any {
	var e apperr.Envelope
	_ = json.Unmarshal(r.Body, &e)
	return e.Error.Details
}

// processed is the answer a process call ended with, and how often the
// node's per-client upload gate sent it back first.
type processed struct {
	r       response
	retries int
	err     error
}

// processRetrying sends a process request until it gets an answer other
// than the upload gate's: each node lets one account have 4 process
// requests in flight (429 rate_limited, details.limit
// "uploads_per_client"), and a client backs off for Retry-After as
// docs/api.md (Limits and quotas) tells it to. The daily cap is what the
// test measures, not the gate.
func processRetrying(url, secret string, body []byte, contentType string) processed {
	var p processed
	deadline := time.Now().Add(time.Minute)
	for {
		p.r, p.err = send("POST", url+"/api/v1/process", secret, contentType, bytes.NewReader(body))
		if p.err != nil || p.r.Status != 429 || p.r.details()["limit"] != "uploads_per_client" || time.Now().After(deadline) {
			return p
		}
		p.retries++
		wait, err := strconv.Atoi(p.r.Header.Get("Retry-After"))
		if err != nil || wait < 1 {
			wait = 1
		}
		time.Sleep(time.Duration(wait) * time.Second)
	}
}

// testDailyCap: 50 process calls at once with one Free+ key (daily cap
// 10), round-robin over the nodes: exactly 10 succeed, each leaving a
// different remainingApiRunsToday (9 down to 0), and the 40 others are
// 429 quota_exceeded; the usage every node reads is 10 used.
func testDailyCap(t *testing.T, c *cluster) {
	k := c.account(t, "daily@example.com", "free_plus", "process:write", "usage:read")
	body, ct := processForm(t)
	const calls = 50
	results := make([]processed, calls)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range calls {
		url := c.nodes[i%len(c.nodes)].url
		wg.Go(func() {
			<-start
			results[i] = processRetrying(url, k.Secret, body, ct)
		})
	}
	began := time.Now()
	close(start)
	wg.Wait()
	var remaining []int
	refused, retried := 0, 0
	for i, p := range results {
		retried += p.retries
		switch {
		case p.err != nil:
			t.Errorf("call %d (node %d): %v", i, i%len(c.nodes)+1, p.err)
		case p.r.Status == 200:
			// httpapi's processResponse is unexported; the pointer tells
			// a missing remainingApiRunsToday from 0.
			var out struct {
				Remaining *int `json:"remainingApiRunsToday"`
			}
			if err := json.Unmarshal(p.r.Body, &out); err != nil || out.Remaining == nil {
				t.Errorf("call %d: 200 without remainingApiRunsToday: %s", i, p.r.Body)
				continue
			}
			remaining = append(remaining, *out.Remaining)
		case p.r.Status == 429 && p.r.code() == "quota_exceeded":
			refused++
		default:
			t.Errorf("call %d (node %d): %s; want 200 or 429 quota_exceeded", i, i%len(c.nodes)+1, p.r)
		}
	}
	slices.Sort(remaining)
	if want := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}; !slices.Equal(remaining, want) || refused != calls-10 {
		t.Errorf("%d succeeded leaving %v, %d refused quota_exceeded; want 10 leaving %v and %d refused", len(remaining), remaining, refused, want, calls-10)
	}
	t.Logf("%d calls over %d nodes in %v: %d succeeded, %d quota_exceeded; %d retries after the per-node upload gate (429 uploads_per_client)",
		calls, len(c.nodes), time.Since(began).Round(time.Millisecond), len(remaining), refused, retried)
	for _, n := range c.nodes {
		var u struct { // part of the usage: httpapi's usageResponse is unexported
			UsedToday      int `json:"usedToday"`
			RemainingToday int `json:"remainingToday"`
		}
		call(t, "GET", n.url+"/api/v1/usage", k.Secret, nil, 200, &u)
		if u.UsedToday != 10 || u.RemainingToday != 0 {
			t.Errorf("usage on %s: %+v; want 10 used, 0 remaining", n.name, u)
		}
	}
}

// testRevokedKey: a key every node has just accepted, revoked through
// node 1 with another key of the account, is refused 401
// api_key_revoked by nodes 2 and 3 on their very next request, and by
// node 1.
func testRevokedKey(t *testing.T, c *cluster) {
	const email = "revoke@example.com"
	k := c.account(t, email, "free_plus", "account:read")
	manager := c.key(t, email, "keys:write")
	for _, n := range c.nodes {
		call(t, "GET", n.url+"/api/v1/me", k.Secret, nil, 200, nil)
	}
	var rev httpapi.Revocation
	call(t, "DELETE", c.nodes[0].url+"/api/v1/api-keys/"+k.KeyID, manager.Secret, nil, 200, &rev)
	if rev.KeyID != k.KeyID || !rev.Revoked {
		t.Fatalf("revocation %+v; want key %s revoked", rev, k.KeyID)
	}
	for _, n := range append(c.nodes[1:], c.nodes[0]) {
		if r := do(t, "GET", n.url+"/api/v1/me", k.Secret, nil); r.Status != 401 || r.code() != "api_key_revoked" {
			t.Errorf("%s after the revocation: %s; want 401 api_key_revoked", n.name, r)
		}
	}
}

// TestSharedBurst: with a burst of 5 and a refill of one request in
// 1,000 s on every node, 15 requests of one key at once, round-robin
// over three nodes, let exactly 5 through; the 10 others are 429
// rate_limited with Retry-After.
func TestSharedBurst(t *testing.T) {
	if testing.Short() {
		t.Skip("starts cluster nodes")
	}
	t.Parallel()
	c := newCluster(t, []string{"--burst", "5", "--burst-rate", "0.001", "--video", "off"}, roleAll, roleAll, roleAll)
	k := c.account(t, "burst@example.com", "free_plus", "account:read")
	const calls = 15
	results := make([]response, calls)
	errs := make([]error, calls)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range calls {
		url := c.nodes[i%len(c.nodes)].url
		wg.Go(func() {
			<-start
			results[i], errs[i] = send("GET", url+"/api/v1/me", k.Secret, "", nil)
		})
	}
	close(start)
	wg.Wait()
	passed := make([]int, len(c.nodes))
	limited := 0
	for i, r := range results {
		switch {
		case errs[i] != nil:
			t.Errorf("request %d: %v", i, errs[i])
		case r.Status == 200:
			passed[i%len(c.nodes)]++
		case r.Status == 429 && r.code() == "rate_limited" && r.Header.Get("Retry-After") != "":
			limited++
		default:
			t.Errorf("request %d (node %d): %s (Retry-After %q); want 200 or 429 rate_limited with Retry-After",
				i, i%len(c.nodes)+1, r, r.Header.Get("Retry-After"))
		}
	}
	total := 0
	for _, n := range passed {
		total += n
	}
	if total != 5 || limited != calls-5 {
		t.Errorf("%d passed (per node %v), %d rate_limited; want 5 and %d", total, passed, limited, calls-5)
	}
	t.Logf("%d requests at once: %d passed (per node %v), %d rate_limited", calls, total, passed, limited)
}
