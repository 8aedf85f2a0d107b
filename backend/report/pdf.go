package report

import (
	"fmt"
	"io"

	"codeberg.org/go-pdf/fpdf"

	"github.com/captionqa/captionqa/backend/engine"
)

// Page geometry of the PDF, in millimetres (A4 portrait).
const (
	pageW, pageH = 210.0, 297.0
	margin       = 14.0
	footerSpace  = 12.0
	cellPad      = 1.2
	bodyW        = pageW - 2*margin
)

// fontFamily is the name the embedded font is registered under.
const fontFamily = "qc"

// rgb is a colour of the PDF.
type rgb struct{ r, g, b int }

// Colours shared with the HTML's stylesheet; the table is read-only.
var (
	inkColour       = rgb{0x1b, 0x1f, 0x24}
	mutedColour     = rgb{0x5b, 0x64, 0x70}
	lineColour      = rgb{0xd5, 0xda, 0xe0}
	headColour      = rgb{0xee, 0xf1, 0xf4}
	readyColour     = rgb{0x1d, 0x7a, 0x3e}
	adaptColour     = rgb{0x8a, 0x5a, 0x00}
	attentionColour = rgb{0xb3, 0x26, 0x1e}
)

// WritePDF writes r as an A4 PDF with the sections of the HTML report.
// font is a Unicode TrueType font (the composition root hands down the
// one the binary embeds) whose glyphs the caption text is drawn with; the
// PDF embeds the subset it uses. Long tables go on over pages, their
// header row repeated on each.
func WritePDF(w io.Writer, r *Report, font []byte) error {
	p := fpdf.New("P", "mm", "A4", "")
	p.SetMargins(margin, margin, margin)
	p.SetAutoPageBreak(false, margin)
	// Cells are placed by hand, padding and all: fpdf's own cell margin
	// would pad twice what SplitText measured.
	p.SetCellMargin(0)
	p.SetCompression(true)
	p.SetCatalogSort(true)
	p.SetTitle("QC report: "+r.Title, true)
	p.SetCreator("CaptionQA", true)
	if !r.at.IsZero() {
		p.SetCreationDate(r.at)
		p.SetModificationDate(r.at)
	}
	p.AddUTF8FontFromBytes(fontFamily, "", font)
	p.AliasNbPages("{nb}")
	p.SetFooterFunc(func() {
		p.SetY(pageH - margin)
		p.SetFont(fontFamily, "", 7.5)
		setText(p, mutedColour)
		p.CellFormat(bodyW/2, 4, "CaptionQA QC report: "+r.Title, "", 0, "L", false, 0, "")
		p.CellFormat(bodyW/2, 4, fmt.Sprintf("Page %d of {nb}", p.PageNo()), "", 0, "R", false, 0, "")
	})
	d := &doc{p: p}
	p.AddPage()
	d.head(r)
	d.problems("Problems by cue", "Problem", r.Problems, "No problem remains in the delivery.")
	d.note(r.TimeBase)
	d.changes(r)
	if s := r.Standard; s != nil {
		d.heading("Standard: " + s.Title)
		d.para(fmt.Sprintf("%d pass, %d fail, %d to check by hand.", s.Pass, s.Fail, s.NotEvaluated), 9, inkColour)
		rows := make([][]string, len(s.Clauses))
		for i, c := range s.Clauses {
			rows[i] = []string{c.ID, c.Title, c.Status, c.Requirement, c.Detail}
		}
		d.table([]column{{"Clause", 24}, {"Title", 30}, {"Status", 18}, {"Requirement", 58}, {"Detail", 52}}, rows,
			func(row, col int) rgb {
				if col != 2 {
					return inkColour
				}
				switch s.Clauses[row].Status {
				case ClausePass:
					return readyColour
				case ClauseFail:
					return attentionColour
				}
				return adaptColour
			})
	}
	switch {
	case !r.HasMedia:
		d.heading("Sync and shot changes")
		d.para("No media analysis: sync, speech and shot changes were not checked.", 9, mutedColour)
	default:
		d.problems("Sync and shot changes", "Finding", r.Media, "The captions match the programme's speech and shot changes: no finding.")
	}
	if len(r.Notes) > 0 {
		d.heading("Not listed")
		for _, n := range r.Notes {
			d.para("• "+n, 9, inkColour)
		}
	}
	d.space(4)
	d.para("Made by CaptionQA. Problems are those of the delivered file; a suggestion does not block delivery.", 8, mutedColour)
	if err := p.Error(); err != nil {
		return fmt.Errorf("report: pdf: %w", err)
	}
	return p.Output(w)
}

