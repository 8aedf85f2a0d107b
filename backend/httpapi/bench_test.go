package httpapi_test

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/gctune"
	"github.com/captionqa/captionqa/backend/httpapi"
	"github.com/captionqa/captionqa/backend/server"
)

// srtOfSize builds an SRT file of at least n bytes.
func srtOfSize(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		start := time.Duration(i) * 3 * time.Second
		fmt.Fprintf(&b, "%d\n%s --> %s\nLine %d of the benchmark, short enough.\n\n", i+1, srtTime(start), srtTime(start+2*time.Second), i)
	}
	return b.String()
}

func srtTime(d time.Duration) string {
	h, m, s, ms := int(d.Hours()), int(d.Minutes())%60, int(d.Seconds())%60, int(d.Milliseconds())%1000
	return fmt.Sprintf("%02d:%02d:%02d,%03d", h, m, s, ms)
}

func benchServer(b *testing.B) (*testServer, string) {
	b.Helper()
	// The server as it runs: main tunes the collector before serving.
	gctune.Apply()
	ts := newTestServer(b, func(c *server.Config) {
		c.Logger = slog.New(slog.DiscardHandler)
		c.ProDailyCap = 9999
	})
	return ts, ts.pro("bench@example.com")
}

// measure runs call in parallel b.N times on client and reports requests
// per second and latency percentiles. Every 9,000 runs it calls newDay (the
// API's benchmarks move the fake clock a day on, so the daily pool never
// runs out).
func measure(b *testing.B, client *http.Client, newDay func(), call func() (*http.Request, error)) {
	b.Helper()
	var (
		mu    sync.Mutex
		lat   []time.Duration
		count atomic.Int64
	)
	b.ReportAllocs()
	b.ResetTimer()
	began := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		var mine []time.Duration
		for pb.Next() {
			if count.Add(1)%9000 == 0 {
				newDay()
			}
			req, err := call()
			if err != nil {
				b.Error(err)
				return
			}
			t0 := time.Now()
			res, err := client.Do(req)
			if err != nil {
				b.Error(err)
				return
			}
			_, _ = io.Copy(io.Discard, res.Body)
			res.Body.Close()
			mine = append(mine, time.Since(t0))
			if res.StatusCode != 200 {
				b.Errorf("status %d", res.StatusCode)
				return
			}
		}
		mu.Lock()
		lat = append(lat, mine...)
		mu.Unlock()
	})
	elapsed := time.Since(began)
	b.StopTimer()
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	pct := func(p float64) float64 { return float64(lat[int(p*float64(len(lat)-1))].Microseconds()) / 1000 }
	b.ReportMetric(float64(len(lat))/elapsed.Seconds(), "req/s")
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
}

// newDay moves the test server's clock a day on.
func (ts *testServer) newDay() { ts.clock.Advance(24 * time.Hour) }

func processRequest(b *testing.B, ts *testServer, secret, file string) func() (*http.Request, error) {
	return postForm(b, ts.URL+"/api/v1/process", secret, file)
}

// postForm returns a maker of process requests with file to url.
func postForm(b *testing.B, url, secret, file string) func() (*http.Request, error) {
	body, ctype := form(b, file, map[string]string{"preset": "youtube"})
	raw := body.Bytes()
	return func() (*http.Request, error) {
		req, err := http.NewRequest("POST", url, bytes.NewReader(raw))
		if err != nil {
			return nil, err
		}
		req.Header.Set("Authorization", "Bearer "+secret)
		req.Header.Set("Content-Type", ctype)
		return req, nil
	}
}

// BenchmarkProcess50KB posts a 50 KB SRT over loopback.
func BenchmarkProcess50KB(b *testing.B) {
	ts, secret := benchServer(b)
	measure(b, ts.raw, ts.newDay, processRequest(b, ts, secret, srtOfSize(50<<10)))
}

// BenchmarkMe calls a trivial authenticated route.
func BenchmarkMe(b *testing.B) {
	ts, secret := benchServer(b)
	measure(b, ts.raw, ts.newDay, func() (*http.Request, error) {
		req, err := http.NewRequest("GET", ts.URL+"/api/v1/me", nil)
		if err == nil {
			req.Header.Set("Authorization", "Bearer "+secret)
		}
		return req, err
	})
}

// BenchmarkProcessMax posts one request at a time, its body within 1 KiB
// of the 4.25 MiB limit, and reports the median latency.
func BenchmarkProcessMax(b *testing.B) {
	ts, secret := benchServer(b)
	file := maxFile(b)
	measureOneByOne(b, ts.raw, processRequest(b, ts, secret, file))
}

// maxFile returns an SRT file whose process request is within 1 KiB of
// the 4.25 MiB limit.
func maxFile(b *testing.B) string {
	empty, _ := form(b, "", map[string]string{"preset": "youtube"})
	file := srtOfSize(httpapi.DefaultMaxRequestBytes - empty.Len() - 1024)
	if over := len(file) + empty.Len() - httpapi.DefaultMaxRequestBytes; over > 0 {
		// srtOfSize ends on a whole cue; drop the last ones.
		file = file[:strings.LastIndex(file[:len(file)-over], "\n\n")+2]
	}
	return file
}

// measureOneByOne sends b.N requests one after the other and reports the
// median latency and the request's size.
func measureOneByOne(b *testing.B, client *http.Client, call func() (*http.Request, error)) {
	b.Helper()
	lat := make([]time.Duration, 0, b.N)
	var size int64
	b.ResetTimer()
	for range b.N {
		req, err := call()
		if err != nil {
			b.Fatal(err)
		}
		size = req.ContentLength
		t0 := time.Now()
		res, err := client.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		lat = append(lat, time.Since(t0))
		if res.StatusCode != 200 {
			b.Fatalf("status %d", res.StatusCode)
		}
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "median-ms")
	b.ReportMetric(float64(size)/(1<<20), "MiB/request")
}

// The bound benchmarks are the ceilings of the process ones: a bare
// net/http server on the same loopback that reads the same upload and
// answers with as many bytes as the real response, doing nothing else.
// What a process benchmark misses against them is CaptionQA's own cost;
// the rest is moving the bytes the contract's result holds.

// BenchmarkBound50KB is the ceiling of BenchmarkProcess50KB.
func BenchmarkBound50KB(b *testing.B) {
	srv := boundServer(b, srtOfSize(50<<10))
	measure(b, srv.Client(), func() {}, postForm(b, srv.URL, "", srtOfSize(50<<10)))
}

// BenchmarkBoundMax is the ceiling of BenchmarkProcessMax.
func BenchmarkBoundMax(b *testing.B) {
	file := maxFile(b)
	srv := boundServer(b, file)
	measureOneByOne(b, srv.Client(), postForm(b, srv.URL, "", file))
}

// boundServer starts a server that answers every request with a body as
// long as the process response for file.
func boundServer(b *testing.B, file string) *httptest.Server {
	b.Helper()
	ts, secret := benchServer(b)
	req, err := processRequest(b, ts, secret, file)()
	if err != nil {
		b.Fatal(err)
	}
	res, err := ts.raw.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	body, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil || res.StatusCode != 200 {
		b.Fatalf("status %d, %v", res.StatusCode, err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(body)
	}))
	b.Cleanup(srv.Close)
	return srv
}
