package sqlite_test

import (
	"testing"

	"github.com/captionqa/captionqa/backend/apperr"
)

func wantKind(t *testing.T, err error, want apperr.Kind) {
	t.Helper()
	if got := apperr.KindOf(err); got != want || (want != apperr.Internal && err == nil) {
		t.Fatalf("error %v: kind %s, want %s", err, got.Code(), want.Code())
	}
	if want == apperr.Internal && err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
}
