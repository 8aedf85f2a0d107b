package sqlstore_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/blob/fsblob"
	"github.com/captionqa/captionqa/backend/internal/pgtest"
	"github.com/captionqa/captionqa/backend/store/jobs"
	"github.com/captionqa/captionqa/backend/store/postgres"
	"github.com/captionqa/captionqa/backend/store/sqlite"
	"github.com/captionqa/captionqa/backend/store/sqlstore"
)

// The unit of work's store writes are methods on Tx that the stores add
// in their own files; here a test table stands in for them, written
// through the transaction's raw Exec.

// withTestRows adds the test table to db.
func withTestRows(t testing.TB, db *sqlstore.DB) *sqlstore.DB {
	t.Helper()
	if _, err := db.Exec(context.Background(), `CREATE TABLE test_rows (name text PRIMARY KEY)`); err != nil {
		t.Fatal(err)
	}
	return db
}

// echoJob is the tests' own job kind.
type echoJob struct {
	Name string `json:"name"`
}

func (echoJob) Kind() string { return "test_echo" }

func rowExists(t *testing.T, db *sqlstore.DB, name string) bool {
	t.Helper()
	return countRows(t, db, `SELECT count(*) FROM test_rows WHERE name = $1`, name) == 1
}

// TestQueueOutbox inserts jobs inside store transactions: a committed one
// is worked once, with its row already visible; a rolled-back one leaves
// neither row nor job, and is never worked.
func TestQueueOutbox(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, open func(testing.TB, func() time.Time) *sqlstore.DB) {
		db := withTestRows(t, open(t, nil))
		worked := make(chan string, 10)
		ws := jobs.NewWorkers()
		jobs.Handle(ws, func(ctx context.Context, j echoJob) error {
			// The job sees its transaction's row: they committed together.
			var n int
			if err := db.QueryRow(ctx, `SELECT count(*) FROM test_rows WHERE name = $1`, j.Name).Scan(&n); err != nil || n != 1 {
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
			err := q.WriteTx(ctx, func(tx *sqlstore.Tx) error {
				if _, err := tx.Exec(ctx, `INSERT INTO test_rows(name) VALUES($1)`, tc.name); err != nil {
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
		// The rolled-back job was never inserted, so it cannot be worked:
		// once both committed jobs are completed, everything that will be
		// worked has been.
		if n := countRows(t, db, `SELECT count(*) FROM river_job WHERE kind = 'test_echo'`); n != 2 {
			t.Errorf("river_job holds %d echo jobs, want the 2 committed", n)
		}
		pollUntil(t, "both committed jobs completed", func() bool {
			return countRows(t, db, `SELECT count(*) FROM river_job WHERE kind = 'test_echo' AND state = 'completed'`) == 2
		})
		var got []string
		for len(worked) > 0 {
			got = append(got, <-worked)
		}
		sort.Strings(got)
		if !slices.Equal(got, []string{"committed", "committed again"}) {
			t.Errorf("worked %q", got)
		}
	})
}

// TestWriteTxWithoutQueue: a transaction of the DB, which has no queue,
// refuses to enqueue, and what it wrote is rolled back with it.
func TestWriteTxWithoutQueue(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, open func(testing.TB, func() time.Time) *sqlstore.DB) {
		db := withTestRows(t, open(t, nil))
		ctx := context.Background()
		err := db.WriteTx(ctx, func(tx *sqlstore.Tx) error {
			if _, err := tx.Exec(ctx, `INSERT INTO test_rows(name) VALUES('x')`); err != nil {
				return err
			}
			_, err := tx.Enqueue(ctx, echoJob{Name: "x"}, nil)
			return err
		})
		if !errors.Is(err, sqlstore.ErrNoQueue) {
			t.Fatalf("got %v, want ErrNoQueue", err)
		}
		if rowExists(t, db, "x") {
			t.Error("row kept after the failed transaction")
		}
	})
}

// TestTxNow: a transaction's clock is the store's, in UTC whole seconds.
func TestTxNow(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, open func(testing.TB, func() time.Time) *sqlstore.DB) {
		at := time.Date(2026, 1, 2, 3, 4, 5, 600_000_000, time.FixedZone("CET", 3600))
		db := open(t, func() time.Time { return at })
		var got time.Time
		if err := db.WriteTx(context.Background(), func(tx *sqlstore.Tx) error { got = tx.Now(); return nil }); err != nil {
			t.Fatal(err)
		}
		if want := time.Date(2026, 1, 2, 2, 4, 5, 0, time.UTC); !got.Equal(want) || got.Location() != time.UTC {
			t.Errorf("Now = %v, want %v", got, want)
		}
	})
}

// freshNodes opens n nodes on one database that the store's migrations
// made but River's have not touched (e.nodes' databases have River's
// tables already): n handles on one new SQLite file, n warmed pools on
// one new PostgreSQL database.
var freshNodes = map[string]func(t *testing.T, n int) []*sqlstore.DB{
	"sqlite": func(t *testing.T, n int) []*sqlstore.DB {
		path := filepath.Join(t.TempDir(), "captionqa.db")
		var nodes []*sqlstore.DB
		for range n {
			db, err := sqlite.Open(context.Background(), path, sqlite.Options{})
			if err != nil {
				t.Fatalf("open sqlite: %v", err)
			}
			t.Cleanup(func() { _ = db.Close() })
			nodes = append(nodes, db)
		}
		return nodes
	},
	"postgres": func(t *testing.T, n int) []*sqlstore.DB {
		url := pgtest.FromTemplate(t, "captionqa_sqlstore_noriver_test", func(ctx context.Context, url string) error {
			db, err := postgres.Open(ctx, url, postgres.Options{})
			if err != nil {
				return err
			}
			return db.Close()
		})
		var nodes []*sqlstore.DB
		for range n {
			db, err := postgres.Open(context.Background(), url, postgres.Options{})
			if err != nil {
				t.Fatalf("open postgres: %v", err)
			}
			t.Cleanup(func() { _ = db.Close() })
			if err := db.Warm(context.Background(), 4); err != nil {
				t.Fatal(err)
			}
			nodes = append(nodes, db)
		}
		return nodes
	},
}

