package fsblob_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/blob"
	"github.com/captionqa/captionqa/backend/blob/fsblob"
)

func open(t *testing.T) *fsblob.Store {
	t.Helper()
	s, err := fsblob.Open(filepath.Join(t.TempDir(), "blobs"), fsblob.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func mustPut(t *testing.T, s *fsblob.Store, key, content string) blob.Info {
	t.Helper()
	info, err := s.Put(context.Background(), key, strings.NewReader(content), int64(len(content)))
	if err != nil {
		t.Fatalf("put %s: %v", key, err)
	}
	return info
}

func read(t *testing.T, s *fsblob.Store, key string, rng *blob.Range) (string, blob.Info) {
	t.Helper()
	rc, info, err := s.Get(context.Background(), key, rng)
	if err != nil {
		t.Fatalf("get %s: %v", key, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return string(b), info
}

func quotedSHA(s string) string {
	sum := sha256.Sum256([]byte(s))
	return `"` + hex.EncodeToString(sum[:]) + `"`
}

func TestKeys(t *testing.T) {
	s := open(t)
	for _, tc := range []struct {
		key string
		ok  bool
	}{
		{"a", true},
		{"artifacts/2f0c/youtube.srt", true},
		{"media/A-b_c.9/x", true},
		{"", false},
		{"/etc/passwd", false},
		{"a/../b", false},
		{"..", false},
		{"a/./b", false},
		{"a//b", false},
		{"a/", false},
		{".tmp/x", false},
		{".hidden", false},
		{`a\b`, false},
		{"a b", false},
		{"é", false},
		{"a/b\x00", false},
		{strings.Repeat("a", 1025), false},
	} {
		t.Run(fmt.Sprintf("%.20q", tc.key), func(t *testing.T) {
			ctx := context.Background()
			_, err := s.Put(ctx, tc.key, strings.NewReader("x"), 1)
			if tc.ok {
				if err != nil {
					t.Fatalf("put: %v", err)
				}
				return
			}
			if apperr.KindOf(err) != apperr.BadRequest {
				t.Errorf("put: got %v, want bad_request", err)
			}
			if _, _, err := s.Get(ctx, tc.key, nil); apperr.KindOf(err) != apperr.BadRequest {
				t.Errorf("get: got %v, want bad_request", err)
			}
			if err := s.Delete(ctx, tc.key); apperr.KindOf(err) != apperr.BadRequest {
				t.Errorf("delete: got %v, want bad_request", err)
			}
		})
	}
	// Nothing escaped the root.
	if _, err := os.Stat(filepath.Join(filepath.Dir(s.Root()), "b")); err == nil {
		t.Error("a key wrote outside the root")
	}
}

func TestPutGet(t *testing.T) {
	s := open(t)
	const content = "0123456789abcdef"
	info := mustPut(t, s, "artifacts/x/out.srt", content)
	if info.Size != int64(len(content)) || info.ETag != quotedSHA(content) || info.Key != "artifacts/x/out.srt" {
		t.Fatalf("put info = %+v", info)
	}
	for _, tc := range []struct {
		name string
		rng  *blob.Range
		want string
	}{
		{"whole", nil, content},
		{"to end", &blob.Range{Start: 10, Length: -1}, "abcdef"},
		{"middle", &blob.Range{Start: 2, Length: 3}, "234"},
		{"past end is cut", &blob.Range{Start: 14, Length: 100}, "ef"},
		{"empty at end", &blob.Range{Start: 16, Length: -1}, ""},
		{"zero length", &blob.Range{Start: 3, Length: 0}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, gi := read(t, s, "artifacts/x/out.srt", tc.rng)
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
			if gi.Size != int64(len(content)) || gi.ETag != info.ETag {
				t.Errorf("info = %+v, want the whole object's", gi)
			}
		})
	}
	for _, rng := range []blob.Range{{Start: -1, Length: 1}, {Start: 17, Length: -1}, {Start: 0, Length: -2}} {
		if _, _, err := s.Get(context.Background(), "artifacts/x/out.srt", &rng); apperr.KindOf(err) != apperr.BadRequest {
			t.Errorf("range %+v: got %v, want bad_request", rng, err)
		}
	}
	// Replace, with an unknown size.
	info2, err := s.Put(context.Background(), "artifacts/x/out.srt", strings.NewReader("new"), -1)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := read(t, s, "artifacts/x/out.srt", nil); got != "new" || info2.ETag != quotedSHA("new") {
		t.Errorf("after replace: %q %s", got, info2.ETag)
	}
	if runtime.GOOS != "windows" {
		for _, p := range []struct {
			path string
			mode os.FileMode
		}{{"artifacts/x/out.srt", 0o600}, {"artifacts/x", 0o700}, {"artifacts", 0o700}} {
			st, err := os.Stat(filepath.Join(s.Root(), p.path))
			if err != nil {
				t.Fatal(err)
			}
			if st.Mode().Perm() != p.mode {
				t.Errorf("%s mode %04o, want %04o", p.path, st.Mode().Perm(), p.mode)
			}
		}
	}
}

func TestGetMissing(t *testing.T) {
	s := open(t)
	mustPut(t, s, "a", "x")
	for _, key := range []string{"b", "a/b", "dir/none"} {
		if _, _, err := s.Get(context.Background(), key, nil); apperr.KindOf(err) != apperr.NotFound {
			t.Errorf("get %s: got %v, want not_found", key, err)
		}
	}
}

// failingReader gives some bytes, then fails.
type failingReader struct{ n int }

func (r *failingReader) Read(p []byte) (int, error) {
	if r.n <= 0 {
		return 0, errors.New("connection reset")
	}
	k := min(len(p), r.n)
	r.n -= k
	return k, nil
}

func TestPutFailuresLeaveNothing(t *testing.T) {
	canceled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		r    io.Reader
		size int64
		kind apperr.Kind
		is   error
	}{
		{"shorter than declared", context.Background(), strings.NewReader("abc"), 4, apperr.BadRequest, nil},
		{"longer than declared", context.Background(), strings.NewReader("abcde"), 4, apperr.BadRequest, nil},
		{"reader fails", context.Background(), &failingReader{n: 1 << 20}, -1, apperr.Internal, nil},
		{"canceled", canceled, strings.NewReader("abc"), 3, apperr.Internal, context.Canceled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := open(t)
			mustPut(t, s, "k", "old")
			_, err := s.Put(tc.ctx, "k", tc.r, tc.size)
			if err == nil {
				t.Fatal("put succeeded")
			}
			if apperr.KindOf(err) != tc.kind || (tc.is != nil && !errors.Is(err, tc.is)) {
				t.Fatalf("got %v", err)
			}
			if got, _ := read(t, s, "k", nil); got != "old" {
				t.Errorf("object is %q, want the old one", got)
			}
			tmps, _ := os.ReadDir(filepath.Join(s.Root(), ".tmp"))
			if len(tmps) != 0 {
				t.Errorf("%d temporary files left", len(tmps))
			}
		})
	}
}

// cancelAfter cancels its context once some bytes have been read: a
// client that goes away mid-upload.
type cancelAfter struct {
	r      io.Reader
	n      int
	cancel func()
}

func (c *cancelAfter) Read(p []byte) (int, error) {
	k, err := c.r.Read(p)
	c.n -= k
	if c.n <= 0 {
		c.cancel()
	}
	return k, err
}

func TestPutCanceledMidway(t *testing.T) {
	s := open(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := &cancelAfter{r: bytes.NewReader(make([]byte, 4<<20)), n: 1 << 20, cancel: cancel}
	if _, err := s.Put(ctx, "big", r, 4<<20); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v, want context.Canceled", err)
	}
	if _, _, err := s.Get(context.Background(), "big", nil); apperr.KindOf(err) != apperr.NotFound {
		t.Errorf("get: %v, want not_found", err)
	}
}

func TestConflictingKeys(t *testing.T) {
	s := open(t)
	mustPut(t, s, "a", "x")
	if _, err := s.Put(context.Background(), "a/b", strings.NewReader("y"), 1); apperr.KindOf(err) != apperr.Conflict {
		t.Errorf("put a/b over object a: %v, want conflict", err)
	}
	mustPut(t, s, "d/e", "x")
	if _, err := s.Put(context.Background(), "d", strings.NewReader("y"), 1); apperr.KindOf(err) != apperr.Conflict {
		t.Errorf("put d over folder d: %v, want conflict", err)
	}
}

func list(t *testing.T, s *fsblob.Store, prefix string) []string {
	t.Helper()
	var keys []string
	for info, err := range s.List(context.Background(), prefix) {
		if err != nil {
			t.Fatalf("list %q: %v", prefix, err)
		}
		keys = append(keys, info.Key)
	}
	return keys
}

func TestList(t *testing.T) {
	s := open(t)
	all := []string{"a-c", "a.c", "a/b", "a/b0", "a/c/d", "a0", "artifacts/1/x", "artifacts/2/y", "b"}
	for _, k := range all {
		mustPut(t, s, k, k)
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
		t.Run(tc.prefix, func(t *testing.T) {
			if got := list(t, s, tc.prefix); !slices.Equal(got, tc.want) {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
	// Key order is byte order of the whole key.
	if !slices.IsSorted(all) {
		t.Fatal("test table not sorted")
	}
	for info, err := range s.List(context.Background(), "a/b0") {
		if err != nil || info.Size != 4 || info.ETag != quotedSHA("a/b0") {
			t.Errorf("info %+v, %v", info, err)
		}
	}
	for _, bad := range []string{"/", "../", "a/../", ".tmp/"} {
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

func TestDelete(t *testing.T) {
	s := open(t)
	mustPut(t, s, "artifacts/p/1/a.srt", "x")
	mustPut(t, s, "artifacts/p/2/b.srt", "y")
	for _, key := range []string{"artifacts/p/1/a.srt", "artifacts/p/1/a.srt", "never/was"} {
		if err := s.Delete(context.Background(), key); err != nil {
			t.Fatalf("delete %s: %v", key, err)
		}
	}
	if got := list(t, s, ""); !slices.Equal(got, []string{"artifacts/p/2/b.srt"}) {
		t.Errorf("left %q", got)
	}
	if _, err := os.Stat(filepath.Join(s.Root(), "artifacts", "p", "1")); !os.IsNotExist(err) {
		t.Errorf("empty folder kept: %v", err)
	}
	if _, err := os.Stat(s.Root()); err != nil {
		t.Errorf("root removed: %v", err)
	}
}

// TestConcurrentPuts puts one key from many goroutines, deleting it and
// putting siblings meanwhile: the object left is exactly one of the puts,
// with that put's ETag, and no temporary file remains.
func TestConcurrentPuts(t *testing.T) {
	s := open(t)
	const n = 16
	contents := make([]string, n)
	for i := range contents {
		contents[i] = strings.Repeat(fmt.Sprintf("writer %02d;", i), 20000+i)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 2*n)
	for i := range n {
		wg.Go(func() {
			if _, err := s.Put(context.Background(), "media/u/same", strings.NewReader(contents[i]), int64(len(contents[i]))); err != nil {
				errs <- err
			}
		})
		wg.Go(func() {
			// Deletes of a sibling empty and remove folders the puts need.
			key := fmt.Sprintf("media/u/sib%d", i)
			if _, err := s.Put(context.Background(), key, strings.NewReader("s"), 1); err != nil {
				errs <- err
			}
			if err := s.Delete(context.Background(), key); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	got, info := read(t, s, "media/u/same", nil)
	if !slices.Contains(contents, got) {
		t.Fatalf("object is none of the puts (%d bytes)", len(got))
	}
	if info.ETag != quotedSHA(got) || info.Size != int64(len(got)) {
		t.Errorf("info %+v does not match the content", info)
	}
	tmps, _ := os.ReadDir(filepath.Join(s.Root(), ".tmp"))
	if len(tmps) != 0 {
		t.Errorf("%d temporary files left", len(tmps))
	}
}

func TestOpenRemovesStaleTemps(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "blobs")
	if _, err := fsblob.Open(dir, fsblob.Options{}); err != nil {
		t.Fatal(err)
	}
	stale, fresh := filepath.Join(dir, ".tmp", "put-stale"), filepath.Join(dir, ".tmp", "put-fresh")
	for _, p := range []string{stale, fresh} {
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	old := time.Now().Add(-2 * time.Hour)
	if err := os.Chtimes(stale, old, old); err != nil {
		t.Fatal(err)
	}
	if _, err := fsblob.Open(dir, fsblob.Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale temp kept: %v", err)
	}
	if _, err := os.Stat(fresh); err != nil {
		t.Errorf("fresh temp removed: %v", err)
	}
}

func TestLocalFileHoldsTheContentAtItsOffset(t *testing.T) {
	s, err := fsblob.Open(t.TempDir(), fsblob.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if _, err := s.Put(ctx, "media/a", strings.NewReader("moov and mdat"), -1); err != nil {
		t.Fatal(err)
	}
	file, off, err := s.LocalFile(ctx, "media/a")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(raw[off:]); got != "moov and mdat" {
		t.Fatalf("content at offset %d = %q", off, got)
	}
	if _, _, err := s.LocalFile(ctx, "media/missing"); apperr.KindOf(err) != apperr.NotFound {
		t.Fatalf("missing object: %v, want not_found", err)
	}
}
