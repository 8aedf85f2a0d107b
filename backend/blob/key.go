package blob

import (
	"strings"

	"github.com/captionqa/captionqa/backend/apperr"
)

// MaxKeyLen bounds a key; S3 allows 1,024 bytes.
const MaxKeyLen = 1024

// CheckKey refuses a key that is not slash-separated segments of
// [A-Za-z0-9._-], none empty or starting with a dot: that rules out "..",
// ".", absolute paths, backslashes and a store's hidden folders, so a key
// always names a file inside a filesystem store's root, and a key valid on
// one store is valid on every other (an object can move between them).
// The error is [apperr.BadRequest]: keys are ours, so a bad one is a bug
// upstream, but the caller decides what to show.
func CheckKey(key string) error {
	if key == "" || len(key) > MaxKeyLen {
		return apperr.New(apperr.BadRequest, "invalid blob key: empty or over %d bytes", MaxKeyLen)
	}
	for seg := range strings.SplitSeq(key, "/") {
		if !validSegment(seg) {
			return apperr.New(apperr.BadRequest, "invalid blob key %q: segments are [A-Za-z0-9._-], not empty, not starting with a dot", key)
		}
	}
	return nil
}

// CheckPrefix refuses a listing prefix that could not start a valid key:
// "" lists everything, "artifacts/" a folder, "artifacts/ab" the keys
// starting so. Its last segment may be empty or partial, the others must
// be valid segments. The error is [apperr.BadRequest].
func CheckPrefix(prefix string) error {
	if len(prefix) > MaxKeyLen {
		return apperr.New(apperr.BadRequest, "invalid blob prefix: over %d bytes", MaxKeyLen)
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
