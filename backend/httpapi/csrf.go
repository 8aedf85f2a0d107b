package httpapi

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"strings"
)

// CSRF double submit for the homepage converter: GET /api/csrf sets the
// token in an HttpOnly, SameSite=Strict cookie and returns it in the body;
// the POST sends it back in a header. The token is signed with the
// server's key, so a cookie planted by a sibling origin cannot be forged.
const (
	CSRFCookie = "captionqa_csrf"
	CSRFHeader = "X-CSRF-Token"
)

type csrfSigner struct{ key []byte }

// mint returns a fresh token: random nonce "." HMAC-SHA256(nonce).
func (s csrfSigner) mint() string {
	nonce := make([]byte, 18)
	_, _ = rand.Read(nonce)
	n := base64.RawURLEncoding.EncodeToString(nonce)
	return n + "." + s.sign(n)
}

func (s csrfSigner) sign(nonce string) string {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(nonce))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// check reports whether header and cookie carry the same token and the
// server signed it.
func (s csrfSigner) check(header, cookie string) bool {
	if header == "" || subtle.ConstantTimeCompare([]byte(header), []byte(cookie)) != 1 {
		return false
	}
	nonce, mac, ok := strings.Cut(header, ".")
	return ok && hmac.Equal([]byte(mac), []byte(s.sign(nonce)))
}
