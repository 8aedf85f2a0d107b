package golden

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
)

// Tally counts what a corpus test read (files, cues, diagnostics by code)
// and logs it when the test ends. It is safe for parallel subtests.
type Tally struct {
	mu    sync.Mutex
	files int
	cues  int
	codes map[string]int
}

// NewTally returns a tally that logs "read N <what> files, ..." at the
// end of t.
func NewTally(t *testing.T, what string) *Tally {
	ty := &Tally{codes: map[string]int{}}
	t.Cleanup(func() {
		var list []string
		for _, c := range slices.Sorted(maps.Keys(ty.codes)) {
			list = append(list, c+" "+strconv.Itoa(ty.codes[c]))
		}
		t.Logf("read %d %s files, %d cues; diagnostics: %s", ty.files, what, ty.cues, strings.Join(list, ", "))
	})
	return ty
}

// Add counts one file.
func (ty *Tally) Add(tr *caption.Track, diags []caption.Diagnostic) {
	ty.mu.Lock()
	defer ty.mu.Unlock()
	ty.files++
	ty.cues += len(tr.Cues)
	for _, d := range diags {
		ty.codes[d.Code]++
	}
}
