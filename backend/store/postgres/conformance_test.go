package postgres

import (
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/store"
	"github.com/captionqa/captionqa/backend/store/storetest"
)

// TestConformance runs the store conformance suite on PostgreSQL, a
// fresh database per scenario: what passes on SQLite passes here.
func TestConformance(t *testing.T) {
	t.Parallel()
	storetest.Run(t, func(t *testing.T, now func() time.Time) store.DB {
		return openTest(t, now).Store()
	})
}
