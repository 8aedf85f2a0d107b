package httpapi_test

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"net"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/server"
)

// stall opens a process request on its own connection that declares a
// 4 MiB body and sends only the head of its file part, then waits.
func (ts *testServer) stall(secret string) net.Conn {
	ts.t.Helper()
	conn := ts.rawProcess(secret, "multipart/form-data; boundary=b", 4_400_000)
	fmt.Fprint(conn, "--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"in.srt\"\r\n\r\n1\n00:00:01,000 --> ")
	return conn
}

// readResponse reads the answer on a raw connection.
func readResponse(t *testing.T, conn net.Conn) response {
	t.Helper()
	res, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatalf("no response: %v", err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	return response{status: res.StatusCode, header: res.Header, body: body}
}

func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapInuse
}

// TestStalledUploadsHoldNoMemory opens 40 uploads that each declare
// 4.4 MB and send a few bytes: the server's memory must follow the bytes
// received, not the lengths declared (40 × 4.4 MB = 176 MB before).
func TestStalledUploadsHoldNoMemory(t *testing.T) {
	ts := newTestServer(t, func(c *server.Config) { c.MaxUploads, c.MaxUploadsPerClient = 100, 100 })
	pro := ts.pro("pro@example.com")
	before := heapInUse()
	for range 40 {
		ts.stall(pro)
	}
	// Let every handler reach its file part.
	time.Sleep(time.Second)
	if grown := int64(heapInUse()) - int64(before); grown > 40<<20 {
		t.Errorf("40 stalled uploads grew the heap by %d MB; want under 40 MB", grown>>20)
	}
}

// holding keeps n stalled uploads of secret in flight: each time probe
// runs, a stall the server refused (it raced a probe for a slot and lost)
// is opened again, until probe returns want. It returns the last probe's
// response and the stalls.
func (ts *testServer) holding(secret string, n int, probe func() response, want int) (response, []net.Conn) {
	ts.t.Helper()
	stalls := make([]net.Conn, n)
	var r response
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		opened := false
		for i, c := range stalls {
			if c == nil || answered(c) {
				if c != nil {
					c.Close()
				}
				stalls[i], opened = ts.stall(secret), true
			}
		}
		if opened {
			// Give the new stalls a head start on the probe.
			time.Sleep(100 * time.Millisecond)
		}
		if r = probe(); r.status == want {
			break
		}
	}
	return r, stalls
}

// answered reports whether the server has written to conn.
func answered(conn net.Conn) bool {
	_ = conn.SetReadDeadline(time.Now().Add(time.Millisecond))
	defer conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	n, _ := conn.Read(make([]byte, 1))
	return n > 0
}

// TestUploadLimits: a client may have MaxUploadsPerClient uploads in
// flight (then 429 rate_limited), the server MaxUploads (then 503
// unavailable), both with Retry-After; a slot frees when its upload ends.
func TestUploadLimits(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, func(c *server.Config) { c.MaxUploads, c.MaxUploadsPerClient = 3, 2 })
	a, b, c := ts.pro("a@example.com"), ts.pro("b@example.com"), ts.pro("c@example.com")
	r, held := ts.holding(a, 2, func() response { return ts.process("/api/v1/process", a, readySRT, nil) }, 429)
	e := wantError(t, r, 429, "rate_limited")
	if r.header.Get("Retry-After") == "" || e.Details["limit"] != "uploads_per_client" {
		t.Errorf("per-client refusal: Retry-After %q, details %v", r.header.Get("Retry-After"), e.Details)
	}
	r, _ = ts.holding(b, 1, func() response { return ts.process("/api/v1/process", c, readySRT, nil) }, 503)
	e = wantError(t, r, 503, "unavailable")
	if r.header.Get("Retry-After") == "" || e.Details["limit"] != "uploads" {
		t.Errorf("server refusal: Retry-After %q, details %v", r.header.Get("Retry-After"), e.Details)
	}
	// One of a's uploads ends (the client gives up): its slot is free.
	held[0].Close()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if r = ts.process("/api/v1/process", c, readySRT, nil); r.status == 200 {
			break
		}
	}
	if r.status != 200 {
		t.Fatalf("after a slot was freed: %d %s", r.status, r.body)
	}
}

