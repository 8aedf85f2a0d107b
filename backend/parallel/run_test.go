package parallel

import (
	"sync/atomic"
	"testing"
)

// TestRun: every task runs exactly once, whatever the number of workers.
func TestRun(t *testing.T) {
	for _, workers := range []int{0, 1, 2, 8, 100} {
		for _, n := range []int{0, 1, 5, 64} {
			runs := make([]atomic.Int32, n)
			tasks := make([]func(), n)
			for i := range tasks {
				tasks[i] = func() { runs[i].Add(1) }
			}
			Run(tasks, workers)
			for i := range runs {
				if got := runs[i].Load(); got != 1 {
					t.Errorf("workers %d, %d tasks: task %d ran %d times", workers, n, i, got)
				}
			}
		}
	}
}
