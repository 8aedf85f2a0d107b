package storetest

import (
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/project"
)

func projectScenarios() []scenario {
	return []scenario{
		{"create read revise delete", projectLifecycle},
		{"list pages", projectPages},
		{"limit under concurrency", projectLimit},
	}
}

// newProject returns project n of the account, empty, created at at.
func newProject(n int, accountID string, at time.Time) *project.Project {
	return &project.Project{ID: uuidN(n), AccountID: accountID, Name: fmt.Sprintf("p%d", n), CreatedAt: at, UpdatedAt: at}
}

func projectLifecycle(e *env) {
	t, s := e.t, e.db.Projects()
	a1, a2 := e.account(1), e.account(2)
	ready := newProject(1, a1.ID, e.now())
	ready.IRRevision, ready.CueCount = 1, 2
	const ir1 = `{"version":1,"cues":[]}`
	must(t, s.CreateProject(e.ctx, ready, &project.Revision{Number: 1, CueCount: 2, CreatedAt: e.now(), IR: ir1}, 10))
	empty := newProject(2, a1.ID, e.now())
	must(t, s.CreateProject(e.ctx, empty, nil, 10))
	wantKind(t, s.CreateProject(e.ctx, newProject(3, uuidN(99), e.now()), nil, 10), apperr.NotFound)
	wantKind(t, s.CreateProject(e.ctx, newProject(1, a1.ID, e.now()), nil, 10), apperr.Conflict)

	reads := []struct {
		name     string
		account  string
		id       string
		want     apperr.Kind
		wantIR   string
		wantRevs int
	}{
		{"ready", a1.ID, ready.ID, none, ir1, 1},
		{"empty", a1.ID, empty.ID, none, "", 0},
		{"another account's", a2.ID, ready.ID, apperr.NotFound, "", 0},
		{"unknown", a1.ID, uuidN(99), apperr.NotFound, "", 0},
	}
	for _, tt := range reads {
		d, err := s.ProjectIR(e.ctx, tt.account, tt.id)
		_, revs, rerr := s.Revisions(e.ctx, tt.account, tt.id)
		if !kindIs(err, tt.want) || !kindIs(rerr, tt.want) {
			t.Errorf("%s: ProjectIR %v, Revisions %v; want %s", tt.name, err, rerr, tt.want.Code())
			continue
		}
		if err == nil && (d.IR != tt.wantIR || len(revs) != tt.wantRevs) {
			t.Errorf("%s: ir %q, %d revisions; want %q, %d", tt.name, d.IR, len(revs), tt.wantIR, tt.wantRevs)
		}
	}
	d, err := s.ProjectIR(e.ctx, a1.ID, ready.ID)
	must(t, err)
	if d.Name != ready.Name || d.AccountID != a1.ID || d.IRRevision != 1 || d.CueCount != 2 ||
		!sameTime(d.CreatedAt, ready.CreatedAt) || !sameTime(d.UpdatedAt, ready.UpdatedAt) {
		t.Errorf("ProjectIR = %+v, want %+v", d.Project, ready)
	}

	// A stale base is refused with the current number; the newest keep
	// revisions survive pruning.
	_, err = s.AddRevision(e.ctx, a1.ID, ready.ID, 0, &project.Revision{CueCount: 1, CreatedAt: e.now(), IR: "{}"}, 3)
	var stale *project.StaleRevisionError
	if !errors.As(err, &stale) || stale.Current != 1 {
		t.Fatalf("add on a stale base: %v; want StaleRevisionError{Current: 1}", err)
	}
	_, err = s.AddRevision(e.ctx, a2.ID, ready.ID, 1, &project.Revision{CueCount: 1, CreatedAt: e.now(), IR: "{}"}, 3)
	wantKind(t, err, apperr.NotFound)
	for base := 1; base <= 5; base++ {
		at := e.now().Add(time.Duration(base) * time.Minute)
		p, err := s.AddRevision(e.ctx, a1.ID, ready.ID, base,
			&project.Revision{CueCount: base, CreatedAt: at, IR: fmt.Sprintf(`{"n":%d}`, base+1)}, 3)
		must(t, err)
		if p.ID != ready.ID || p.IRRevision != base+1 || p.CueCount != base || !sameTime(p.UpdatedAt, at) ||
			!sameTime(p.CreatedAt, ready.CreatedAt) {
			t.Fatalf("after adding on %d: %+v", base, p)
		}
	}
	_, revs, err := s.Revisions(e.ctx, a1.ID, ready.ID)
	must(t, err)
	if len(revs) != 3 || revs[0].Number != 6 || revs[1].Number != 5 || revs[2].Number != 4 || revs[0].IR != "" ||
		revs[0].CueCount != 5 || !sameTime(revs[0].CreatedAt, e.now().Add(5*time.Minute)) {
		t.Errorf("revisions after pruning = %+v; want 6, 5, 4 without IR", revs)
	}
	if d, _ := s.ProjectIR(e.ctx, a1.ID, ready.ID); d == nil || d.IR != `{"n":6}` {
		t.Errorf("current ir = %+v", d)
	}
	irs := []struct {
		name    string
		account string
		number  int
		want    apperr.Kind
		wantIR  string
	}{
		{"kept", a1.ID, 5, none, `{"n":5}`},
		{"pruned", a1.ID, 3, apperr.NotFound, ""},
		{"not yet made", a1.ID, 7, apperr.NotFound, ""},
		{"another account's", a2.ID, 5, apperr.NotFound, ""},
	}
	for _, tt := range irs {
		ir, err := s.RevisionIR(e.ctx, tt.account, ready.ID, tt.number)
		if !kindIs(err, tt.want) || ir != tt.wantIR {
			t.Errorf("RevisionIR %s: %q, %v; want %q, %s", tt.name, ir, err, tt.wantIR, tt.want.Code())
		}
	}

	// Delete: another account's is not found; revisions go too.
	_, err = s.DeleteProject(e.ctx, a2.ID, ready.ID)
	wantKind(t, err, apperr.NotFound)
	_, err = s.DeleteProject(e.ctx, a1.ID, ready.ID)
	must(t, err)
	_, err = s.DeleteProject(e.ctx, a1.ID, ready.ID)
	wantKind(t, err, apperr.NotFound)
	_, _, err = s.Revisions(e.ctx, a1.ID, ready.ID)
	wantKind(t, err, apperr.NotFound)
}

