package server_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/captionqa/captionqa/backend/httpapi"
)

// BenchmarkUploadSignedURL puts 256 MiB (16 parts of 16 MiB) through the
// signed upload URLs of an in-process server over loopback, as a client
// uploads media: the PUT path streams each part into the blob store,
// hashing it (SHA-256) and syncing it to disk. Each iteration sends the
// parts of one session again (a part sent again replaces the earlier
// one), one at a time or four at once; MB/s is the upload's throughput.
// The baseline, disk, writes the same parts to files in the same folder
// and syncs each, as the blob store does: the ceiling the disk sets, for
// the ratio to report.
func BenchmarkUploadSignedURL(b *testing.B) {
	const size = 256 * mib
	e := newVideoEnv(b, nil)
	pid := e.newProject("Bench", mediaIR)
	body := make([]byte, 16*mib)
	r := rand.New(rand.NewChaCha8([32]byte{7}))
	for i := range body {
		body[i] = byte(r.Uint32())
	}
	b.Run("disk", func(b *testing.B) {
		dir := b.TempDir()
		b.SetBytes(size)
		for b.Loop() {
			for n := range size / len(body) {
				f, err := os.Create(filepath.Join(dir, fmt.Sprint(n)))
				if err == nil {
					_, err = f.Write(body)
				}
				if err == nil {
					err = f.Sync()
				}
				if cerr := f.Close(); err == nil {
					err = cerr
				}
				if err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	for _, conc := range []int{1, 4} {
		b.Run(fmt.Sprintf("parallel=%d", conc), func(b *testing.B) {
			s := e.with(b).createUpload(pid, "bench.mp4", size)
			if len(s.Parts) != 16 || s.PartSize != int64(len(body)) {
				b.Fatalf("%d parts of %d bytes; want 16 of 16 MiB", len(s.Parts), s.PartSize)
			}
			b.SetBytes(size)
			b.ResetTimer()
			for b.Loop() {
				next := make(chan httpapi.PartURLView, len(s.Parts))
				for _, p := range s.Parts {
					next <- p
				}
				close(next)
				var wg sync.WaitGroup
				for range conc {
					wg.Go(func() {
						for p := range next {
							if r, err := tryPut(p.URL, bytes.NewReader(body), int64(len(body))); err != nil || r.Status != 200 {
								b.Errorf("PUT part %d: %d %s %v", p.PartNumber, r.Status, r.Body, err)
							}
						}
					})
				}
				wg.Wait()
			}
		})
	}
}
