package video

import (
	"encoding/json"
	"strings"
)

// iso6391to2 is a read-only table: it maps the two-letter codes of the languages captions are
// most often delivered in to the ISO 639-2 (bibliographic-free, "T")
// codes containers carry.
var iso6391to2 = map[string]string{
	"ar": "ara", "ca": "cat", "cs": "ces", "cy": "cym", "da": "dan", "de": "deu", "el": "ell", "en": "eng",
	"es": "spa", "et": "est", "eu": "eus", "fa": "fas", "fi": "fin", "fr": "fra", "ga": "gle", "gl": "glg",
	"he": "heb", "hi": "hin", "hr": "hrv", "hu": "hun", "id": "ind", "is": "isl", "it": "ita", "ja": "jpn",
	"ko": "kor", "lt": "lit", "lv": "lav", "ms": "msa", "nb": "nob", "nl": "nld", "nn": "nno", "no": "nor",
	"pl": "pol", "pt": "por", "ro": "ron", "ru": "rus", "sk": "slk", "sl": "slv", "sr": "srp", "sv": "swe",
	"th": "tha", "tr": "tur", "uk": "ukr", "vi": "vie", "zh": "zho",
}

// iso6392 returns the ISO 639-2 code of a BCP 47 tag's primary language,
// "und" when it has none or the table lacks it.
func iso6392(tag string) string {
	primary := strings.ToLower(strings.SplitN(strings.ReplaceAll(tag, "_", "-"), "-", 2)[0])
	if isISO6392(primary) {
		return primary
	}
	if c, ok := iso6391to2[primary]; ok {
		return c
	}
	return "und"
}

func isISO6392(s string) bool {
	if len(s) != 3 {
		return false
	}
	for _, r := range s {
		if r < 'a' || r > 'z' {
			return false
		}
	}
	return true
}

// timelineLanguage reads the language an IR v1 timeline declares.
func timelineLanguage(ir string) string {
	var t struct {
		Language string `json:"language"`
	}
	_ = json.Unmarshal([]byte(ir), &t) // a stored timeline is valid IR; "" otherwise
	return t.Language
}

// bcp47 returns the BCP 47 tag of an ISO 639-2 code: its two-letter
// form when the table has one, else the code itself (a valid BCP 47
// primary subtag); "" for "und".
func bcp47(code string) string {
	if code == "und" {
		return ""
	}
	for two, three := range iso6391to2 {
		if three == code {
			return two
		}
	}
	return code
}
