package jsonw

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
)

// encode runs f on a fresh encoder and returns what it wrote.
func encode(t testing.TB, f func(e *Encoder)) []byte {
	t.Helper()
	var buf bytes.Buffer
	e := NewEncoder(&buf)
	f(e)
	if err := e.Flush(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// sameString fails unless String(s) decodes to what encoding/json's
// encoding of s decodes to (invalid UTF-8 becomes U+FFFD in both).
func sameString(t testing.TB, s string) {
	t.Helper()
	got := encode(t, func(e *Encoder) { e.String(s) })
	want, _ := json.Marshal(s)
	var a, b string
	if err := json.Unmarshal(want, &a); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(got, &b); err != nil {
		t.Fatalf("String(%q) wrote invalid JSON %q: %v", s, got, err)
	}
	if a != b {
		t.Errorf("String(%q) reads back %q, encoding/json's %q", s, b, a)
	}
}

func TestString(t *testing.T) {
	for _, s := range []string{
		"", "plain", `quote " and \ backslash`, "line\nbreak\r\ttab", "\x00\x01\x1f\x7f",
		"<b>&amp;</b> -->", "café 🎉 字幕", "\u2028\u2029", "bad \xff\xfe utf-8", "cut \xe2\x82",
	} {
		sameString(t, s)
	}
	// Unescaped HTML characters keep SRT arrows readable.
	if got := string(encode(t, func(e *Encoder) { e.String("a --> b") })); got != `"a --> b"` {
		t.Errorf("got %s", got)
	}
}

// TestStringPieces writes strings longer than the buffer, with multi-byte
// characters and escapes across every piece boundary.
func TestStringPieces(t *testing.T) {
	for _, unit := range []string{"é", "🎉", "\n", "a\"", "\xff"} {
		for _, pad := range []int{0, 1, 2, 3} {
			s := strings.Repeat("x", pad) + strings.Repeat(unit, 3*flushAt/len(unit)+7)
			sameString(t, s)
		}
	}
}

func TestFloat(t *testing.T) {
	for _, f := range []float64{0, math.Copysign(0, -1), -0.4, 0.1 + 0.2, 999999999999999.9, 1e15, -1e15, 1, -1, 20, 23.4, 20.05, 0.1, 1e-6, 1e-7, 9.99e-7, 1e20, 1e21, 123456789.125, -3.5e-9, math.MaxFloat64, math.SmallestNonzeroFloat64} {
		got := string(AppendFloat(nil, f))
		want, _ := json.Marshal(f)
		if got != string(want) {
			t.Errorf("Float(%v) = %s, encoding/json writes %s", f, got, want)
		}
	}
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if got := string(AppendFloat(nil, f)); got != "null" {
			t.Errorf("Float(%v) = %s, want null", f, got)
		}
	}
}

func TestObject(t *testing.T) {
	got := encode(t, func(e *Encoder) {
		e.Raw("{")
		e.Key("n", true)
		e.Int(-42)
		e.Key("ok", false)
		e.Bool(true)
		e.Key("list", false)
		e.Strings([]string{"a", "b"})
		e.Key("none", false)
		e.Strings(nil)
		e.Raw("}")
	})
	if want := `{"n":-42,"ok":true,"list":["a","b"],"none":null}`; string(got) != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestNoGrowth: raw values and long strings of every size around the
// buffer's are written whole and in order, and never grow the buffer.
func TestNoGrowth(t *testing.T) {
	var buf bytes.Buffer
	e := NewEncoder(&buf)
	size := cap(e.buf)
	var want []string
	e.Raw("[")
	for i, n := range []int{10, flushAt - 10, flushAt - 10, flushAt + 5, 3, size - 2, 5 * flushAt / 2, 1} {
		if i > 0 {
			e.Raw(",")
		}
		s := strings.Repeat(string(rune('a'+i)), n)
		want = append(want, s, s)
		e.RawBytes([]byte(`"` + s + `"`))
		e.Raw(",")
		e.String(s)
		if cap(e.buf) != size {
			t.Fatalf("value %d (%d bytes): the buffer grew from %d to %d bytes", i, n, size, cap(e.buf))
		}
	}
	e.Raw("]")
	if err := e.Flush(); err != nil {
		t.Fatal(err)
	}
	var got []string
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil || !slices.Equal(got, want) {
		t.Errorf("wrote %d bytes that do not decode to the values (%v)", buf.Len(), err)
	}
}

// failing fails every write after the first n bytes.
type failing struct{ n int }

func (f *failing) Write(p []byte) (int, error) {
	if f.n -= len(p); f.n < 0 {
		return 0, errors.New("connection reset")
	}
	return len(p), nil
}

// TestWriteError: the first write error stops the output and is reported
// by Flush.
func TestWriteError(t *testing.T) {
	w := &failing{n: flushAt}
	e := NewEncoder(w)
	for range 5 {
		e.String(strings.Repeat("x", flushAt))
	}
	if err := e.Flush(); err == nil || err.Error() != "connection reset" {
		t.Errorf("Flush = %v, want the write error", err)
	}
}

func FuzzFloat(f *testing.F) {
	for _, v := range []float64{0, 23.4, -0.5, 1e-7, 1e300} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v float64) {
		want, err := json.Marshal(v)
		got := string(AppendFloat(nil, v))
		if err != nil {
			want = []byte("null") // NaN and infinities
		}
		if got != string(want) {
			t.Errorf("Float(%v) = %s, encoding/json writes %s", v, got, want)
		}
	})
}

func FuzzString(f *testing.F) {
	for _, s := range []string{"", "a\nb", "\xff", "\u2028", "🎉\"\\"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) { sameString(t, s) })
}

// BenchmarkString quotes a 4 MiB caption file, the largest string of a
// process result, against encoding/json.
func BenchmarkString(b *testing.B) {
	var sb strings.Builder
	for i := 0; sb.Len() < 4<<20; i++ {
		sb.WriteString("1234\n01:02:03,456 --> 01:02:05,789\nI told you we should have left earlier,\nbut you never listen to me.\n\n")
	}
	s := sb.String()
	b.Run("jsonw", func(b *testing.B) {
		b.SetBytes(int64(len(s)))
		e := NewEncoder(discard{})
		for b.Loop() {
			e.String(s)
			_ = e.Flush()
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.SetBytes(int64(len(s)))
		for b.Loop() {
			_, _ = json.Marshal(s)
		}
	})
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
