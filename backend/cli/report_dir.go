package cli

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/captionqa/captionqa/backend/engine"
)

type totals struct {
	Files          int `json:"files"`
	Ready          int `json:"ready"`
	WillAdapt      int `json:"willAdapt"`
	NeedsAttention int `json:"needsAttention"`
	Failed         int `json:"failed"`
	// Deliveries counts the deliveries --out-dir wrote; absent without it.
	Deliveries *int `json:"deliveries,omitempty"`
}

// count adds up the results; outDir is --out-dir's folder ("" without it).
func count(results []fileResult, outDir string) totals {
	t := totals{Files: len(results)}
	if outDir != "" {
		n := 0
		for _, r := range results {
			if r.Delivery != "" {
				n++
			}
		}
		t.Deliveries = &n
	}
	for _, r := range results {
		switch r.Status {
		case string(engine.Ready):
			t.Ready++
		case string(engine.WillAdapt):
			t.WillAdapt++
		case string(engine.NeedsAttention):
			t.NeedsAttention++
		default:
			t.Failed++
		}
	}
	return t
}

// writeTable prints one row per file and the totals. Columns are aligned
// by display width, so a Japanese name (two columns a character) does not
// push its row out of line. When a file failed, a REASON column gives the
// error's message, cut to fit the terminal's width when stdout is one.
// With --out-dir (outDir) a last line counts the deliveries written.
func writeTable(env Env, results []fileResult, outDir string) {
	t := count(results, outDir)
	rows := [][]string{{"FILE", "FORMAT", "CUES", "STATUS", "REMAINING", "SUGGESTIONS"}}
	if t.Failed > 0 {
		rows[0] = append(rows[0], "REASON")
	}
	for _, r := range results {
		format := r.InputFormat
		if format == "" {
			format = "-"
		}
		row := []string{visible(r.File), format, strconv.Itoa(r.Cues), r.Status, strconv.Itoa(r.Remaining), strconv.Itoa(r.Suggestions)}
		if t.Failed > 0 {
			reason := ""
			if r.Status == statusFailed {
				reason = visible(r.Summary)
			}
			row = append(row, reason)
		}
		rows = append(rows, row)
	}
	width := 0
	if isTerminal(env.Stdout) {
		width = terminalWidth(env.Stdout)
	}
	for _, line := range tableLines(rows, width) {
		fmt.Fprintln(env.Stdout, line)
	}
	noun := "files"
	if t.Files == 1 {
		noun = "file"
	}
	fmt.Fprintf(env.Stdout, "\n%d %s: %d ready, %d will adapt, %d need attention, %d failed\n",
		t.Files, noun, t.Ready, t.WillAdapt, t.NeedsAttention, t.Failed)
	if t.Deliveries != nil {
		fmt.Fprintf(env.Stdout, "%s to %s\n", deliveriesLine(t), outDir)
	}
}

// deliveriesLine counts the deliveries --out-dir wrote: "3 deliveries written".
func deliveriesLine(t totals) string {
	n := 0
	if t.Deliveries != nil {
		n = *t.Deliveries
	}
	if n == 1 {
		return "1 delivery written"
	}
	return fmt.Sprintf("%d deliveries written", n)
}

// minLastColumn is the least room tableLines leaves the last column, even
// when the columns before it already fill the width.
const minLastColumn = 24

// tableLines aligns rows into columns by display width, two spaces apart,
// with no padding after the last. When width is above zero, the last
// column is cut at its end so a line fits in width columns, though never
// below minLastColumn.
func tableLines(rows [][]string, width int) []string {
	var widths []int
	for _, row := range rows {
		for i, cell := range row {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], columns(cell))
		}
	}
	const gap = "  "
	lines := make([]string, 0, len(rows))
	for _, row := range rows {
		var b strings.Builder
		for i, cell := range row {
			if i == len(row)-1 {
				if width > 0 {
					cell = cutEnd(cell, max(width-columns(b.String()), minLastColumn))
				}
				b.WriteString(cell)
				break
			}
			b.WriteString(padEnd(cell, widths[i]) + gap)
		}
		lines = append(lines, strings.TrimRight(b.String(), " "))
	}
	return lines
}

func writeJSONResults(env Env, results []fileResult, f processFlags) {
	enc := json.NewEncoder(env.Stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	_ = enc.Encode(struct {
		Preset     string       `json:"preset"`
		FixProfile string       `json:"fixProfile"`
		Standard   string       `json:"standard,omitempty"`
		Totals     totals       `json:"totals"`
		Files      []fileResult `json:"files"`
	}{f.preset, f.profile, f.standard, count(results, f.outDir), results})
}
