package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/engine"
	"github.com/captionqa/captionqa/backend/server"
)

// slowSRT is an SRT file of n cues in which every cue breaks two rules:
// its first line is too long for any platform and it is read too fast,
// so a check of the YouTube preset suggests 2n changes, as the 40,000-cue
// file of issue 12 did (4.2 MB, 80,000 diagnostics).
func slowSRT(n int) []byte {
	b := make([]byte, 0, n*110)
	for i := range n {
		start := int64(i) * 2000
		b = strconv.AppendInt(b, int64(i+1), 10)
		b = append(b, '\n')
		b = caption.AppendClock(b, start, 2, ',')
		b = append(b, " --> "...)
		b = caption.AppendClock(b, start+1500, 2, ',')
		b = append(b, "\nThis first line of the caption is far too long to show\nand it is gone too soon, "...)
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, "\n\n"...)
	}
	return b
}

// TestProcessPrintsIndentedJSON: `process FILE` prints, byte for byte,
// what encoding/json's indenting encoder prints for the same result, with
// the lists capped by default and whole with --all-diagnostics.
func TestProcessPrintsIndentedJSON(t *testing.T) {
	t.Parallel()
	eng, err := server.NewEngine(maxInput)
	if err != nil {
		t.Fatal(err)
	}
	slow := writeFile(t, "slow.srt", string(slowSRT(engine.MaxPerCode+30)))
	styled := writeFile(t, "styled.srt", sampleSRT+"\n3\n00:00:05,000 --> 00:00:06,000\n<b>\"Quotes\" & <angles> \u2028 é</b>\n")
	tests := []struct {
		name string
		file string
		args []string
		req  engine.Request
	}{
		{"capped", slow, nil, engine.Request{Preset: "youtube"}},
		{"all diagnostics", slow, []string{"--all-diagnostics"}, engine.Request{Preset: "youtube", AllDiagnostics: true}},
		{"fixed and graded", slow, []string{"--preset", "generic", "--fix-profile", "auto-split-cps", "--standard", "dcmp"},
			engine.Request{Preset: "generic", FixProfile: "auto-split-cps", Standard: "dcmp"}},
		{"styled, escapes", styled, []string{"--preset", "html5", "--standard", "wcag-2.1-aa"}, engine.Request{Preset: "html5", Standard: "wcag-2.1-aa"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, out, errOut := run(t, "", append([]string{"process", tt.file}, tt.args...)...)
			data, err := os.ReadFile(tt.file)
			if err != nil {
				t.Fatal(err)
			}
			req := tt.req
			req.Filename, req.Data = tt.file, data
			res, err := eng.Process(context.Background(), req)
			if err != nil {
				t.Fatal(err)
			}
			var want bytes.Buffer
			enc := json.NewEncoder(&want)
			enc.SetEscapeHTML(false)
			enc.SetIndent("", "  ")
			if err := enc.Encode(res); err != nil {
				t.Fatal(err)
			}
			if out != want.String() {
				t.Errorf("stdout differs from encoding/json's (stderr %q):\n got %.600s\nwant %.600s", errOut, out, want.String())
			}
		})
	}
}

// TestProcessCapsLists: by default a FILE's result keeps the first
// engine.MaxPerCode entries of each code and counts the rest, with a
// summary that still counts them all; --all-diagnostics lists every one.
func TestProcessCapsLists(t *testing.T) {
	t.Parallel()
	n := engine.MaxPerCode + 30
	slow := writeFile(t, "slow.srt", string(slowSRT(n)))
	decode := func(out string) engine.Result {
		t.Helper()
		var r engine.Result
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("stdout is not JSON: %v", err)
		}
		if r.Report == nil {
			r.Report = &engine.Report{}
		}
		return r
	}
	_, out, _ := run(t, "", "process", slow, "--all-diagnostics")
	all := decode(out)
	_, out, _ = run(t, "", "process", slow)
	capped := decode(out)
	if all.Report.Omitted != nil || all.Omitted != nil {
		t.Errorf("--all-diagnostics omitted %+v %+v", all.Report.Omitted, all.Omitted)
	}
	check := func(list string, all, capped []caption.Diagnostic, omitted []engine.Omission) {
		t.Helper()
		counts := map[string]int{}
		for _, e := range all {
			counts[e.Code]++
		}
		if counts["reading_speed_high"] != n || counts["line_too_long"] != n {
			t.Fatalf("%s: counts %v; want %d reading_speed_high and line_too_long", list, counts, n)
		}
		kept := map[string]int{}
		for _, e := range capped {
			kept[e.Code]++
		}
		left := map[string]int{}
		for _, o := range omitted {
			if o.List != list {
				t.Errorf("omission %+v in the %s list", o, list)
			}
			left[o.Code] += o.Count
		}
		for code, c := range counts {
			if kept[code] != min(c, engine.MaxPerCode) || left[code] != max(c-engine.MaxPerCode, 0) {
				t.Errorf("%s: %d %s kept and %d omitted of %d; want %d and %d",
					list, kept[code], code, left[code], c, min(c, engine.MaxPerCode), max(c-engine.MaxPerCode, 0))
			}
		}
	}
	check("diagnostics", all.Report.Diagnostics, capped.Report.Diagnostics, capped.Report.Omitted)
	check("suggestions", all.Suggestions, capped.Suggestions, capped.Omitted)
	want := strconv.Itoa(len(all.Suggestions)) + " suggestions"
	if capped.Report.Summary != all.Report.Summary || !strings.Contains(capped.Report.Summary, want) {
		t.Errorf("summaries %q and %q; want both to count %s", capped.Report.Summary, all.Report.Summary, want)
	}
}
