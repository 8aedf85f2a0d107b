package webhook

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// Headers of every delivery. The signature is the one docs/webhooks.md
// (The signature) describes, under the contract's name and, the same
// again, under the product's; the others let a receiver log and de-duplicate
// deliveries without parsing the body (the body stays the idempotency
// key: receipt.irRevision).
const (
	// HeaderSignature carries "sha256=" and the hex HMAC-SHA256 of the
	// raw body keyed with the webhook secret, under the name the API
	// contract gives it (Webhook deliveries).
	HeaderSignature = "X-Service-Signature"
	// HeaderProductSignature carries the same value under the product's
	// name, as earlier releases sent it: receivers written against them
	// keep working.
	HeaderProductSignature = "X-CaptionQA-Signature"
	// HeaderDelivery is the delivery's id (a UUID), the same on every
	// attempt of one delivery.
	HeaderDelivery = "X-CaptionQA-Delivery"
	// HeaderTimestamp is when the attempt was sent, in Unix seconds. It
	// is not signed: the signature covers the body alone.
	HeaderTimestamp = "X-CaptionQA-Timestamp"
	// HeaderEvent names the event: "export_complete" or "test".
	HeaderEvent = "X-CaptionQA-Event"
	// HeaderAttempt is the attempt's number, from 1.
	HeaderAttempt = "X-CaptionQA-Attempt"
)

// Sign returns the signature header's value for body: "sha256=" and the
// hex HMAC-SHA256 of body keyed with secret (the secret's text as shown
// when it was made, prefix included).
func Sign(secret string, body []byte) string {
	return "sha256=" + hex.EncodeToString(digest(secret, body))
}

// Verify reports whether header is a valid signature of body under
// secret, as docs/webhooks.md tells receivers to check: the digest recomputed
// over the raw body, an optional leading "sha256=" in any case removed,
// the two compared in constant time.
func Verify(secret string, body []byte, header string) bool {
	header = strings.TrimSpace(header)
	if len(header) >= 7 && strings.EqualFold(header[:7], "sha256=") {
		header = header[7:]
	}
	got, err := hex.DecodeString(header)
	if err != nil {
		return false
	}
	return hmac.Equal(got, digest(secret, body))
}

func digest(secret string, body []byte) []byte {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write(body)
	return m.Sum(nil)
}
