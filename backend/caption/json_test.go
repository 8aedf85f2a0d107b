package caption

import (
	"bytes"
	"strings"
	"testing"
)

func TestParseJSON(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		in        string
		wantCues  int
		wantCodes []string
		wantLines []int
	}{
		{"minimal", `{"version":1,"cues":[{"id":"1","startMs":0,"endMs":1000,"text":"Hi"}]}`, 1, nil, nil},
		{"unknown fields ignored", `{"version":1,"future":{"x":1},"cues":[{"id":"","startMs":0,"endMs":1,"text":"a","later":true}]}`, 1, nil, nil},
		{"empty", "  \n", 0, []string{CodeEmptyInput}, []int{0}},
		{"not an object", `[1,2]`, 0, []string{CodeInvalidDocument, CodeNoCues}, []int{1, 0}},
		{"syntax error", "{\"version\":1,\n\"cues\":[\n{\"id\":", 0, []string{CodeInvalidDocument, CodeNoCues}, []int{3, 0}},
		{"missing version", `{"cues":[{"id":"a","startMs":0,"endMs":1,"text":"x"}]}`, 1, []string{CodeInvalidDocument}, []int{1}},
		{"bad cue kept apart", "{\"version\":1,\"cues\":[\n{\"id\":\"a\",\"startMs\":0,\"endMs\":1,\"text\":\"x\"},\n{\"id\":\"b\",\"startMs\":\"soon\",\"endMs\":1,\"text\":\"y\"},\n{\"id\":\"c\",\"startMs\":5,\"endMs\":2,\"text\":\"z\"}]}",
			1, []string{CodeInvalidDocument, CodeEndBeforeStart}, []int{3, 4}},
		{"span outside text", `{"version":1,"cues":[{"id":"a","startMs":0,"endMs":1,"text":"ab","spans":[{"start":1,"end":9,"italic":true}]}]}`,
			1, []string{CodeInvalidSetting}, []int{1}},
		{"out of order", "{\"version\":1,\"cues\":[\n{\"id\":\"a\",\"startMs\":5000,\"endMs\":6000,\"text\":\"x\"},\n{\"id\":\"b\",\"startMs\":0,\"endMs\":1000,\"text\":\"y\"}]}",
			2, []string{CodeCuesOutOfOrder}, []int{3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tr, diags, err := ParseJSON(strings.NewReader(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			if len(tr.Cues) != tt.wantCues {
				t.Errorf("cues = %d; want %d", len(tr.Cues), tt.wantCues)
			}
			var codes []string
			var lines []int
			for _, d := range diags {
				codes = append(codes, d.Code)
				lines = append(lines, d.Line)
			}
			if strings.Join(codes, ",") != strings.Join(tt.wantCodes, ",") || !equalInts(lines, tt.wantLines) {
				t.Errorf("diagnostics = %v at %v; want %v at %v (%+v)", codes, lines, tt.wantCodes, tt.wantLines, diags)
			}
		})
	}
}

func TestParseJSONOrdersCues(t *testing.T) {
	t.Parallel()
	in := `{"version":1,"cues":[{"id":"late","startMs":5000,"endMs":6000,"text":"x"},{"id":"early","startMs":0,"endMs":1,"text":"y"},{"id":"tie","startMs":5000,"endMs":5500,"text":"z"}]}`
	tr, _, _ := ParseJSON(strings.NewReader(in))
	var ids []string
	for _, c := range tr.Cues {
		ids = append(ids, c.ID)
	}
	if got := strings.Join(ids, ","); got != "early,late,tie" {
		t.Errorf("order = %s; want early,late,tie (stable by start)", got)
	}
}

func TestWriteJSONRoundTrip(t *testing.T) {
	t.Parallel()
	line := 2.0
	tr := &Track{Version: Version, Language: "en", Cues: []Cue{{
		ID: "1", StartMs: 1000, EndMs: 2500, Text: "Hello <there>\nHow & you?",
		Spans:     []Span{{Start: 0, End: 5, Italic: true, Color: "#ff0000"}},
		Placement: &Placement{Area: AreaTop, Line: &line, LineUnit: LineUnitLines},
	}}}
	var a, b bytes.Buffer
	if err := WriteJSON(&a, tr); err != nil {
		t.Fatal(err)
	}
	back, diags, err := ParseJSON(bytes.NewReader(a.Bytes()))
	if err != nil || len(diags) != 0 {
		t.Fatalf("reparse: %v %+v", err, diags)
	}
	back.Source = tr.Source
	if err := WriteJSON(&b, back); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Errorf("round trip changed the IR:\n%s\n---\n%s", a.String(), b.String())
	}
	if !strings.Contains(a.String(), `"text": "Hello <there>\nHow & you?"`) {
		t.Errorf("HTML characters must not be escaped: %s", a.String())
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
