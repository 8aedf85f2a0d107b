package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/captionqa/captionqa/assets"
	"github.com/captionqa/captionqa/backend/analysis"
	"github.com/captionqa/captionqa/backend/engine"
	"github.com/captionqa/captionqa/backend/report"
)

// reportFormat is the QC report format a --report file's extension
// names, "" for none.
func reportFormat(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".html", ".htm":
		return report.HTML
	case ".pdf":
		return report.PDF
	case ".csv":
		return report.CSV
	}
	return ""
}

// writeReport writes the QC report of res, the engine's result on the
// caption file at path (data, read as from), checked against programme
// when it is not nil, to out in the format its extension names.
func writeReport(out, path string, data []byte, from string, res *engine.Result, programme *analysis.Analysis) error {
	name := filepath.Base(path)
	r := report.Build(report.Input{Title: name, Facts: []report.Fact{{Label: "File", Value: name}}, Generated: time.Now(),
		Filename: path, From: from, Data: data, Result: res, Media: programme})
	var b bytes.Buffer
	var err error
	switch reportFormat(out) {
	case report.HTML:
		err = report.WriteHTML(&b, r)
	case report.CSV:
		err = report.WriteCSV(&b, r)
	default:
		err = report.WritePDF(&b, r, assets.ReportFont)
	}
	if err != nil {
		return err
	}
	return os.WriteFile(out, b.Bytes(), 0o644)
}
