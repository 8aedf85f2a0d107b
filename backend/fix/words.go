package fix

import "strings"

// Word classes of [wordClasses].
const (
	classArticle     = 1 << iota // determiners a line must not end on
	classConjunction             // a line should start with, not end on
	classPreposition             // likewise
	classAbbrev                  // takes a full stop that ends no sentence
	classAuxiliary               // an auxiliary verb: binds to the verb after it
	classAdjective               // a common adjective: binds to the noun after it
)

// wordClasses is a read-only table of English function words, common
// adjectives and abbreviations, lower case and without their full stop,
// used to choose line breaks and sentence ends. It holds every word the
// line_unbalanced rule flags at a line end (articles, prepositions,
// conjunctions, auxiliaries) and more. Never written after initialisation.
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
	"upon": classPreposition, "among": classPreposition,

	"is": classAuxiliary, "are": classAuxiliary, "was": classAuxiliary, "were": classAuxiliary, "am": classAuxiliary,
	"be": classAuxiliary, "been": classAuxiliary, "will": classAuxiliary, "would": classAuxiliary, "shall": classAuxiliary,
	"should": classAuxiliary, "can": classAuxiliary, "could": classAuxiliary, "may": classAuxiliary, "might": classAuxiliary,
	"must": classAuxiliary, "has": classAuxiliary, "have": classAuxiliary, "had": classAuxiliary, "do": classAuxiliary,
	"does": classAuxiliary, "did": classAuxiliary,

	"old": classAdjective, "new": classAdjective, "last": classAdjective, "first": classAdjective, "next": classAdjective,
	"little": classAdjective, "big": classAdjective, "small": classAdjective, "great": classAdjective, "good": classAdjective,
	"bad": classAdjective, "long": classAdjective, "young": classAdjective, "same": classAdjective, "other": classAdjective,
	"whole": classAdjective, "own": classAdjective, "high": classAdjective, "dark": classAdjective, "cold": classAdjective,
	"large": classAdjective, "only": classAdjective, "best": classAdjective, "final": classAdjective, "main": classAdjective,

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
