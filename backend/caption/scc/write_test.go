package scc

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/internal/golden"
)

// TestWriteGolden writes each testdata/<case>.in.json (the IR) as SCC and
// compares the file with <case>.want.scc, and the changes Encode reports
// with <case>.want.changes.txt.
func TestWriteGolden(t *testing.T) {
	t.Parallel()
	golden.Run(t, func(t *testing.T, c golden.Case) {
		tr, _ := golden.MustParse(t, caption.ParseJSON, c.Input)
		var out bytes.Buffer
		changes, err := Encode(&out, tr, Options{})
		if err != nil {
			t.Fatal(err)
		}
		golden.Compare(t, c.File(".want.scc"), out.Bytes())
		golden.Compare(t, c.File(".want.changes.txt"), golden.DiagLines(changes))
		if again := Changes(tr); len(again) != len(changes) {
			t.Errorf("Changes lists %d changes, Encode %d", len(again), len(changes))
		}
		assertDelivered(t, tr)
	}, "testdata/*.in.json")
}

// TestRoundTrip checks, for every golden input, that what Write makes of
// it reads back to what Delivered says, exactly, without an error or a
// warning, and that a cue Changes does not name comes back with its text
// and its times within a frame (of the frames they fall on).
func TestRoundTrip(t *testing.T) {
	t.Parallel()
	golden.Run(t, func(t *testing.T, c golden.Case) {
		parse := Parse
		if strings.HasSuffix(c.Path, ".json") {
			parse = caption.ParseJSON
		}
		tr, _ := golden.MustParse(t, parse, c.Input)
		back := assertDelivered(t, tr)
		named := map[int]bool{}
		for _, d := range Changes(tr) {
			if d.CueIndex != nil {
				named[*d.CueIndex] = true
			}
		}
		for i := range tr.Cues {
			src := &tr.Cues[i]
			if named[i] || !Shows(src) {
				continue
			}
			if !slices.ContainsFunc(back.Cues, func(got caption.Cue) bool {
				return sameText(got.Text, src.Text) && withinFrame(got.StartMs, src.StartMs) && withinFrame(got.EndMs, src.EndMs)
			}) {
				t.Errorf("cue %d (%d-%d %q) did not come back with its text and its times within a frame, and no change names it",
					i, src.StartMs, src.EndMs, src.Text)
			}
		}
	}, "testdata/*.in.scc", "testdata/*.in.json")
}

// assertDelivered writes tr, reads it back and checks the result against
// Delivered(tr): the same cues, text and times; it returns the result.
func assertDelivered(t *testing.T, tr *caption.Track) *caption.Track {
	t.Helper()
	written := golden.MustWrite(t, Write, tr)
	back, diags := golden.MustParse(t, Parse, written)
	for _, d := range diags {
		if d.Severity != caption.SeverityInfo && d.Code != caption.CodeNoCues {
			t.Errorf("the written file reads back with %s %s on line %d: %s", d.Severity, d.Code, d.Line, d.Message)
		}
	}
	want := Delivered(tr)
	if len(back.Cues) != len(want.Cues) {
		t.Fatalf("read back %d cues, Delivered says %d\n%s", len(back.Cues), len(want.Cues), written)
	}
	for i := range want.Cues {
		w, g := &want.Cues[i], &back.Cues[i]
		if g.StartMs != w.StartMs || g.EndMs != w.EndMs || g.Text != w.Text {
			t.Errorf("caption %d: read back %d-%d %q, Delivered says %d-%d %q", i, g.StartMs, g.EndMs, g.Text, w.StartMs, w.EndMs, w.Text)
		}
	}
	return back
}

// sameText compares texts as SCC carries them: trimmed lines, empty ones
// left out.
func sameText(a, b string) bool {
	norm := func(s string) string {
		var lines []string
		for l := range strings.SplitSeq(s, "\n") {
			if l = strings.TrimSpace(l); l != "" {
				lines = append(lines, l)
			}
		}
		return strings.Join(lines, "\n")
	}
	return norm(a) == norm(b)
}

