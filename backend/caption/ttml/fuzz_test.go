package ttml

import (
	"bytes"
	"testing"
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/caption"
)

func FuzzParse(f *testing.F) {
	suite().Fuzz(f, func(t *testing.T, tr *caption.Track, diags []caption.Diagnostic) {
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
