package caption

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParseJSON checks the IR reader never panics and only returns
// well-formed tracks, and that what it returns survives a write and a
// second read unchanged.
func FuzzParseJSON(f *testing.F) {
	for _, seed := range []string{
		`{"version":1,"cues":[{"id":"1","startMs":0,"endMs":1000,"text":"Hi"}]}`,
		`{"version":1,"language":"en","cues":[{"id":"a","startMs":5,"endMs":9,"text":"a\nb","spans":[{"start":0,"end":1,"italic":true}],"placement":{"area":"top","line":-1,"lineUnit":"lines"}}]}`,
		`{"version":2,"cues":[{"startMs":"x"}]}`,
		`{"cues":null}`, `[]`, `{`, "\xff\xfe{\x00}\x00", "",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tr, diags, err := ParseJSON(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("error on in-memory input: %v", err)
		}
		for _, d := range diags {
			if d.Code == "" || d.Severity == "" || d.Line < 0 {
				t.Fatalf("incomplete diagnostic %+v", d)
			}
		}
		for i, c := range tr.Cues {
			if c.StartMs < 0 || c.EndMs < c.StartMs || strings.HasSuffix(c.Text, "\n") {
				t.Fatalf("cue %d is malformed: %+v", i, c)
			}
			n := utf8.RuneCountInString(c.Text)
			for _, s := range c.Spans {
				if s.Start < 0 || s.End > n || s.Start >= s.End {
					t.Fatalf("cue %d span %+v outside %d code points", i, s, n)
				}
			}
		}
		var a, b bytes.Buffer
		if err := WriteJSON(&a, tr); err != nil {
			t.Fatal(err)
		}
		back, _, _ := ParseJSON(bytes.NewReader(a.Bytes()))
		back.Source = tr.Source
		if err := WriteJSON(&b, back); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a.Bytes(), b.Bytes()) {
			t.Fatalf("IR changed on a second read:\n%s\n---\n%s", a.Bytes(), b.Bytes())
		}
	})
}
