package stl

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/captionqa/captionqa/backend/caption"
)

// Options change what [Encode] writes in the GSI block.
type Options struct {
	// Created is the creation and revision date (CD, RD). The zero time
	// writes 2000-01-01, so that the output depends on the track alone.
	Created time.Time
}

// Write writes t as an EBU STL file (EBU Tech 3264) with the default
// options: a GSI block and a TTI block, with extension blocks as needed,
// for each subtitle (see [Encode]). It makes the changes [Changes] lists.
// The output is deterministic. The error is only ever the writer's.
func Write(w io.Writer, t *caption.Track) error { return Encode(w, t, Options{}) }

// Encode writes t as EBU STL: teletext level 1 subtitles (display
// standard 1, 23 rows of 40 columns) in character code table 00 (Latin,
// ISO 6937), code page 850 for the GSI's own text, time codes of 25 fps
// (STL25.01), or of 30 fps for a track at 29.97 or 30 fps (STL30.01), the
// programme starting at 00:00:00:00. The language code is the track's
// language, when EBU Tech 3264's list has it (or its primary subtag).
//
// Each cue the writer delivers ([Shows]) is a subtitle, numbered from 1 in
// track order: its time codes are its times rounded to the nearest frame,
// its vertical position and justification come from its placement (the
// bottom rows, the top or the middle; left, centred or right, centred
// when it says nothing), and its text field holds its lines separated by
// 0x8A, each boxed (0x0B 0x0B before it, 0x0A 0x0A after it: teletext
// shows only boxed text on a subtitle page), italics and underline as 0x80-0x83, a text colour as the teletext
// alphanumeric colour code before the word it colours (in place of the
// space before it), and 0x8F after the text. A text longer than a text
// field continues in extension blocks (extension block numbers 00, 01…,
// FF for the last). The error is only ever the writer's.
func Encode(w io.Writer, t *caption.Track, o Options) error {
	p := makePlan(t)
	_, dfc := rateFor(t)
	blocks := 0
	for i := range p.subs {
		blocks += len(p.subs[i].fields())
	}
	out := make([]byte, 0, gsiSize+blocks*ttiSize)
	out = appendGSI(out, t, &p, dfc, blocks, o)
	for i := range p.subs {
		out = p.appendTTI(out, &p.subs[i], i+1)
	}
	if _, err := w.Write(out); err != nil {
		return fmt.Errorf("stl: write: %w", err)
	}
	return nil
}

// appendGSI appends the GSI block. Fields the writer has nothing for are
// spaces, as EBU Tech 3264 asks.
func appendGSI(b []byte, t *caption.Track, p *plan, dfc string, blocks int, o Options) []byte {
	g := bytes.Repeat([]byte{' '}, gsiSize)
	put := func(at int, s string) { copy(g[at:], s) }
	put(0, "850")
	put(3, dfc)
	g[11] = '1' // teletext level 1
	put(12, tableLatin)
	put(14, languageCode(t.Language))
	date := "000101"
	if !o.Created.IsZero() {
		date = o.Created.UTC().Format("060102")
	}
	put(224, date) // CD
	put(230, date) // RD
	put(236, "00") // RN
	put(238, fmt.Sprintf("%05d", blocks%100000))
	put(243, fmt.Sprintf("%05d", len(p.subs)%100000))
	put(248, "001")      // TNG
	put(251, "40")       // MNC
	put(253, "23")       // MNR
	g[255] = '1'         // TCS: the time codes are for use
	put(256, "00000000") // TCP
	tcf := "00000000"
	if len(p.subs) > 0 {
		tcf = timecode(p.rate, p.subs[0].in)
	}
	put(264, tcf)
	g[272] = '1' // TND
	g[273] = '1' // DSN
	return append(b, g...)
}

// appendTTI appends the TTI blocks of subtitle w, number sn.
func (p *plan) appendTTI(b []byte, w *written, sn int) []byte {
	fields := w.fields()
	in, out := tcBytes(p.rate, w.in), tcBytes(p.rate, w.out)
	for k, tf := range fields {
		ebn := byte(k)
		if k == len(fields)-1 {
			ebn = ebnLast
		}
		b = append(b, 0, byte(sn), byte(sn>>8), ebn, csNone)
		b = append(b, in[:]...)
		b = append(b, out[:]...)
		b = append(b, w.vp, w.jc, 0)
		b = append(b, tf...)
		for range textFieldSize - len(tf) {
			b = append(b, unusedSpace)
		}
	}
	return b
}

// tcBytes returns frame n as a TTI time code: hours, minutes, seconds and
// frames, a byte each.
func tcBytes(r frameRate, n int64) [4]byte {
	f := int64(r.nominal)
	return [4]byte{byte(n / (3600 * f)), byte(n / (60 * f) % 60), byte(n / f % 60), byte(n % f)}
}

// timecode returns frame n as a GSI time code, "HHMMSSFF".
func timecode(r frameRate, n int64) string {
	tc := tcBytes(r, n)
	return fmt.Sprintf("%02d%02d%02d%02d", tc[0], tc[1], tc[2], tc[3])
}

// languageCode returns the GSI language code of a BCP 47 tag: the code
// of the tag, or of its primary language subtag, "00" (unknown) when
// EBU Tech 3264's list has neither.
func languageCode(tag string) string {
	for _, want := range []string{tag, strings.SplitN(tag, "-", 2)[0]} {
		for code, l := range languages {
			if want != "" && strings.EqualFold(l, want) {
				return code
			}
		}
	}
	return "00"
}
