package fix

import "strings"

// Word classes of [wordClasses].
const (
	classArticle     = 1 << iota // determiners a line must not end on
	classConjunction             // a line should start with, not end on
	classPreposition             // likewise
	classAbbrev                  // takes a full stop that ends no sentence
)

// wordClasses is a read-only table of English function words and
// abbreviations, lower case and without their full stop, used to choose
// line breaks and sentence ends. Never written after initialisation.
var wordClasses = map[string]uint8{
	"a": classArticle, "an": classArticle, "the": classArticle, "this": classArticle,
	"that": classConjunction, "these": classArticle, "those": classArticle, "my": classArticle,
	"your": classArticle, "his": classArticle, "her": classArticle, "its": classArticle,
	"our": classArticle, "their": classArticle, "some": classArticle, "every": classArticle,

	"and": classConjunction, "but": classConjunction, "or": classConjunction, "nor": classConjunction,
	"so": classConjunction, "yet": classConjunction, "because": classConjunction, "if": classConjunction,
	"when": classConjunction, "while": classConjunction, "although": classConjunction, "though": classConjunction,
	"unless": classConjunction, "until": classConjunction, "since": classConjunction, "whether": classConjunction,
	"which": classConjunction, "who": classConjunction, "where": classConjunction, "than": classConjunction,

	"to": classPreposition, "of": classPreposition, "in": classPreposition, "on": classPreposition,
	"at": classPreposition, "for": classPreposition, "with": classPreposition, "from": classPreposition,
	"by": classPreposition, "about": classPreposition, "into": classPreposition, "onto": classPreposition,
	"over": classPreposition, "under": classPreposition, "after": classPreposition, "before": classPreposition,
	"between": classPreposition, "through": classPreposition, "without": classPreposition, "within": classPreposition,
	"during": classPreposition, "against": classPreposition, "towards": classPreposition, "toward": classPreposition,

	"mr": classAbbrev, "mrs": classAbbrev, "ms": classAbbrev, "mx": classAbbrev, "dr": classAbbrev,
	"prof": classAbbrev, "st": classAbbrev, "sr": classAbbrev, "jr": classAbbrev, "rev": classAbbrev,
	"gen": classAbbrev, "col": classAbbrev, "capt": classAbbrev, "lt": classAbbrev, "sgt": classAbbrev,
	"gov": classAbbrev, "sen": classAbbrev, "rep": classAbbrev, "hon": classAbbrev, "mt": classAbbrev,
	"vs": classAbbrev, "cf": classAbbrev, "approx": classAbbrev, "inc": classAbbrev, "ltd": classAbbrev,
	"co": classAbbrev, "corp": classAbbrev, "dept": classAbbrev, "fig": classAbbrev, "vol": classAbbrev,
	"ave": classAbbrev, "blvd": classAbbrev,
}

// wordClass looks w up in [wordClasses], ignoring ASCII case and trailing
// punctuation, without allocating.
func wordClass(w string) uint8 {
	for len(w) > 0 && strings.IndexByte(".,;:!?\"')]", w[len(w)-1]) >= 0 {
		w = w[:len(w)-1]
	}
	var buf [16]byte
	if w == "" || len(w) > len(buf) {
		return 0
	}
	for i := 0; i < len(w); i++ {
		c := w[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	return wordClasses[string(buf[:len(w)])]
}
