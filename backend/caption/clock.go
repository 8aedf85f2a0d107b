package caption

import "strconv"

// AppendClock appends ms as hours:minutes:seconds, a fraction separator and
// three digits of milliseconds, with at least hourDigits digits of hours
// ("01:02:03,004" for SRT; hourDigits 1 gives SBV's "1:02:03.004").
// Negative times are written as zero.
func AppendClock(dst []byte, ms int64, hourDigits int, sep byte) []byte {
	if ms < 0 {
		ms = 0
	}
	if ms < 100*3_600_000 && hourDigits <= 2 {
		// The usual case: fewer than 100 hours, 32-bit arithmetic and one
		// append.
		v := uint32(ms)
		h, m, s, f := v/3_600_000, v/60_000%60, v/1000%60, v%1000
		if h >= 10 || hourDigits == 2 {
			dst = append(dst, byte('0'+h/10))
		}
		return append(dst, byte('0'+h%10), ':', byte('0'+m/10), byte('0'+m%10), ':', byte('0'+s/10), byte('0'+s%10), sep,
			byte('0'+f/100), byte('0'+f/10%10), byte('0'+f%10))
	}
	h := ms / 3_600_000
	m := ms / 60_000 % 60
	s := ms / 1000 % 60
	f := ms % 1000
	hs := strconv.FormatInt(h, 10)
	for i := len(hs); i < hourDigits; i++ {
		dst = append(dst, '0')
	}
	dst = append(dst, hs...)
	dst = append(dst, ':', byte('0'+m/10), byte('0'+m%10), ':', byte('0'+s/10), byte('0'+s%10), sep,
		byte('0'+f/100), byte('0'+f/10%10), byte('0'+f%10))
	return dst
}

// FormatClock formats ms as "HH:MM:SS.mmm" for messages.
func FormatClock(ms int64) string { return string(AppendClock(nil, ms, 2, '.')) }
