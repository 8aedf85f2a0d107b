package analysis

// WaveformSampleRate is the rate of the PCM the analysis reads (16 kHz
// mono), and DefaultSamplesPerPeak the run of samples one peak covers:
// 10 ms, the VAD's frame.
const (
	WaveformSampleRate    = 16000
	DefaultSamplesPerPeak = 160
)

// WaveformBuilder turns 16 kHz mono s16le PCM, written to it in chunks of
// any size, into a [Waveform]. It keeps one byte per peak (100 bytes a
// second of sound at the default), never the samples.
type WaveformBuilder struct {
	perPeak int
	dec     s16le
	n       int   // samples in the current run
	peak    int32 // largest absolute sample of the current run
	peaks   []uint8
}

// NewWaveformBuilder returns a builder of one peak per samplesPerPeak
// samples; 0 or less means [DefaultSamplesPerPeak].
func NewWaveformBuilder(samplesPerPeak int) *WaveformBuilder {
	if samplesPerPeak <= 0 {
		samplesPerPeak = DefaultSamplesPerPeak
	}
	return &WaveformBuilder{perPeak: samplesPerPeak}
}

// Write adds PCM; it never fails (it is an io.Writer so a decode can be
// copied into it).
func (w *WaveformBuilder) Write(p []byte) (int, error) {
	w.dec.each(p, w.sample)
	return len(p), nil
}

func (w *WaveformBuilder) sample(s int16) {
	a := int32(s)
	if a < 0 {
		a = -a
	}
	w.peak = max(w.peak, a)
	w.n++
	if w.n == w.perPeak {
		w.flush()
	}
}

// flush ends the current run: full scale (32767, or -32768) is 255.
func (w *WaveformBuilder) flush() {
	w.peaks = append(w.peaks, uint8(min((w.peak*255+16383)/32767, 255)))
	w.n, w.peak = 0, 0
}

// Waveform returns the peaks so far, the last partial run included (it
// is then ended: call Waveform once, after the last Write).
func (w *WaveformBuilder) Waveform() Waveform {
	if w.n > 0 {
		w.flush()
	}
	return Waveform{SampleRate: WaveformSampleRate, SamplesPerPeak: w.perPeak, Peaks: w.peaks}
}
