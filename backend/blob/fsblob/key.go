package fsblob

import (
	"strings"

	"github.com/captionqa/captionqa/backend/apperr"
)

// maxKeyLen bounds a key; S3 allows 1,024 bytes.
const maxKeyLen = 1024

// checkKey refuses a key that is not slash-separated segments of
// [A-Za-z0-9._-], none empty or starting with a dot: that rules out "..",
// ".", absolute paths, backslashes and the store's own .tmp folder, so a
// key always names a file inside the root. The error is
// [apperr.BadRequest]: keys are ours, so a bad one is a bug upstream, but
// the caller decides what to show.
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
// be valid segments.
func checkPrefix(prefix string) error {
	if len(prefix) > maxKeyLen {
		return apperr.New(apperr.BadRequest, "invalid blob prefix: over %d bytes", maxKeyLen)
	}
	segs := strings.Split(prefix, "/")
	for i, seg := range segs {
		last := i == len(segs)-1
		if last && seg == "" {
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
