package analysis

import "math"

// RationalOf returns the frame rate fps as a fraction: the NTSC rates
// (23.976, 29.97, 59.94 and their multiples) as n*1000/1001, a whole
// rate as n/1, anything else in thousandths.
func RationalOf(fps float64) Rational {
	if !(fps > 0) || math.IsInf(fps, 0) {
		return Rational{}
	}
	if n := math.Round(fps); math.Abs(fps-n) < 1e-3 {
		return Rational{Num: int64(n), Den: 1}
	}
	if n := math.Round(fps * 1.001); math.Abs(fps-n/1.001) < 1e-3 {
		return Rational{Num: int64(n) * 1000, Den: 1001}
	}
	return Rational{Num: int64(math.Round(fps * 1000)), Den: 1000}
}
