package ass

import (
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/internal/golden"
)

// parseFile parses a corpus file (slash separated), failing on an I/O
// error, and checks the invariants.
func parseFile(t *testing.T, rel string) (*caption.Track, []caption.Diagnostic) {
	t.Helper()
	return parseChecked(t, golden.ReadCorpus(t, rel))
}

// parseChecked parses src and checks the invariants.
func parseChecked(t *testing.T, src []byte) (*caption.Track, []caption.Diagnostic) {
	t.Helper()
	track, diags := golden.MustParse(t, Parse, src)
	checkInvariants(t, track, diags)
	return track, diags
}

// TestCorpusAll reads every ASS and SSA file of the shared corpus: none
// may panic, and a file with Dialogue lines must yield cues.
func TestCorpusAll(t *testing.T) {
	t.Parallel()
	golden.Corpus(t, func(t *testing.T, c golden.Case) {
		track, diags := parseChecked(t, c.Input)
		if hasDialogue(c.Input) && len(track.Cues) == 0 {
			t.Errorf("the file has Dialogue lines but gave no cues; diagnostics:\n%s", golden.DiagLines(diags))
		}
	}, ".ass", ".ssa")
}

func hasDialogue(src []byte) bool {
	for _, line := range caption.SplitLines(string(src)) {
		if strings.HasPrefix(strings.TrimSpace(line), "Dialogue:") {
			return true
		}
	}
	return false
}

// TestCorpusAstisub checks the cue times and lines go-astisub's tests
// assert for its SSA inputs. Our reader agrees with go-astisub on all of
// them, including \n as a line break, because both inputs are SSA v4.00
// scripts (see the package comment); in an ASS script without WrapStyle 2
// we would read \n as a space where go-astisub breaks the line.
func TestCorpusAstisub(t *testing.T) {
	t.Parallel()
	checked := 0
	for _, e := range golden.Astisub(t) {
		ext := strings.ToLower(filepath.Ext(e.Input))
		if (ext != ".ssa" && ext != ".ass") || e.Cues == nil {
			continue
		}
		checked++
		t.Run(e.Input, func(t *testing.T) {
			t.Parallel()
			track, _ := parseFile(t, "go-astisub/testdata/"+e.Input)
			if len(track.Cues) != len(e.Cues) {
				t.Fatalf("got %d cues, want %d", len(track.Cues), len(e.Cues))
			}
			for i, want := range e.Cues {
				got := track.Cues[i]
				ws, we := want.StartMs(), want.EndMs()
				if got.StartMs != ws || got.EndMs != we {
					t.Errorf("cue %d: times %d..%d, want %d..%d", i, got.StartMs, got.EndMs, ws, we)
				}
				if lines := got.Lines(); !reflect.DeepEqual(lines, want.Lines) {
					t.Errorf("cue %d: lines %q, want %q", i, lines, want.Lines)
				}
			}
		})
	}
	if checked == 0 {
		t.Fatal("the manifest lists no SSA inputs with cues")
	}
}

// TestCorpusAstisubDetails checks what the manifest's note says about
// example-in.ssa beyond cue times and text.
func TestCorpusAstisubDetails(t *testing.T) {
	t.Parallel()
	track, diags := parseFile(t, "go-astisub/testdata/example-in.ssa")
	var styles []string
	for _, c := range track.Cues {
		styles = append(styles, c.Style)
	}
	if want := []string{"1", "2", "3", "1", "2", "3"}; !reflect.DeepEqual(styles, want) {
		t.Errorf("cue styles %q, want %q", styles, want)
	}
	if len(track.Styles) != 3 {
		t.Errorf("got %d styles, want 3", len(track.Styles))
	}
	first := track.Cues[0]
	if first.Voice != "Cher" {
		t.Errorf("first voice %q, want Cher", first.Voice)
	}
	var ext cueExt
	if err := json.Unmarshal(first.Ext[Format], &ext); err != nil {
		t.Fatalf("first cue ext: %v", err)
	}
	want := cueExt{MarginL: 1234, MarginR: 2345, MarginV: 3456, Effect: "test", Pos: &[2]float64{400, 570}}
	if !reflect.DeepEqual(ext, want) {
		t.Errorf("first cue ext %+v, want %+v", ext, want)
	}
	var info infoExt
	if err := json.Unmarshal(track.Ext[Format], &info); err != nil {
		t.Fatal(err)
	}
	if info.ScriptType != "v4.00" || info.PlayResY != 600 {
		t.Errorf("script info %+v, want ScriptType v4.00 and PlayResY 600", info)
	}
	// The file has a "[Unknown]" section and three "Not understood line"s.
	var unknown int
	for _, d := range diags {
		if d.Code == caption.CodeMalformedBlock {
			unknown++
		}
	}
	if unknown != 4 {
		t.Errorf("got %d malformed_block diagnostics, want 4:\n%s", unknown, golden.DiagLines(diags))
	}
}

