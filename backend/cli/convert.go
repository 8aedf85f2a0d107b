package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/caption/format"
)

const convertUsage = "[--from FMT] [--to srt|vtt|ttml|ebu-tt-d|scc|stl|json] FILE|-"

// runConvert reads one caption file, writes it in another format to
// standard output and its diagnostics as JSON lines to standard error.
// It exits 0 when cues were produced, 1 when the input yielded none and 2
// on a usage error.
func runConvert(_ context.Context, args []string, env Env) int {
	fs := newFlagSet("convert", convertUsage, env)
	from := fs.String("from", "", "input format: srt, vtt, sbv, ass, ssa, ttml, dfxp, scc, stl or json (default: detected from the content)")
	to := fs.String("to", format.VTT, "output format: srt, vtt, ttml, ebu-tt-d, scc, stl (EBU STL, binary) or json (the CaptionQA IR)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return usageFailed(err)
	}
	if len(pos) != 1 {
		fs.Usage()
		return usageError(env, "convert takes exactly one FILE (or - for standard input)")
	}
	if *from != "" {
		if _, err := format.Normalize(*from); err != nil {
			return usageError(env, "--from: %v", err)
		}
	}
	out, err := format.Normalize(*to)
	if err == nil && !slices.Contains(format.Writable(), out) {
		err = fmt.Errorf("%s can be read but not written", out)
	}
	if err != nil {
		return usageError(env, "--to: %v (writable: %s)", err, strings.Join(format.Writable(), ", "))
	}
	data, err := readInput(pos[0], env)
	if err != nil {
		return usageError(env, "%v", err)
	}
	_, track, diags, err := format.Read(pos[0], *from, data)
	if err != nil {
		return usageError(env, "%v", err)
	}
	writeDiagnostics(env, diags)
	if len(track.Cues) == 0 {
		return ExitEmpty
	}
	writeDiagnostics(env, leftOut(out, track))
	// What a writer had to change to fit its format (SCC: 608's 32 columns,
	// 4 rows and character set; EBU STL: its Latin character set and
	// frames), cue by cue.
	writeDiagnostics(env, format.Changes(out, track))
	w := bufio.NewWriterSize(env.Stdout, 64<<10)
	if err := format.Write(out, w, track); err != nil {
		fmt.Fprintf(env.Stderr, "captionqa: %v\n", err)
		return ExitEmpty
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintf(env.Stderr, "captionqa: write output: %v\n", err)
		return ExitEmpty
	}
	return ExitOK
}

// leftOut returns a warning for each cue of t that the writer of format f
// cannot carry whole: the styling or placement it has no syntax for
// ([format.UnwrittenCue]), or the whole cue when the format does not
// deliver it ([format.Delivers]), so that a conversion never loses part of
// a file without a word. The process command reports the same losses as
// changes of the delivery.
func leftOut(f string, t *caption.Track) []caption.Diagnostic {
	lost := map[int]string{}
	format.EachUnwritten(f, t, func(i int, features []string) { lost[i] = strings.Join(features, ", ") })
	var out []caption.Diagnostic
	for i := range t.Cues {
		d := caption.Diagnostic{Code: caption.CodeUnsupportedFeature, Severity: caption.SeverityWarning, Line: t.Cues[i].SourceLine}
		switch {
		case !format.Delivers(f, &t.Cues[i]):
			why := "without visible text"
			if c := &t.Cues[i]; c.EndMs < c.StartMs {
				why = "that ends before it starts"
			} else if c.EndMs == c.StartMs && strings.TrimSpace(c.Text) != "" {
				why = "without duration"
			}
			d.Message = fmt.Sprintf("cue %d was left out: %s shows no cue %s", i+1, format.Title(f), why)
		case lost[i] != "":
			d.Message = fmt.Sprintf("cue %d: left out, as %s cannot carry it: %s", i+1, format.Title(f), lost[i])
		default:
			continue
		}
		out = append(out, d)
	}
	return out
}

// writeDiagnostics prints one JSON object per line, the shape of a
// diagnostic in the API's reports.
func writeDiagnostics(env Env, diags []caption.Diagnostic) {
	enc := json.NewEncoder(env.Stderr)
	enc.SetEscapeHTML(false)
	for _, d := range diags {
		_ = enc.Encode(d)
	}
}
