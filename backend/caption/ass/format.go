package ass

import (
	"strings"

	"github.com/captionqa/captionqa/backend/caption"
)

// The standard column orders, used when a section has no Format line.
const (
	ssaStyleFormat = "Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, TertiaryColour, BackColour, " +
		"Bold, Italic, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, AlphaLevel, Encoding"
	assStyleFormat = "Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, " +
		"Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, " +
		"Alignment, MarginL, MarginR, MarginV, Encoding"
	ssaEventFormat = "Marked, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text"
	assEventFormat = "Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text"
)

// splitFormat turns a Format value into lower-case column names.
func splitFormat(value string) []string {
	cols := strings.Split(value, ",")
	for i, c := range cols {
		cols[i] = strings.ToLower(strings.TrimSpace(c))
	}
	return cols
}

// defaultCols returns the standard columns of section sec.
func (p *parser) defaultCols(sec section) []string {
	switch {
	case sec == secStylesV4:
		return splitFormat(ssaStyleFormat)
	case sec == secStylesV4Plus:
		return splitFormat(assStyleFormat)
	case p.info.ssa():
		return splitFormat(ssaEventFormat)
	}
	return splitFormat(assEventFormat)
}

// formatCols reads the Format line of section sec. A Format line that the
// reader cannot use is replaced by the standard one, with a diagnostic.
func (p *parser) formatCols(value string, n int, sec section) []string {
	cols := splitFormat(value)
	var missing string
	if sec == secEvents {
		switch {
		case indexOf(cols, "start") < 0:
			missing = "no Start column"
		case indexOf(cols, "end") < 0:
			missing = "no End column"
		case cols[len(cols)-1] != "text":
			missing = "Text is not the last column"
		}
	} else if indexOf(cols, "name") < 0 {
		missing = "no Name column"
	}
	if missing != "" {
		p.d.Warn(caption.CodeInvalidDocument, n, "the Format line has %s; the standard column order is assumed", missing)
		return p.defaultCols(sec)
	}
	for i, c := range cols {
		if c == "" || indexOf(cols[:i], c) >= 0 {
			p.d.Warn(caption.CodeNonStandardSyntax, n, "the Format line has an empty or repeated column %q", c)
			break
		}
	}
	return cols
}

// colsFor returns the columns in force for sec: *have, or when no Format
// line came, the standard ones, which it stores in *have so that they are
// worked out (and reported, once per section kind) only once.
func (p *parser) colsFor(sec section, have *[]string, n int) []string {
	if *have != nil {
		return *have
	}
	if !p.warnedNoFormat[sec] {
		p.warnedNoFormat[sec] = true
		p.d.Warn(caption.CodeNonStandardSyntax, n, "no Format line precedes this line; the standard column order is assumed")
	}
	*have = p.defaultCols(sec)
	return *have
}

// continueFormat joins a Format value that ends in a comma with the lines
// after it, as some SSA writers wrap long Format lines. It returns the
// joined value and the index of the last line used.
func continueFormat(value string, lines []string, i int, d *caption.Diagnostics) (string, int) {
	for strings.HasSuffix(strings.TrimSpace(value), ",") && i+1 < len(lines) {
		next := strings.TrimSpace(lines[i+1])
		if next == "" || next[0] == '[' || next[0] == ';' || strings.Contains(next, ":") {
			break
		}
		d.Warn(caption.CodeNonStandardSyntax, i+2, "a Format line continues on this line")
		value = strings.TrimSpace(value) + " " + next
		i++
	}
	return value, i
}

// splitFields splits a Style or event value into n fields. The last field
// keeps any further commas, as event Text does. It reports false when the
// value has fewer than n fields.
func splitFields(value string, n int) ([]string, bool) {
	if n <= 0 {
		return nil, false
	}
	f := strings.SplitN(value, ",", n)
	return f, len(f) == n
}

func indexOf(cols []string, name string) int {
	for i, c := range cols {
		if c == name {
			return i
		}
	}
	return -1
}
