package storetest

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
)

// none is the kind wanted of a call that must succeed: no error at all
// (apperr.Internal would also match any plain error).
const none apperr.Kind = -1

// wantKind fails t unless err is nil (want none) or carries the kind
// want.
func wantKind(t *testing.T, err error, want apperr.Kind) {
	t.Helper()
	switch {
	case want == none && err != nil:
		t.Fatalf("unexpected error: %v", err)
	case want != none && err == nil:
		t.Fatalf("no error; want %s", want.Code())
	case want != none && apperr.KindOf(err) != want:
		t.Fatalf("error %v: kind %s, want %s", err, apperr.KindOf(err).Code(), want.Code())
	}
}

// kindIs reports whether err is nil (want none) or carries the kind
// want.
func kindIs(err error, want apperr.Kind) bool {
	if want == none {
		return err == nil
	}
	return err != nil && apperr.KindOf(err) == want
}

// wantIs fails t unless err wraps target.
func wantIs(t *testing.T, err, target error) {
	t.Helper()
	if !errors.Is(err, target) {
		t.Fatalf("error %v; want one wrapping %q", err, target)
	}
}

// must fails t on err.
func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
}

// wantDetail fails t unless err is an *apperr.Error whose details hold
// key = value.
func wantDetail(t *testing.T, err error, key string, value any) {
	t.Helper()
	e, ok := apperr.As(err)
	// Compared as text: a store may hand a string or a named string type.
	if !ok || e.Details[key] == nil || fmt.Sprint(e.Details[key]) != fmt.Sprint(value) {
		t.Errorf("error %v: details[%q] missing or not %v", err, key, value)
	}
}

// sameTime reports whether got is the instant want, in UTC as every
// store's doc comment promises (a local time formats and splits into
// days differently).
func sameTime(got, want time.Time) bool {
	return got.Equal(want) && (got.IsZero() || got.Location() == time.UTC)
}

// uuidN returns a fixed, valid UUID ending in n's digits: stores may
// keep ids in a uuid column.
func uuidN(n int) string { return fmt.Sprintf("00000000-0000-4000-8000-%012d", n) }

// hash returns the SHA-256 of s, as the domain hashes secrets and tokens.
func hash(s string) []byte {
	h := sha256.Sum256([]byte(s))
	return h[:]
}

// day is midnight UTC of t's day.
func day(t time.Time) time.Time { return t.UTC().Truncate(24 * time.Hour) }
