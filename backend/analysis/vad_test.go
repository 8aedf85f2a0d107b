package analysis

import (
	"testing"
)

func TestVAD(t *testing.T) {
	type span struct{ start, end int64 }
	tests := []struct {
		name string
		pcm  []byte
		want []span // within 30 ms
	}{
		{"silence", pcm(0, silence(3000)), nil},
		{"sine burst", pcm(0, silence(1000), sine(1000, 0.5), silence(1000)), []span{{1000, 2000}}},
		{"voiced burst", pcm(0, silence(1000), tone(1500, 0.3), silence(1000)), []span{{1000, 2500}}},
		{"white noise burst is not speech", pcm(0, silence(1000), noise(1000, 0.5), silence(1000)), nil},
		{"short gap merged", pcm(0, silence(500), tone(600, 0.3), silence(150), tone(600, 0.3), silence(800)), []span{{500, 1850}}},
		{"long gap splits", pcm(0, silence(500), tone(600, 0.3), silence(700), tone(600, 0.3), silence(800)), []span{{500, 1100}, {1800, 2400}}},
		{"too short", pcm(0, silence(1000), tone(100, 0.3), silence(1000)), nil},
		{"over a noise bed", pcm(0.02, silence(2000), tone(1000, 0.2), silence(2000)), []span{{2000, 3000}}},
		{"noise bed only", pcm(0.05, silence(5000)), nil},
		{"noise onset then voice", pcm(0, silence(1000), noise(100, 0.1), tone(800, 0.3), silence(1000)), []span{{1000, 1900}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v := NewVAD()
			v.Write(tt.pcm)
			got := v.Segments()
			if len(got) != len(tt.want) {
				t.Fatalf("segments %v, want %v", got, tt.want)
			}
			for i, w := range tt.want {
				g := got[i]
				if abs(g.StartMs-w.start) > 30 || abs(g.EndMs-w.end) > 30 {
					t.Errorf("segment %d = %d-%d ms, want %d-%d", i, g.StartMs, g.EndMs, w.start, w.end)
				}
				if g.Confidence <= 0 || g.Confidence > 1 {
					t.Errorf("segment %d confidence %v", i, g.Confidence)
				}
			}
		})
	}
}

// TestVADSteadyToneIsABed: a tone that never stops becomes the noise
// floor once it fills the floor's window (3 s), as a music bed does.
func TestVADSteadyToneIsABed(t *testing.T) {
	v := NewVAD()
	v.Write(pcm(0, silence(500), sine(12000, 0.3)))
	var speech int64
	for _, s := range v.Segments() {
		speech += s.DurationMs()
	}
	if speech > 3600 {
		t.Errorf("%d ms of speech in a 12 s steady tone, want at most the floor's 3 s window", speech)
	}
}

func TestVADConfidenceFollowsSNR(t *testing.T) {
	conf := func(bed float64) float64 {
		v := NewVAD()
		v.Write(pcm(bed, silence(2000), tone(1000, 0.2), silence(1000)))
		s := v.Segments()
		if len(s) != 1 {
			t.Fatalf("bed %v: segments %v", bed, s)
		}
		return s[0].Confidence
	}
	clean, noisy := conf(0), conf(0.03)
	if !(clean > noisy) || clean < 0.95 {
		t.Errorf("confidence clean %v, noisy %v", clean, noisy)
	}
}

// TestVADChunks: the result does not depend on how the PCM is cut.
func TestVADChunks(t *testing.T) {
	data := pcm(0.01, silence(700), tone(900, 0.3), silence(400), noise(300, 0.2), tone(700, 0.3), silence(500))
	whole := NewVAD()
	whole.Write(data)
	want := whole.Segments()
	for _, size := range []int{1, 3, 161, 4097} {
		v := NewVAD()
		for i := 0; i < len(data); i += size {
			v.Write(data[i:min(i+size, len(data))])
		}
		got := v.Segments()
		if len(got) != len(want) {
			t.Fatalf("chunks of %d: %v, want %v", size, got, want)
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("chunks of %d: segment %d %v, want %v", size, i, got[i], want[i])
			}
		}
	}
	if len(want) == 0 {
		t.Fatal("no speech found")
	}
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}
