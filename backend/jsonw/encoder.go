// Package jsonw writes JSON by hand for the few values that are too big
// for encoding/json's reflection: a process result holds tens of
// thousands of diagnostics and two copies of a caption file, which
// encoding/json builds in one growing buffer at a fraction of the speed.
// An [Encoder] streams through a small buffer (big values a caller encodes
// ahead with the Append functions, to write them more than once or side
// by side, are written through whole), and its output decodes to the same
// values encoding/json's does (tests compare them); unlike encoding/json
// it leaves <, > and & unescaped, as JSON allows. An [Indenter] indents
// what an Encoder writes as it streams, for a person reading it.
//
// Why it stays: engine's BenchmarkEncodeResult encodes the result of the
// 4 MiB, 40,000-cue file (every finding listed) in 14-18 ms and 51
// allocations with this package, against 57-73 ms and 72,000 allocations
// with go-json-experiment/json and 65-70 ms with encoding/json (2-core
// machine, one run, 10 iterations, three counts): the generic encoders
// are about 4 times slower, well outside the 10% that would retire it.
package jsonw

import (
	"encoding/binary"
	"io"
	"math"
	"math/bits"
	"slices"
	"strconv"
	"unicode/utf8"
)

// flushAt is the buffered size from which the encoder writes through:
// large enough that a write costs little per byte, small enough that what
// it streams is never held whole.
const flushAt = 64 << 10

// Encoder appends JSON tokens to a buffer and writes it to w whenever it
// passes flushAt. The first write error stops all further writes and is
// returned by [Encoder.Flush].
type Encoder struct {
	w   io.Writer
	buf []byte
	err error
}

// NewEncoder returns an encoder writing to w.
func NewEncoder(w io.Writer) *Encoder {
	return &Encoder{w: w, buf: make([]byte, 0, flushAt+flushAt/4)}
}

// Flush writes what is buffered and returns the first write error.
func (e *Encoder) Flush() error {
	if e.err == nil && len(e.buf) > 0 {
		_, e.err = e.w.Write(e.buf)
	}
	e.buf = e.buf[:0]
	return e.err
}

// checkpoint writes the buffer through once it has grown past flushAt.
// The encoder calls it after each value it writes.
func (e *Encoder) checkpoint() {
	if len(e.buf) >= flushAt {
		_ = e.Flush()
	}
}

// room writes out what is buffered when n more bytes would not fit beside
// it: growing the buffer would copy both. A value of flushAt bytes or more
// never fits.
func (e *Encoder) room(n int) {
	if n >= flushAt || len(e.buf)+n > cap(e.buf) {
		_ = e.Flush()
	}
}

// Raw appends s as it is: punctuation, or a key already quoted.
func (e *Encoder) Raw(s string) { e.buf = append(e.buf, s...) }

// Key appends `,"name":` (without the comma when first is true); name must
// need no escaping.
func (e *Encoder) Key(name string, first bool) {
	if !first {
		e.buf = append(e.buf, ',')
	}
	e.buf = append(e.buf, '"')
	e.buf = append(e.buf, name...)
	e.buf = append(e.buf, '"', ':')
}

// Int appends n.
func (e *Encoder) Int(n int64) { e.buf = strconv.AppendInt(e.buf, n, 10) }

// Bool appends true or false.
func (e *Encoder) Bool(v bool) { e.buf = strconv.AppendBool(e.buf, v) }

// AppendFloat appends f to b as encoding/json formats a float64: the
// shortest decimal that reads back the same, in exponent form only below
// 1e-6 or from 1e21 on. JSON has no form for NaN or an infinity; they are
// written as null, which no caller here produces (rules report an
// infinite rate without a value).
func AppendFloat(b []byte, f float64) []byte {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return append(b, "null"...)
	}
	// Report figures are mostly whole or to one decimal (20, 23.4); those
	// are written without the shortest-decimal search, when the short form
	// reads back as exactly f. Negative zero keeps its sign through the
	// general path.
	if f > -1e15 && f < 1e15 && (f != 0 || !math.Signbit(f)) {
		if tenths := math.Round(f * 10); tenths/10 == f {
			n := int64(tenths)
			if n < 0 {
				b = append(b, '-')
				n = -n
			}
			b = strconv.AppendInt(b, n/10, 10)
			if d := n % 10; d != 0 {
				b = append(b, '.', byte('0'+d))
			}
			return b
		}
	}
	abs, format := math.Abs(f), byte('f')
	if abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		// 1e-07 becomes 1e-7, as encoding/json writes it.
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// RawBytes appends b as it is: JSON encoded earlier, for a value that
// appears more than once. What is buffered is written out first when b
// would not fit beside it (growing the buffer would copy both), and a long
// b is written straight through.
func (e *Encoder) RawBytes(b []byte) {
	e.room(len(b))
	if len(b) >= flushAt {
		if e.err == nil {
			_, e.err = e.w.Write(b)
		}
		return
	}
	e.buf = append(e.buf, b...)
	e.checkpoint()
}

