package rules

import (
	"math"
	"strconv"
	"unsafe"

	"github.com/captionqa/captionqa/backend/caption"
)

// finding starts a rule finding for cue i of t: code, cue index, the
// cue's source line and the message. Severity stays empty for the engine.
// It is only called once a cue has failed, so its allocations (the index
// pointer) never touch cues that pass.
func finding(code string, t *caption.Track, i int, msg string) caption.Diagnostic {
	idx := i
	return caption.Diagnostic{Code: code, Line: t.Cues[i].SourceLine, CueIndex: &idx, Message: msg}
}

// measured adds the measured value, the limit it broke and their unit.
func measured(d caption.Diagnostic, value, limit float64, unit string) caption.Diagnostic {
	d.Value, d.Limit, d.Unit = &value, &limit, unit
	return d
}

// num formats a limit the way an editor writes it: 20, 17.5, 833.
func num(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }

// round1 rounds to one decimal, the precision rates are reported in.
func round1(v float64) float64 { return math.Round(v*10) / 10 }

// batch hands out the pointer fields of findings (cue index, value,
// limit) from shared blocks. On machine-made captions a rule can report
// most cues; three small allocations per finding would cost more than
// measuring the cue. Each finding still gets pointers of its own.
type batch struct {
	ints   []int
	floats []float64
}

// batchMax is the largest block batch allocates; blocks start small so a
// rule with a handful of findings keeps a handful of words.
const batchMax = 1024

func (b *batch) index(i int) *int {
	if len(b.ints) == cap(b.ints) {
		b.ints = make([]int, 0, min(max(2*cap(b.ints), 8), batchMax))
	}
	b.ints = append(b.ints, i)
	return &b.ints[len(b.ints)-1]
}

func (b *batch) float(v float64) *float64 {
	if len(b.floats) == cap(b.floats) {
		b.floats = make([]float64, 0, min(max(2*cap(b.floats), 8), batchMax))
	}
	b.floats = append(b.floats, v)
	return &b.floats[len(b.floats)-1]
}

// finding is [finding] with the index from the batch.
func (b *batch) finding(code string, t *caption.Track, i int, msg string) caption.Diagnostic {
	return caption.Diagnostic{Code: code, Line: t.Cues[i].SourceLine, CueIndex: b.index(i), Message: msg}
}

// measured is [measured] with the figures from the batch.
func (b *batch) measured(d caption.Diagnostic, value, limit float64, unit string) caption.Diagnostic {
	d.Value, d.Limit, d.Unit = b.float(value), b.float(limit), unit
	return d
}

// withLimit adds only the limit, from the batch, for findings whose value
// is not a finite number (a rate over zero time), which JSON could not
// carry.
func (b *batch) withLimit(d caption.Diagnostic, limit float64, unit string) caption.Diagnostic {
	d.Limit, d.Unit = b.float(limit), unit
	return d
}

// hit is a cue that failed a rule and the figure it failed with, kept by
// a first pass so the findings slice is allocated once at its size.
type hit struct {
	i int
	v float64
}

// appendRate appends "%.1f" of v, as fmt would write it.
//
// Rates are rounded to 0.1 by [round1] first, so v is the double nearest a
// whole number of tenths k/10: its exact value is far closer to k/10 than
// to the rounding boundaries k/10 ± 0.05, and writing k's digits gives
// what strconv would. Anything else goes to strconv, whose fixed-precision
// 'f' format takes the slow multi-precision path.
func appendRate(b []byte, v float64) []byte {
	if v >= 0 && !math.Signbit(v) && v < 1e12 {
		k := math.Round(v * 10)
		if math.Abs(v*10-k) < 1e-6 {
			t := int64(k)
			b = strconv.AppendInt(b, t/10, 10)
			return append(b, '.', byte('0'+t%10))
		}
	}
	return strconv.AppendFloat(b, v, 'f', 1, 64)
}

// messages builds the messages of a rule's findings in one buffer: a rule
// reporting most cues of a long file then makes one allocation, not one
// per finding. Each message is written to buf and closed with end; set
// gives finding k the k-th message.
type messages struct {
	buf  []byte
	ends []int
}

// grow makes room for n messages of about size bytes each.
func (m *messages) grow(n, size int) {
	m.buf = make([]byte, 0, size*n)
	m.ends = make([]int, 0, n)
}

func (m *messages) end() { m.ends = append(m.ends, len(m.buf)) }

// set hands out the messages. The buffer becomes the strings' memory
// without a copy: m is dropped by its caller and nothing writes to buf
// again.
func (m *messages) set(out []caption.Diagnostic) {
	s := unsafe.String(unsafe.SliceData(m.buf), len(m.buf))
	m.buf = nil
	start := 0
	for k, e := range m.ends {
		out[k].Message = s[start:e]
		start = e
	}
}
