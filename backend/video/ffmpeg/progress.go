package ffmpeg

import (
	"bufio"
	"context"
	"io"
	"strconv"
	"strings"
	"time"
)

// progressInterval is the least time between two progress reports: the
// job record is written on each, and ffmpeg sends a block every 0.5 s.
const progressInterval = 500 * time.Millisecond

// progress turns ffmpeg's -progress output (blocks of key=value lines,
// each ending with progress=continue or progress=end) into fractions of
// the media's duration for report.
//
// The fraction is out_time_us over the duration (in ffmpeg 5.1
// out_time_ms is in microseconds too), capped at 1 and never going back.
// progress=end does not mean 1: a canceled ffmpeg sends it as well.
// Reports come at block ends, at most one per progressInterval, plus a
// last one with the final value when the output ends, unless ctx has
// ended (a canceled job takes no more progress).
type progress struct {
	ctx     context.Context
	totalUS float64
	report  func(float64)
	now     func() time.Time

	current, sent float64
	sentAt        time.Time
}

// newProgress returns a parser for a run of durationSeconds reporting to
// report (nil for none).
func newProgress(ctx context.Context, durationSeconds float64, report func(float64)) *progress {
	return &progress{ctx: ctx, totalUS: durationSeconds * 1e6, report: report, now: time.Now}
}

// read parses r to its end.
func (p *progress) read(r io.Reader) {
	if p.report == nil || p.totalUS <= 0 {
		return
	}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		key, value, _ := strings.Cut(sc.Text(), "=")
		switch key {
		case "out_time_us":
			p.observe(value)
		case "progress":
			if p.now().Sub(p.sentAt) >= progressInterval {
				p.send()
			}
		}
	}
	if p.ctx.Err() == nil {
		p.send()
	}
}

// observe records an out_time_us value; early blocks say N/A, and a
// value below the current one is ignored.
func (p *progress) observe(value string) {
	us, err := strconv.ParseInt(value, 10, 64)
	if err != nil || us <= 0 {
		return
	}
	f := min(float64(us)/p.totalUS, 1)
	if f > p.current {
		p.current = f
	}
}

// send reports the current fraction if it moved since the last report.
func (p *progress) send() {
	if p.current <= p.sent {
		return
	}
	p.sent, p.sentAt = p.current, p.now()
	p.report(p.current)
}
