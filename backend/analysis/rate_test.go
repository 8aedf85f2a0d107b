package analysis

import "testing"

func TestRationalOf(t *testing.T) {
	for _, tt := range []struct {
		fps  float64
		want Rational
	}{
		{25, Rational{25, 1}},
		{23.976, Rational{24000, 1001}},
		{23.976023976, Rational{24000, 1001}},
		{29.97, Rational{30000, 1001}},
		{59.94, Rational{60000, 1001}},
		{12.5, Rational{12500, 1000}},
		{0, Rational{}},
		{-1, Rational{}},
	} {
		if got := RationalOf(tt.fps); got != tt.want {
			t.Errorf("RationalOf(%v) = %v; want %v", tt.fps, got, tt.want)
		}
	}
}
