package parallel

import (
	"context"
	"errors"
	"testing"
)

// TestSlots: Take succeeds while a slot is free, waits when none is and
// gives up with the context's error; Give frees one.
func TestSlots(t *testing.T) {
	s := NewSlots(2)
	ctx := context.Background()
	for range 2 {
		if err := s.Take(ctx); err != nil {
			t.Fatal(err)
		}
	}
	done, cancel := context.WithCancel(ctx)
	cancel()
	if err := s.Take(done); !errors.Is(err, context.Canceled) {
		t.Fatalf("Take with every slot held: %v; want context.Canceled", err)
	}
	s.Give()
	if err := s.Take(ctx); err != nil || len(s) != 2 {
		t.Fatalf("Take after Give: %v, %d held", err, len(s))
	}
	if NewSlots(0) == nil || cap(NewSlots(0)) < 1 {
		t.Error("NewSlots(0) has no slot")
	}
}
