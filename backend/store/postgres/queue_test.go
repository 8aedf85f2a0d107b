package postgres

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/blob/fsblob"
	"github.com/captionqa/captionqa/backend/store/jobs"
)

// These tests are internal: the unit of work's store writes are methods
// on Tx that the stores add in their own files; here a test table stands
// in for them, written through Tx's transaction.

// withTestRows adds the test table to db.
func withTestRows(t *testing.T, db *DB) *DB {
	t.Helper()
	if _, err := db.pool.Exec(context.Background(), `CREATE TABLE test_rows (name text PRIMARY KEY)`); err != nil {
		t.Fatal(err)
	}
	return db
}

// echoJob is the tests' own job kind.
type echoJob struct {
	Name string `json:"name"`
}

func (echoJob) Kind() string { return "test_echo" }

// startQueue opens and starts a queue on db, stopped when the test ends.
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

// openQueue opens a queue that only inserts.
func openQueue(t *testing.T, db *DB) *Queue {
	t.Helper()
	q, err := db.OpenQueue(context.Background(), jobs.QueueOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return q
}

func rowExists(t *testing.T, db *DB, name string) bool {
	t.Helper()
	var n int
	if err := db.pool.QueryRow(context.Background(), `SELECT count(*) FROM test_rows WHERE name = $1`, name).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n == 1
}

// TestQueueOutbox inserts jobs inside store transactions: a committed one
// is worked once, with its row already visible; a rolled-back one leaves
// neither row nor job, and is never worked.
func TestQueueOutbox(t *testing.T) {
	t.Parallel()
	db := withTestRows(t, openTest(t, nil))
	worked := make(chan string, 10)
	ws := jobs.NewWorkers()
	jobs.Handle(ws, func(ctx context.Context, j echoJob) error {
		// The job sees its transaction's row: they committed together.
		var n int
		if err := db.pool.QueryRow(ctx, `SELECT count(*) FROM test_rows WHERE name = $1`, j.Name).Scan(&n); err != nil || n != 1 {
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
		err := q.WriteTx(ctx, func(tx *Tx) error {
			if _, err := tx.tx.Exec(ctx, `INSERT INTO test_rows(name) VALUES($1)`, tc.name); err != nil {
				return err
			}
			if _, err := tx.Enqueue(ctx, echoJob{Name: tc.name}, nil); err != nil {
				return err
			}
			return tc.fail
		})
		if !errors.Is(err, tc.fail) {
			t.Fatalf("%s: WriteTx: %v", tc.name, err)
		}
		if rowExists(t, db, tc.name) != tc.commits {
			t.Errorf("%s: row exists = %v, want %v", tc.name, !tc.commits, tc.commits)
		}
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
	case <-time.After(500 * time.Millisecond):
	}
	sort.Strings(got)
	if !slices.Equal(got, []string{"committed", "committed again"}) {
		t.Errorf("worked %q", got)
	}
	var jobsLeft int
	if err := db.pool.QueryRow(ctx, `SELECT count(*) FROM river_job WHERE kind = 'test_echo'`).Scan(&jobsLeft); err != nil || jobsLeft != 2 {
		t.Errorf("river_job holds %d echo jobs (%v), want the 2 committed", jobsLeft, err)
	}
}

func TestWriteTxWithoutQueue(t *testing.T) {
	t.Parallel()
	db := withTestRows(t, openTest(t, nil))
	ctx := context.Background()
	err := db.WriteTx(ctx, func(tx *Tx) error {
		if _, err := tx.tx.Exec(ctx, `INSERT INTO test_rows(name) VALUES('x')`); err != nil {
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

// TestTxNow: a transaction's clock is the store's, in UTC whole seconds.
func TestTxNow(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 1, 2, 3, 4, 5, 600_000_000, time.FixedZone("CET", 3600))
	db := openTest(t, func() time.Time { return at })
	var got time.Time
	if err := db.WriteTx(context.Background(), func(tx *Tx) error { got = tx.Now(); return nil }); err != nil {
		t.Fatal(err)
	}
	if want := time.Date(2026, 1, 2, 2, 4, 5, 0, time.UTC); !got.Equal(want) || got.Location() != time.UTC {
		t.Errorf("Now = %v, want %v", got, want)
	}
}

// TestQueueNodesOpenTogether opens the queue on several nodes of a fresh
// database at once, twice: River's migrations are applied once, by one
// node while the others wait on the advisory lock, and are a no-op after.
func TestQueueNodesOpenTogether(t *testing.T) {
	t.Parallel()
	nodes := openNodes(t, 3, nil)
	for round := range 2 {
		errs := make([]error, len(nodes))
		var wg sync.WaitGroup
		for i, db := range nodes {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, errs[i] = db.OpenQueue(context.Background(), jobs.QueueOptions{})
			}()
		}
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("round %d, node %d: %v", round, i, err)
			}
		}
	}
	var versions, distinct int
	if err := nodes[0].pool.QueryRow(context.Background(), `SELECT count(*), count(DISTINCT version) FROM river_migration`).
		Scan(&versions, &distinct); err != nil {
		t.Fatal(err)
	}
	if versions == 0 || versions != distinct {
		t.Errorf("river_migration: %d rows, %d versions", versions, distinct)
	}
}

// TestQueueAcrossNodes runs two nodes, each with its own pool and a
// started queue working the same kind: every job of a batch is worked
// exactly once, and both nodes take part.
func TestQueueAcrossNodes(t *testing.T) {
	t.Parallel()
	nodes := openNodes(t, 2, nil)
	const total = 40
	var mu sync.Mutex
	worked := map[string][]int{} // job name: the nodes that worked it
	perNode := make([]int, len(nodes))
	done := make(chan struct{}, total*2)
	queues := make([]*Queue, len(nodes))
	for i, db := range nodes {
		ws := jobs.NewWorkers()
		jobs.Handle(ws, func(ctx context.Context, j echoJob) error {
			// Long enough that one node's workers cannot drain the batch
			// before the other fetches.
			time.Sleep(20 * time.Millisecond)
			mu.Lock()
			worked[j.Name] = append(worked[j.Name], i)
			perNode[i]++
			mu.Unlock()
			done <- struct{}{}
			return nil
		})
		queues[i] = startQueue(t, db, jobs.QueueOptions{Workers: ws, MaxWorkers: 4})
	}
	ctx := context.Background()
	// Half the jobs enqueued by each node, in one transaction each.
	for i, q := range queues {
		err := q.WriteTx(ctx, func(tx *Tx) error {
			for n := i; n < total; n += len(queues) {
				if _, err := tx.Enqueue(ctx, echoJob{Name: idN(n)}, nil); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	timeout := time.After(30 * time.Second)
	for range total {
		select {
		case <-done:
		case <-timeout:
			mu.Lock()
			defer mu.Unlock()
			t.Fatalf("%d of %d jobs worked", len(worked), total)
		}
	}
	// A job worked twice would show up now.
	select {
	case <-done:
	case <-time.After(500 * time.Millisecond):
	}
	mu.Lock()
	defer mu.Unlock()
	if len(worked) != total {
		t.Errorf("%d distinct jobs worked, want %d", len(worked), total)
	}
	for name, by := range worked {
		if len(by) != 1 {
			t.Errorf("job %s worked by nodes %v", name, by)
		}
	}
	t.Logf("jobs worked per node: %v", perNode)
	for i, n := range perNode {
		if n == 0 {
			t.Errorf("node %d worked no job (split %v)", i, perNode)
		}
	}
}

// TestSweeperJob starts a queue with the sweeper: it runs on start and
// deletes the old object no row knows, keeping the known one.
func TestSweeperJob(t *testing.T) {
	t.Parallel()
	db := openTest(t, nil)
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
