package storetest

import (
	"errors"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/exporttpl"
)

func templateScenarios() []scenario {
	return []scenario{
		{"create list update delete", templateLifecycle},
	}
}

func newTemplate(n int, accountID string, at time.Time) *exporttpl.Template {
	return &exporttpl.Template{ID: uuidN(n), AccountID: accountID, Name: "t", Source: "src", JS: "js", Revision: 1,
		FilenamePattern: exporttpl.DefaultFilenamePattern, ContentType: exporttpl.DefaultContentType, CreatedAt: at, UpdatedAt: at}
}

// templateLifecycle: one account's templates are invisible to another;
// the limit and the revision lock hold.
func templateLifecycle(e *env) {
	t, s := e.t, e.db.Templates()
	a, b := e.account(1), e.account(2)
	for i := 1; i <= 3; i++ {
		must(t, s.CreateTemplate(e.ctx, newTemplate(i, a.ID, e.now().Add(time.Duration(i)*time.Minute)), 3))
	}
	wantIs(t, s.CreateTemplate(e.ctx, newTemplate(4, a.ID, e.now()), 3), exporttpl.ErrTooManyTemplates)
	wantKind(t, s.CreateTemplate(e.ctx, newTemplate(5, uuidN(99), e.now()), 3), apperr.NotFound)

	list, err := s.ListTemplates(e.ctx, a.ID)
	must(t, err)
	if len(list) != 3 || list[0].ID != uuidN(3) || list[2].ID != uuidN(1) || list[0].Source != "" || list[0].JS != "" ||
		list[0].Name != "t" || list[0].Revision != 1 || list[0].ContentType != exporttpl.DefaultContentType {
		t.Fatalf("list = %+v; want 3, newest first, without scripts", list)
	}
	if other, err := s.ListTemplates(e.ctx, b.ID); err != nil || len(other) != 0 {
		t.Errorf("another account's list = %+v, %v", other, err)
	}
	got, err := s.Template(e.ctx, a.ID, uuidN(1))
	must(t, err)
	want := newTemplate(1, a.ID, e.now().Add(time.Minute))
	if got.ID != want.ID || got.AccountID != want.AccountID || got.Name != want.Name || got.Source != want.Source ||
		got.JS != want.JS || got.Revision != want.Revision || got.FilenamePattern != want.FilenamePattern ||
		got.ContentType != want.ContentType || !sameTime(got.CreatedAt, want.CreatedAt) || !sameTime(got.UpdatedAt, want.UpdatedAt) {
		t.Fatalf("template = %+v, want %+v", got, want)
	}
	_, err = s.Template(e.ctx, b.ID, uuidN(1))
	wantKind(t, err, apperr.NotFound)

	updates := []struct {
		name    string
		account string
		base    int
		stale   int // want a StaleRevisionError with this current revision
		want    apperr.Kind
	}{
		{"current base", a.ID, 1, 0, none},
		{"stale base", a.ID, 1, 2, none},
		{"another account's", b.ID, 2, 0, apperr.NotFound},
		{"unknown", a.ID, 1, 0, apperr.NotFound},
	}
	for i, tc := range updates {
		u := *got
		u.AccountID, u.Revision, u.Source, u.UpdatedAt = tc.account, tc.base+1, "src "+tc.name, e.now().Add(time.Hour)
		if tc.name == "unknown" {
			u.ID = uuidN(99)
		}
		err := s.UpdateTemplate(e.ctx, &u, tc.base)
		var se *exporttpl.StaleRevisionError
		switch {
		case tc.stale > 0:
			if !errors.As(err, &se) || se.Current != tc.stale {
				t.Errorf("update %d (%s): %v; want stale at %d", i, tc.name, err, tc.stale)
			}
		case !kindIs(err, tc.want):
			t.Errorf("update %d (%s): %v; want %s", i, tc.name, err, tc.want.Code())
		}
	}
	now, err := s.Template(e.ctx, a.ID, uuidN(1))
	must(t, err)
	if now.Revision != 2 || now.Source != "src current base" || !sameTime(now.UpdatedAt, e.now().Add(time.Hour)) {
		t.Errorf("after the updates: %+v", now)
	}
	wantKind(t, s.DeleteTemplate(e.ctx, b.ID, uuidN(1)), apperr.NotFound)
	must(t, s.DeleteTemplate(e.ctx, a.ID, uuidN(1)))
	wantKind(t, s.DeleteTemplate(e.ctx, a.ID, uuidN(1)), apperr.NotFound)
	// Deleting makes room under the limit.
	must(t, s.CreateTemplate(e.ctx, newTemplate(4, a.ID, e.now()), 3))
}
