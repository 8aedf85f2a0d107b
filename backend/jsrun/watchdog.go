package jsrun

import (
	"context"
	"sync/atomic"
	"time"

	"modernc.org/quickjs"
)

// Why a watchdog fired.
const (
	firedNot      int32 = iota
	firedDeadline       // the run's time limit passed
	firedCtx            // the caller's context ended
)

// kickEvery is how often a fired watchdog repeats Interrupt and the kick
// until the VM's eval returns.
const kickEvery = time.Millisecond

// watchdog interrupts a VM at its deadline or when ctx ends. The engine
// checks SetEvalTimeout only where it polls its interrupt handler, and
// polls only every 10,000 poll points; the watchdog therefore also kicks
// (see newKicker), and keeps interrupting until stopped, since each new
// eval clears a pending Interrupt.
type watchdog struct {
	quit  chan struct{}
	done  chan struct{}
	fired atomic.Int32
}

func startWatchdog(ctx context.Context, vm *quickjs.VM, deadline time.Time, kick func()) *watchdog {
	w := &watchdog{quit: make(chan struct{}), done: make(chan struct{})}
	go w.watch(ctx, vm, deadline, kick)
	return w
}

func (w *watchdog) watch(ctx context.Context, vm *quickjs.VM, deadline time.Time, kick func()) {
	defer close(w.done)
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	select {
	case <-w.quit:
		return
	case <-timer.C:
		w.fired.Store(firedDeadline)
	case <-ctx.Done():
		w.fired.Store(firedCtx)
	}
	tick := time.NewTicker(kickEvery)
	defer tick.Stop()
	for {
		vm.Interrupt()
		if kick != nil {
			kick()
		}
		select {
		case <-w.quit:
			return
		case <-tick.C:
		}
	}
}

// reason returns why the watchdog fired, firedNot when it has not.
func (w *watchdog) reason() int32 { return w.fired.Load() }

// stop ends the watchdog and waits until it no longer touches the VM.
func (w *watchdog) stop() {
	close(w.quit)
	<-w.done
}
