package sqlstore_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/project"
	"github.com/captionqa/captionqa/backend/store/sqlstore"
)

// TestProjectStoreLifecycle: a project reads back with its current
// revision's IR (an empty one with none), only to its account; a stale
// base is refused with the current number; the newest keep revisions
// survive pruning; a delete is the account's own, and takes the
// revisions with it.
func TestProjectStoreLifecycle(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, open func(testing.TB, func() time.Time) *sqlstore.DB) {
		ctx := context.Background()
		db := open(t, nil)
		s := db.Projects()
		seedAccountRows(t, db, "a1", "a2")

		ready := testProject(1, "a1", storeT0)
		ready.IRRevision, ready.CueCount = 1, 2
		mustKind(t, s.CreateProject(ctx, ready, &project.Revision{Number: 1, CueCount: 2, CreatedAt: storeT0, IR: `{"version":1,"cues":[]}`}, 10), apperr.Internal)
		empty := testProject(2, "a1", storeT0) // same second: ordered by id
		mustKind(t, s.CreateProject(ctx, empty, nil, 10), apperr.Internal)
		mustKind(t, s.CreateProject(ctx, testProject(3, "nobody", storeT0), nil, 10), apperr.NotFound)

		for _, tt := range []struct {
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
			{"unknown", "a1", uuidOf(99), apperr.NotFound, "", 0},
		} {
			t.Run(tt.name, func(t *testing.T) {
				d, err := s.ProjectIR(ctx, tt.account, tt.id)
				mustKind(t, err, tt.wantKind)
				_, revs, rerr := s.Revisions(ctx, tt.account, tt.id)
				mustKind(t, rerr, tt.wantKind)
				if err == nil && (d.IR != tt.wantIR || len(revs) != tt.wantRevs) {
					t.Errorf("ir %q, %d revisions; want %q, %d", d.IR, len(revs), tt.wantIR, tt.wantRevs)
				}
			})
		}

		// Revisions: a stale base is refused with the current number; the
		// newest keep survive pruning.
		_, err := s.AddRevision(ctx, "a1", ready.ID, 0, &project.Revision{CueCount: 1, CreatedAt: storeT0, IR: "{}"}, 3)
		var stale *project.StaleRevisionError
		if !errors.As(err, &stale) || stale.Current != 1 {
			t.Fatalf("stale add: %v", err)
		}
		_, err = s.AddRevision(ctx, "a2", ready.ID, 1, &project.Revision{CueCount: 1, CreatedAt: storeT0, IR: "{}"}, 3)
		mustKind(t, err, apperr.NotFound)
		for base := 1; base <= 5; base++ {
			at := storeT0.Add(time.Duration(base) * time.Minute)
			p, err := s.AddRevision(ctx, "a1", ready.ID, base, &project.Revision{CueCount: base, CreatedAt: at, IR: fmt.Sprintf(`{"n":%d}`, base+1)}, 3)
			mustKind(t, err, apperr.Internal)
			if p.IRRevision != base+1 || p.CueCount != base || !p.UpdatedAt.Equal(at) {
				t.Fatalf("after add on %d: %+v", base, p)
			}
		}
		_, revs, err := s.Revisions(ctx, "a1", ready.ID)
		mustKind(t, err, apperr.Internal)
		if len(revs) != 3 || revs[0].Number != 6 || revs[2].Number != 4 {
			t.Errorf("revisions after pruning = %+v; want 6, 5, 4", revs)
		}
		if d, _ := s.ProjectIR(ctx, "a1", ready.ID); d.IR != `{"n":6}` {
			t.Errorf("current ir = %q", d.IR)
		}

		// Delete: another account's is not found; revisions go too.
		for _, step := range []struct {
			account string
			want    apperr.Kind
		}{{"a2", apperr.NotFound}, {"a1", apperr.Internal}, {"a1", apperr.NotFound}} {
			_, err := s.DeleteProject(ctx, step.account, ready.ID)
			mustKind(t, err, step.want)
		}
		_, _, err = s.Revisions(ctx, "a1", ready.ID)
		mustKind(t, err, apperr.NotFound)
	})
}

