package engine

import (
	"sync"
	"sync/atomic"
)

// run runs tasks on up to workers goroutines, each taking the next task;
// with one worker, or one task, on the caller's goroutine.
func run(tasks []func(), workers int) {
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
