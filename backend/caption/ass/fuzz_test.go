package ass

import "testing"

// FuzzParse checks that no input makes the reader panic, fail or break the
// IR's invariants. It is seeded with the golden inputs.
func FuzzParse(f *testing.F) {
	f.Add([]byte("[Events]\nDialogue: 0,0:00:00.00,0:00:01.00,,,0,0,0,,{\\p1}{\\t(\\i1}{{}}\\N\\n\\h{\\c&HFFFFFFFF&\\alpha&H}x"))
	f.Add([]byte("[Fonts]\n[X]\n[events]\r\nDialogue:0:0:0.0,0:0:1.0,,,,,,,,,,"))
	suite().Fuzz(f, checkInvariants)
}
