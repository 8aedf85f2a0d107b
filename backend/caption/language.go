package caption

import "strings"

// IsLanguageTag checks the shape of a BCP 47 tag: subtags of 1 to 8
// letters or digits joined by hyphens, the first of 2 to 8 letters.
func IsLanguageTag(s string) bool {
	if s == "" || len(s) > 35 {
		return false
	}
	for i, sub := range strings.Split(s, "-") {
		if len(sub) < 1 || len(sub) > 8 || (i == 0 && len(sub) < 2) {
			return false
		}
		for _, c := range []byte(sub) {
			letter := c|0x20 >= 'a' && c|0x20 <= 'z'
			if !letter && (i == 0 || c < '0' || c > '9') {
				return false
			}
		}
	}
	return true
}

// LanguageDeclared reports whether tag names a language: not empty, and
// not "und" (undetermined), which a TTML writer puts where it must write
// something.
func LanguageDeclared(tag string) bool {
	tag = strings.TrimSpace(tag)
	return tag != "" && !strings.EqualFold(tag, "und")
}
