package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"testing"

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

// TestEncodeJSONLong compares the encodings on a result large enough to
// be written through in many pieces, graded against a standard.
func TestEncodeJSONLong(t *testing.T) {
	eng := newTestEngine(t)
	for _, std := range []string{"dcmp", "wcag-2.1-aa"} {
		res, err := eng.Process(context.Background(), Request{
			Filename: "long.srt", Data: synth.SRT(3000), Preset: "vimeo", FixProfile: "auto-split-cps", Standard: std,
		})
		if err != nil {
			t.Fatal(err)
		}
		sameAsEncodingJSON(t, res)
	}
	// Warn-only lists every finding four times, from one shared slice
	// (diagnostics of both reports, suggestions, the aided output's
	// remaining problems): it is encoded once.
	res, err := eng.Process(context.Background(), Request{Filename: "long.srt", Data: synth.SRT(3000), Preset: "youtube"})
	if err != nil {
		t.Fatal(err)
	}
	if b := res.preEncode(); len(b.lists) != 1 || len(b.lists[0].list) == 0 || len(b.strings) != 1 {
		t.Errorf("encoded ahead: %d lists, %d strings; want one of each", len(b.lists), len(b.strings))
	}
	sameAsEncodingJSON(t, res)
}
