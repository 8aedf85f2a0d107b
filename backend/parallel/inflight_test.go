package parallel

import (
	"context"
	"testing"
	"time"
)

// TestInFlightWait: a Wait at the limit ends with ctx and counts
// nothing, and one that waits enters when a Leave frees the key.
func TestInFlightWait(t *testing.T) {
	f := NewInFlight(1)
	if err := f.Wait(context.Background(), "a"); err != nil {
		t.Fatalf("Wait under the limit: %v", err)
	}
	ended, cancel := context.WithCancel(context.Background())
	cancel()
	if err := f.Wait(ended, "a"); err != context.Canceled {
		t.Fatalf("Wait at the limit, ctx ended: %v; want context.Canceled", err)
	}
	if !f.Enter("b") {
		t.Fatal("another key is refused")
	}

	entered := make(chan error, 1)
	go func() { entered <- f.Wait(context.Background(), "a") }()
	f.Leave("a")
	select {
	case err := <-entered:
		if err != nil {
			t.Fatalf("Wait after a Leave: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Wait did not enter after a Leave")
	}
	if f.Enter("a") {
		t.Error("the key is under its limit after the waiter entered: the Wait counted nothing")
	}
}
