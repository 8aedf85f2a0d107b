package golden

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// contextLines is how many lines Diff shows around the first difference.
const contextLines = 3

// Diff describes where got first differs from want: the line number, the
// lines before it that both share, and the next lines of each. Lines that
// differ only in invisible characters (a CR, trailing spaces, the final
// newline) are shown quoted.
func Diff(got, want []byte) string {
	g, w := splitLines(got), splitLines(want)
	n := 0
	for n < len(g) && n < len(w) && g[n] == w[n] {
		n++
	}
	if n == len(g) && n == len(w) {
		return "no difference"
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "first difference at line %d\n", n+1)
	for i := max(0, n-contextLines); i < n; i++ {
		fmt.Fprintf(&sb, "       %4d | %s\n", i+1, show(g[i]))
	}
	section := func(label string, lines []string) {
		for i := n; i < n+contextLines; i++ {
			switch {
			case i < len(lines):
				fmt.Fprintf(&sb, "%-6s %4d | %s\n", label, i+1, show(lines[i]))
			case i == len(lines):
				fmt.Fprintf(&sb, "%-6s %4d | (end of file)\n", label, i+1)
			}
			label = ""
		}
	}
	section("got:", g)
	section("want:", w)
	return sb.String()
}

// splitLines splits b after each newline, so that a missing final newline
// shows as a last line without one.
func splitLines(b []byte) []string {
	if len(b) == 0 {
		return nil
	}
	parts := bytes.SplitAfter(b, []byte("\n"))
	if len(parts[len(parts)-1]) == 0 {
		parts = parts[:len(parts)-1]
	}
	lines := make([]string, len(parts))
	for i, p := range parts {
		lines[i] = string(p)
	}
	return lines
}

// show returns a line for display: as it is when it ends in a newline and
// holds nothing invisible, quoted otherwise.
func show(line string) string {
	text, ok := strings.CutSuffix(line, "\n")
	if !ok || strings.TrimRightFunc(text, unicode.IsSpace) != text || strings.IndexFunc(text, notPrintable) >= 0 {
		return strconv.Quote(line)
	}
	return text
}

func notPrintable(r rune) bool { return !unicode.IsPrint(r) && r != '\t' }