// Array appends items as a JSON array, null when items is nil, each
// appended by appendItem; long arrays are written through as they grow.
// The items are appended to a local slice, not through the encoder: an
// encoder lives on the heap, and every store of its buffer while the
// collector runs would pay a write barrier.
func Array[T any](e *Encoder, items []T, appendItem func(*T, []byte) []byte) {
	if items == nil {
		e.buf = append(e.buf, "null"...)
		return
	}
	b := append(e.buf, '[')
	for i := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendItem(&items[i], b)
		if len(b) >= flushAt {
			e.buf = b
			_ = e.Flush()
			b = e.buf
		}
	}
	e.buf = append(b, ']')
}

// Strings appends ss as an array of strings, null when ss is nil.
func (e *Encoder) Strings(ss []string) {
	Array(e, ss, func(s *string, b []byte) []byte { return AppendString(b, *s) })
}

// String appends s quoted, as [AppendString] writes it. Long strings are
// written through in pieces, so a 4 MiB caption file never needs a 4 MiB
// buffer.
func (e *Encoder) String(s string) {
	if len(s) < flushAt {
		e.room(len(s) + len(s)/8 + 2)
		e.buf = AppendString(e.buf, s)
		e.checkpoint()
		return
	}
	// Each piece then fits the buffer, escapes and all, without growing it.
	e.room(len(s))
	e.buf = append(e.buf, '"')
	for len(s) > 0 {
		var n int
		e.buf, n = appendQuoted(e.buf, s, min(len(s), flushAt))
		s = s[n:]
		e.checkpoint()
	}
	e.buf = append(e.buf, '"')
}

// AppendString appends s to b quoted. Control characters, the quote and
// the backslash are escaped, as are U+2028 and U+2029 (JavaScript line
// terminators); invalid UTF-8 becomes U+FFFD, as with encoding/json.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	b, _ = appendQuoted(b, s, len(s))
	return append(b, '"')
}

// appendQuoted appends the escaped form of s[:n], or a little more so as
// not to stop inside a UTF-8 sequence, and returns how much of s it
// consumed.
//
// Caption text is short runs of printable ASCII between line breaks, a
// special byte every 20 or so. So the text is copied eight bytes at a
// time, each word stored whole before it is tested, and the length kept
// only up to the first special byte of the word, which is then escaped
// and the copy goes on after it: no byte loop, and no copy call per run.
func appendQuoted(b []byte, s string, n int) ([]byte, int) {
	i := 0
	for i+8 <= n {
		if cap(b)-len(b) < 8 {
			// Room for the rest as it is and one escape in eight
			// bytes; a denser string grows again.
			b = slices.Grow(b, n-i+(n-i)/8+8)
		}
		// The compiler merges these byte loads into one 64-bit load.
		x := uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
			uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
		w := len(b)
		binary.LittleEndian.PutUint64(b[w:w+8], x)
		m := specials(x)
		if m == 0 {
			b = b[:w+8]
			i += 8
			continue
		}
		k := bits.TrailingZeros64(m) >> 3
		b = b[:w+k]
		i += k
		b, i = appendSpecial(b, s, i)
	}
	for i < n {
		if plain[s[i]] {
			b = append(b, s[i])
			i++
			continue
		}
		b, i = appendSpecial(b, s, i)
	}
	return b, i
}

// appendSpecial appends the escaped form of the character at s[i], which
// is not plain (a control character, the quote, the backslash, or the
// start of a non-ASCII character), and returns the index after it.
func appendSpecial(b []byte, s string, i int) ([]byte, int) {
	c := s[i]
	if c < utf8.RuneSelf {
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
		}
		return b, i + 1
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	switch {
	case r == utf8.RuneError && size == 1:
		b = append(b, `\ufffd`...)
	case r == '\u2028' || r == '\u2029':
		b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
	default:
		b = append(b, s[i:i+size]...)
	}
	return b, i + size
}

const hex = "0123456789abcdef"

// Byte-wise constants for specials.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// specials returns x, eight bytes of text, with the high bit of a byte set
// where that byte is not plain: below 0x20, a quote or a backslash, or
// non-ASCII. The lowest set byte is exact (borrows only run upwards from
// a special byte), which is all appendQuoted reads.
func specials(x uint64) uint64 {
	q, bs := x^(ones*'"'), x^(ones*'\\')
	// (v - ones) & ^v has a byte's high bit set where that byte of v is
	// zero (for the first term, below 0x20); x catches non-ASCII.
	return ((x-ones*0x20)&^x | (q-ones)&^q | (bs-ones)&^bs | x) & highs
}

// plain[c] says byte c is copied as it is: printable ASCII other than the
// quote and the backslash. A read-only table, built once.
var plain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()
