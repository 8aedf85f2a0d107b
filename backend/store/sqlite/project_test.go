package sqlite_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/internal/testkit"
	"github.com/captionqa/captionqa/backend/project"
)

func newProject(n int, accountID string, created time.Time) *project.Project {
	return &project.Project{ID: fmt.Sprintf("00000000-0000-4000-8000-%012d", n), AccountID: accountID,
		Name: fmt.Sprintf("p%d", n), CreatedAt: created, UpdatedAt: created}
}

func TestProjectStoreLifecycle(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testkit.MustOpenDB(t)
	accounts, s := db.Accounts(), db.Projects()
	wantKind(t, accounts.CreateAccount(ctx, newAccount("a1", "a1@example.test")), apperr.Internal)
	wantKind(t, accounts.CreateAccount(ctx, newAccount("a2", "a2@example.test")), apperr.Internal)

	ready := newProject(1, "a1", t0)
	ready.IRRevision, ready.CueCount = 1, 2
	wantKind(t, s.CreateProject(ctx, ready, &project.Revision{Number: 1, CueCount: 2, CreatedAt: t0, IR: `{"version":1,"cues":[]}`}, 10), apperr.Internal)
	empty := newProject(2, "a1", t0) // same second: ordered by id
	wantKind(t, s.CreateProject(ctx, empty, nil, 10), apperr.Internal)
	wantKind(t, s.CreateProject(ctx, newProject(3, "nobody", t0), nil, 10), apperr.NotFound)

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
		{"unknown", "a1", "00000000-0000-4000-8000-000000000099", apperr.NotFound, "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := s.ProjectIR(ctx, tt.account, tt.id)
			wantKind(t, err, tt.wantKind)
			_, revs, rerr := s.Revisions(ctx, tt.account, tt.id)
			wantKind(t, rerr, tt.wantKind)
			if err == nil && (d.IR != tt.wantIR || len(revs) != tt.wantRevs) {
				t.Errorf("ir %q, %d revisions; want %q, %d", d.IR, len(revs), tt.wantIR, tt.wantRevs)
			}
		})
	}

	// Revisions: a stale base is refused with the current number; the
	// newest keep survive pruning.
	_, err := s.AddRevision(ctx, "a1", ready.ID, 0, &project.Revision{CueCount: 1, CreatedAt: t0, IR: "{}"}, 3)
	var stale *project.StaleRevisionError
	if !errors.As(err, &stale) || stale.Current != 1 {
		t.Fatalf("stale add: %v", err)
	}
	_, err = s.AddRevision(ctx, "a2", ready.ID, 1, &project.Revision{CueCount: 1, CreatedAt: t0, IR: "{}"}, 3)
	wantKind(t, err, apperr.NotFound)
	for base := 1; base <= 5; base++ {
		p, err := s.AddRevision(ctx, "a1", ready.ID, base, &project.Revision{CueCount: base, CreatedAt: t0.Add(time.Duration(base) * time.Minute), IR: fmt.Sprintf(`{"n":%d}`, base+1)}, 3)
		wantKind(t, err, apperr.Internal)
		if p.IRRevision != base+1 || p.CueCount != base || !p.UpdatedAt.Equal(t0.Add(time.Duration(base)*time.Minute)) {
			t.Fatalf("after add on %d: %+v", base, p)
		}
	}
	_, revs, err := s.Revisions(ctx, "a1", ready.ID)
	wantKind(t, err, apperr.Internal)
	if len(revs) != 3 || revs[0].Number != 6 || revs[2].Number != 4 {
		t.Errorf("revisions after pruning = %+v; want 6, 5, 4", revs)
	}
	if d, _ := s.ProjectIR(ctx, "a1", ready.ID); d.IR != `{"n":6}` {
		t.Errorf("current ir = %q", d.IR)
	}

	// Delete: another account's is not found; revisions go too.
	wantKind(t, s.DeleteProject(ctx, "a2", ready.ID), apperr.NotFound)
	wantKind(t, s.DeleteProject(ctx, "a1", ready.ID), apperr.Internal)
	wantKind(t, s.DeleteProject(ctx, "a1", ready.ID), apperr.NotFound)
	_, _, err = s.Revisions(ctx, "a1", ready.ID)
	wantKind(t, err, apperr.NotFound)
}

func TestProjectStoreListPages(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testkit.MustOpenDB(t)
	s := db.Projects()
	wantKind(t, db.Accounts().CreateAccount(ctx, newAccount("a1", "a1@example.test")), apperr.Internal)
	wantKind(t, db.Accounts().CreateAccount(ctx, newAccount("a2", "a2@example.test")), apperr.Internal)
	for i := 1; i <= 7; i++ {
		// Pairs share a second, so the id breaks ties.
		wantKind(t, s.CreateProject(ctx, newProject(i, "a1", t0.Add(time.Duration(i/2)*time.Second)), nil, 100), apperr.Internal)
	}
	wantKind(t, s.CreateProject(ctx, newProject(8, "a2", t0), nil, 100), apperr.Internal)
	var got []string
	var pos *project.Position
	for {
		page, err := s.ListProjects(ctx, "a1", pos, 3)
		wantKind(t, err, apperr.Internal)
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

// TestProjectStoreLimit: concurrent creators never take an account past
// its limit.
func TestProjectStoreLimit(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testkit.MustOpenDB(t)
	s := db.Projects()
	wantKind(t, db.Accounts().CreateAccount(ctx, newAccount("a1", "a1@example.test")), apperr.Internal)
	const limit, tries = 5, 12
	var wg sync.WaitGroup
	errs := make([]error, tries)
	for i := range tries {
		wg.Go(func() { errs[i] = s.CreateProject(ctx, newProject(i+1, "a1", t0), nil, limit) })
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
}