// TestTrickledBodyCutOff: a body that stops arriving is answered 400
// body_timeout once BodyTimeout passes, not held until the connection's
// read timeout.
func TestTrickledBodyCutOff(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, func(c *server.Config) { c.BodyTimeout = 500 * time.Millisecond })
	pro := ts.pro("pro@example.com")
	conn := ts.stall(pro)
	r := readResponse(t, conn)
	e := wantError(t, r, 400, "bad_request")
	if e.Details["reason"] != "body_timeout" {
		t.Errorf("details = %v; want reason body_timeout", e.Details)
	}
	// A body that arrives in time is unaffected, on a kept-alive
	// connection too, and a run longer than the timeout after its body has
	// arrived is not cut off.
	for range 2 {
		if r := ts.process("/api/v1/process", pro, strings.Repeat(readySRT, 50), nil); r.status != 200 {
			t.Fatalf("process: %d %s", r.status, r.body)
		}
		time.Sleep(600 * time.Millisecond)
	}
}

// TestRepeatedFormField: a known field sent twice is refused naming it,
// as a second file is; an unknown field may repeat.
func TestRepeatedFormField(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	pro := ts.pro("pro@example.com")
	for _, c := range []struct {
		fields [][2]string
		status int
	}{
		{[][2]string{{"preset", "youtube"}, {"preset", "tiktok"}}, 400},
		{[][2]string{{"fixProfile", "warn-only"}, {"fixProfile", "warn-only"}}, 400},
		{[][2]string{{"includeExplain", "false"}, {"includeExplain", "true"}}, 400},
		{[][2]string{{"note", "a"}, {"note", "b"}}, 200},
	} {
		var buf bytes.Buffer
		fmt.Fprint(&buf, "--b\r\n")
		for _, f := range c.fields {
			fmt.Fprintf(&buf, "Content-Disposition: form-data; name=%q\r\n\r\n%s\r\n--b\r\n", f[0], f[1])
		}
		fmt.Fprintf(&buf, "Content-Disposition: form-data; name=\"file\"; filename=\"in.srt\"\r\n\r\n%s\r\n--b--\r\n", readySRT)
		r := ts.do(request{method: "POST", path: "/api/v1/process", secret: pro, body: &buf, contentType: "multipart/form-data; boundary=b"})
		if c.status == 200 {
			if r.status != 200 {
				t.Errorf("%v: %d %s", c.fields, r.status, r.body)
			}
			continue
		}
		e := wantError(t, r, 400, "bad_request")
		if e.Details["field"] != c.fields[0][0] {
			t.Errorf("%v: details %v", c.fields, e.Details)
		}
	}
}

// TestEngineRunsQueue: with one engine slot, concurrent runs wait their
// turn and all succeed; none is refused or lost.
func TestEngineRunsQueue(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t, func(c *server.Config) { c.MaxEngineRuns = 1 })
	pro := ts.pro("pro@example.com")
	long := strings.Repeat(readySRT, 200)
	errs := make(chan string, 6)
	for range 6 {
		go func() {
			body, ctype := form(t, long, nil)
			req, _ := http.NewRequest("POST", ts.URL+"/api/v1/process", body)
			req.Header.Set("Authorization", "Bearer "+pro)
			req.Header.Set("Content-Type", ctype)
			res, err := ts.raw.Do(req)
			if err != nil {
				errs <- err.Error()
				return
			}
			res.Body.Close()
			if res.StatusCode != 200 {
				errs <- res.Status
				return
			}
			errs <- ""
		}()
	}
	for range 6 {
		if e := <-errs; e != "" {
			t.Errorf("a queued run: %s", e)
		}
	}
}
