package synth

import (
	"bytes"
	"testing"
)

func TestSRTSize(t *testing.T) {
	t.Parallel()
	b := SRT(40_000)
	if got := bytes.Count(b, []byte(" --> ")); got != 40_000 {
		t.Errorf("cues = %d; want 40000", got)
	}
	// The benchmark file is specified as 4 MiB; allow 5% either way.
	const want = 4 << 20
	if len(b) < want*95/100 || len(b) > want*105/100 {
		t.Errorf("size = %d bytes; want about %d", len(b), want)
	}
	if !bytes.Equal(b, SRT(40_000)) {
		t.Error("generator is not deterministic")
	}
}