// projectPages: newest first, ties of a second broken by id, each page
// resuming after the last one's position.
func projectPages(e *env) {
	t, s := e.t, e.db.Projects()
	a1, a2 := e.account(1), e.account(2)
	for i := 1; i <= 7; i++ {
		// Pairs share a second, so the id breaks ties.
		must(t, s.CreateProject(e.ctx, newProject(i, a1.ID, e.now().Add(time.Duration(i/2)*time.Second)), nil, 100))
	}
	must(t, s.CreateProject(e.ctx, newProject(8, a2.ID, e.now()), nil, 100))
	var got []string
	var pos *project.Position
	for range 10 {
		page, err := s.ListProjects(e.ctx, a1.ID, pos, 3)
		must(t, err)
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

// projectLimit: concurrent creators never take an account past its
// limit.
func projectLimit(e *env) {
	t, s := e.t, e.db.Projects()
	a := e.account(1)
	const limit, tries = 5, 12
	errs := make([]error, tries)
	var wg sync.WaitGroup
	for i := range tries {
		wg.Go(func() { errs[i] = s.CreateProject(e.ctx, newProject(i+1, a.ID, e.now()), nil, limit) })
	}
	wg.Wait()
	created := 0
	for _, err := range errs {
		switch {
		case err == nil:
			created++
		case !errors.Is(err, project.ErrTooManyProjects):
			t.Errorf("unexpected error: %v", err)
		}
	}
	list, err := s.ListProjects(e.ctx, a.ID, nil, 100)
	if created != limit || err != nil || len(list) != limit {
		t.Errorf("%d created, %d listed (%v); want %d", created, len(list), err, limit)
	}
}
