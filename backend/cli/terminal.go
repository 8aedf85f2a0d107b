package cli

import (
	"io"
	"os"

	"golang.org/x/term"
)

// fallbackWidth is the width assumed when the terminal does not say.
const fallbackWidth = 80

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// terminalWidth returns the width in columns of the terminal w writes to,
// or fallbackWidth when w is no terminal or its width is unknown.
func terminalWidth(w io.Writer) int {
	if f, ok := w.(*os.File); ok {
		if cols, _, err := term.GetSize(int(f.Fd())); err == nil && cols > 0 {
			return cols
		}
	}
	return fallbackWidth
}