// doc draws the report's blocks, breaking pages by hand so that a table
// can repeat its header.
type doc struct{ p *fpdf.Fpdf }

// room makes sure h millimetres fit above the footer, starting a page
// when they do not; it reports whether it did.
func (d *doc) room(h float64) bool {
	if d.p.GetY()+h <= pageH-margin-footerSpace {
		return false
	}
	d.p.AddPage()
	return true
}

func (d *doc) space(h float64) { d.p.SetY(d.p.GetY() + h) }

func (d *doc) head(r *Report) {
	p := d.p
	p.SetFont(fontFamily, "", 8)
	setText(p, mutedColour)
	p.CellFormat(bodyW, 4, "CAPTION QC REPORT", "", 1, "L", false, 0, "")
	d.para(r.Title, 18, inkColour)
	d.space(1)
	colour := attentionColour
	switch r.Status {
	case engine.Ready:
		colour = readyColour
	case engine.WillAdapt:
		colour = adaptColour
	}
	p.SetFont(fontFamily, "", 12)
	bw := p.GetStringWidth(r.Verdict) + 8
	setFill(p, colour)
	p.SetTextColor(255, 255, 255)
	p.SetX(margin)
	p.CellFormat(bw, 8, r.Verdict, "", 1, "C", true, 0, "")
	d.space(2)
	d.para(r.Summary, 10, inkColour)
	d.space(2)
	facts := append(append([]Fact{}, r.Facts...), Fact{"Generated", r.Generated})
	for _, f := range facts {
		p.SetFont(fontFamily, "", 9)
		lines := p.SplitText(f.Value, bodyW-32)
		d.room(float64(len(lines)) * 4.4)
		y := p.GetY()
		setText(p, mutedColour)
		p.SetXY(margin, y)
		p.CellFormat(32, 4.4, f.Label, "", 0, "L", false, 0, "")
		setText(p, inkColour)
		for i, l := range lines {
			p.SetXY(margin+32, y+float64(i)*4.4)
			p.CellFormat(bodyW-32, 4.4, l, "", 0, "L", false, 0, "")
		}
		p.SetY(y + float64(max(len(lines), 1))*4.4)
	}
	d.space(2)
	setDraw(p, inkColour)
	p.SetLineWidth(0.5)
	p.Line(margin, p.GetY(), pageW-margin, p.GetY())
	p.SetLineWidth(0.2)
}

// heading starts a section, on a new page when the heading and a few
// lines of what follows would not fit.
func (d *doc) heading(s string) {
	d.space(5)
	d.room(22)
	d.para(s, 13, inkColour)
	setDraw(d.p, lineColour)
	d.p.Line(margin, d.p.GetY()+0.5, pageW-margin, d.p.GetY()+0.5)
	d.space(2)
}

// para writes s wrapped to the body's width at size points.
func (d *doc) para(s string, size float64, c rgb) {
	p := d.p
	p.SetFont(fontFamily, "", size)
	setText(p, c)
	lh := size * 0.45
	for _, l := range p.SplitText(s, bodyW) {
		d.room(lh)
		p.SetX(margin)
		p.CellFormat(bodyW, lh, l, "", 1, "L", false, 0, "")
	}
}

func (d *doc) note(s string) {
	d.space(1)
	d.para(s, 8, mutedColour)
}

