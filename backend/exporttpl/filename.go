package exporttpl

import (
	"mime"
	"strconv"
	"strings"

	"github.com/captionqa/captionqa/backend/apperr"
)

// checkPattern refuses a file name pattern that is empty, too long, or
// holds characters no file name should (path separators, controls).
func checkPattern(p string) error {
	if p == "" || len(p) > maxPatternLen || strings.ContainsAny(p, "/\\\x00") || strings.ContainsFunc(p, isControl) {
		return apperr.New(apperr.BadRequest, "filenamePattern: 1 to %d characters, no slashes or control characters", maxPatternLen).
			WithDetail("field", "filenamePattern")
	}
	return nil
}

// checkContentType refuses a content type that is not a media type.
func checkContentType(ct string) error {
	if _, _, err := mime.ParseMediaType(ct); err != nil || len(ct) > maxPatternLen {
		return apperr.New(apperr.BadRequest, "contentType: a media type such as text/csv; charset=utf-8").
			WithDetail("field", "contentType")
	}
	return nil
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

// fileName is the output's file name: the script's own when it gave one,
// else t's pattern with {project}, {template} and {revision} replaced;
// either made safe for a download (letters, digits, dot, dash,
// underscore; at most 120 characters).
func fileName(t *Template, scriptName, projectName string, revision int) string {
	n := scriptName
	if n == "" {
		n = strings.NewReplacer("{project}", projectName, "{template}", t.Name, "{revision}", strconv.Itoa(revision)).
			Replace(t.FilenamePattern)
	}
	var b strings.Builder
	for _, r := range n {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
		if b.Len() >= 120 {
			break
		}
	}
	s := strings.Trim(b.String(), "-.")
	if s == "" {
		return "export.txt"
	}
	return s
}
