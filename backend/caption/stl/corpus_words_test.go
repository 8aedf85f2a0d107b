package stl

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/internal/corpus"
	"github.com/captionqa/captionqa/backend/internal/golden"
)

// TestCorpusWords tallies, for every .stl file of the corpus, how many of
// its words the reader puts in the right cue at the right frames, against
// a deliberately simple reading of the TTI blocks that shares nothing
// with the reader ([ttiReference]): each subtitle from its time code in
// to its time code out, its text the text field's bytes with the control
// codes taken as spaces. Words are compared by their ASCII letters and
// the ASCII characters in them ([skeleton]), which that reading gets
// right without the character tables. go-astisub's expectations for its files check the
// simple reading in turn, as do the files go-astisub wrote from them,
// which must read the same.
//
// A word of a subtitle is right when cues of the reader that hold it (as
// often) follow each other from the subtitle's first frame to its last;
// a cumulative set's cues, one per state of the screen, do. The tally
// per file is testdata/corpus_words.txt (go test -update rewrites it);
// every file must reach 95%.
func TestCorpusWords(t *testing.T) {
	t.Parallel()
	root := corpus.Dir(t)
	files := corpus.Glob(t, ".", ".stl")
	rows := make([]golden.WordRow, len(files))
	golden.CompareWordTally(t, "testdata/corpus_words.txt", rows)
	for i, path := range files {
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		t.Run(rel, func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			tr, diags := golden.MustParse(t, Parse, data)
			ref, rate, ok := ttiReference(data)
			row := golden.WordRow{File: rel}
			if !ok {
				if len(tr.Cues) > 0 || len(diags) == 0 {
					t.Errorf("not EBU STL to the simple reading, yet %d cues and diagnostics %+v", len(tr.Cues), diags)
				} else {
					row.Note = "not EBU STL: " + diags[0].Code + ": " + diags[0].Message
				}
				rows[i] = row
				return
			}
			var missed []string
			row.Words, row.Right, missed = onScreen(ref, tr.Cues, rate)
			switch {
			case row.Words == 0:
				row.Note = "no words"
			case row.Right*100 < 95*row.Words:
				t.Errorf("%d of %d words in the right cue at the right frames, under 95%%; missed: %s", row.Right, row.Words, strings.Join(missed, ", "))
			case len(missed) > 0:
				t.Logf("missed: %s", strings.Join(missed, ", "))
			}
			rows[i] = row
		})
	}
}

// TestCorpusWordsReference checks the simple reading against go-astisub:
// the cues its tests assert for its input, and the file it wrote from
// that input, which reads the same.
func TestCorpusWordsReference(t *testing.T) {
	t.Parallel()
	checked := 0
	for _, e := range golden.Astisub(t) {
		if !strings.HasSuffix(e.Input, ".stl") || !e.Parses {
			continue
		}
		in, _, _ := ttiReference(golden.ReadCorpus(t, "go-astisub/testdata/"+e.Input))
		out, _, _ := ttiReference(golden.ReadCorpus(t, "go-astisub/testdata/"+strings.Replace(e.Input, "-in", "-out", 1)))
		same := func(a, b refCue) bool {
			return a.start == b.start && a.end == b.end && slices.Equal(words(a.text), words(b.text))
		}
		if !slices.EqualFunc(in, out, same) {
			t.Errorf("%s: the simple reading of go-astisub's output differs:\n%+v\n%+v", e.Input, in, out)
		}
		for i, c := range e.Cues {
			want := refCue{start: c.StartMs() / 40, end: c.EndMs() / 40, text: strings.Join(c.Lines, "\n")}
			if i >= len(in) || in[i] != want {
				t.Errorf("%s cue %d: the simple reading has %+v; go-astisub %+v", e.Input, i, in[min(i, len(in)-1)], want)
			}
			checked++
		}
	}
	if checked == 0 {
		t.Error("the manifest asserts no STL cue")
	}
}

// refCue is a subtitle of the simple reading: its frames on the
// programme's clock and its text.
type refCue struct {
	start, end int64
	text       string
}

