package webhook

import (
	"crypto/rand"
	"encoding/base64"
	"net/url"
	"strings"

	"github.com/captionqa/captionqa/backend/apperr"
)

// MaxURLBytes bounds a webhook URL.
const MaxURLBytes = 2048

// secretPrefix starts every secret, so one found in a log or a paste is
// recognisable for what it is.
const secretPrefix = "whsec_"

// CheckURL returns raw as a webhook may use it, or [apperr.BadRequest]
// with details.field "url": it must be an absolute https URL with a
// host, without user:password (which would be stored and shown as
// configuration, not kept as a secret) or a fragment, at most
// [MaxURLBytes].
func CheckURL(raw string) (string, error) {
	bad := func(reason, msg string) error {
		return apperr.New(apperr.BadRequest, "url: %s", msg).WithDetail("field", "url").WithDetail("reason", reason)
	}
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", bad("required", "name the https URL that receives deliveries")
	}
	if len(raw) > MaxURLBytes {
		return "", bad("too_long", "at most 2048 bytes")
	}
	u, err := url.Parse(raw)
	switch {
	case err != nil || !u.IsAbs() || u.Opaque != "":
		return "", bad("invalid", "not an absolute URL")
	case !strings.EqualFold(u.Scheme, "https"):
		return "", bad("https_required", "webhooks are delivered over HTTPS only: use an https:// URL")
	case u.Hostname() == "":
		return "", bad("invalid", "the URL names no host")
	case u.User != nil:
		return "", bad("credentials", "the URL must not carry a user name or password; the signature authenticates deliveries")
	case u.Fragment != "" || strings.Contains(raw, "#"):
		return "", bad("invalid", "the URL must not have a fragment")
	}
	u.Scheme = "https"
	return u.String(), nil
}

// NewSecret returns a new secret: "whsec_" and 32 random bytes in
// unpadded base64url.
func NewSecret() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24)
	return secretPrefix + base64.RawURLEncoding.EncodeToString(b)
}

// Mask returns what GET shows of a secret: its prefix and last four
// characters.
func Mask(secret string) string {
	if len(secret) < len(secretPrefix)+8 {
		return secretPrefix + "****"
	}
	return secretPrefix + "****" + secret[len(secret)-4:]
}
