package jsrun

import (
	"strconv"
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/exporttpl"
	"github.com/evanw/esbuild/pkg/api"
)

// checkSyntax parses src with esbuild as a JavaScript file and returns its
// first error as a compile-phase SyntaxError, or nil. esbuild gives the
// clearer messages ("Expected ")" but found ":"", "The symbol "a" has
// already been declared"); the engine's own parse, which runs before and
// after it, catches what esbuild accepts and a classic script does not
// (export, top-level return or await).
func checkSyntax(src string) *exporttpl.ScriptError {
	res := api.Transform(src, api.TransformOptions{
		Loader:     api.LoaderJS,
		Sourcefile: templateFile,
		LogLevel:   api.LogLevelSilent,
	})
	if len(res.Errors) == 0 {
		return nil
	}
	m := res.Errors[0]
	se := &exporttpl.ScriptError{
		Phase:   exporttpl.PhaseCompile,
		Kind:    "SyntaxError",
		Message: clip(m.Text, maxMessageBytes),
	}
	if loc := m.Location; loc != nil && loc.Line > 0 {
		se.Line = loc.Line
		se.Column = charColumn(loc.LineText, loc.Column)
		se.Stack = []string{"at " + templateFile + ":" + strconv.Itoa(se.Line) + ":" + strconv.Itoa(se.Column)}
	}
	return se
}

// charColumn converts esbuild's column (0-based, in bytes of lineText) to
// the 1-based column in characters (code points) the engine reports too.
func charColumn(lineText string, byteCol int) int {
	if byteCol < 0 {
		byteCol = 0
	}
	if byteCol > len(lineText) {
		// The position is past the text esbuild kept (end of file): count
		// what there is and the bytes beyond it.
		return utf8.RuneCountInString(lineText) + (byteCol - len(lineText)) + 1
	}
	return utf8.RuneCountInString(lineText[:byteCol]) + 1
}
