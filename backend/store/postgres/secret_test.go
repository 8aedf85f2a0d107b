package postgres

import (
	"bytes"
	"context"
	"sync"
	"testing"
)

// TestSharedSecret: nodes asking at once all get the one secret the
// first made, and ask again get it again.
func TestSharedSecret(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	nodes := openNodes(t, 3, nil)
	got := make([][]byte, 12)
	var wg sync.WaitGroup
	for i := range got {
		db := nodes[i%len(nodes)]
		wg.Go(func() {
			s, _, err := db.SharedSecret(ctx)
			if err != nil {
				t.Error(err)
			}
			got[i] = s
		})
	}
	wg.Wait()
	if len(got[0]) != 32 || bytes.Equal(got[0], make([]byte, 32)) {
		t.Fatalf("secret = %x, want 32 random bytes", got[0])
	}
	again, _, err := nodes[0].SharedSecret(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range append(got, again) {
		if !bytes.Equal(s, got[0]) {
			t.Errorf("call %d: %x, want %x", i, s, got[0])
		}
	}
	_, e := openTest(t, nil)
	other, _, err := e.SharedSecret(ctx)
	if err != nil || bytes.Equal(other, got[0]) {
		t.Errorf("another database's secret = %x, %v; want its own", other, err)
	}
}
