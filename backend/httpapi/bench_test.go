package httpapi_test

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

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
	ts := newTestServer(b, func(c *server.Config) {
		c.Logger = slog.New(slog.DiscardHandler)
		c.ProDailyCap = 9999
	})
	return ts, ts.pro("bench@example.com")
}

// measure runs call in parallel b.N times and reports requests per second
// and latency percentiles. Every 9,000 runs the fake clock moves a day on,
// so the daily pool never runs out.
func measure(b *testing.B, ts *testServer, call func() (*http.Request, error)) {
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
				ts.clock.Advance(24 * time.Hour)
			}
			req, err := call()
			if err != nil {
				b.Error(err)
				return
			}
			t0 := time.Now()
			res, err := ts.raw.Do(req)
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

func processRequest(b *testing.B, ts *testServer, secret, file string) func() (*http.Request, error) {
	body, ctype := form(b, file, map[string]string{"preset": "youtube"})
	raw := body.Bytes()
	return func() (*http.Request, error) {
		req, err := http.NewRequest("POST", ts.URL+"/api/v1/process", bytes.NewReader(raw))
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
	measure(b, ts, processRequest(b, ts, secret, srtOfSize(50<<10)))
}

// BenchmarkMe calls a trivial authenticated route.
func BenchmarkMe(b *testing.B) {
	ts, secret := benchServer(b)
	measure(b, ts, func() (*http.Request, error) {
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
	empty, _ := form(b, "", map[string]string{"preset": "youtube"})
	file := srtOfSize(httpapi.DefaultMaxRequestBytes - empty.Len() - 1024)
	if over := len(file) + empty.Len() - httpapi.DefaultMaxRequestBytes; over > 0 {
		// srtOfSize ends on a whole cue; drop the last ones.
		file = file[:strings.LastIndex(file[:len(file)-over], "\n\n")+2]
	}
	full, _ := form(b, file, map[string]string{"preset": "youtube"})
	call := processRequest(b, ts, secret, file)
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for range b.N {
		req, _ := call()
		t0 := time.Now()
		res, err := ts.raw.Do(req)
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
	b.ReportMetric(float64(full.Len())/(1<<20), "MiB/request")
}
