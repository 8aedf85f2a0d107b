// Package blobtest is the conformance suite of [blob.Store]: the
// semantics every adapter must share (package fsblob on a folder, package
// s3blob on a bucket), so that the rest of the code cannot tell them
// apart. Each adapter's tests call [Run] with a function that opens an
// empty store; what only one adapter does (fsblob's file modes, S3's
// presigned links) stays in that adapter's own tests.
package blobtest

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/blob"
)

// Run runs the suite, each test on a store open returns, which must be
// empty. The big-object test measures the heap and runs first, alone; the
// others run in parallel after it. Call Run from a test that is not
// itself parallel, so that no other test disturbs the measure.
func Run(t *testing.T, open func(t *testing.T) blob.Store) {
	t.Run("BigObjectStreamed", func(t *testing.T) { testBigObject(t, open(t)) })
	for _, tc := range []struct {
		name string
		fn   func(*testing.T, blob.Store)
	}{
		{"Keys", testKeys},
		{"PutGet", testPutGet},
		{"Overwrite", testOverwrite},
		{"GetMissing", testGetMissing},
		{"PutFailuresLeaveNothing", testPutFailures},
		{"PutCanceledMidway", testPutCanceledMidway},
		{"Delete", testDelete},
		{"List", testList},
		{"ConcurrentPuts", testConcurrentPuts},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.fn(t, open(t))
		})
	}
}

func mustPut(t *testing.T, s blob.Store, key, content string) blob.Info {
	t.Helper()
	info, err := s.Put(context.Background(), key, strings.NewReader(content), int64(len(content)))
	if err != nil {
		t.Fatalf("put %s: %v", key, err)
	}
	return info
}

func read(t *testing.T, s blob.Store, key string, rng *blob.Range) (string, blob.Info) {
	t.Helper()
	rc, info, err := s.Get(context.Background(), key, rng)
	if err != nil {
		t.Fatalf("get %s: %v", key, err)
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatalf("read %s: %v", key, err)
	}
	return string(b), info
}

func list(t *testing.T, s blob.Store, prefix string) []blob.Info {
	t.Helper()
	var infos []blob.Info
	for info, err := range s.List(context.Background(), prefix) {
		if err != nil {
			t.Fatalf("list %q: %v", prefix, err)
		}
		infos = append(infos, info)
	}
	return infos
}

func keys(infos []blob.Info) []string {
	var ks []string
	for _, i := range infos {
		ks = append(ks, i.Key)
	}
	return ks
}

// checkInfo checks what every Info of a fresh object holds: its key and
// size, an ETag quoted as HTTP writes it, and a time close to now (the
// stores round it to the second at most).
func checkInfo(t *testing.T, what string, info blob.Info, key string, size int64) {
	t.Helper()
	if info.Key != key || info.Size != size {
		t.Errorf("%s: info %+v, want key %s and %d bytes", what, info, key, size)
	}
	if len(info.ETag) < 3 || info.ETag[0] != '"' || info.ETag[len(info.ETag)-1] != '"' {
		t.Errorf("%s: ETag %q is not quoted", what, info.ETag)
	}
	if d := time.Since(info.ModTime); d < -5*time.Second || d > time.Minute {
		t.Errorf("%s: ModTime %v is %v from now", what, info.ModTime, d)
	}
}
