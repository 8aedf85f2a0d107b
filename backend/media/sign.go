package media

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/url"
	"strconv"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
)

// PutPrefix starts the signed upload URLs. They are outside /api/v1: the
// URL itself is the credential (no API key), as an S3 presigned PUT is.
const PutPrefix = "/api/uploads/"

// signer signs and checks part URLs: HMAC-SHA256 over the method, the
// upload, the part and the expiry with a per-install key, so a URL
// needs no API key, dies at its expiry, and any altered part of it breaks
// it. The session, not the URL, fixes how many bytes a part may have.
type signer struct{ key []byte }

func (s signer) mac(uploadID string, part int, expires int64) []byte {
	m := hmac.New(sha256.New, s.key)
	fmt.Fprintf(m, "PUT\n/uploads/%s/%d\n%d", uploadID, part, expires)
	return m.Sum(nil)
}

// path returns the signed path and query of one part's PUT.
func (s signer) path(uploadID string, part int, expires time.Time) string {
	q := url.Values{"expires": {strconv.FormatInt(expires.Unix(), 10)},
		"sig": {hex.EncodeToString(s.mac(uploadID, part, expires.Unix()))}}
	return PutPrefix + uploadID + "/" + strconv.Itoa(part) + "?" + q.Encode()
}

// verify checks a PUT's expires and sig as they arrived. It returns
// [apperr.Forbidden] with details.reason "invalid_signature" or
// "expired".
func (s signer) verify(uploadID string, part int, expires, sig string, now time.Time) error {
	exp, err := strconv.ParseInt(expires, 10, 64)
	got, derr := hex.DecodeString(sig)
	if err != nil || derr != nil || !hmac.Equal(got, s.mac(uploadID, part, exp)) {
		return apperr.New(apperr.Forbidden, "the upload URL is not valid; GET /api/v1/media/upload/{uploadId} gives fresh ones").
			WithDetail("reason", "invalid_signature")
	}
	if !now.Before(time.Unix(exp, 0)) {
		return apperr.New(apperr.Forbidden, "the upload URL expired; start a new upload").
			WithDetail("reason", "expired")
	}
	return nil
}
