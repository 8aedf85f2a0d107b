package blobtest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/captionqa/captionqa/backend/blob"
)

// testConcurrentPuts puts different keys from many goroutines, and one
// key from many more: each key holds its own content, and the shared key
// exactly one of the puts, whole, with that put's size.
func testConcurrentPuts(t *testing.T, s blob.Store) {
	const n = 16
	contents := make([]string, n)
	for i := range contents {
		contents[i] = strings.Repeat(fmt.Sprintf("writer %02d;", i), 20000+i)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 2*n)
	for i := range n {
		wg.Go(func() {
			key := fmt.Sprintf("media/u/k%02d", i)
			if _, err := s.Put(context.Background(), key, strings.NewReader(contents[i]), int64(len(contents[i]))); err != nil {
				errs <- err
			}
		})
		wg.Go(func() {
			if _, err := s.Put(context.Background(), "media/u/same", strings.NewReader(contents[i]), -1); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for i := range n {
		key := fmt.Sprintf("media/u/k%02d", i)
		if got, info := read(t, s, key, nil); got != contents[i] || info.Size != int64(len(got)) {
			t.Errorf("%s holds %d bytes, not its put's", key, len(got))
		}
	}
	got, info := read(t, s, "media/u/same", nil)
	if !slices.Contains(contents, got) {
		t.Fatalf("shared key holds none of the puts (%d bytes)", len(got))
	}
	listed := list(t, s, "media/u/")
	if len(listed) != n+1 {
		t.Fatalf("listed %d objects, want %d", len(listed), n+1)
	}
	if last := listed[n]; last.Key != "media/u/same" || last.Size != int64(len(got)) || last.ETag != info.ETag {
		t.Errorf("listed %+v, get said %+v", last, info)
	}
}