// TestCorpusPysubs2 checks the pysubs2 files. Its manifest asserts no cue
// data, only that each *_pysubs2_ref.ass is pysubs2's round trip of the
// *_aegisub.ass next to it, so both must read to the same cues; the cue
// contents below are read off the files themselves.
func TestCorpusPysubs2(t *testing.T) {
	t.Parallel()
	dir := "pysubs2/tests/data/"
	tests := []struct {
		files    []string
		wantCues []caption.Cue
	}{
		{
			files:    []string{"subtitle_with_attached_fonts_aegisub.ass", "subtitle_with_attached_fonts_pysubs2_ref.ass"},
			wantCues: []caption.Cue{{StartMs: 0, EndMs: 5000, Text: "Test subtitle.", Style: "Default"}},
		},
		{
			files:    []string{"subtitle_with_attached_images_aegisub.ass", "subtitle_with_attached_images_pysubs2_ref.ass"},
			wantCues: []caption.Cue{{StartMs: 0, EndMs: 5000, Text: "", Style: "Default"}},
		},
		{files: []string{"subtitle_with_attached_fonts_no_events.ass"}, wantCues: []caption.Cue{}},
	}
	for _, tt := range tests {
		for _, name := range tt.files {
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				track, diags := parseFile(t, dir+name)
				for i := range track.Cues {
					track.Cues[i].SourceLine = 0
				}
				if !reflect.DeepEqual(track.Cues, tt.wantCues) {
					t.Errorf("cues %+v, want %+v", track.Cues, tt.wantCues)
				}
				for _, d := range diags {
					if d.Severity != caption.SeverityInfo && d.Code != caption.CodeNoCues && d.Code != caption.CodeInvalidDocument {
						t.Errorf("unexpected diagnostic %+v", d)
					}
				}
			})
		}
	}
}

// TestCorpusPysubs2TTML checks ttml_example2.ass, which pysubs2 wrote from
// ttml_example2.ttml: ten cues in Default style, \N breaks kept.
func TestCorpusPysubs2TTML(t *testing.T) {
	t.Parallel()
	track, diags := parseFile(t, "pysubs2/tests/data/ttml_example2.ass")
	if len(diags) != 0 {
		t.Errorf("diagnostics:\n%s", golden.DiagLines(diags))
	}
	if len(track.Cues) != 10 {
		t.Fatalf("got %d cues, want 10", len(track.Cues))
	}
	checks := []struct {
		i          int
		start, end int64
		text       string
	}{
		{0, 1380, 5750, "TOP SAMPLE TEXT"},
		{5, 25880, 30170, "- Did he tell you what it was about?\n- He did"},
		{8, 40340, 45130, "to the United States,\nreleasing 29,000 rubber ducks"},
		{9, 45330, 50040, "into the Pacific Ocean."},
	}
	for _, c := range checks {
		got := track.Cues[c.i]
		if got.StartMs != c.start || got.EndMs != c.end || got.Text != c.text {
			t.Errorf("cue %d: %d..%d %q, want %d..%d %q", c.i, got.StartMs, got.EndMs, got.Text, c.start, c.end, c.text)
		}
	}
}

// TestCorpusAstisubV4Plus documents where we deliberately differ from
// go-astisub: it writes its line breaks as \n even in ASS (v4.00+) output,
// and reads them back as breaks. In an ASS script without WrapStyle 2,
// libass and VSFilter draw \n as a space and wrap the line themselves, so
// we read a space. (The manifest asserts no cues for this file.)
func TestCorpusAstisubV4Plus(t *testing.T) {
	t.Parallel()
	track, _ := parseFile(t, "go-astisub/testdata/example-out-v4plus.ssa")
	if len(track.Cues) != 6 {
		t.Fatalf("got %d cues, want 6", len(track.Cues))
	}
	if got, want := track.Cues[1].Text, "MAN: How did we end up here?"; got != want {
		t.Errorf("cue 1 text %q, want %q", got, want)
	}
}
