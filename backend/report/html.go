package report

import (
	"bufio"
	"html"
	"io"
	"strconv"
	"strings"
)

// WriteHTML writes r as one self-contained HTML page: inline CSS, no
// script, no external asset, laid out to print on A4 (table headers
// repeat on each printed page). Every value is escaped. The page is
// written by hand rather than by html/template: the template engine's
// reflection keeps the linker from dropping unused methods across the
// whole binary, which made it some 16 MB larger.
func WriteHTML(w io.Writer, r *Report) error {
	b := bufio.NewWriter(w)
	p := &page{b: b}
	p.raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	p.raw("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	p.raw("<title>QC report: ").text(r.Title).raw("</title>\n<style>\n" + pageCSS + "</style>\n</head>\n<body>\n")
	p.raw("<header>\n<p class=\"kicker\">Caption QC report</p>\n<h1>").text(r.Title).raw("</h1>\n")
	p.raw("<div class=\"verdict\"><span class=\"badge " + strings.ReplaceAll(string(r.Status), "_", "-") + "\">").text(r.Verdict).
		raw("</span><p class=\"summary\">").text(r.Summary).raw("</p></div>\n<dl class=\"facts\">\n")
	for _, f := range r.Facts {
		p.raw("<dt>").text(f.Label).raw("</dt><dd>").text(f.Value).raw("</dd>\n")
	}
	p.raw("<dt>Generated</dt><dd>").text(r.Generated).raw("</dd>\n</dl>\n</header>\n")

	p.raw("\n<section>\n<h2>Problems by cue (" + strconv.Itoa(len(r.Problems)) + ")</h2>\n")
	if len(r.Problems) > 0 {
		p.findings("Problem", r.Problems)
	} else {
		p.raw("<p class=\"none\">No problem remains in the delivery.</p>\n")
	}
	p.raw("<p class=\"note\">").text(r.TimeBase).raw("</p>\n</section>\n")

	p.raw("\n<section>\n<h2>Changes made (" + strconv.Itoa(len(r.Changes)) + ")</h2>\n")
	if len(r.Changes) > 0 {
		p.raw("<table>\n<thead><tr><th>Cue</th><th>Start</th><th>End</th><th>Rule</th><th>Action</th><th>Change</th></tr></thead>\n<tbody>\n")
		for _, c := range r.Changes {
			p.raw("<tr>").cell("num", c.Cue).cell("tc", c.Start).cell("tc", c.End).cell("code", c.Code).cell("code", c.Action).cell("", c.Message).raw("</tr>\n")
		}
		p.raw("</tbody>\n</table>\n<p class=\"note\">Cue numbers and times are those of the checked file, before the change.</p>\n")
	} else {
		p.raw("<p class=\"none\">No change was made.</p>\n")
	}
	p.raw("</section>\n")

	if s := r.Standard; s != nil {
		p.raw("\n<section>\n<h2>Standard: ").text(s.Title).raw("</h2>\n")
		p.raw("<p>" + strconv.Itoa(s.Pass) + " pass, " + strconv.Itoa(s.Fail) + " fail, " + strconv.Itoa(s.NotEvaluated) + " to check by hand.</p>\n")
		p.raw("<table>\n<thead><tr><th>Clause</th><th>Title</th><th>Status</th><th>Requirement</th><th>Detail</th></tr></thead>\n<tbody>\n")
		for _, c := range s.Clauses {
			p.raw("<tr>").cell("num", c.ID).cell("", c.Title).cell(clauseClass(c.Status), c.Status).cell("", c.Requirement).cell("", c.Detail).raw("</tr>\n")
		}
		p.raw("</tbody>\n</table>\n</section>\n")
	}

	p.raw("\n<section>\n<h2>Sync and shot changes</h2>\n")
	switch {
	case !r.HasMedia:
		p.raw("<p class=\"none\">No media analysis: sync, speech and shot changes were not checked.</p>\n")
	case len(r.Media) > 0:
		p.findings("Finding", r.Media)
	default:
		p.raw("<p class=\"none\">The captions match the programme's speech and shot changes: no finding.</p>\n")
	}
	p.raw("</section>\n")
	if len(r.Notes) > 0 {
		p.raw("\n<section>\n<h2>Not listed</h2>\n<ul>")
		for _, n := range r.Notes {
			p.raw("<li>").text(n).raw("</li>")
		}
		p.raw("</ul>\n</section>\n")
	}
	p.raw("<footer>Made by CaptionQA. Problems are those of the delivered file; a suggestion does not block delivery.</footer>\n</body>\n</html>\n")
	return b.Flush()
}

// page writes HTML to a buffered writer; the writer keeps its first
// error, which Flush returns.
type page struct{ b *bufio.Writer }

func (p *page) raw(s string) *page {
	_, _ = p.b.WriteString(s)
	return p
}

// text writes s escaped.
func (p *page) text(s string) *page { return p.raw(html.EscapeString(s)) }

// cell writes a table cell of class class ("" for none) holding s.
func (p *page) cell(class, s string) *page {
	if class == "" {
		return p.raw("<td>").text(s).raw("</td>")
	}
	return p.raw("<td class=\"" + class + "\">").text(s).raw("</td>")
}

// findings writes a table of problems or media findings; what heads the
// message's column.
func (p *page) findings(what string, fs []Finding) {
	p.raw("<table>\n<thead><tr><th>Cue</th><th>Start</th><th>End</th><th>Kind</th><th>Rule</th><th>" + what + "</th><th>Text</th></tr></thead>\n<tbody>\n")
	for _, f := range fs {
		kind := "kind"
		if f.Blocking {
			kind = "kind block"
		}
		p.raw("<tr>").cell("num", f.Cue).cell("tc", f.Start).cell("tc", f.End).cell(kind, f.Kind()).cell("code", f.Code).
			cell("", f.Message).cell("text", f.Text).raw("</tr>\n")
	}
	p.raw("</tbody>\n</table>\n")
}

// clauseClass is the CSS class of a clause's status.
func clauseClass(s string) string {
	switch s {
	case ClausePass:
		return "pass"
	case ClauseFail:
		return "fail"
	}
	return "hand"
}

// pageCSS is the page's stylesheet, inline so that the page needs
// nothing else; its @page and print rules lay it out on A4.
const pageCSS = `:root { --ink: #1b1f24; --muted: #5b6470; --line: #d5dae0; --ready: #1d7a3e; --adapt: #8a5a00; --attention: #b3261e; }
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
`
