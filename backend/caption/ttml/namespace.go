package ttml

import "strings"

// nsFamily groups the namespaces of one TTML vocabulary across versions.
type nsFamily int

const (
	nsOther     nsFamily = iota
	nsTT                 // elements: tt, head, body, p, span, ...
	nsStyling            // tts:
	nsParameter          // ttp:
	nsMetadata           // ttm:
	nsXML                // xml:lang, xml:id, xml:space
	nsSMPTE              // smpte: (SMPTE-TT, IMSC image profile)
)

// Namespace URIs the writer uses.
const (
	nsTTML       = "http://www.w3.org/ns/ttml"
	nsTTMLStyle  = "http://www.w3.org/ns/ttml#styling"
	nsTTMLParam  = "http://www.w3.org/ns/ttml#parameter"
	nsTTMLMeta   = "http://www.w3.org/ns/ttml#metadata"
	nsXMLURI     = "http://www.w3.org/XML/1998/namespace"
	profileIMSC1 = "http://www.w3.org/ns/ttml/profile/imsc1/text"
)

// ttBases is a read-only list of the TTML namespace roots: the W3C Recommendation and the
// DFXP drafts that real files still use.
var ttBases = [...]string{
	"http://www.w3.org/ns/ttml",
	"http://www.w3.org/2006/10/ttaf1",
	"http://www.w3.org/2006/04/ttaf1",
	"http://www.w3.org/2006/02/ttaf1",
}

// classify maps a namespace URI to its family. Unbound prefixes come
// through encoding/xml as the prefix itself, so the usual prefixes are
// accepted too: sloppy DFXP files often forget to declare them.
func classify(space string) nsFamily {
	switch space {
	case nsXMLURI, "xml":
		return nsXML
	case "tts":
		return nsStyling
	case "ttp":
		return nsParameter
	case "ttm":
		return nsMetadata
	case "tt":
		return nsTT
	}
	if strings.HasPrefix(space, "http://www.smpte-ra.org/schemas/2052-1/") {
		return nsSMPTE
	}
	for _, b := range ttBases {
		rest, ok := strings.CutPrefix(space, b)
		if !ok {
			continue
		}
		switch rest {
		case "":
			return nsTT
		case "#styling", "#style":
			return nsStyling
		case "#parameter":
			return nsParameter
		case "#metadata":
			return nsMetadata
		}
	}
	return nsOther
}

// elemFamily classifies an element's namespace; a document with no
// namespace at all is read as TTML.
func elemFamily(space string) nsFamily {
	if space == "" {
		return nsTT
	}
	return classify(space)
}

// attrFamily classifies an attribute's namespace; unprefixed attributes
// (begin, style, region) belong to the element, that is to TTML.
func attrFamily(space string) nsFamily {
	if space == "" {
		return nsTT
	}
	return classify(space)
}