func (d *doc) problems(title, what string, fs []Finding, none string) {
	d.heading(fmt.Sprintf("%s (%d)", title, len(fs)))
	if len(fs) == 0 {
		d.para(none, 9, mutedColour)
		return
	}
	rows := make([][]string, len(fs))
	for i, f := range fs {
		rows[i] = []string{f.Cue, f.Start, f.End, f.Code + "\n" + f.Kind(), f.Message, f.Text}
	}
	d.table([]column{{"Cue", 9}, {"Start", 21}, {"End", 21}, {"Rule", 37}, {what, 53}, {"Text", 41}}, rows,
		func(row, col int) rgb {
			switch {
			case col == 3 && fs[row].Blocking:
				return attentionColour
			case col == 5:
				return mutedColour
			}
			return inkColour
		})
}

func (d *doc) changes(r *Report) {
	d.heading(fmt.Sprintf("Changes made (%d)", len(r.Changes)))
	if len(r.Changes) == 0 {
		d.para("No change was made.", 9, mutedColour)
		return
	}
	rows := make([][]string, len(r.Changes))
	for i, c := range r.Changes {
		rows[i] = []string{c.Cue, c.Start, c.End, c.Code, c.Action, c.Message}
	}
	d.table([]column{{"Cue", 10}, {"Start", 21}, {"End", 21}, {"Rule", 30}, {"Action", 22}, {"Change", 78}}, rows,
		func(int, int) rgb { return inkColour })
	d.note("Cue numbers and times are those of the checked file, before the change.")
}

// column is a table column: its header and width in millimetres (the
// widths of a table add up to the body's, 182).
type column struct {
	title string
	width float64
}

// tableSize is the table's text size in points, and lineH its line
// height in millimetres.
const (
	tableSize = 7.5
	lineH     = 3.4
)

// table draws rows under a header row that is drawn again at the top of
// each page the table goes on to; a row is never split. colour gives a
// cell's text colour.
func (d *doc) table(cols []column, rows [][]string, colour func(row, col int) rgb) {
	p := d.p
	header := func() {
		p.SetFont(fontFamily, "", tableSize)
		setFill(p, headColour)
		setText(p, inkColour)
		x := margin
		y := p.GetY()
		p.Rect(margin, y, bodyW, lineH+2*cellPad, "F")
		for _, c := range cols {
			p.SetXY(x+cellPad, y+cellPad)
			p.CellFormat(c.width-2*cellPad, lineH, c.title, "", 0, "L", false, 0, "")
			x += c.width
		}
		p.SetY(y + lineH + 2*cellPad)
	}
	d.room(2 * (lineH + 2*cellPad))
	header()
	setDraw(p, lineColour)
	for i, row := range rows {
		p.SetFont(fontFamily, "", tableSize)
		cells := make([][]string, len(cols))
		n := 1
		for j, c := range cols {
			cells[j] = p.SplitText(row[j], c.width-2*cellPad)
			n = max(n, len(cells[j]))
		}
		h := float64(n)*lineH + 2*cellPad
		if d.room(h) {
			header()
			setDraw(p, lineColour)
			p.SetFont(fontFamily, "", tableSize)
		}
		y := p.GetY()
		x := margin
		for j, c := range cols {
			setText(p, colour(i, j))
			for k, l := range cells[j] {
				p.SetXY(x+cellPad, y+cellPad+float64(k)*lineH)
				p.CellFormat(c.width-2*cellPad, lineH, l, "", 0, "L", false, 0, "")
			}
			x += c.width
		}
		p.Line(margin, y+h, pageW-margin, y+h)
		p.SetY(y + h)
	}
}

func setText(p *fpdf.Fpdf, c rgb) { p.SetTextColor(c.r, c.g, c.b) }
func setFill(p *fpdf.Fpdf, c rgb) { p.SetFillColor(c.r, c.g, c.b) }
func setDraw(p *fpdf.Fpdf, c rgb) { p.SetDrawColor(c.r, c.g, c.b) }