// withinFrame reports whether times a and b fall within a frame of each
// other.
func withinFrame(a, b int64) bool { return abs64(msToFrame(a)-msToFrame(b)) <= 1 }

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// TestNonDropFrame writes the same track with each kind of timecode: the
// frames are the same, so the captions read back at the same times.
func TestNonDropFrame(t *testing.T) {
	t.Parallel()
	tr := &caption.Track{Version: caption.Version, Cues: []caption.Cue{
		{StartMs: 3_600_000, EndMs: 3_602_000, Text: "An hour in"},
		{StartMs: 3_605_000, EndMs: 3_607_000, Text: "Five seconds later"},
	}}
	var df, ndf bytes.Buffer
	if _, err := Encode(&df, tr, Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := Encode(&ndf, tr, Options{NonDropFrame: true}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(df.String(), "00:59:59;") || !strings.Contains(ndf.String(), "00:59:55:") {
		t.Errorf("loading the caption an hour in starts at 00:59:59;xx drop-frame and 00:59:55:xx non-drop-frame:\n%s\n%s", df.String(), ndf.String())
	}
	a, _ := golden.MustParse(t, Parse, df.Bytes())
	b, _ := golden.MustParse(t, Parse, ndf.Bytes())
	if len(a.Cues) != 2 || len(b.Cues) != 2 {
		t.Fatalf("read back %d and %d cues", len(a.Cues), len(b.Cues))
	}
	for i := range a.Cues {
		if a.Cues[i].StartMs != b.Cues[i].StartMs || a.Cues[i].EndMs != b.Cues[i].EndMs || abs64(a.Cues[i].StartMs-tr.Cues[i].StartMs) > 17 {
			t.Errorf("cue %d: drop-frame %d-%d, non-drop-frame %d-%d, source %d-%d", i,
				a.Cues[i].StartMs, a.Cues[i].EndMs, b.Cues[i].StartMs, b.Cues[i].EndMs, tr.Cues[i].StartMs, tr.Cues[i].EndMs)
		}
	}
}

// TestWriteNeverOverflows: whatever a cue holds, every row written has at
// most 32 columns and every caption at most 4 rows, and the file is
// deterministic.
func TestWriteNeverOverflows(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("word ", 40) + strings.Repeat("x", 70)
	tr := &caption.Track{Version: caption.Version, Cues: []caption.Cue{
		{StartMs: 1000, EndMs: 9000, Text: long + "\n" + strings.Repeat("line\n", 9) + "€…ﬁ"},
	}}
	for _, c := range Delivered(tr).Cues {
		lines := strings.Split(c.Text, "\n")
		if len(lines) > maxRows {
			t.Errorf("caption %q has %d rows", c.Text, len(lines))
		}
		for _, l := range lines {
			if n := len([]rune(l)); n > screenCols {
				t.Errorf("row %q has %d columns", l, n)
			}
		}
	}
	a, b := golden.MustWrite(t, Write, tr), golden.MustWrite(t, Write, tr)
	if !bytes.Equal(a, b) {
		t.Error("two writes of the same track differ")
	}
	assertDelivered(t, tr)
}

// TestWriteOverlap writes cues that overlap (testdata/write_overlap.in.json:
// two speakers at once, partial overlaps, three cues at once, more rows
// than a caption has, an overlap of a frame, cues at the top and the
// bottom, a long cue with others coming and going; TestWriteGolden pins
// the file and the changes) and reads the file back, with this reader and
// with ffmpeg's. Every line of every cue is on screen throughout its own
// cue's time, to the frame (within one), unless a change says its time
// moved; and every line of every cue is on screen at some time.
//
// ffmpeg reads a timecode HH:MM:SS;FF as HH:MM:SS plus FF×33 ms, drop-frame
// or not, and times the codes of a line at its timecode: the writer
// starts a line where each caption is displayed and erased, so every time
// ffmpeg gives is a label of the file, which maps back to its frame. Its
// times are then held to the same frame as this reader's.
func TestWriteOverlap(t *testing.T) {
	t.Parallel()
	tr, _ := golden.MustParse(t, caption.ParseJSON, mustReadFile(t, "testdata/write_overlap.in.json"))
	var out bytes.Buffer
	changes, err := Encode(&out, tr, Options{})
	if err != nil {
		t.Fatal(err)
	}
	moved := map[int]bool{}
	for _, d := range changes {
		if d.CueIndex != nil && (d.Code == CodeGapTooSmall || d.Code == CodeOverlappingCues) {
			moved[*d.CueIndex] = true
		}
	}
	var held []refCue
	for i := range tr.Cues {
		if c := &tr.Cues[i]; !moved[i] {
			held = append(held, refCue{start: msToFrame(c.StartMs), end: msToFrame(c.EndMs), text: c.Text})
		}
	}
	if len(held) == len(tr.Cues) || len(held) == 0 {
		t.Fatalf("the input should have cues that hold their time and cues that cannot: %d of %d moved", len(moved), len(tr.Cues))
	}
	back, _ := golden.MustParse(t, Parse, out.Bytes())
	ff := ffmpegCues(t, out.Bytes())
	for _, reading := range []struct {
		name string
		cues []caption.Cue
	}{{"this reader", back.Cues}, {"ffmpeg", ff}} {
		if total, shown, missed := onScreen(held, reading.cues, rowsOf, 1); shown != total {
			t.Errorf("%s: %d of %d lines on screen throughout their cue's time; not: %s", reading.name, shown, total, strings.Join(missed, ", "))
		}
		for i := range tr.Cues {
			for _, l := range rowsOf(tr.Cues[i].Text) {
				if !slices.ContainsFunc(reading.cues, func(c caption.Cue) bool { return slices.Contains(rowsOf(c.Text), l) }) {
					t.Errorf("%s: line %q is never on screen", reading.name, l)
				}
			}
		}
	}
}

// rowsOf returns the lines of a text as rows show them, trimmed.
func rowsOf(text string) []string {
	var out []string
	for l := range strings.SplitSeq(text, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// ffmpegCues reads an SCC file with drop-frame timecodes, written by
// Write, with ffmpeg, and returns its cues on the frames of the labels
// ffmpeg read.
func ffmpegCues(t *testing.T, scc []byte) []caption.Cue {
	t.Helper()
	path := filepath.Join(t.TempDir(), "out.scc")
	if err := os.WriteFile(path, scc, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("ffmpeg", "-nostdin", "-v", "error", "-i", path, "-f", "srt", "-").Output()
	if err != nil {
		t.Fatalf("ffmpeg: %v", err)
	}
	var cues []caption.Cue
	for _, r := range parseFFmpegSRT(t, out, true) {
		if r.open {
			t.Fatalf("ffmpeg gave a time that is no label of the file: %+v", r)
		}
		cues = append(cues, caption.Cue{StartMs: frameToMs(r.start), EndMs: frameToMs(r.end), Text: r.text})
	}
	return cues
}

func mustReadFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestWriteOverlapProperties writes many tracks of cues that overlap at
// random (a fixed seed): each reads back to what Delivered says, every
// line of every cue is on screen at some time, and those of the cues no
// change says moved are on screen throughout their cue's time, to the
// frame (within one).
func TestWriteOverlapProperties(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(29, 4))
	words := strings.Fields("a line of words that people say when they talk over one another")
	for n := range 300 {
		tr := &caption.Track{Version: caption.Version}
		for i := range 2 + rng.IntN(12) {
			start := int64(rng.IntN(20_000))
			var lines []string
			for range 1 + rng.IntN(3+rng.IntN(3)) {
				lines = append(lines, fmt.Sprintf("%d:%s %s", i+1, words[rng.IntN(len(words))], words[rng.IntN(len(words))]))
			}
			c := caption.Cue{StartMs: start, EndMs: start + 30 + int64(rng.IntN(5000)), Text: strings.Join(lines, "\n")}
			if rng.IntN(5) == 0 {
				c.Placement = &caption.Placement{Area: caption.AreaTop}
			}
			tr.Cues = append(tr.Cues, c)
		}
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			back := assertDelivered(t, tr)
			moved := map[int]bool{}
			for _, d := range Changes(tr) {
				if d.CueIndex != nil && d.Severity == caption.SeverityWarning {
					moved[*d.CueIndex] = true
				}
			}
			var held []refCue
			for i := range tr.Cues {
				c := &tr.Cues[i]
				if !Shows(c) {
					continue
				}
				for _, l := range rowsOf(c.Text) {
					if !slices.ContainsFunc(back.Cues, func(b caption.Cue) bool { return slices.Contains(rowsOf(b.Text), l) }) {
						t.Errorf("line %q of cue %d is never on screen", l, i+1)
					}
				}
				if !moved[i] && len(rowsOf(c.Text)) <= maxRows {
					held = append(held, refCue{start: msToFrame(c.StartMs), end: msToFrame(c.EndMs), text: c.Text})
				}
			}
			if total, shown, missed := onScreen(held, back.Cues, rowsOf, 1); shown != total {
				t.Errorf("%d of %d lines on screen throughout their cue's time; not: %s\ncues: %+v\nread: %+v", shown, total, strings.Join(missed, ", "), tr.Cues, back.Cues)
			}
		})
	}
}
