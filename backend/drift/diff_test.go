package drift

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
)

// cues builds a track from start, end and text triples.
func cues(triples ...any) *caption.Track {
	tr := &caption.Track{Version: caption.Version, Cues: []caption.Cue{}}
	for k := 0; k+2 < len(triples); k += 3 {
		tr.Cues = append(tr.Cues, caption.Cue{StartMs: int64(triples[k].(int)), EndMs: int64(triples[k+1].(int)), Text: triples[k+2].(string)})
	}
	return tr
}

func TestDiffPreviewCap(t *testing.T) {
	t.Parallel()
	current := &caption.Track{}
	candidate := &caption.Track{}
	for i := range 250 {
		candidate.Cues = append(candidate.Cues, caption.Cue{StartMs: int64(i) * 1000, EndMs: int64(i)*1000 + 900, Text: "cue"})
	}
	tests := []struct {
		name      string
		cap       int
		preview   int
		truncated bool
	}{
		{"default", 0, DefaultPreviewCap, true},
		{"small", 10, 10, true},
		{"exact", 250, 250, false},
		{"larger", 1000, 250, false},
		{"none", -1, 250, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := Diff(current, candidate, Options{PreviewCap: tt.cap})
			if got, want := r.Summary, (Summary{Added: 250}); got != want {
				t.Errorf("summary = %+v; want %+v", got, want)
			}
			if len(r.Preview) != tt.preview || r.Truncated != tt.truncated {
				t.Errorf("preview %d truncated %v; want %d %v", len(r.Preview), r.Truncated, tt.preview, tt.truncated)
			}
		})
	}
}

// TestDiffCases covers matching choices the golden cases do not show.
func TestDiffCases(t *testing.T) {
	t.Parallel()
	ann := func(tr *caption.Track, i int, mod func(c *caption.Cue)) *caption.Track {
		mod(&tr.Cues[i])
		return tr
	}
	three := func() *caption.Track { return cues(0, 1000, "One.", 2000, 3000, "Two.", 4000, 5000, "Three.") }
	tests := []struct {
		name          string
		current, cand *caption.Track
		want          Summary
		offset        int64
		fields        []string // of the first item
	}{
		{name: "both nil", want: Summary{}},
		{name: "nil current", cand: three(), want: Summary{Added: 3}},
		{name: "nil candidate", current: three(), want: Summary{Removed: 3}},
		{name: "one cue moved is a retime, not a shift",
			current: cues(0, 1000, "One."), cand: cues(500, 1500, "One."),
			want: Summary{Changed: 1}, fields: []string{FieldStart, FieldEnd}},
		{name: "two of three shifted is a shift and a retime",
			current: three(), cand: cues(0, 1000, "One.", 2500, 3500, "Two.", 4500, 5500, "Three."),
			want: Summary{Changed: 1}, offset: 500, fields: []string{FieldStart, FieldEnd}},
		{name: "one of three shifted is a retime",
			current: three(), cand: cues(0, 1000, "One.", 2000, 3000, "Two.", 4500, 5500, "Three."),
			want: Summary{Changed: 1}, fields: []string{FieldStart, FieldEnd}},
		{name: "ids are not compared",
			current: three(), cand: ann(three(), 1, func(c *caption.Cue) { c.ID = "x" }), want: Summary{}},
		{name: "span voice",
			current: three(), cand: ann(three(), 1, func(c *caption.Cue) { c.Spans = []caption.Span{{Start: 0, End: 2, Voice: "Bob"}} }),
			want: Summary{Changed: 1}, fields: []string{FieldVoice}},
		{name: "named style",
			current: three(), cand: ann(three(), 1, func(c *caption.Cue) { c.Style = "s1" }),
			want: Summary{Changed: 1}, fields: []string{FieldStyle}},
		{name: "empty placement is no placement",
			current: three(), cand: ann(three(), 1, func(c *caption.Cue) { c.Placement = &caption.Placement{} }), want: Summary{}},
		{name: "ext whitespace is not a change",
			current: ann(three(), 0, func(c *caption.Cue) { c.Ext = map[string]json.RawMessage{"vtt": json.RawMessage(`{"a":1}`)} }),
			cand:    ann(three(), 0, func(c *caption.Cue) { c.Ext = map[string]json.RawMessage{"vtt": json.RawMessage(`{ "a": 1 }`)} }),
			want:    Summary{}},
		{name: "ext value",
			current: ann(three(), 0, func(c *caption.Cue) { c.Ext = map[string]json.RawMessage{"vtt": json.RawMessage(`{"a":1}`)} }),
			cand:    ann(three(), 0, func(c *caption.Cue) { c.Ext = map[string]json.RawMessage{"vtt": json.RawMessage(`{"a":2}`)} }),
			want:    Summary{Changed: 1}, fields: []string{FieldExt}},
		{name: "replaced by an unrelated cue elsewhere",
			current: three(), cand: cues(0, 1000, "One.", 3200, 3400, "Something else entirely.", 4000, 5000, "Three."),
			want: Summary{Added: 1, Removed: 1}},
		{name: "replaced in place",
			current: three(), cand: cues(0, 1000, "One.", 2000, 3000, "Deux.", 4000, 5000, "Three."),
			want: Summary{Changed: 1}, fields: []string{FieldText}},
		{name: "reworded and retimed apart",
			current: cues(0, 1000, "One.", 2000, 3000, "I told you to wait for me.", 9000, 10000, "Three."),
			cand:    cues(0, 1000, "One.", 5000, 6000, "I told you to wait for us.", 9000, 10000, "Three."),
			want:    Summary{Changed: 1}, fields: []string{FieldStart, FieldEnd, FieldText}},
		{name: "repeated text shifted",
			current: cues(0, 1000, "A.", 1000, 2000, "♪", 2000, 3000, "♪", 3000, 4000, "B."),
			cand:    cues(2000, 3000, "A.", 3000, 4000, "♪", 4000, 5000, "♪", 5000, 6000, "B."),
			want:    Summary{}, offset: 2000},
		{name: "repeated text retimed",
			current: cues(0, 1000, "A.", 1000, 2000, "♪", 2000, 3000, "♪", 3000, 4000, "B."),
			cand:    cues(0, 1000, "A.", 1000, 2000, "♪", 2200, 3000, "♪", 3000, 4000, "B."),
			want:    Summary{Changed: 1}, fields: []string{FieldStart}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := Diff(tt.current, tt.cand, Options{PreviewCap: -1})
			if r.Summary != tt.want || r.OffsetMs != tt.offset {
				t.Fatalf("summary %+v offset %d; want %+v offset %d", r.Summary, r.OffsetMs, tt.want, tt.offset)
			}
			if tt.fields != nil && !slices.Equal(r.Preview[0].Fields, tt.fields) {
				t.Errorf("fields %v; want %v", r.Preview[0].Fields, tt.fields)
			}
		})
	}
}

