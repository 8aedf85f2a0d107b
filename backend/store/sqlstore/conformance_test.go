package sqlstore_test

import (
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/store"
	"github.com/captionqa/captionqa/backend/store/storetest"
)

// TestConformance runs the store conformance suite on both engines, a
// fresh database per scenario.
func TestConformance(t *testing.T) {
	t.Parallel()
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			t.Parallel()
			storetest.Run(t, func(t *testing.T, now func() time.Time) store.DB {
				return e.open(t, now).Store()
			})
		})
	}
}
