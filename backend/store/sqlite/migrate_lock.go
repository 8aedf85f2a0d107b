package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/gofrs/flock"
)

// fileLocker is goose's session lock for a database file: an advisory
// lock on a file beside it, so that processes opening the same database
// at once (the server and an admin command on a fresh data folder)
// migrate one after the other. The operating system drops the lock of a
// process that dies, so a crash mid-migration never leaves it held.
type fileLocker struct{ f *flock.Flock }

func newFileLocker(path string) *fileLocker { return &fileLocker{f: flock.New(path)} }

// lockPoll is how often a process waiting for another's migration tries
// the lock again.
const lockPoll = 20 * time.Millisecond

// SessionLock waits for the lock until ctx ends.
func (l *fileLocker) SessionLock(ctx context.Context, _ *sql.Conn) error {
	ok, err := l.f.TryLockContext(ctx, lockPoll)
	if err != nil || !ok {
		return fmt.Errorf("sqlite: migration lock %s: %w", l.f.Path(), err)
	}
	return nil
}

// SessionUnlock releases the lock.
func (l *fileLocker) SessionUnlock(context.Context, *sql.Conn) error {
	if err := l.f.Unlock(); err != nil {
		return fmt.Errorf("sqlite: migration unlock %s: %w", l.f.Path(), err)
	}
	return nil
}
