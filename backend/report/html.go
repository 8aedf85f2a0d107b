package report

import (
	"html/template"
	"io"
	"strings"

	"github.com/captionqa/captionqa/backend/engine"
)

// WriteHTML writes r as one self-contained HTML page: inline CSS, no
// script, no external asset, laid out to print on A4 (table headers
// repeat on each printed page).
func WriteHTML(w io.Writer, r *Report) error {
	return page.Execute(w, r)
}

// page is the report's template; it is read-only.
var page = template.Must(template.New("report").Funcs(template.FuncMap{
	"statusClass": func(s engine.Status) string { return strings.ReplaceAll(string(s), "_", "-") },
	"clauseClass": func(s string) string {
		switch s {
		case ClausePass:
			return "pass"
		case ClauseFail:
			return "fail"
		}
		return "hand"
	},
}).Parse(pageHTML))

const pageHTML = `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>QC report: {{.Title}}</title>
<style>
:root { --ink: #1b1f24; --muted: #5b6470; --line: #d5dae0; --ready: #1d7a3e; --adapt: #8a5a00; --attention: #b3261e; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1100px; padding: 24px 32px; font: 14px/1.45 "DejaVu Sans", "Segoe UI", Arial, sans-serif; color: var(--ink); }
header { border-bottom: 2px solid var(--ink); padding-bottom: 12px; margin-bottom: 16px; }
.kicker { text-transform: uppercase; letter-spacing: .08em; font-size: 12px; color: var(--muted); margin: 0; }
h1 { font-size: 24px; margin: 2px 0 0; overflow-wrap: anywhere; }
h2 { font-size: 17px; margin: 24px 0 8px; padding-bottom: 4px; border-bottom: 1px solid var(--line); break-after: avoid; }
.verdict { display: flex; gap: 16px; align-items: center; margin: 12px 0; }
.badge { display: inline-block; padding: 6px 14px; border-radius: 4px; font-weight: bold; font-size: 16px; color: #fff; white-space: nowrap; }
.badge.ready { background: var(--ready); } .badge.will-adapt { background: var(--adapt); } .badge.needs-attention { background: var(--attention); }
.summary { margin: 0; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 16px; margin: 0; }
dl.facts dt { color: var(--muted); } dl.facts dd { margin: 0; overflow-wrap: anywhere; }
table { width: 100%; border-collapse: collapse; font-size: 13px; }
thead { display: table-header-group; }
th { text-align: left; background: #eef1f4; border-bottom: 1px solid var(--line); padding: 5px 6px; }
td { border-bottom: 1px solid var(--line); padding: 5px 6px; vertical-align: top; overflow-wrap: anywhere; }
tr { break-inside: avoid; }
td.num, td.tc { white-space: nowrap; font-variant-numeric: tabular-nums; }
td.tc { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 12px; }
.text { color: var(--muted); }
td.code, td.kind { white-space: nowrap; overflow-wrap: normal; }
.kind.block { color: var(--attention); font-weight: bold; }
.pass { color: var(--ready); font-weight: bold; } .fail { color: var(--attention); font-weight: bold; } .hand { color: var(--adapt); font-weight: bold; }
.none { color: var(--muted); font-style: italic; }
.note { color: var(--muted); font-size: 12px; }
footer { margin-top: 28px; border-top: 1px solid var(--line); padding-top: 8px; color: var(--muted); font-size: 12px; }
@page { size: A4; margin: 14mm 12mm; }
@media print { body { padding: 0; max-width: none; font-size: 11px; } table { font-size: 10px; } .badge { -webkit-print-color-adjust: exact; print-color-adjust: exact; } }
</style>
</head>
<body>
<header>
<p class="kicker">Caption QC report</p>
<h1>{{.Title}}</h1>
<div class="verdict"><span class="badge {{statusClass .Status}}">{{.Verdict}}</span><p class="summary">{{.Summary}}</p></div>
<dl class="facts">
{{- range .Facts}}
<dt>{{.Label}}</dt><dd>{{.Value}}</dd>
{{- end}}
<dt>Generated</dt><dd>{{.Generated}}</dd>
</dl>
</header>

<section>
<h2>Problems by cue ({{len .Problems}})</h2>
{{- if .Problems}}
<table>
<thead><tr><th>Cue</th><th>Start</th><th>End</th><th>Kind</th><th>Rule</th><th>Problem</th><th>Text</th></tr></thead>
<tbody>
{{- range .Problems}}
<tr><td class="num">{{.Cue}}</td><td class="tc">{{.Start}}</td><td class="tc">{{.End}}</td><td class="kind{{if .Blocking}} block{{end}}">{{.Kind}}</td><td class="code">{{.Code}}</td><td>{{.Message}}</td><td class="text">{{.Text}}</td></tr>
{{- end}}
</tbody>
</table>
{{- else}}
<p class="none">No problem remains in the delivery.</p>
{{- end}}
<p class="note">{{.TimeBase}}</p>
</section>

<section>
<h2>Changes made ({{len .Changes}})</h2>
{{- if .Changes}}
<table>
<thead><tr><th>Cue</th><th>Start</th><th>End</th><th>Rule</th><th>Action</th><th>Change</th></tr></thead>
<tbody>
{{- range .Changes}}
<tr><td class="num">{{.Cue}}</td><td class="tc">{{.Start}}</td><td class="tc">{{.End}}</td><td class="code">{{.Code}}</td><td class="code">{{.Action}}</td><td>{{.Message}}</td></tr>
{{- end}}
</tbody>
</table>
<p class="note">Cue numbers and times are those of the checked file, before the change.</p>
{{- else}}
<p class="none">No change was made.</p>
{{- end}}
</section>

{{- with .Standard}}
<section>
<h2>Standard: {{.Title}}</h2>
<p>{{.Pass}} pass, {{.Fail}} fail, {{.NotEvaluated}} to check by hand.</p>
<table>
<thead><tr><th>Clause</th><th>Title</th><th>Status</th><th>Requirement</th><th>Detail</th></tr></thead>
<tbody>
{{- range .Clauses}}
<tr><td class="num">{{.ID}}</td><td>{{.Title}}</td><td class="{{clauseClass .Status}}">{{.Status}}</td><td>{{.Requirement}}</td><td>{{.Detail}}</td></tr>
{{- end}}
</tbody>
</table>
</section>
{{- end}}

<section>
<h2>Sync and shot changes</h2>
{{- if not .HasMedia}}
<p class="none">No media analysis: sync, speech and shot changes were not checked.</p>
{{- else if .Media}}
<table>
<thead><tr><th>Cue</th><th>Start</th><th>End</th><th>Kind</th><th>Rule</th><th>Finding</th><th>Text</th></tr></thead>
<tbody>
{{- range .Media}}
<tr><td class="num">{{.Cue}}</td><td class="tc">{{.Start}}</td><td class="tc">{{.End}}</td><td class="kind{{if .Blocking}} block{{end}}">{{.Kind}}</td><td class="code">{{.Code}}</td><td>{{.Message}}</td><td class="text">{{.Text}}</td></tr>
{{- end}}
</tbody>
</table>
{{- else}}
<p class="none">The captions match the programme's speech and shot changes: no finding.</p>
{{- end}}
</section>
{{- if .Notes}}
<section>
<h2>Not listed</h2>
<ul>{{range .Notes}}<li>{{.}}</li>{{end}}</ul>
</section>
{{- end}}
<footer>Made by CaptionQA. Problems are those of the delivered file; a suggestion does not block delivery.</footer>
</body>
</html>
`