// TestQueueNodesOpenTogether opens the queue on several nodes of a fresh
// database at once (handles of their own on one SQLite file, pools of
// their own on one PostgreSQL database), twice: River's migrations are
// applied once, by one node while the others wait on the migration lock
// (a lock file beside the SQLite file, an advisory lock on PostgreSQL),
// and reopening is a no-op.
func TestQueueNodesOpenTogether(t *testing.T) {
	t.Parallel()
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			t.Parallel()
			nodes := freshNodes[e.name](t, 3)
			for round := range 2 {
				errs := make([]error, len(nodes))
				var wg sync.WaitGroup
				for i, db := range nodes {
					wg.Go(func() { _, errs[i] = db.OpenQueue(context.Background(), jobs.QueueOptions{}) })
				}
				wg.Wait()
				for i, err := range errs {
					if err != nil {
						t.Fatalf("round %d, node %d: %v", round, i, err)
					}
				}
			}
			var versions, distinct int
			if err := nodes[0].QueryRow(context.Background(), `SELECT count(*), count(DISTINCT version) FROM river_migration`).
				Scan(&versions, &distinct); err != nil {
				t.Fatal(err)
			}
			if versions == 0 || versions != distinct {
				t.Errorf("river_migration: %d rows, %d versions", versions, distinct)
			}
			// River's job table is there, once, and empty.
			if n := countRows(t, nodes[1], `SELECT count(*) FROM river_job`); n != 0 {
				t.Errorf("river_job holds %d jobs", n)
			}
		})
	}
}

// TestQueueAcrossNodes runs two nodes (handles of their own on one
// SQLite file, pools of their own on one PostgreSQL database), each with
// a started queue working the same kind: every job of a batch is worked
// exactly once, and both nodes take part.
func TestQueueAcrossNodes(t *testing.T) {
	t.Parallel()
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			t.Parallel()
			nodes := e.nodes(t, 2, nil)
			const total = 40
			var mu sync.Mutex
			worked := map[string][]int{} // job name: the nodes that worked it
			perNode := make([]int, len(nodes))
			// Every node's jobs wait until each node has started one: one
			// node's workers cannot drain the batch before the other
			// fetches, however fast they are.
			began := make([]chan struct{}, len(nodes))
			once := make([]sync.Once, len(nodes))
			for i := range began {
				began[i] = make(chan struct{})
			}
			queues := make([]*sqlstore.Queue, len(nodes))
			for i, db := range nodes {
				ws := jobs.NewWorkers()
				jobs.Handle(ws, func(ctx context.Context, j echoJob) error {
					once[i].Do(func() { close(began[i]) })
					for _, c := range began {
						select {
						case <-c:
						case <-ctx.Done():
							return ctx.Err()
						}
					}
					mu.Lock()
					worked[j.Name] = append(worked[j.Name], i)
					perNode[i]++
					mu.Unlock()
					return nil
				})
				queues[i] = startQueue(t, db, jobs.QueueOptions{Workers: ws, MaxWorkers: 4})
			}
			ctx := context.Background()
			// Half the jobs enqueued by each node, in one transaction each.
			for i, q := range queues {
				err := q.WriteTx(ctx, func(tx *sqlstore.Tx) error {
					for n := i; n < total; n += len(queues) {
						if _, err := tx.Enqueue(ctx, echoJob{Name: uuidOf(n)}, nil); err != nil {
							return err
						}
					}
					return nil
				})
				if err != nil {
					t.Fatal(err)
				}
			}
			pollUntil(t, "every job completed", func() bool {
				return countRows(t, nodes[0], `SELECT count(*) FROM river_job WHERE kind = 'test_echo' AND state = 'completed'`) == total
			})
			// Stopping waits for every job still being worked: a job
			// fetched twice would be recorded twice by now.
			for i, q := range queues {
				sctx, cancel := context.WithTimeout(ctx, 10*time.Second)
				if err := q.Stop(sctx); err != nil {
					t.Errorf("stop node %d: %v", i, err)
				}
				cancel()
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
		})
	}
}

// TestSweeperJob starts a queue with the sweeper: it runs on start and
// deletes the old object no row knows, keeping the known one.
func TestSweeperJob(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, open func(testing.TB, func() time.Time) *sqlstore.DB) {
		db := open(t, nil)
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
		pollUntil(t, "the sweeper to delete the orphan", func() bool {
			_, _, err := store.Get(ctx, "artifacts/orphan", nil)
			return err != nil
		})
		if _, _, err := store.Get(ctx, "artifacts/known", nil); err != nil {
			t.Errorf("known object: %v", err)
		}
	})
}

// TestTaskRunsPastAHungRun: a periodic task whose run hangs, as the run
// of a node killed mid-task stays "running" until River rescues it, does
// not keep the next period's run from being scheduled and worked.
func TestTaskRunsPastAHungRun(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, open func(testing.TB, func() time.Time) *sqlstore.DB) {
		db := open(t, nil)
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
	})
}
