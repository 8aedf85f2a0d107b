package sqlite_test

import (
	"context"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/internal/testkit"
)

func TestQuotaStore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := testkit.MustOpenDB(t).Quotas()
	day := time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC)
	next := day.AddDate(0, 0, 1)

	type step struct {
		op       string // take, used
		pool     string
		day      time.Time
		cap      int
		wantUsed int
		wantOK   bool
	}
	steps := []step{
		{"used", "p", day, 0, 0, true}, // no row yet
		{"take", "p", day, 2, 1, true},
		{"take", "p", day, 2, 2, true},
		{"take", "p", day, 2, 0, false},
		{"used", "p", day, 0, 2, true},
		{"take", "p", day, 3, 3, true},  // a raised cap admits more
		{"take", "q", day, 2, 1, true},  // pools are separate
		{"take", "p", next, 2, 1, true}, // days are separate
		{"take", "p", day, 3, 0, false}, // full again
		{"used", "p", day, 0, 3, true},
		{"used", "q", day, 0, 1, true},
		{"used", "p", next, 0, 1, true},
	}
	for i, st := range steps {
		switch st.op {
		case "take":
			used, ok, err := s.Take(ctx, st.pool, st.day, st.cap)
			wantKind(t, err, apperr.Internal)
			if used != st.wantUsed || ok != st.wantOK {
				t.Fatalf("step %d: Take(%s, cap %d) = %d, %v; want %d, %v", i, st.pool, st.cap, used, ok, st.wantUsed, st.wantOK)
			}
		case "used":
			used, err := s.Used(ctx, st.pool, st.day)
			wantKind(t, err, apperr.Internal)
			if used != st.wantUsed {
				t.Fatalf("step %d: Used(%s) = %d, want %d", i, st.pool, used, st.wantUsed)
			}
		}
	}
}
