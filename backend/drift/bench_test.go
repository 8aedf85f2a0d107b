package drift

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/caption/srt"
	"github.com/captionqa/captionqa/backend/caption/synth"
	"github.com/captionqa/captionqa/backend/gctune"
)

// fixture40k returns the IR JSON texts of the engine's 40,000-cue
// benchmark timeline and of a candidate with 1% of its cues changed: 100
// retimed, 100 reworded, 100 inserted and 100 deleted, spread evenly, so
// that most anchors are far from any edit and every gap is small. want is
// the summary a correct diff gives.
func fixture40k(tb testing.TB) (current, candidate []byte, want Summary) {
	tb.Helper()
	tr, _, err := srt.Parse(bytes.NewReader(synth.SRT(40_000)))
	if err != nil {
		tb.Fatal(err)
	}
	cand := *tr
	cand.Cues = make([]caption.Cue, 0, len(tr.Cues)+100)
	for i, c := range tr.Cues {
		// Edit one cue in a hundred, rotating through the four edits.
		if i%100 != 37 {
			cand.Cues = append(cand.Cues, c)
			continue
		}
		switch i / 100 % 4 {
		case 0: // retimed: later by 120 ms, still before the next cue
			c.StartMs, c.EndMs = c.StartMs+120, c.EndMs+120
			cand.Cues = append(cand.Cues, c)
		case 1: // reworded
			c.Text += " now"
			cand.Cues = append(cand.Cues, c)
		case 2: // a cue inserted before it, in the 200 ms before it starts
			cand.Cues = append(cand.Cues, caption.Cue{
				ID: "new" + strconv.Itoa(i), StartMs: c.StartMs - 150, EndMs: c.StartMs - 50, Text: "Inserted line " + strconv.Itoa(i),
			}, c)
		case 3: // deleted
		}
	}
	want = Summary{Added: 100, Removed: 100, Changed: 200}
	return mustWriteJSON(tb, tr), mustWriteJSON(tb, &cand), want
}

func mustWriteJSON(tb testing.TB, tr *caption.Track) []byte {
	tb.Helper()
	var b bytes.Buffer
	if err := caption.WriteJSON(&b, tr); err != nil {
		tb.Fatal(err)
	}
	return b.Bytes()
}

// parseBoth is what BenchmarkDiff40k is measured against: reading the two
// IR texts with [caption.ParseJSON], which any diff request does first.
func parseBoth(tb testing.TB, current, candidate []byte) (*caption.Track, *caption.Track) {
	return mustParseBytes(tb, current), mustParseBytes(tb, candidate)
}

// unmarshalBoth decodes the two IR texts with encoding/json alone: the
// decoding any IR reader must do, without [caption.ParseJSON]'s checks
// and line bookkeeping. It gives the diff its input quickly, and a floor
// for what parsing can ever cost.
func unmarshalBoth(tb testing.TB, current, candidate []byte) (*caption.Track, *caption.Track) {
	tb.Helper()
	var a, b caption.Track
	if err := json.Unmarshal(current, &a); err != nil {
		tb.Fatal(err)
	}
	if err := json.Unmarshal(candidate, &b); err != nil {
		tb.Fatal(err)
	}
	return &a, &b
}

// TestDiff40k checks that the benchmark's diff is right, not only fast.
func TestDiff40k(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a 40,000-cue timeline")
	}
	t.Parallel()
	cur, cand, want := fixture40k(t)
	a, b := unmarshalBoth(t, cur, cand)
	r := Diff(a, b, Options{PreviewCap: -1})
	if r.Summary != want || r.OffsetMs != 0 {
		t.Errorf("summary %+v offset %d; want %+v offset 0", r.Summary, r.OffsetMs, want)
	}
	for _, it := range r.Preview {
		if it.Kind == Changed && !slices.Equal(it.Fields, []string{FieldStart, FieldEnd}) && !slices.Equal(it.Fields, []string{FieldText}) {
			t.Errorf("changed item %d/%d lists %v; want start,end or text", *it.CurrentIndex, *it.CandidateIndex, it.Fields)
		}
	}
}

// BenchmarkDiff40k diffs two 40,000-cue timelines with 1% of the cues
// changed. Target: at most twice BenchmarkParse40k, in the same run;
// BenchmarkDiffRatio reports the ratio directly.
func BenchmarkDiff40k(b *testing.B) {
	gctune.Apply()
	cur, cand, _ := fixture40k(b)
	x, y := unmarshalBoth(b, cur, cand)
	b.ReportAllocs()
	for b.Loop() {
		Diff(x, y, Options{})
	}
}

// BenchmarkParse40k reads both IR texts of BenchmarkDiff40k with
// [caption.ParseJSON].
func BenchmarkParse40k(b *testing.B) {
	gctune.Apply()
	cur, cand, _ := fixture40k(b)
	b.SetBytes(int64(len(cur) + len(cand)))
	b.ReportAllocs()
	for b.Loop() {
		parseBoth(b, cur, cand)
	}
}

// BenchmarkUnmarshal40k decodes both IR texts of BenchmarkDiff40k with
// encoding/json alone, the floor of any IR reader.
func BenchmarkUnmarshal40k(b *testing.B) {
	gctune.Apply()
	cur, cand, _ := fixture40k(b)
	b.SetBytes(int64(len(cur) + len(cand)))
	b.ReportAllocs()
	for b.Loop() {
		unmarshalBoth(b, cur, cand)
	}
}

// BenchmarkDiffRatio parses both texts, decodes them with encoding/json
// alone and diffs them in each iteration, interleaved so that machine
// load hits all three alike, and reports diff/parse (the target: at most
// 2) and diff/unmarshal (the same against the floor of any reader).
func BenchmarkDiffRatio(b *testing.B) {
	gctune.Apply()
	cur, cand, _ := fixture40k(b)
	var parse, unmarshal, diff time.Duration
	for b.Loop() {
		t0 := time.Now()
		x, y := parseBoth(b, cur, cand)
		t1 := time.Now()
		unmarshalBoth(b, cur, cand)
		t2 := time.Now()
		Diff(x, y, Options{})
		parse += t1.Sub(t0)
		unmarshal += t2.Sub(t1)
		diff += time.Since(t2)
	}
	b.ReportMetric(float64(diff)/float64(parse), "x-parse")
	b.ReportMetric(float64(diff)/float64(unmarshal), "x-unmarshal")
	b.ReportMetric(float64(diff)/float64(b.N)/1e6, "ms-diff")
	b.ReportMetric(float64(parse)/float64(b.N)/1e6, "ms-parse")
	b.ReportMetric(float64(unmarshal)/float64(b.N)/1e6, "ms-unmarshal")
}