// ttiReference reads an STL file simply: the frame rate from the disk
// format code (STL25.01 and STL30.01), the programme start (TCP), then
// each TTI block that is not user data (extension block number F0-FE)
// or a comment (comment flag 1), its text field up to the unused-space
// code 0x8F joined with its extension blocks' up to the one numbered FF.
// In the text, 0x8A breaks the line, other control codes (below 0x20 and
// 0x80-0x9F) are spaces, a diacritical mark (0xC1-0xCF) is left off the
// letter after it, 0xA4 and 0xA6 are $ and # (as table 00 has them), other
// bytes above 0x7F are left out. Times are time
// codes less TCP, as EBU Tech 3264 defines TCP; a subtitle that ends
// before the programme starts is not shown, and when none ends after it,
// TCP does not apply (go-astisub's expectation for its file that does
// this). ok is false when the file is not STL to this reading. rate is
// the frames a second the time codes count.
func ttiReference(data []byte) (ref []refCue, rate int64, ok bool) {
	if len(data) < 1024 || string(data[3:6]) != "STL" {
		return nil, 0, false
	}
	switch string(data[3:11]) {
	case "STL25.01":
		rate = 25
	case "STL30.01":
		rate = 30
	default:
		return nil, 0, false
	}
	frames := func(b []byte) int64 {
		return ((int64(b[0])*60+int64(b[1]))*60+int64(b[2]))*rate + int64(b[3])
	}
	var tcp int64
	if s := string(data[256:264]); strings.TrimSpace(s) != "" {
		var h, m, sec, f int64
		if _, err := fmt.Sscanf(s, "%02d%02d%02d%02d", &h, &m, &sec, &f); err == nil {
			tcp = ((h*60+m)*60+sec)*rate + f
		}
	}
	var text []byte
	for b := data[1024:]; len(b) >= 128; b = b[128:] {
		ebn, tf := b[3], b[16:128]
		if ebn >= 0xF0 && ebn != 0xFF || b[15] == 1 {
			continue
		}
		if i := slices.Index(tf, 0x8F); i >= 0 {
			tf = tf[:i]
		}
		text = append(text, tf...)
		if ebn != 0xFF {
			continue
		}
		ref = append(ref, refCue{start: frames(b[5:9]), end: frames(b[9:13]), text: simpleText(text)})
		text = text[:0]
	}
	if slices.ContainsFunc(ref, func(r refCue) bool { return r.end > tcp }) {
		shown := ref[:0]
		for _, r := range ref {
			if r.end > tcp {
				shown = append(shown, refCue{start: max(r.start, tcp) - tcp, end: r.end - tcp, text: r.text})
			}
		}
		ref = shown
	}
	return ref, rate, true
}

// simpleText reads a text field as ttiReference says, lines trimmed and
// blank ones left out.
func simpleText(tf []byte) string {
	var line []byte
	var lines []string
	end := func() {
		if l := strings.Join(strings.Fields(string(line)), " "); l != "" {
			lines = append(lines, l)
		}
		line = line[:0]
	}
	for _, c := range tf {
		switch {
		case c == 0x8A:
			end()
		case c < 0x20 || c >= 0x80 && c < 0xA0:
			line = append(line, ' ')
		case c < 0x7F:
			line = append(line, c)
		case c == 0xA4, c == 0xA6:
			// Table 00 has $ and # up here too.
			line = append(line, c-0x80)
		}
	}
	end()
	return strings.Join(lines, "\n")
}

// skeleton is a word as the tally compares it: its ASCII characters, an
// accented letter of the reader's as its base letter.
func skeleton(word string) string {
	var b strings.Builder
	for _, r := range word {
		if base, ok := unaccented[r]; ok {
			r = base
		}
		if r > ' ' && r < 0x7F {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// unaccented is a read-only table of the accented Latin letters and
// their base letters.
var unaccented = func() map[rune]rune {
	accented, base := []rune("ÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝàáâãäåçèéêëìíîïñòóôõöùúûüýÿ"), "AAAAAACEEEEIIIINOOOOOUUUUYaaaaaaceeeeiiiinooooouuuuyy"
	m := make(map[rune]rune, len(accented))
	for i, r := range accented {
		m[r] = rune(base[i])
	}
	return m
}()

// words splits text into the skeletons of its words, leaving out those
// with none.
func words(text string) []string {
	var out []string
	for _, w := range strings.Fields(text) {
		if s := skeleton(w); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// onScreen counts the words of the subtitles, and those the cues show
// throughout: a word of a subtitle is shown when cues that hold it (as
// often) follow each other from its first frame to its last (a subtitle
// of no frames, a cue of none at its frame). Cue times are taken to
// frames at rate (30 is 29.97 fps video). missed describes the words
// that are not.
func onScreen(ref []refCue, got []caption.Cue, rate int64) (total, shown int, missed []string) {
	frame := func(ms int64) int64 {
		if rate == 30 {
			return (ms*30 + 500) / 1001
		}
		return (ms*rate + 500) / 1000
	}
	type span struct {
		start, end int64
		count      map[string]int
	}
	read := make([]span, len(got))
	for i := range got {
		s := span{start: frame(got[i].StartMs), end: frame(got[i].EndMs), count: map[string]int{}}
		for _, w := range words(got[i].Text) {
			s.count[w]++
		}
		read[i] = s
	}
	var covers func(w string, n int, from int64, r *refCue) bool
	covers = func(w string, n int, from int64, r *refCue) bool {
		for i := range read {
			s := &read[i]
			if s.start != from || s.count[w] < n || s.end > r.end || s.end <= from && r.end > from {
				continue
			}
			if s.end == r.end || covers(w, n, s.end, r) {
				return true
			}
		}
		return false
	}
	for i := range ref {
		r := &ref[i]
		ws := words(r.text)
		count := map[string]int{}
		for _, w := range ws {
			count[w]++
		}
		total += len(ws)
		for _, w := range ws {
			n := count[w]
			if n == 0 {
				continue // counted with its first
			}
			count[w] = 0
			k := n
			for k > 0 && !covers(w, k, r.start, r) {
				k--
			}
			shown += k
			if k < n {
				missed = append(missed, fmt.Sprintf("%q (%d of %d, frames %d-%d)", w, n-k, n, r.start, r.end))
			}
		}
	}
	return total, shown, missed
}
