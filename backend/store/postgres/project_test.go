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

func TestProjectStoreLifecycle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTest(t, nil)
	s := db.Projects()
	seedAccounts(t, db, "a1", "a2")

	ready := testProject(1, "a1", projT0.Add(400*time.Millisecond)) // kept in whole seconds
	ready.IRRevision, ready.CueCount = 1, 2
	checkKind(t, s.CreateProject(ctx, ready, &project.Revision{Number: 1, CueCount: 2, CreatedAt: projT0, IR: `{"version":1,"cues":[]}`}, 10), apperr.Internal)
	empty := testProject(2, "a1", projT0) // same second: ordered by id
	checkKind(t, s.CreateProject(ctx, empty, nil, 10), apperr.Internal)
	checkKind(t, s.CreateProject(ctx, testProject(3, "nobody", projT0), nil, 10), apperr.NotFound)
	checkKind(t, s.CreateProject(ctx, testProject(2, "a1", projT0), nil, 10), apperr.Conflict)

	tests := []struct {
		name     string
		account  string
		id       string
		wantKind apperr.Kind
		wantIR   string
		wantRevs int
	}{
		{"ready", "a1", ready.ID, apperr.Internal, `{"version":1,"cues":[]}`, 1},
		{"empty", "a1", empty.ID, apperr.Internal, "", 0},
		{"other account", "a2", ready.ID, apperr.NotFound, "", 0},
		{"unknown", "a1", idN(99), apperr.NotFound, "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := s.ProjectIR(ctx, tt.account, tt.id)
			checkKind(t, err, tt.wantKind)
			p, revs, rerr := s.Revisions(ctx, tt.account, tt.id)
			checkKind(t, rerr, tt.wantKind)
			if err != nil {
				return
			}
			if d.IR != tt.wantIR || len(revs) != tt.wantRevs {
				t.Errorf("ir %q, %d revisions; want %q, %d", d.IR, len(revs), tt.wantIR, tt.wantRevs)
			}
			if p.ID != tt.id || !d.CreatedAt.Equal(projT0) || d.CreatedAt.Location() != time.UTC || *p != d.Project {
				t.Errorf("project %+v, detail %+v; want id %s created %v UTC", p, d.Project, tt.id, projT0)
			}
		})
	}

	// Revisions: a stale base is refused with the current number; the
	// newest keep survive pruning.
	_, err := s.AddRevision(ctx, "a1", ready.ID, 0, &project.Revision{CueCount: 1, CreatedAt: projT0, IR: "{}"}, 3)
	var stale *project.StaleRevisionError
	if !errors.As(err, &stale) || stale.Current != 1 {
		t.Fatalf("stale add: %v", err)
	}
	_, err = s.AddRevision(ctx, "a2", ready.ID, 1, &project.Revision{CueCount: 1, CreatedAt: projT0, IR: "{}"}, 3)
	checkKind(t, err, apperr.NotFound)
	for base := 1; base <= 5; base++ {
		at := projT0.Add(time.Duration(base) * time.Minute)
		p, err := s.AddRevision(ctx, "a1", ready.ID, base, &project.Revision{CueCount: base, CreatedAt: at, IR: fmt.Sprintf(`{"n":%d}`, base+1)}, 3)
		checkKind(t, err, apperr.Internal)
		if p.IRRevision != base+1 || p.CueCount != base || !p.UpdatedAt.Equal(at) {
			t.Fatalf("after add on %d: %+v", base, p)
		}
	}
	_, revs, err := s.Revisions(ctx, "a1", ready.ID)
	checkKind(t, err, apperr.Internal)
	if len(revs) != 3 || revs[0].Number != 6 || revs[2].Number != 4 || !revs[0].CreatedAt.Equal(projT0.Add(5*time.Minute)) || revs[0].CueCount != 5 {
		t.Errorf("revisions after pruning = %+v; want 6, 5, 4", revs)
	}
	if d, _ := s.ProjectIR(ctx, "a1", ready.ID); d.IR != `{"n":6}` {
		t.Errorf("current ir = %q", d.IR)
	}

	for _, tc := range []struct {
		name    string
		account string
		number  int
		want    string
		kind    apperr.Kind
	}{
		{"kept", "a1", 5, `{"n":5}`, apperr.Internal},
		{"pruned", "a1", 3, "", apperr.NotFound},
		{"other account", "a2", 5, "", apperr.NotFound},
	} {
		ir, err := s.RevisionIR(ctx, tc.account, ready.ID, tc.number)
		checkKind(t, err, tc.kind)
		if ir != tc.want {
			t.Errorf("%s: ir %q, want %q", tc.name, ir, tc.want)
		}
	}

	// Delete: another account's is not found; revisions go too.
	checkKind(t, s.DeleteProject(ctx, "a2", ready.ID), apperr.NotFound)
	checkKind(t, s.DeleteProject(ctx, "a1", ready.ID), apperr.Internal)
	checkKind(t, s.DeleteProject(ctx, "a1", ready.ID), apperr.NotFound)
	_, _, err = s.Revisions(ctx, "a1", ready.ID)
	checkKind(t, err, apperr.NotFound)
	var left int
	if err := db.pool.QueryRow(ctx, `SELECT count(*) FROM project_revisions WHERE project_id = $1`, ready.ID).Scan(&left); err != nil || left != 0 {
		t.Errorf("%d revisions left after delete (%v)", left, err)
	}
}

func TestProjectStoreListPages(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTest(t, nil)
	s := db.Projects()
	seedAccounts(t, db, "a1", "a2")
	for i := 1; i <= 7; i++ {
		// Pairs share a second, so the id breaks ties.
		checkKind(t, s.CreateProject(ctx, testProject(i, "a1", projT0.Add(time.Duration(i/2)*time.Second)), nil, 100), apperr.Internal)
	}
	checkKind(t, s.CreateProject(ctx, testProject(8, "a2", projT0), nil, 100), apperr.Internal)
	var got []string
	var pos *project.Position
	for {
		page, err := s.ListProjects(ctx, "a1", pos, 3)
		checkKind(t, err, apperr.Internal)
		for _, p := range page {
			got = append(got, p.Name)
		}
		if len(page) < 3 {
			break
		}
		last := page[len(page)-1]
		pos = &project.Position{CreatedAt: last.CreatedAt, ID: last.ID}
	}
	if fmt.Sprint(got) != "[p7 p6 p5 p4 p3 p2 p1]" {
		t.Errorf("listing = %v", got)
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
