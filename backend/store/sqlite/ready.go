package sqlite

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"time"
)

// How long [DB.Ready] waits, so that a probe answers quickly however long
// the busy timeout of a write is.
const (
	// readyLockWait is the busy wait of the probe's BEGIN IMMEDIATE (or
	// the busy timeout, if shorter).
	readyLockWait = 250 * time.Millisecond
	// readyConnWait bounds the wait for the write connection. This
	// process's own writes hold it for milliseconds; one held longer is
	// itself waiting for another process's lock.
	readyConnWait = time.Second
)

// Ready reports whether the database can take a write now ([sqlstore.DB.Ready]). It pings the
// read pool, then takes the write lock on the write pool's own
// connection (BEGIN IMMEDIATE; ROLLBACK) with a short busy wait. It
// returns [apperr.Unavailable] with details.retryAfterSeconds, the error
// a refused write gets, while another process holds the write lock, and
// another error if the database does not answer.
//
// The probe uses the write connection rather than one of its own so that
// this process's writes never make it fail: they hold that connection,
// and the probe waits its turn instead of competing for the lock. A lock
// only another process can hold shows at once.
func (e *engine) Ready(ctx context.Context) error {
	if err := e.read.PingContext(ctx); err != nil {
		return fmt.Errorf("sqlite: ready: %w", err)
	}
	cctx, cancel := context.WithTimeout(ctx, readyConnWait)
	defer cancel()
	conn, err := e.write.Conn(cctx)
	if err != nil {
		if ctx.Err() == nil && errors.Is(err, context.DeadlineExceeded) {
			return busyError(e.busy, fmt.Errorf("sqlite: ready: the write connection stayed in use for %s: %w", readyConnWait, err))
		}
		return fmt.Errorf("sqlite: ready: %w", err)
	}
	defer conn.Close()
	wait := min(readyLockWait, e.busy)
	if _, err := conn.ExecContext(ctx, fmt.Sprintf("PRAGMA busy_timeout = %d", wait.Milliseconds())); err != nil {
		return discard(conn.Raw, fmt.Errorf("sqlite: ready: %w", err))
	}
	// Restore the pool's busy timeout even if ctx ends meanwhile; a
	// connection left with the probe's would fail writes early.
	restore := func() error {
		_, err := conn.ExecContext(context.WithoutCancel(ctx), fmt.Sprintf("PRAGMA busy_timeout = %d", e.busy.Milliseconds()))
		return err
	}
	_, err = conn.ExecContext(ctx, "BEGIN IMMEDIATE")
	if err == nil {
		if _, rerr := conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK"); rerr != nil {
			// A connection that may still be in a transaction must not
			// go back to the pool.
			return discard(conn.Raw, fmt.Errorf("sqlite: ready: rollback: %w", rerr))
		}
	}
	if rerr := restore(); rerr != nil {
		return discard(conn.Raw, fmt.Errorf("sqlite: ready: restore busy_timeout: %w", rerr))
	}
	if err != nil {
		if isBusy(err) {
			return busyError(e.busy, fmt.Errorf("sqlite: ready: %w", err))
		}
		return fmt.Errorf("sqlite: ready: %w", err)
	}
	return nil
}

// discard makes database/sql drop the connection (rather than return it
// to the pool) and returns err.
func discard(raw func(func(any) error) error, err error) error {
	_ = raw(func(any) error { return driver.ErrBadConn })
	return err
}
