package blobtest

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/blob"
)

func testList(t *testing.T, s blob.Store) {
	all := []string{"a-c", "a.c", "a/b", "a/b0", "a/c/d", "a0", "artifacts/1/x", "artifacts/2/y", "b"}
	// Key order is byte order of the whole key: "a-c" (0x2d) and "a.c"
	// (0x2e) before "a/…" (0x2f), as S3 lists.
	if !slices.IsSorted(all) {
		t.Fatal("test table not sorted")
	}
	puts := map[string]blob.Info{}
	for _, k := range slices.Backward(all) {
		puts[k] = mustPut(t, s, k, k)
	}
	for _, tc := range []struct {
		prefix string
		want   []string
	}{
		{"", all},
		{"a/", []string{"a/b", "a/b0", "a/c/d"}},
		{"a/b", []string{"a/b", "a/b0"}},
		{"a", all[:len(all)-1]},
		{"artifacts/", []string{"artifacts/1/x", "artifacts/2/y"}},
		{"artifacts/2", []string{"artifacts/2/y"}},
		{"none/", nil},
		{"zz", nil},
	} {
		if got := keys(list(t, s, tc.prefix)); !slices.Equal(got, tc.want) {
			t.Errorf("list %q: got %q, want %q", tc.prefix, got, tc.want)
		}
	}
	for _, info := range list(t, s, "a/b0") {
		checkInfo(t, "listed", info, "a/b0", 4)
		_, gi := read(t, s, "a/b0", nil)
		if info.ETag != puts["a/b0"].ETag || info.ETag != gi.ETag || !info.ModTime.Equal(gi.ModTime) {
			t.Errorf("listed %+v, put %+v, get %+v: ETags and times differ", info, puts["a/b0"], gi)
		}
	}
	for _, bad := range []string{"/", "../", "a/../", ".tmp/", "a//"} {
		var got error
		for _, err := range s.List(context.Background(), bad) {
			got = err
		}
		if apperr.KindOf(got) != apperr.BadRequest {
			t.Errorf("list %q: %v, want bad_request", bad, got)
		}
	}
	// Stopping early is honoured.
	n := 0
	for range s.List(context.Background(), "") {
		n++
		break
	}
	if n != 1 {
		t.Errorf("break: %d", n)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var got error
	for _, err := range s.List(ctx, "") {
		got = err
	}
	if !errors.Is(got, context.Canceled) {
		t.Errorf("canceled list: %v", got)
	}
}

func testDelete(t *testing.T, s blob.Store) {
	mustPut(t, s, "artifacts/p/1/a.srt", "x")
	mustPut(t, s, "artifacts/p/2/b.srt", "y")
	for _, key := range []string{"artifacts/p/1/a.srt", "artifacts/p/1/a.srt", "never/was", "artifacts/p"} {
		if err := s.Delete(context.Background(), key); err != nil {
			t.Fatalf("delete %s: %v", key, err)
		}
	}
	if got := keys(list(t, s, "")); !slices.Equal(got, []string{"artifacts/p/2/b.srt"}) {
		t.Errorf("left %q", got)
	}
	if _, _, err := s.Get(context.Background(), "artifacts/p/1/a.srt", nil); apperr.KindOf(err) != apperr.NotFound {
		t.Errorf("get deleted: %v, want not_found", err)
	}
	// A key can be put again after its delete.
	mustPut(t, s, "artifacts/p/1/a.srt", "again")
	if got, _ := read(t, s, "artifacts/p/1/a.srt", nil); got != "again" {
		t.Errorf("put after delete: %q", got)
	}
}
