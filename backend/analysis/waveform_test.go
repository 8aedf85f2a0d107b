package analysis

import (
	"encoding/binary"
	"slices"
	"testing"
)

func samples(v ...int16) []byte {
	var b []byte
	for _, s := range v {
		b = binary.LittleEndian.AppendUint16(b, uint16(s))
	}
	return b
}

func TestWaveform(t *testing.T) {
	tests := []struct {
		name    string
		perPeak int
		pcm     []byte
		want    []uint8
	}{
		{"full scale both ways", 2, samples(32767, 0, 0, -32768), []uint8{255, 255}},
		{"half and silence", 2, samples(16384, -100, 0, 0), []uint8{128, 0}},
		{"partial last run", 3, samples(0, 0, 0, -3276), []uint8{0, 25}},
		{"empty", 0, nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := NewWaveformBuilder(tt.perPeak)
			// A byte at a time: samples cut across writes.
			for i := range tt.pcm {
				w.Write(tt.pcm[i : i+1])
			}
			got := w.Waveform()
			if !slices.Equal(got.Peaks, tt.want) {
				t.Errorf("peaks %v, want %v", got.Peaks, tt.want)
			}
			per := tt.perPeak
			if per == 0 {
				per = DefaultSamplesPerPeak
			}
			if got.SampleRate != 16000 || got.SamplesPerPeak != per {
				t.Errorf("rate %d, per peak %d", got.SampleRate, got.SamplesPerPeak)
			}
		})
	}
	if w := NewWaveformBuilder(0).Waveform(); w.SamplesPerPeak != DefaultSamplesPerPeak || w.PeakMs() != 10 {
		t.Errorf("default: %d samples, %v ms", w.SamplesPerPeak, w.PeakMs())
	}
}

func TestWaveformOfSine(t *testing.T) {
	w := NewWaveformBuilder(0)
	w.Write(pcm(0, silence(50), sine(100, 0.5)))
	got := w.Waveform().Peaks
	if len(got) != 15 {
		t.Fatalf("%d peaks for 150 ms", len(got))
	}
	for i, p := range got {
		want := uint8(0)
		if i >= 5 {
			want = 128
		}
		if d := int(p) - int(want); d < -1 || d > 1 {
			t.Errorf("peak %d = %d, want %d", i, p, want)
		}
	}
}
