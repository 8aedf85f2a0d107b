package blobtest

import (
	"bytes"
	"context"
	"io"
	"math/rand/v2"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/blob"
)

// bigSize is the big object's size: large enough that a store holding it
// whole in memory stands out from one holding a part of it (S3 multipart
// holds 16 MiB) plus garbage.
const bigSize = 64 << 20

// pattern generates an object's bytes: a random block of a prime length
// repeated, so a chunk lost, doubled or out of place (chunks are powers of
// two) changes the bytes at its offset.
type pattern struct {
	block []byte
	off   int64 // of the next byte
	n     int64 // bytes left
}

// newPattern returns the n bytes of the pattern that start at off.
func newPattern(off, n int64) *pattern {
	block := make([]byte, 65521)
	r := rand.New(rand.NewPCG(1, 2))
	for i := range block {
		block[i] = byte(r.Uint32())
	}
	return &pattern{block: block, off: off, n: n}
}

func (p *pattern) Read(b []byte) (int, error) {
	if p.n == 0 {
		return 0, io.EOF
	}
	b = b[:min(int64(len(b)), p.n)]
	total := 0
	for len(b) > 0 {
		k := copy(b, p.block[p.off%int64(len(p.block)):])
		b = b[k:]
		p.off += int64(k)
		total += k
	}
	p.n -= int64(total)
	return total, nil
}

// sameAsPattern compares r with the n bytes of the pattern that start at
// off, chunk by chunk.
func sameAsPattern(r io.Reader, off, n int64) (bool, error) {
	want := newPattern(off, n)
	got := make([]byte, 256<<10)
	exp := make([]byte, len(got))
	for {
		k, err := io.ReadFull(r, got)
		if k > 0 {
			if m, _ := io.ReadFull(want, exp[:k]); m != k || !bytes.Equal(got[:k], exp[:k]) {
				return false, nil
			}
		}
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return want.n == 0, nil
		}
		if err != nil {
			return false, err
		}
	}
}

// peakHeap runs fn and returns how far the heap grew above where it stood
// before, sampling it every few milliseconds. The collector runs after
// every 10% of growth meanwhile, so the peak is what fn holds, not the
// garbage it left (by default the heap doubles before a collection).
func peakHeap(fn func()) uint64 {
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	base, peak := ms.HeapAlloc, ms.HeapAlloc
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc)
			select {
			case <-stop:
				return
			case <-tick.C:
			}
		}
	}()
	fn()
	close(stop)
	<-done
	return peak - base
}

// testBigObject puts and reads back a 64 MiB object, of known size and of
// unknown size, from a reader that generates its bytes: the heap must
// stay well below the object's size, so neither way buffers it whole.
func testBigObject(t *testing.T, s blob.Store) {
	ctx := context.Background()
	for _, size := range []int64{bigSize, -1} {
		var info blob.Info
		var putErr, getErr error
		same := false
		grew := peakHeap(func() {
			info, putErr = s.Put(ctx, "media/big", newPattern(0, bigSize), size)
			if putErr != nil {
				return
			}
			rc, gi, err := s.Get(ctx, "media/big", nil)
			if err != nil {
				getErr = err
				return
			}
			defer rc.Close()
			if gi.Size != bigSize || gi.ETag != info.ETag {
				t.Errorf("size %d: get info %+v, put said %+v", size, gi, info)
			}
			same, getErr = sameAsPattern(rc, 0, bigSize)
		})
		if putErr != nil || getErr != nil {
			t.Fatalf("size %d: put %v, get %v", size, putErr, getErr)
		}
		checkInfo(t, "big put", info, "media/big", bigSize)
		if !same {
			t.Errorf("size %d: the object read back differs from what was put", size)
		}
		if grew > bigSize/2 {
			t.Errorf("size %d: the heap grew %d MiB putting and reading %d MiB: the object was buffered", size, grew>>20, bigSize>>20)
		}
		t.Logf("size %d: heap grew %.1f MiB", size, float64(grew)/(1<<20))
	}
	// A range deep inside reads the right bytes.
	const start, length = bigSize - 3<<20, 1 << 20
	rc, _, err := s.Get(ctx, "media/big", &blob.Range{Start: start, Length: length})
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	if ok, err := sameAsPattern(rc, start, length); err != nil || !ok {
		t.Errorf("range %d+%d: same %v, %v", start, length, ok, err)
	}
}
