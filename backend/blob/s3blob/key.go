package s3blob

import (
	"strings"

	"github.com/captionqa/captionqa/backend/apperr"
)

// maxKeyLen bounds a key: S3 allows 1,024 bytes.
const maxKeyLen = 1024

// checkKey refuses a key that is not slash-separated segments of
// [A-Za-z0-9._-], none empty or starting with a dot. S3 would take almost
// any key; the rule is package fsblob's (this is a copy of its checkKey),
// so that a key valid on one store is valid on the other and an object
// can move between them. The error is [apperr.BadRequest].
func checkKey(key string) error {
	if key == "" || len(key) > maxKeyLen {
		return apperr.New(apperr.BadRequest, "invalid blob key: empty or over %d bytes", maxKeyLen)
	}
	for seg := range strings.SplitSeq(key, "/") {
		if !validSegment(seg) {
			return apperr.New(apperr.BadRequest, "invalid blob key %q: segments are [A-Za-z0-9._-], not empty, not starting with a dot", key)
		}
	}
	return nil
}

// checkPrefix refuses a listing prefix that could not start a valid key:
// "" lists everything, "artifacts/" a folder, "artifacts/ab" the keys
// starting so. Its last segment may be empty or partial, the others must
// be valid segments (fsblob's rule).
func checkPrefix(prefix string) error {
	if len(prefix) > maxKeyLen {
		return apperr.New(apperr.BadRequest, "invalid blob prefix: over %d bytes", maxKeyLen)
	}
	segs := strings.Split(prefix, "/")
	for i, seg := range segs {
		if i == len(segs)-1 && seg == "" {
			continue
		}
		if !validSegment(seg) {
			return apperr.New(apperr.BadRequest, "invalid blob prefix %q", prefix)
		}
	}
	return nil
}

func validSegment(seg string) bool {
	if seg == "" || seg[0] == '.' {
		return false
	}
	for i := 0; i < len(seg); i++ {
		c := seg[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '.', c == '_', c == '-':
		default:
			return false
		}
	}
	return true
}
