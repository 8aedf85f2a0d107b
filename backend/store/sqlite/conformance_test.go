package sqlite_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/store"
	"github.com/captionqa/captionqa/backend/store/jobs"
	"github.com/captionqa/captionqa/backend/store/sqlite"
	"github.com/captionqa/captionqa/backend/store/storetest"
)

// TestConformance runs the store conformance suite on SQLite files, one
// per scenario, each a copy of a file migrated once (River's tables
// too): migrating River under -race costs seconds a file.
func TestConformance(t *testing.T) {
	t.Parallel()
	template := filepath.Join(t.TempDir(), "template.db")
	db, err := sqlite.Open(context.Background(), template, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.OpenQueue(context.Background(), jobs.QueueOptions{}); err != nil {
		t.Fatal(err)
	}
	// Closing the last connection checkpoints the WAL into the file.
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	migrated, err := os.ReadFile(template)
	if err != nil {
		t.Fatal(err)
	}
	storetest.Run(t, func(t *testing.T, now func() time.Time) store.DB {
		path := filepath.Join(t.TempDir(), "captionqa.db")
		if err := os.WriteFile(path, migrated, 0o600); err != nil {
			t.Fatal(err)
		}
		db, err := sqlite.Open(context.Background(), path, sqlite.Options{Now: now})
		if err != nil {
			t.Fatalf("open: %v", err)
		}
		t.Cleanup(func() {
			if err := db.Close(); err != nil {
				t.Errorf("close: %v", err)
			}
		})
		return db.Store()
	})
}
