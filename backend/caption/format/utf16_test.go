package format

import (
	"testing"
	"unicode/utf16"

	"github.com/captionqa/captionqa/backend/caption"
)

// TestReadBOMlessUTF16 reads caption files written in UTF-16 without a
// byte order mark, whatever the script of their text: detected from the
// content, in both byte orders, each cue's text intact.
func TestReadBOMlessUTF16(t *testing.T) {
	t.Parallel()
	encode := func(s string, big bool) []byte {
		var b []byte
		for _, u := range utf16.Encode([]rune(s)) {
			if big {
				b = append(b, byte(u>>8), byte(u))
			} else {
				b = append(b, byte(u), byte(u>>8))
			}
		}
		return b
	}
	texts := []struct{ lang, first, second string }{
		{"hebrew", "שלום עולם, מה שלומך היום?", "להתראות"},
		{"arabic", "مرحبا بالعالم، كيف حالك اليوم؟", "إلى اللقاء"},
		{"russian", "Привет, мир! Как у тебя дела сегодня?", "До свидания"},
		{"japanese", "こんにちは、世界。今日はいい天気ですね。", "さようなら"},
		{"english", "Hello, world! How are you today?", "Goodbye"},
	}
	files := []struct {
		format string
		make   func(first, second string) string
	}{
		{SRT, func(a, b string) string {
			return "1\r\n00:00:01,000 --> 00:00:03,000\r\n" + a + "\r\n\r\n2\r\n00:00:04,000 --> 00:00:06,000\r\n" + b + "\r\n"
		}},
		{VTT, func(a, b string) string {
			return "WEBVTT\n\n00:00:01.000 --> 00:00:03.000\n" + a + "\n\n00:00:04.000 --> 00:00:06.000\n" + b + "\n"
		}},
	}
	for _, tx := range texts {
		for _, f := range files {
			for _, order := range []struct {
				big  bool
				name string
			}{{false, caption.EncodingUTF16LE}, {true, caption.EncodingUTF16BE}} {
				t.Run(tx.lang+"/"+f.format+"/"+order.name, func(t *testing.T) {
					t.Parallel()
					data := encode(f.make(tx.first, tx.second), order.big)
					got, tr, _, err := Read("captions.txt", "", data)
					if err != nil {
						t.Fatal(err)
					}
					if got != f.format {
						t.Fatalf("detected %q; want %q", got, f.format)
					}
					if enc := tr.Source.Encoding; enc != order.name {
						t.Errorf("encoding %q; want %q", enc, order.name)
					}
					if len(tr.Cues) != 2 || tr.Cues[0].Text != tx.first || tr.Cues[1].Text != tx.second {
						t.Errorf("cues = %+v; want %q then %q", tr.Cues, tx.first, tx.second)
					}
				})
			}
		}
	}
}
