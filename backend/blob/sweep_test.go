package blob_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/blob"
	"github.com/captionqa/captionqa/backend/blob/fsblob"
)

func TestSweep(t *testing.T) {
	now := time.Now()
	old := now.Add(-2 * time.Hour)
	for _, tc := range []struct {
		name    string
		known   []string // keys a row refers to
		wantDel int
		wantAll []string // what is left after the sweep
	}{
		{"orphans deleted, rows and young bytes kept", []string{"artifacts/a/1"},
			2, []string{"artifacts/a/1", "artifacts/c/young", "media/old"}},
		{"all known", []string{"artifacts/a/1", "artifacts/a/2", "artifacts/b/3"},
			0, []string{"artifacts/a/1", "artifacts/a/2", "artifacts/b/3", "artifacts/c/young", "media/old"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store, err := fsblob.Open(filepath.Join(t.TempDir(), "blobs"), fsblob.Options{})
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			for _, k := range []string{"artifacts/a/1", "artifacts/a/2", "artifacts/b/3", "artifacts/c/young", "media/old"} {
				if _, err := store.Put(ctx, k, strings.NewReader(k), -1); err != nil {
					t.Fatal(err)
				}
				if k != "artifacts/c/young" {
					// The file system's clock dates the object; age it.
					p := filepath.Join(store.Root(), filepath.FromSlash(k))
					if err := os.Chtimes(p, old, old); err != nil {
						t.Fatal(err)
					}
				}
			}
			var asked []string
			known := func(_ context.Context, keys []string) (map[string]bool, error) {
				asked = append(asked, keys...)
				m := map[string]bool{}
				for _, k := range keys {
					m[k] = slices.Contains(tc.known, k)
				}
				return m, nil
			}
			n, err := blob.Sweep(ctx, store, "artifacts/", time.Hour, now, known)
			if err != nil || n != tc.wantDel {
				t.Fatalf("Sweep = %d, %v; want %d", n, err, tc.wantDel)
			}
			if slices.Contains(asked, "artifacts/c/young") || slices.Contains(asked, "media/old") {
				t.Errorf("asked about keys too young or outside the prefix: %q", asked)
			}
			var left []string
			for info, err := range store.List(ctx, "") {
				if err != nil {
					t.Fatal(err)
				}
				left = append(left, info.Key)
			}
			if !slices.Equal(left, tc.wantAll) {
				t.Errorf("left %q, want %q", left, tc.wantAll)
			}
		})
	}
}

func TestSweepErrors(t *testing.T) {
	store, err := fsblob.Open(filepath.Join(t.TempDir(), "blobs"), fsblob.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := store.Put(ctx, "artifacts/x", strings.NewReader("x"), 1); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("database gone")
	failing := func(context.Context, []string) (map[string]bool, error) { return nil, boom }
	// A failing lookup deletes nothing: without rows we cannot tell.
	if n, err := blob.Sweep(ctx, store, "artifacts/", time.Minute, time.Now().Add(time.Hour), failing); !errors.Is(err, boom) || n != 0 {
		t.Errorf("Sweep = %d, %v; want 0, %v", n, err, boom)
	}
	if _, _, err := store.Get(ctx, "artifacts/x", nil); err != nil {
		t.Errorf("object deleted after a failed lookup: %v", err)
	}
	if _, err := blob.Sweep(ctx, store, "artifacts/", 0, time.Now(), failing); err == nil {
		t.Error("olderThan 0 accepted")
	}
}
