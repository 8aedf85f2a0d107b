package stl

import "strconv"

// frameRate is the frame rate of a file's time codes. A time code counts
// frames, nominal to a second; a frame lasts den/num seconds. STL30.01
// files are for 525-line (NTSC) video, whose frames last 1001/30000 s: a
// time code names a frame of that video, so it is read at that rate, as
// the SCC reader reads non-drop-frame timecodes (EBU Tech 3264 has no
// drop-frame counting).
type frameRate struct {
	nominal  int
	num, den int64
}

// rateOf returns the frame rate a disk format code "STLnn.01" names:
// 25 and 30 (29.97) are EBU Tech 3264's; 24, 48 and 50, and 60 (59.94),
// are read too. ok is false for anything else; the rate is then 25.
func rateOf(dfc string) (frameRate, bool) {
	if len(dfc) == 8 && dfc[:3] == "STL" && dfc[5:] == ".01" {
		switch n, _ := strconv.Atoi(dfc[3:5]); n {
		case 24, 25, 48, 50:
			return frameRate{nominal: n, num: int64(n), den: 1}, true
		case 30, 60:
			return frameRate{nominal: n, num: int64(n) * 1000, den: 1001}, true
		}
	}
	return frameRate{nominal: 25, num: 25, den: 1}, false
}

// frames returns the frame a time code (hours, minutes, seconds, frames)
// names.
func (r frameRate) frames(tc [4]int) int64 {
	return ((int64(tc[0])*60+int64(tc[1]))*60+int64(tc[2]))*int64(r.nominal) + int64(tc[3])
}

// ms returns the start of frame n in milliseconds, rounded to the nearest.
func (r frameRate) ms(n int64) int64 {
	return (2*n*1000*r.den + r.num) / (2 * r.num)
}

// fps returns the frame rate as a number.
func (r frameRate) fps() float64 { return float64(r.num) / float64(r.den) }
