package postgres

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/project"
)

// projT0 is the tests' base time, whole seconds.
var projT0 = time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)

// idN is the uuid whose last group is n.
func idN(n int) string { return fmt.Sprintf("00000000-0000-4000-8000-%012d", n) }

// seedAccounts inserts bare accounts with these ids, by SQL: the stores
// under test only need the rows their foreign keys and locks name.
func seedAccounts(t *testing.T, db *DB, ids ...string) {
	t.Helper()
	for _, id := range ids {
		if _, err := db.pool.Exec(context.Background(), `INSERT INTO accounts(id, email, tier, daily_cap, created_at)
			VALUES($1, $2, 'pro', 100, $3)`, id, id+"@example.test", projT0); err != nil {
			t.Fatalf("seed account %s: %v", id, err)
		}
	}
}

// checkKind fails the test unless err has kind want; Internal means no
// error at all.
func checkKind(t *testing.T, err error, want apperr.Kind) {
	t.Helper()
	if got := apperr.KindOf(err); got != want || (want != apperr.Internal && err == nil) {
		t.Fatalf("error %v: kind %s, want %s", err, got.Code(), want.Code())
	}
	if want == apperr.Internal && err != nil {
		t.Fatalf("unexpected error: %v", err)
	}
}

func testProject(n int, accountID string, created time.Time) *project.Project {
	return &project.Project{ID: idN(n), AccountID: accountID, Name: fmt.Sprintf("p%d", n), CreatedAt: created, UpdatedAt: created}
}

// TestProjectStoreDelete: deleting a project deletes its revisions'
// rows too (the foreign key's ON DELETE CASCADE), and Revisions reads
// the project as ProjectIR does.
func TestProjectStoreDelete(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTest(t, nil)
	s := db.Projects()
	seedAccounts(t, db, "a1")
	p := testProject(1, "a1", projT0)
	p.IRRevision, p.CueCount = 1, 2
	checkKind(t, s.CreateProject(ctx, p, &project.Revision{Number: 1, CueCount: 2, CreatedAt: projT0, IR: `{"version":1,"cues":[]}`}, 10), apperr.Internal)
	_, err := s.AddRevision(ctx, "a1", p.ID, 1, &project.Revision{CueCount: 3, CreatedAt: projT0, IR: "{}"}, 5)
	checkKind(t, err, apperr.Internal)
	d, err := s.ProjectIR(ctx, "a1", p.ID)
	checkKind(t, err, apperr.Internal)
	got, _, err := s.Revisions(ctx, "a1", p.ID)
	checkKind(t, err, apperr.Internal)
	if *got != d.Project {
		t.Errorf("Revisions' project %+v, ProjectIR's %+v", got, d.Project)
	}

	checkKind(t, s.DeleteProject(ctx, "a1", p.ID), apperr.Internal)
	var left int
	if err := db.pool.QueryRow(ctx, `SELECT count(*) FROM project_revisions WHERE project_id = $1`, p.ID).Scan(&left); err != nil || left != 0 {
		t.Errorf("%d revisions left after delete (%v)", left, err)
	}
}

// TestProjectStoreLimit: concurrent creators on two nodes never take an
// account past its limit.
func TestProjectStoreLimit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	nodes := openNodes(t, 2, nil)
	seedAccounts(t, nodes[0], "a1")
	const limit, tries = 5, 12
	var wg sync.WaitGroup
	errs := make([]error, tries)
	for i := range tries {
		wg.Go(func() { errs[i] = nodes[i%2].Projects().CreateProject(ctx, testProject(i+1, "a1", projT0), nil, limit) })
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch {
		case err == nil:
			ok++
		case !errors.Is(err, project.ErrTooManyProjects):
			t.Errorf("unexpected error: %v", err)
		}
	}
	if ok != limit {
		t.Errorf("%d created; want %d", ok, limit)
	}
	if list, err := nodes[1].Projects().ListProjects(ctx, "a1", nil, 100); err != nil || len(list) != limit {
		t.Errorf("%d projects stored (%v); want %d", len(list), err, limit)
	}
}

// TestAddRevisionRace: writers on two nodes adding to the same base
// revision; exactly one wins, the others are told the new current one.
func TestAddRevisionRace(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	nodes := openNodes(t, 2, nil)
	seedAccounts(t, nodes[0], "a1")
	p := testProject(1, "a1", projT0)
	checkKind(t, nodes[0].Projects().CreateProject(ctx, p, nil, 10), apperr.Internal)
	const writers = 8
	var wg sync.WaitGroup
	errs := make([]error, writers)
	for i := range writers {
		wg.Go(func() {
			_, errs[i] = nodes[i%2].Projects().AddRevision(ctx, "a1", p.ID, 0,
				&project.Revision{CueCount: i, CreatedAt: projT0, IR: fmt.Sprintf(`{"writer":%d}`, i)}, 5)
		})
	}
	wg.Wait()
	winner := -1
	for i, err := range errs {
		var stale *project.StaleRevisionError
		switch {
		case err == nil && winner < 0:
			winner = i
		case err == nil:
			t.Errorf("writers %d and %d both added revision 1", winner, i)
		case !errors.As(err, &stale) || stale.Current != 1:
			t.Errorf("writer %d: %v; want stale at 1", i, err)
		}
	}
	d, err := nodes[1].Projects().ProjectIR(ctx, "a1", p.ID)
	checkKind(t, err, apperr.Internal)
	if d.IRRevision != 1 || d.CueCount != winner || d.IR != fmt.Sprintf(`{"writer":%d}`, winner) {
		t.Errorf("stored %+v %q; want writer %d's revision 1", d.Project, d.IR, winner)
	}
}