// TestProjectStoreDelete: deleting a project deletes its revisions'
// rows too (the foreign key's ON DELETE CASCADE), and Revisions reads
// the project as ProjectIR does.
func TestProjectStoreDelete(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, open func(testing.TB, func() time.Time) *sqlstore.DB) {
		ctx := context.Background()
		db := open(t, nil)
		s := db.Projects()
		seedAccountRows(t, db, "a1")
		p := testProject(1, "a1", storeT0)
		p.IRRevision, p.CueCount = 1, 2
		mustKind(t, s.CreateProject(ctx, p, &project.Revision{Number: 1, CueCount: 2, CreatedAt: storeT0, IR: `{"version":1,"cues":[]}`}, 10), apperr.Internal)
		_, err := s.AddRevision(ctx, "a1", p.ID, 1, &project.Revision{CueCount: 3, CreatedAt: storeT0, IR: "{}"}, 5)
		mustKind(t, err, apperr.Internal)
		d, err := s.ProjectIR(ctx, "a1", p.ID)
		mustKind(t, err, apperr.Internal)
		got, _, err := s.Revisions(ctx, "a1", p.ID)
		mustKind(t, err, apperr.Internal)
		if *got != d.Project {
			t.Errorf("Revisions' project %+v, ProjectIR's %+v", got, d.Project)
		}

		_, err = s.DeleteProject(ctx, "a1", p.ID)
		mustKind(t, err, apperr.Internal)
		if left := countRows(t, db, `SELECT count(*) FROM project_revisions WHERE project_id = $1`, p.ID); left != 0 {
			t.Errorf("%d revisions left after delete", left)
		}
	})
}

// TestProjectStoreListPages: pages of a listing follow one another,
// newest first, ties of a second broken by id, and hold only the
// account's projects.
func TestProjectStoreListPages(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, open func(testing.TB, func() time.Time) *sqlstore.DB) {
		ctx := context.Background()
		db := open(t, nil)
		s := db.Projects()
		seedAccountRows(t, db, "a1", "a2")
		for i := 1; i <= 7; i++ {
			// Pairs share a second, so the id breaks ties.
			mustKind(t, s.CreateProject(ctx, testProject(i, "a1", storeT0.Add(time.Duration(i/2)*time.Second)), nil, 100), apperr.Internal)
		}
		mustKind(t, s.CreateProject(ctx, testProject(8, "a2", storeT0), nil, 100), apperr.Internal)
		var got []string
		var pos *project.Position
		for {
			page, err := s.ListProjects(ctx, "a1", pos, 3)
			mustKind(t, err, apperr.Internal)
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
	})
}

// TestProjectStoreLimit: concurrent creators on two nodes (two handles
// on one SQLite file, two pools on one PostgreSQL database) never take
// an account past its limit.
func TestProjectStoreLimit(t *testing.T) {
	t.Parallel()
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			nodes := e.nodes(t, 2, nil)
			seedAccountRows(t, nodes[0], "a1")
			const limit, tries = 5, 12
			var wg sync.WaitGroup
			errs := make([]error, tries)
			for i := range tries {
				wg.Go(func() {
					errs[i] = nodes[i%2].Projects().CreateProject(ctx, testProject(i+1, "a1", storeT0), nil, limit)
				})
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
		})
	}
}

// TestAddRevisionRace: writers on two nodes adding to the same base
// revision; exactly one wins, the others are told the new current one.
func TestAddRevisionRace(t *testing.T) {
	t.Parallel()
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			nodes := e.nodes(t, 2, nil)
			seedAccountRows(t, nodes[0], "a1")
			p := testProject(1, "a1", storeT0)
			mustKind(t, nodes[0].Projects().CreateProject(ctx, p, nil, 10), apperr.Internal)
			const writers = 8
			var wg sync.WaitGroup
			errs := make([]error, writers)
			for i := range writers {
				wg.Go(func() {
					_, errs[i] = nodes[i%2].Projects().AddRevision(ctx, "a1", p.ID, 0,
						&project.Revision{CueCount: i, CreatedAt: storeT0, IR: fmt.Sprintf(`{"writer":%d}`, i)}, 5)
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
			mustKind(t, err, apperr.Internal)
			if d.IRRevision != 1 || d.CueCount != winner || d.IR != fmt.Sprintf(`{"writer":%d}`, winner) {
				t.Errorf("stored %+v %q; want writer %d's revision 1", d.Project, d.IR, winner)
			}
		})
	}
}
