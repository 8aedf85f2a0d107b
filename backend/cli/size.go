package cli

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// sizeUnits are the binary units a size flag takes, longest suffix
// first so "GiB" is not read as "B" (read-only).
var sizeUnits = []struct {
	suffix string
	bytes  int64
}{{"TiB", 1 << 40}, {"GiB", 1 << 30}, {"MiB", 1 << 20}, {"KiB", 1 << 10}, {"B", 1}}

// parseSize reads a size in bytes: a whole number, alone or with a
// binary unit (500MiB, 20GiB, 1.5TiB).
func parseSize(s string) (int64, error) {
	s = strings.TrimSpace(s)
	mult := int64(1)
	for _, u := range sizeUnits {
		if num, ok := strings.CutSuffix(s, u.suffix); ok {
			s, mult = strings.TrimSpace(num), u.bytes
			break
		}
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f < 0 || math.IsInf(f, 0) {
		return 0, errors.New("a size is a number of bytes, or one with KiB, MiB, GiB or TiB")
	}
	n := f * float64(mult)
	if n > math.MaxInt64/2 {
		return 0, fmt.Errorf("%s is too large", s)
	}
	return int64(n), nil
}

// sizeText prints a size in the largest binary unit that keeps it whole,
// or in bytes.
func sizeText(n int64) string {
	for _, u := range sizeUnits[:4] {
		if n >= u.bytes && n%u.bytes == 0 {
			return fmt.Sprintf("%d %s", n/u.bytes, u.suffix)
		}
	}
	return fmt.Sprintf("%d bytes", n)
}
