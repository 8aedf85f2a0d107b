package standard

import (
	"reflect"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
)

// TestReadsOutput checks the promise of Catalogue.ReadsOutput: a
// catalogue that does not read the output grades the same with, without
// and with a different read-back track; one that does is told apart.
func TestReadsOutput(t *testing.T) {
	t.Parallel()
	s := loadReal(t)
	in := cleanInput("srt")
	other := clone(in.Delivery)
	other.Language = "fr"
	other.Cues[1].StartMs += 900
	other.Cues[2].Text = "[WAVES]"
	other.Cues[3].Spans = []caption.Span{{Start: 0, End: 3, Color: "#ff0000"}}
	variants := []*Reparse{
		nil,
		{Track: other, Diagnostics: []caption.Diagnostic{{Code: caption.CodeInvalidMarkup, Severity: caption.SeverityWarning, Message: "x"}}},
		{Diagnostics: []caption.Diagnostic{{Code: caption.CodeNoCues, Severity: caption.SeverityError, Message: "y"}}},
	}
	readers := 0
	for _, id := range s.IDs() {
		c, err := s.Lookup(id)
		if err != nil {
			t.Fatal(err)
		}
		if c.ReadsOutput() {
			readers++
			continue
		}
		want := Grade(c, in)
		for k, rp := range variants {
			v := in
			v.Reparse = rp
			if got := Grade(c, v); !reflect.DeepEqual(got, want) {
				t.Errorf("%s: variant %d of the read-back changes the grade", id, k)
			}
		}
	}
	if readers == 0 {
		t.Error("no shipped catalogue reads the output; the structure clauses do")
	}
	if (&Catalogue{Clauses: []ClauseSpec{{Kind: "nonsense"}}}).ReadsOutput() != true {
		t.Error("an unknown kind must count as reading the output")
	}
}
