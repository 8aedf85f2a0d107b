package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"runtime"
	"strconv"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/caption/synth"
	"github.com/captionqa/captionqa/backend/jsonw"
)

// sameAsEncodingJSON fails unless Result.EncodeJSON decodes to exactly
// what encoding/json's encoding of res decodes to: a field added to the
// result, a report, a diagnostic, a change or a clause without its
// encoder fails here. Every golden case runs it.
func sameAsEncodingJSON(t *testing.T, res *Result) {
	t.Helper()
	want, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	e := jsonw.NewEncoder(&buf)
	res.EncodeJSON(e)
	if err := e.Flush(); err != nil {
		t.Fatal(err)
	}
	var a, b any
	if err := json.Unmarshal(want, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(buf.Bytes(), &b); err != nil {
		t.Fatalf("EncodeJSON wrote invalid JSON: %v", err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("EncodeJSON and encoding/json disagree:\nencoding/json %.2000s\nEncodeJSON    %.2000s", want, buf.Bytes())
	}
}

// TestEncodeJSONLong compares the encodings on results long enough to be
// written through in many pieces, to be checked and encoded side by side
// (parallelCheck, bigList), and graded against a standard; under -race it
// is also the test of those goroutines. The lists are asked for whole:
// capped ones are never long.
func TestEncodeJSONLong(t *testing.T) {
	eng := newTestEngine(t)
	for _, std := range []string{"dcmp", "wcag-2.1-aa"} {
		res, err := eng.Process(context.Background(), Request{
			Filename: "long.srt", Data: synth.SRT(parallelCheck + 100), Preset: "vimeo", FixProfile: "auto-split-cps", Standard: std,
			AllDiagnostics: true,
		})
		if err != nil {
			t.Fatal(err)
		}
		sameAsEncodingJSON(t, res)
	}
	// On a warn-only run whose findings are all suggestions, the input's
	// diagnostics, the suggestions and the aided output's remaining
	// problems are one shared list, encoded once, and the aided output is
	// the delivery.
	n := bigList + 100
	res, err := eng.Process(context.Background(), Request{Filename: "fast.srt", Data: fastSRT(n), Preset: "youtube", AllDiagnostics: true})
	if err != nil {
		t.Fatal(err)
	}
	if b := res.preEncode(res.Output, res.AidedOutput); len(b.lists) != 1 || len(b.lists[0].list) != n || len(b.lists[0].parts) < 2 && runtime.GOMAXPROCS(0) > 1 || len(b.strings) != 1 {
		t.Errorf("encoded ahead: %d lists, %d strings; want one of each", len(b.lists), len(b.strings))
	}
	sameAsEncodingJSON(t, res)
}

// fastSRT is an SRT file of n cues, each read a little faster than
// YouTube's suggested 20 characters per second and breaking nothing else.
func fastSRT(n int) []byte {
	var b []byte
	for i := range n {
		start := int64(i) * 3000
		b = strconv.AppendInt(b, int64(i+1), 10)
		b = append(b, '\n')
		b = caption.AppendClock(b, start, 2, ',')
		b = append(b, " --> "...)
		b = caption.AppendClock(b, start+2000, 2, ',')
		b = append(b, "\nThis cue reads a little too fast for you.\n\n"...)
	}
	return b
}

// TestEqualListsEncodedOnce: two lists with the same findings in separate
// slices are encoded ahead once, like one slice listed twice; a list that
// differs in one figure is its own.
func TestEqualListsEncodedOnce(t *testing.T) {
	mk := func(n int, limit float64) []caption.Diagnostic {
		ds := make([]caption.Diagnostic, n)
		for i := range ds {
			cue, l := i, limit
			ds[i] = caption.Diagnostic{Code: "cps_too_high", Severity: caption.SeverityWarning, Line: i + 1, CueIndex: &cue, Message: "fast", Limit: &l}
		}
		return ds
	}
	a, b, c := mk(bigList, 20), mk(bigList, 20), mk(bigList, 17)
	for _, tt := range []struct {
		name      string
		lists     [3][]caption.Diagnostic
		wantLists int
	}{
		{"one slice twice", [3][]caption.Diagnostic{a, a, nil}, 1},
		{"equal slices", [3][]caption.Diagnostic{a, b, nil}, 1},
		{"a figure differs", [3][]caption.Diagnostic{a, c, nil}, 2},
		{"equal and different", [3][]caption.Diagnostic{a, b, c}, 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := &Result{
				Report:      &Report{Diagnostics: tt.lists[0]},
				AidedReport: &Report{Diagnostics: tt.lists[1]},
				Suggestions: tt.lists[2],
			}
			if got := len(res.preEncode(res.Output, res.AidedOutput).lists); got != tt.wantLists {
				t.Errorf("%d lists encoded ahead, want %d", got, tt.wantLists)
			}
			sameAsEncodingJSON(t, res)
		})
	}
}
