// Package parallel runs independent tasks on a bounded number of
// goroutines (the engine's checks and result encoding and the grading of a
// standard's clauses share it), and counts what runs at once by key
// ([InFlight]).
package parallel

import (
	"sync"
	"sync/atomic"
)

// Run runs tasks on up to workers goroutines, each taking the next task in
// order, and returns when all are done; with one worker, or one task, on
// the caller's goroutine. Each task must write only what is its own.
func Run(tasks []func(), workers int) {
	if workers <= 1 || len(tasks) <= 1 {
		for _, task := range tasks {
			task()
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(workers, len(tasks)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(tasks); i = int(next.Add(1) - 1) {
				tasks[i]()
			}
		})
	}
	wg.Wait()
}
