package exporttpl

import (
	"context"
	"errors"
	"math"
	"sync"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
)

// Defaults of the fair-share limits of the runtime (docs/templates.md,
// Limits). The VMs are few (one per CPU) and a script may spend its
// whole time limit on purpose, so each account gets its share and pays
// for the time its failures take.
const (
	// DefaultRunsPerAccount is how many VMs one account has at once,
	// compiling or running.
	DefaultRunsPerAccount = 1
	// DefaultQueueWait bounds how long a call waits for its account's VM
	// slot, and the runner for a free VM, before it is refused.
	DefaultQueueWait = 2 * time.Second
	// DefaultCPUBudget is the VM time an account's failed and timed-out
	// calls may take within [DefaultCPUWindow].
	DefaultCPUBudget = 60 * time.Second
	// DefaultCPUWindow is the rolling window of the budget.
	DefaultCPUWindow = 10 * time.Minute
)

// budgetBuckets is how many slices of the window an account's charges
// are summed in: the memory per account is fixed, whatever the number
// of calls, and a charge is forgotten between 9/10 and the whole of the
// window after it was made.
const budgetBuckets = 10

// inVM runs call, a compile or a run for the account, under the
// account's fair share: it returns [apperr.RateLimited] with
// details.retryAfterSeconds and details.limit "template_cpu_budget" when
// the account's failures took its budget, and "template_runs_per_account"
// when its VM slots stay taken for the queue wait; [apperr.Unavailable]
// (details.limit "template_vms") when every VM of the server does;
// ctx's error when ctx ends first. A call that fails is charged the
// time it took.
func (s *Service) inVM(ctx context.Context, accountID string, call func(context.Context) error) error {
	if wait, ok := s.budget.allow(accountID, s.o.Now()); !ok {
		return apperr.New(apperr.RateLimited,
			"the account's failed template runs took their %s of VM time in %s; retry when older ones are past",
			s.budget.limit, s.budget.window).
			WithDetail("retryAfterSeconds", wholeSeconds(wait)).WithDetail("limit", "template_cpu_budget")
	}
	waitCtx, cancel := context.WithTimeout(ctx, s.o.QueueWait)
	err := s.accounts.Wait(waitCtx, accountID)
	cancel()
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return apperr.New(apperr.RateLimited, "the account already runs %d templates at once; retry when one has finished",
			s.o.RunsPerAccount).
			WithDetail("retryAfterSeconds", wholeSeconds(s.o.RunTimeout)).WithDetail("limit", "template_runs_per_account")
	}
	defer s.accounts.Leave(accountID)
	start := s.o.Now()
	err = call(ctx)
	switch {
	case errors.Is(err, ErrBusy):
		return apperr.New(apperr.Unavailable, "every template VM of the server is busy; retry shortly").
			WithDetail("retryAfterSeconds", wholeSeconds(s.o.RunTimeout)).WithDetail("limit", "template_vms").Wrap(err)
	case err != nil:
		s.budget.charge(accountID, start, s.o.Now())
	}
	return err
}

// wholeSeconds is d in seconds, rounded up, at least one.
func wholeSeconds(d time.Duration) int {
	return max(1, int(math.Ceil(d.Seconds())))
}

// budget is the VM time the failed calls of each account took in a
// rolling window. It is kept in memory, per process: servers sharing a
// database each keep their own. It is safe for concurrent use.
type budget struct {
	limit, window time.Duration
	width         int64 // of a slice, in nanoseconds
	mu            sync.Mutex
	spent         map[string]*[budgetBuckets]bucket
	swept         int64 // the slot of the last sweep of spent
}

// bucket is what was charged in one slice of the window, numbered from
// the zero time in slices.
type bucket struct {
	slot  int64
	spent time.Duration
}

func newBudget(limit, window time.Duration) *budget {
	return &budget{limit: limit, window: window, width: max(1, int64(window/budgetBuckets)),
		spent: map[string]*[budgetBuckets]bucket{}}
}

func (b *budget) slot(t time.Time) int64 { return t.UnixNano() / b.width }

// allow reports true while the account's charges in the window are
// under the limit, and otherwise false with how long until enough of
// them are forgotten. A budget of 0 or less allows everything.
func (b *budget) allow(accountID string, now time.Time) (time.Duration, bool) {
	if b.limit <= 0 {
		return 0, true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	bs := b.spent[accountID]
	if bs == nil {
		return 0, true
	}
	cur := b.slot(now)
	var total time.Duration
	for _, k := range bs {
		if k.slot > cur-budgetBuckets {
			total += k.spent
		}
	}
	if total < b.limit {
		return 0, true
	}
	// The oldest slices go first: wait for as many as bring the total
	// under the limit, at most until the current one is forgotten too.
	old := cur - budgetBuckets + 1
	for ; old < cur; old++ {
		for _, k := range bs {
			if k.slot == old {
				total -= k.spent
			}
		}
		if total < b.limit {
			break
		}
	}
	return time.Unix(0, (old+budgetBuckets)*b.width).Sub(now), false
}

// charge counts the time from start to end against the account, in the
// slice of end. Once a window, it forgets the accounts with nothing left
// in it, so the map holds only those that failed lately.
func (b *budget) charge(accountID string, start, end time.Time) {
	if b.limit <= 0 || !end.After(start) {
		return
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	cur := b.slot(end)
	if cur-b.swept >= budgetBuckets {
		for id, bs := range b.spent {
			if !b.live(bs, cur) {
				delete(b.spent, id)
			}
		}
		b.swept = cur
	}
	bs := b.spent[accountID]
	if bs == nil {
		bs = new([budgetBuckets]bucket)
		b.spent[accountID] = bs
	}
	k := &bs[cur%budgetBuckets]
	if k.slot != cur {
		*k = bucket{slot: cur}
	}
	k.spent += end.Sub(start)
}

// live reports whether any of bs is still in the window at slot cur.
func (b *budget) live(bs *[budgetBuckets]bucket, cur int64) bool {
	for _, k := range bs {
		if k.slot > cur-budgetBuckets {
			return true
		}
	}
	return false
}
