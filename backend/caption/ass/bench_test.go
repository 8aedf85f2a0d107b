package ass

import (
	"bytes"
	"os"
	"testing"

	"github.com/captionqa/captionqa/backend/internal/corpus"
)

// BenchmarkParseEmbeddedFonts reads a 600 KB script that is nearly all
// uuencoded font data.
func BenchmarkParseEmbeddedFonts(b *testing.B) {
	src, err := os.ReadFile(corpus.Path(b, "pysubs2/tests/data/subtitle_with_attached_fonts_aegisub.ass"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, _, err := Parse(bytes.NewReader(src)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseEvents reads 10,000 ordinary styled events.
func BenchmarkParseEvents(b *testing.B) {
	var sb bytes.Buffer
	sb.WriteString("[Script Info]\nScriptType: v4.00+\n\n[V4+ Styles]\nStyle: Default,Arial,20,&H00FFFFFF,&H000000FF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,2,2,2,10,10,10,1\n\n[Events]\n")
	for range 10000 {
		sb.WriteString("Dialogue: 0,0:00:01.00,0:00:02.00,Default,Ann,0,0,0,,{\\an8}Hello, {\\i1}there{\\i0}.\\NHow are you?\n")
	}
	src := sb.Bytes()
	b.SetBytes(int64(len(src)))
	for b.Loop() {
		if _, _, err := Parse(bytes.NewReader(src)); err != nil {
			b.Fatal(err)
		}
	}
}
