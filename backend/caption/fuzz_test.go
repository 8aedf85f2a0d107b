package caption

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf16"
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

// FuzzDecodeText checks the decoder never panics, returns UTF-8, and
// loses no byte's worth of text: each byte (UTF-8 and Windows-1252), code
// unit (UTF-16) or unit of four bytes (UTF-32) of the body becomes one
// character, a valid sequence its character and anything else a
// replacement the diagnostics name. Text read without a diagnostic is the
// body exactly; UTF-8 that is not valid always has one that blocks
// delivery (severity error). decodeOwned, the reader's fast path, agrees.
func FuzzDecodeText(f *testing.F) {
	for _, seed := range []string{
		"", "héllo", "\xef\xbb\xbfCaf\xe9 cr\xe8me", "1\nCafé crème\nna\xefve", "caf\xe9 \x93q\x94 \x80\x81",
		"\xff\xfea\x00\x00\xd8b\x00", "\xfe\xff\x00a\xdc\x00", "\xff\xfe\x00\x00\xff\xff\xff\x7fa", "\x00\x00\xfe\xff\x00\x00\x00",
		"a\rb\r\n\xe2\x80 “x”", "1\x00\n\x00\x00\xd8a\x00b\x00c\x00", "\xc3\xa9\xe9\xc3",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		text, enc, diags := DecodeText(data)
		if !utf8.ValidString(text) {
			t.Fatalf("text is not UTF-8: %q", text)
		}
		lines := max(len(SplitLines(text)), 1)
		blocking := false
		for _, d := range diags {
			if d.Code != CodeEncodingNotUTF8 || d.Line < 1 || d.Line > lines || d.Message == "" {
				t.Fatalf("diagnostic %+v (text of %d lines)", d, lines)
			}
			blocking = blocking || d.Severity == SeverityError
		}
		body := data
		switch enc {
		case EncodingUTF8BOM, EncodingUTF32LE, EncodingUTF32BE:
			body = data[map[string]int{EncodingUTF8BOM: 3, EncodingUTF32LE: 4, EncodingUTF32BE: 4}[enc]:]
		case EncodingUTF16LE, EncodingUTF16BE:
			if bytes.HasPrefix(data, []byte{0xFF, 0xFE}) || bytes.HasPrefix(data, []byte{0xFE, 0xFF}) {
				body = data[2:]
			}
		}
		var want int // characters the body must give
		switch enc {
		case EncodingUTF8, EncodingUTF8BOM:
			want = utf8.RuneCount(body)
			if !utf8.Valid(body) && !blocking {
				t.Fatalf("invalid UTF-8 read without an error: %+v", diags)
			}
		case EncodingWindows1252:
			want = len(body)
			if len(diags) == 0 {
				t.Fatal("Windows-1252 read without a diagnostic")
			}
		case EncodingUTF16LE, EncodingUTF16BE:
			// A pair is one character, so count what the text re-encodes to.
			if n := len(utf16.Encode([]rune(text))); n != (len(body)+1)/2 {
				t.Fatalf("%d UTF-16 units of body give %d", (len(body)+1)/2, n)
			}
			want = utf8.RuneCountInString(text)
		case EncodingUTF32LE, EncodingUTF32BE:
			want = (len(body) + 3) / 4
		default:
			t.Fatalf("unknown encoding %q", enc)
		}
		if n := utf8.RuneCountInString(text); n != want {
			t.Fatalf("%s: %d characters from a body that gives %d", enc, n, want)
		}
		if !blocking && enc != EncodingWindows1252 && !bytes.Equal(encodeAs(enc, text), body) {
			t.Fatalf("%s read without an error, but changed: %q from %q", enc, text, body)
		}
		own := append([]byte(nil), data...)
		otext, oenc, odiags := decodeOwned(own)
		if otext != text || oenc != enc || len(odiags) != len(diags) {
			t.Fatalf("decodeOwned = %q, %q, %d diagnostics; DecodeText %q, %q, %d", otext, oenc, len(odiags), text, enc, len(diags))
		}
	})
}

// encodeAs writes text in the encoding enc names, without a BOM.
func encodeAs(enc, text string) []byte {
	var b []byte
	switch enc {
	case EncodingUTF16LE, EncodingUTF16BE:
		for _, u := range utf16.Encode([]rune(text)) {
			if enc == EncodingUTF16LE {
				b = append(b, byte(u), byte(u>>8))
			} else {
				b = append(b, byte(u>>8), byte(u))
			}
		}
	case EncodingUTF32LE, EncodingUTF32BE:
		for _, r := range text {
			if enc == EncodingUTF32LE {
				b = append(b, byte(r), byte(r>>8), byte(r>>16), 0)
			} else {
				b = append(b, 0, byte(r>>16), byte(r>>8), byte(r))
			}
		}
	default:
		b = []byte(text)
	}
	return b
}
