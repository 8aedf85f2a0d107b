package rules

import (
	"math/rand/v2"
	"syscall"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/caption"
)

// benchTrack builds a realistic n-cue track: two-line English dialogue,
// one cue in five with an accent or an emoji, italic spans and voices,
// timed at about 14 characters per second with chained cues and gaps as
// a subtitler leaves them, and a problem (short gap, overlap, fast or
// long cue, stray tag) in about one cue in a hundred, so that every rule
// does its full work and reports now and then.
func benchTrack(n int) *caption.Track {
	lines := []string{
		"I told you we should have left earlier,",
		"but you never listen to me.",
		"- Where are you going?",
		"- To the café, I'll be back soon.",
		"[door slams]",
		"JOHN: Wait, don't go without me!",
		"We need to talk about what happened",
		"last night at the party. 🎉",
		"It's not what you think, I promise.",
		"Then tell me the truth, for once.",
		"Nobody knows where he went.",
		"Come on, we're going to be late.",
	}
	rng := rand.New(rand.NewPCG(1, 2))
	cues := make([]caption.Cue, n)
	var at int64
	for i := range cues {
		text := lines[rng.IntN(len(lines))] + "\n" + lines[rng.IntN(len(lines))]
		d := min(max(int64(Characters(text))*1000/14+int64(rng.IntN(300)), 1200), 6500)
		c := caption.Cue{StartMs: at, EndMs: at + d, Text: text, SourceLine: 4*i + 1}
		if i%10 == 0 {
			c.Spans = []caption.Span{{Start: 0, End: 5, Italic: true}}
		}
		if i%25 == 0 {
			c.Voice = "Anna"
		}
		gap := int64(0)
		if rng.IntN(2) == 0 {
			gap = int64(100 + rng.IntN(1400))
		}
		switch rng.IntN(500) {
		case 0:
			gap = 40
		case 1:
			gap = -200
		case 2:
			c.EndMs = c.StartMs + 1500
		case 3:
			c.EndMs = c.StartMs + 9000
		case 4:
			c.Text += "</i>"
		}
		cues[i] = c
		at = c.EndMs + gap
	}
	return &caption.Track{Version: caption.Version, Language: "en", Cues: cues}
}

// benchLimits are the generic preset's limits, so rules measure against the
// numbers they meet in production.
func benchLimits(code string) Params {
	switch code {
	case CodeReadingSpeedHigh:
		return Params{Limit: 20}
	case CodeTooManyLines:
		return Params{Limit: 2}
	case CodeLineTooLong:
		return Params{Limit: 42}
	case CodeDurationTooShort:
		return Params{Limit: 833}
	case CodeDurationTooLong:
		return Params{Limit: 7000}
	case CodeGapTooSmall:
		return Params{Limit: 84}
	case CodePresentationRateHigh:
		// DCMP's adult ceiling; lms and dcmp presets use lower limits, at
		// which a fast English track reports far more.
		return Params{Limit: 235}
	}
	return Params{}
}

// BenchmarkCatalogue runs every rule of the catalogue over a 40,000-cue
// track, what the engine does for one large file.
func BenchmarkCatalogue(b *testing.B) {
	tr := benchTrack(40_000)
	rules := Catalogue()
	b.ReportAllocs()
	cpu0 := cpuTime()
	for b.Loop() {
		for _, r := range rules {
			r.Check(tr, benchLimits(r.Code()))
		}
	}
	// CPU time is reported next to wall time because a shared machine
	// inflates ns/op with time spent waiting for a core.
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkRule runs each rule alone over the same track, to find the
// expensive ones.
func BenchmarkRule(b *testing.B) {
	tr := benchTrack(40_000)
	for _, r := range Catalogue() {
		b.Run(r.Code(), func(b *testing.B) {
			b.ReportAllocs()
			p := benchLimits(r.Code())
			cpu0 := cpuTime()
			for b.Loop() {
				r.Check(tr, p)
			}
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}
