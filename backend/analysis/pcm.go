package analysis

// s16le decodes a stream of signed 16-bit little-endian samples that may
// be cut anywhere, a pipe's reads falling between a sample's two bytes.
type s16le struct {
	carry    byte
	hasCarry bool
}

// each calls f for every whole sample of p, keeping an odd last byte for
// the next call.
func (d *s16le) each(p []byte, f func(int16)) {
	if len(p) == 0 {
		return
	}
	if d.hasCarry {
		f(int16(uint16(d.carry) | uint16(p[0])<<8))
		p = p[1:]
		d.hasCarry = false
	}
	n := len(p) &^ 1
	for i := 0; i < n; i += 2 {
		f(int16(uint16(p[i]) | uint16(p[i+1])<<8))
	}
	if n < len(p) {
		d.carry, d.hasCarry = p[n], true
	}
}
