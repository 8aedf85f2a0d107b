package sqlite

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/blob/fsblob"
	"github.com/captionqa/captionqa/backend/store/jobs"
)

// These tests are internal: the unit of work's store writes are methods
// on Tx that the stores add in their own files; here a test table stands
// in for them, written through Tx's transaction.

func openTestDB(t testing.TB) *DB {
	t.Helper()
	db, err := Open(context.Background(), filepath.Join(t.TempDir(), "captionqa.db"), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if _, err := db.write.ExecContext(context.Background(), `CREATE TABLE test_rows (name TEXT PRIMARY KEY) STRICT`); err != nil {
		t.Fatal(err)
	}
	return db
}

// echoJob is the tests' own job kind.
type echoJob struct {
	Name string `json:"name"`
}

func (echoJob) Kind() string { return "test_echo" }

func startQueue(t *testing.T, db *DB, opts jobs.QueueOptions) *Queue {
	t.Helper()
	opts.PollInterval = 100 * time.Millisecond
	q, err := db.OpenQueue(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := q.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := q.Stop(ctx); err != nil {
			t.Errorf("stop: %v", err)
		}
	})
	return q
}

func rowExists(t *testing.T, db *DB, name string) bool {
	t.Helper()
	var n int
	if err := db.read.QueryRowContext(context.Background(), `SELECT count(*) FROM test_rows WHERE name = ?`, name).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n == 1
}

// TestQueueOutbox inserts jobs inside store transactions: a committed one
// is worked once, with its row already visible; a rolled-back one leaves
// neither row nor job.
func TestQueueOutbox(t *testing.T) {
	db := openTestDB(t)
	worked := make(chan string, 10)
	ws := jobs.NewWorkers()
	jobs.Handle(ws, func(ctx context.Context, j echoJob) error {
		// The job sees its transaction's row: they committed together.
		var n int
		if err := db.read.QueryRowContext(ctx, `SELECT count(*) FROM test_rows WHERE name = ?`, j.Name).Scan(&n); err != nil || n != 1 {
			t.Errorf("job %s ran without its row (%d, %v)", j.Name, n, err)
		}
		worked <- j.Name
		return nil
	})
	q := startQueue(t, db, jobs.QueueOptions{Workers: ws})
	ctx := context.Background()
	rollback := errors.New("changed my mind")
	for _, tc := range []struct {
		name    string
		fail    error
		commits bool
	}{
		{"committed", nil, true},
		{"rolled back", rollback, false},
		{"committed again", nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := q.WriteTx(ctx, func(tx *Tx) error {
				if _, err := tx.tx.ExecContext(ctx, `INSERT INTO test_rows(name) VALUES(?)`, tc.name); err != nil {
					return err
				}
				if _, err := tx.Enqueue(ctx, echoJob{Name: tc.name}, nil); err != nil {
					return err
				}
				return tc.fail
			})
			if !errors.Is(err, tc.fail) {
				t.Fatalf("WriteTx: %v", err)
			}
			if rowExists(t, db, tc.name) != tc.commits {
				t.Errorf("row exists = %v, want %v", !tc.commits, tc.commits)
			}
		})
	}
	var got []string
	timeout := time.After(20 * time.Second)
	for len(got) < 2 {
		select {
		case n := <-worked:
			got = append(got, n)
		case <-timeout:
			t.Fatalf("worked %q, want both committed jobs", got)
		}
	}
	// Give a stray third job (the rolled-back one) a chance to show up.
	select {
	case n := <-worked:
		t.Errorf("worked %q too", n)
	case <-time.After(300 * time.Millisecond):
	}
	sort.Strings(got)
	if !slices.Equal(got, []string{"committed", "committed again"}) {
		t.Errorf("worked %q", got)
	}
}

func TestWriteTxWithoutQueue(t *testing.T) {
	db := openTestDB(t)
	ctx := context.Background()
	err := db.WriteTx(ctx, func(tx *Tx) error {
		if _, err := tx.tx.ExecContext(ctx, `INSERT INTO test_rows(name) VALUES('x')`); err != nil {
			return err
		}
		_, err := tx.Enqueue(ctx, echoJob{Name: "x"}, nil)
		return err
	})
	if !errors.Is(err, ErrNoQueue) {
		t.Fatalf("got %v, want ErrNoQueue", err)
	}
	if rowExists(t, db, "x") {
		t.Error("row kept after the failed transaction")
	}
}

// TestQueueReopen opens the queue twice on one file: River's migration
// is applied once and is a no-op after.
func TestQueueReopen(t *testing.T) {
	db := openTestDB(t)
	for range 2 {
		if _, err := db.OpenQueue(context.Background(), jobs.QueueOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	var n int
	if err := db.read.QueryRow(`SELECT count(*) FROM sqlite_master WHERE name = 'river_job'`).Scan(&n); err != nil || n != 1 {
		t.Fatalf("river_job table: %d, %v", n, err)
	}
}

// TestSweeperJob starts a queue with the sweeper: it runs on start and
// deletes the old object no row knows, keeping the known one.
func TestSweeperJob(t *testing.T) {
	db := openTestDB(t)
	store, err := fsblob.Open(filepath.Join(t.TempDir(), "blobs"), fsblob.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	old := time.Now().Add(-2 * time.Hour)
	for _, k := range []string{"artifacts/known", "artifacts/orphan"} {
		if _, err := store.Put(ctx, k, strings.NewReader(k), -1); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(filepath.Join(store.Root(), k), old, old); err != nil {
			t.Fatal(err)
		}
	}
	known := func(_ context.Context, keys []string) (map[string]bool, error) {
		return map[string]bool{"artifacts/known": true}, nil
	}
	startQueue(t, db, jobs.QueueOptions{Sweep: &jobs.SweepOptions{Blobs: store, Known: known}})
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, _, err := store.Get(ctx, "artifacts/orphan", nil)
		if err != nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the sweeper did not delete the orphan")
		}
		time.Sleep(100 * time.Millisecond)
	}
	if _, _, err := store.Get(ctx, "artifacts/known", nil); err != nil {
		t.Errorf("known object: %v", err)
	}
}

// TestTaskRunsPastAHungRun: a periodic task whose run hangs, as the run
// of a node killed mid-task stays "running" until River rescues it, does
// not keep the next period's run from being scheduled and worked.
func TestTaskRunsPastAHungRun(t *testing.T) {
	db := openTestDB(t)
	hung, again, release := make(chan struct{}), make(chan struct{}, 1), make(chan struct{})
	var runs atomic.Int32
	startQueue(t, db, jobs.QueueOptions{MaxWorkers: 2, Tasks: []jobs.Task{{Name: "upkeep", Every: time.Second,
		Run: func(ctx context.Context) error {
			if runs.Add(1) == 1 {
				close(hung)
				<-release
				return nil
			}
			select {
			case again <- struct{}{}:
			default:
			}
			return nil
		}}}})
	t.Cleanup(func() { close(release) }) // before the queue stops
	select {
	case <-hung:
	case <-time.After(20 * time.Second):
		t.Fatal("the task's first run did not start")
	}
	select {
	case <-again:
	case <-time.After(20 * time.Second):
		t.Fatal("no run of the task while its first run hangs: the hung run blocks the schedule")
	}
}
