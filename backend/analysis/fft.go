package analysis

import (
	"math"
	"math/bits"
)

// fft is an in-place radix-2 complex FFT of a fixed power-of-two size,
// with its twiddles and bit reversal worked out once: the VAD runs one
// per 10 ms frame, 256 points, which needs no library.
type fft struct {
	n      int
	rev    []int
	cos    []float64
	sin    []float64
	re, im []float64
}

func newFFT(n int) *fft {
	f := &fft{n: n, rev: make([]int, n), cos: make([]float64, n/2), sin: make([]float64, n/2), re: make([]float64, n), im: make([]float64, n)}
	shift := 64 - bits.TrailingZeros(uint(n))
	for i := range n {
		f.rev[i] = int(bits.Reverse64(uint64(i)) >> shift)
	}
	for i := range n / 2 {
		f.cos[i] = math.Cos(2 * math.Pi * float64(i) / float64(n))
		f.sin[i] = -math.Sin(2 * math.Pi * float64(i) / float64(n))
	}
	return f
}

// transform replaces f.re, f.im with their discrete Fourier transform.
func (f *fft) transform() {
	re, im := f.re, f.im
	for i, j := range f.rev {
		if i < j {
			re[i], re[j] = re[j], re[i]
			im[i], im[j] = im[j], im[i]
		}
	}
	for size := 2; size <= f.n; size <<= 1 {
		half, step := size/2, f.n/size
		for start := 0; start < f.n; start += size {
			for k := range half {
				wr, wi := f.cos[k*step], f.sin[k*step]
				a, b := start+k, start+k+half
				tr := re[b]*wr - im[b]*wi
				ti := re[b]*wi + im[b]*wr
				re[b], im[b] = re[a]-tr, im[a]-ti
				re[a], im[a] = re[a]+tr, im[a]+ti
			}
		}
	}
}
