package report

import (
	"encoding/csv"
	"io"
)

// csvHeader names the columns of [WriteCSV]'s rows; it is read-only.
var csvHeader = []string{"section", "cue", "start", "end", "kind", "code", "message", "text"}

// WriteCSV writes r as CSV: a header row, then one row per problem, the
// media findings after the others (section "problems" or "media"). A
// cell that a spreadsheet would read as a formula is neutralised.
func WriteCSV(w io.Writer, r *Report) error {
	cw := csv.NewWriter(w)
	if err := cw.Write(csvHeader); err != nil {
		return err
	}
	rows := func(section string, fs []Finding) error {
		for _, f := range fs {
			row := []string{section, f.Cue, f.Start, f.End, f.Kind(), f.Code, f.Message, f.Text}
			for i := range row {
				row[i] = cell(row[i])
			}
			if err := cw.Write(row); err != nil {
				return err
			}
		}
		return nil
	}
	if err := rows("problems", r.Problems); err != nil {
		return err
	}
	if err := rows("media", r.Media); err != nil {
		return err
	}
	cw.Flush()
	return cw.Error()
}

// cell neutralises a value a spreadsheet would evaluate (one starting
// with =, +, -, @, a tab or a carriage return: CSV injection) by putting
// an apostrophe before it, which spreadsheets show as text.
func cell(s string) string {
	if s == "" {
		return s
	}
	switch s[0] {
	case '=', '+', '-', '@', '\t', '\r':
		return "'" + s
	}
	return s
}
