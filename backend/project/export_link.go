package project

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
)

// Bounds of a signed artifact link's lifetime (docs/api.md, Exports and
// artifact links).
const (
	MinLinkTTL     = 60 * time.Second
	MaxLinkTTL     = 86400 * time.Second
	DefaultLinkTTL = 3600 * time.Second
)

// LinkSigner signs and checks artifact download links: HMAC-SHA256 over
// the method, the artifact id and the expiry, with a per-install key, so
// a link needs no API key, dies at its expiry, and any altered part
// breaks it. The key is derived from the install secret, so links
// survive a restart. (With an S3 blob store these become presigned URLs.)
type LinkSigner struct{ key []byte }

// NewLinkSigner returns a signer with key (at least 32 bytes).
func NewLinkSigner(key []byte) *LinkSigner {
	if len(key) < 32 {
		panic("project: link signing key under 32 bytes")
	}
	return &LinkSigner{key: key}
}

// Sign returns the signature of a GET of artifact id until expires, in
// lowercase hex: no letters a key could be mistaken for in a query
// string (the API refuses anything containing "cqa_").
func (s *LinkSigner) Sign(id string, expires time.Time) string {
	return hex.EncodeToString(s.mac(id, expires.Unix()))
}

func (s *LinkSigner) mac(id string, expires int64) []byte {
	m := hmac.New(sha256.New, s.key)
	fmt.Fprintf(m, "GET\n/artifacts/%s\n%d", id, expires)
	return m.Sum(nil)
}

// Verify checks a link's parts as they arrived: expires (Unix seconds)
// and sig. It returns [apperr.Forbidden] (details.reason
// "invalid_signature" or "expired") when the signature does not match or
// now is past the expiry; an expired link is refused even when genuine.
func (s *LinkSigner) Verify(id, expires, sig string, now time.Time) error {
	exp, err := strconv.ParseInt(expires, 10, 64)
	got, derr := hex.DecodeString(sig)
	if err != nil || derr != nil || !hmac.Equal(got, s.mac(id, exp)) {
		return apperr.New(apperr.Forbidden, "the download link is not valid; ask GET /api/v1/artifacts/{id} for a new one").
			WithDetail("reason", "invalid_signature")
	}
	if !now.Before(time.Unix(exp, 0)) {
		return apperr.New(apperr.Forbidden, "the download link expired; ask GET /api/v1/artifacts/{id} for a new one").
			WithDetail("reason", "expired")
	}
	return nil
}

// CheckLinkTTL returns the lifetime of seconds, or [apperr.BadRequest]
// (details.field "ttlSeconds") outside 60 to 86400 seconds.
func CheckLinkTTL(seconds int) (time.Duration, error) {
	ttl := time.Duration(seconds) * time.Second
	if ttl < MinLinkTTL || ttl > MaxLinkTTL {
		return 0, apperr.New(apperr.BadRequest, "ttlSeconds must be 60 to 86400").
			WithDetail("field", "ttlSeconds").WithDetail("reason", "out_of_range")
	}
	return ttl, nil
}