// TestDiffWideGap diffs timelines in which no text is unique, so the
// whole timeline is one gap, too wide for the dynamic programme.
func TestDiffWideGap(t *testing.T) {
	t.Parallel()
	const n = 5000
	current, shifted, thinned := &caption.Track{}, &caption.Track{}, &caption.Track{}
	for i := range n {
		c := caption.Cue{StartMs: int64(i) * 2000, EndMs: int64(i)*2000 + 1500, Text: "♪"}
		current.Cues = append(current.Cues, c)
		if i%10 != 5 {
			thinned.Cues = append(thinned.Cues, c)
		}
		c.StartMs, c.EndMs = c.StartMs+300, c.EndMs+300
		shifted.Cues = append(shifted.Cues, c)
	}
	tests := []struct {
		name string
		cand *caption.Track
		want Summary
	}{
		{"identical", current, Summary{}},
		{"every tenth deleted", thinned, Summary{Removed: n / 10}},
		// No unique text votes for a shift, so each cue is retimed.
		{"shifted", shifted, Summary{Changed: n}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := Diff(current, tt.cand, Options{PreviewCap: -1})
			if r.Summary != tt.want {
				t.Errorf("summary %+v; want %+v", r.Summary, tt.want)
			}
			checkItems(t, current, tt.cand, r)
		})
	}
}

// TestResultJSON pins the wire shape: camelCase names, a preview that is
// never null, and sides omitted where a kind has none.
func TestResultJSON(t *testing.T) {
	t.Parallel()
	r := Diff(nil, nil, Options{})
	got, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"summary":{"added":0,"removed":0,"changed":0},"preview":[],"truncated":false,"offsetMs":0}`; string(got) != want {
		t.Errorf("empty result = %s; want %s", got, want)
	}
	r = Diff(nil, cues(0, 1000, "Hi."), Options{})
	got, err = json.Marshal(r.Preview[0])
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"kind":"added","candidateIndex":0,"after":{"id":"","startMs":0,"endMs":1000,"text":"Hi."}}`; string(got) != want {
		t.Errorf("added item = %s; want %s", got, want)
	}
}
