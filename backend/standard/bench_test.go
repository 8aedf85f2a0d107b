package standard

import "testing"

// BenchmarkGradeDCMP grades a generated 40,000-cue track against the DCMP
// catalogue, the one with the most per-cue checks. Grading must stay linear
// and take a few milliseconds: it runs inside the engine's process budget.
func BenchmarkGradeDCMP(b *testing.B) {
	s := loadReal(b)
	cat, err := s.Lookup("dcmp")
	if err != nil {
		b.Fatal(err)
	}
	del := generated(40_000, true)
	in := Input{Source: del, Delivery: del, OutputFormat: "srt", Reparse: &Reparse{Track: del}, MediaDurationMs: 40_000 * 3500}
	b.ReportAllocs()
	for b.Loop() {
		Grade(cat, in)
	}
}

// BenchmarkGradeAll grades the same track against every standard.
func BenchmarkGradeAll(b *testing.B) {
	s := loadReal(b)
	del := generated(40_000, true)
	in := Input{Source: del, Delivery: del, OutputFormat: "srt", Reparse: &Reparse{Track: del}, MediaDurationMs: 40_000 * 3500}
	b.ReportAllocs()
	for b.Loop() {
		for _, id := range s.IDs() {
			if _, err := s.Grade(id, in); err != nil {
				b.Fatal(err)
			}
		}
	}
}
