package ffmpeg

import (
	"context"
	"strings"
	"testing"
	"time"
)

// block is one -progress block as ffmpeg 5.1 writes it.
func block(outTime, state string) string {
	return "frame=1\nfps=0.0\nout_time_us=" + outTime + "\nout_time_ms=" + outTime + "\nout_time=00:00:00.000000\nspeed=1x\nprogress=" + state + "\n"
}

func TestProgress(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		blocks   []string
		gap      time.Duration // clock step per line
		canceled bool
		want     []float64
	}{
		{
			name:   "fractions of the duration",
			blocks: []string{block("N/A", "continue"), block("2500000", "continue"), block("5000000", "continue"), block("9000000", "end")},
			gap:    time.Second,
			want:   []float64{0.25, 0.5, 0.9},
		},
		{
			name:   "never backwards, capped at 1",
			blocks: []string{block("6000000", "continue"), block("4000000", "continue"), block("12000000", "end")},
			gap:    time.Second,
			want:   []float64{0.6, 1},
		},
		{
			name:   "end is not 1",
			blocks: []string{block("3000000", "continue"), block("3000000", "end")},
			gap:    time.Second,
			want:   []float64{0.3},
		},
		{
			name:   "throttled, the last value still reported",
			blocks: []string{block("1000000", "continue"), block("2000000", "continue"), block("3000000", "continue"), block("4000000", "end")},
			gap:    10 * time.Millisecond,
			want:   []float64{0.1, 0.4},
		},
		{
			name:     "no last report once canceled",
			blocks:   []string{block("1000000", "continue"), block("2000000", "end")},
			gap:      10 * time.Millisecond,
			canceled: true,
			want:     []float64{0.1},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var got []float64
			p := newProgress(ctx, 10, func(f float64) {
				got = append(got, f)
				if c.canceled {
					cancel()
				}
			})
			now := time.Unix(0, 0)
			p.now = func() time.Time { now = now.Add(c.gap); return now }
			p.read(strings.NewReader(strings.Join(c.blocks, "")))
			if len(got) != len(c.want) {
				t.Fatalf("reports %v, want %v", got, c.want)
			}
			for i := range got {
				if diff := got[i] - c.want[i]; diff > 1e-9 || diff < -1e-9 {
					t.Fatalf("reports %v, want %v", got, c.want)
				}
			}
		})
	}
}

func TestProgressWithoutDurationOrCallback(t *testing.T) {
	t.Parallel()
	called := false
	newProgress(context.Background(), 0, func(float64) { called = true }).read(strings.NewReader(block("1000000", "end")))
	if called {
		t.Error("reported progress without a duration")
	}
	newProgress(context.Background(), 10, nil).read(strings.NewReader(block("1000000", "end")))
}

func TestRing(t *testing.T) {
	t.Parallel()
	var r ring
	r.Write([]byte("  short error\n"))
	if got := r.String(); got != "short error" {
		t.Errorf("got %q", got)
	}
	var long ring
	for i := 0; i < 5000; i++ {
		long.Write([]byte("line of noise\n"))
	}
	long.Write([]byte("Error: the real cause\n"))
	got := long.String()
	if len(got) > stderrLimit || !strings.HasSuffix(got, "Error: the real cause") || !strings.HasPrefix(got, "line of noise") {
		t.Errorf("kept %d bytes, from %q to %q", len(got), got[:20], got[len(got)-30:])
	}
}
