package analysis

import (
	"encoding/binary"
	"math"
	"math/rand/v2"
)

// part is a stretch of synthetic 16 kHz sound: a tone of harmonics of
// hz (1 harmonic: a sine) or, for hz 0, white noise, at amp (full scale
// 1); amp 0 is silence.
type part struct {
	ms        int
	hz        float64
	harmonics int
	amp       float64
}

// pcm renders parts one after another, over a white-noise bed of
// bedAmp (0 for none), as s16le.
func pcm(bedAmp float64, parts ...part) []byte {
	rng := rand.New(rand.NewPCG(1, 2))
	var out []byte
	var n int
	for _, p := range parts {
		for range p.ms * 16 {
			t := float64(n) / 16000
			x := bedAmp * (2*rng.Float64() - 1)
			switch {
			case p.amp == 0:
			case p.hz == 0:
				x += p.amp * (2*rng.Float64() - 1)
			default:
				h := max(p.harmonics, 1)
				for k := 1; k <= h; k++ {
					x += p.amp / float64(h) * math.Sin(2*math.Pi*p.hz*float64(k)*t)
				}
			}
			v := int16(max(-32768, min(32767, math.Round(x*32767))))
			out = binary.LittleEndian.AppendUint16(out, uint16(v))
			n++
		}
	}
	return out
}

func silence(ms int) part            { return part{ms: ms} }
func tone(ms int, amp float64) part  { return part{ms: ms, hz: 150, harmonics: 12, amp: amp} }
func sine(ms int, amp float64) part  { return part{ms: ms, hz: 1000, harmonics: 1, amp: amp} }
func noise(ms int, amp float64) part { return part{ms: ms, amp: amp} }
