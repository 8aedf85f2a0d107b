package ttml

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"unicode/utf8"
)

func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*.in.ttml")
	for _, s := range seeds {
		b, err := os.ReadFile(s)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		tr, diags, err := Parse(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range tr.Cues {
			if c.StartMs < 0 || c.EndMs < c.StartMs {
				t.Fatalf("bad times %d..%d", c.StartMs, c.EndMs)
			}
			n := utf8.RuneCountInString(c.Text)
			for _, s := range c.Spans {
				if s.Start < 0 || s.End > n || s.Start >= s.End {
					t.Fatalf("span %+v outside %d runes", s, n)
				}
			}
		}
		for _, d := range diags {
			if d.Code == "" || d.Line < 0 {
				t.Fatalf("bad diagnostic %+v", d)
			}
		}
		var out bytes.Buffer
		if err := Write(&out, tr); err != nil {
			t.Fatal(err)
		}
	})
}
