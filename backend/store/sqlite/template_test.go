package sqlite_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/exporttpl"
	"github.com/captionqa/captionqa/backend/internal/testkit"
)

func newTemplate(n int, accountID string, at time.Time) *exporttpl.Template {
	return &exporttpl.Template{ID: uuidN(n), AccountID: accountID, Name: "t", Source: "src", JS: "js", Revision: 1,
		FilenamePattern: exporttpl.DefaultFilenamePattern, ContentType: exporttpl.DefaultContentType, CreatedAt: at, UpdatedAt: at}
}

// TestTemplateStore: templates on a real SQLite file, one account's
// invisible to another; the limit and the revision lock hold.
func TestTemplateStore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := testkit.MustOpenDB(t)
	for _, id := range []string{"a", "b"} {
		if err := db.Accounts().CreateAccount(ctx, newAccount(id, id+"@example.test")); err != nil {
			t.Fatal(err)
		}
	}
	s := db.Templates()
	for i := 1; i <= 3; i++ {
		if err := s.CreateTemplate(ctx, newTemplate(i, "a", t0.Add(time.Duration(i)*time.Minute)), 3); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.CreateTemplate(ctx, newTemplate(4, "a", t0), 3); !errors.Is(err, exporttpl.ErrTooManyTemplates) {
		t.Errorf("a fourth at max 3: %v", err)
	}
	wantKind(t, s.CreateTemplate(ctx, newTemplate(5, "nobody", t0), 3), apperr.NotFound)

	list, err := s.ListTemplates(ctx, "a")
	if err != nil || len(list) != 3 || list[0].ID != uuidN(3) || list[0].Source != "" || list[0].JS != "" {
		t.Fatalf("list = %+v, %v; want 3 newest first, without scripts", list, err)
	}
	if other, _ := s.ListTemplates(ctx, "b"); len(other) != 0 {
		t.Errorf("b's list = %+v", other)
	}
	got, err := s.Template(ctx, "a", uuidN(1))
	if err != nil || got.Source != "src" || got.JS != "js" || !got.CreatedAt.Equal(t0.Add(time.Minute)) {
		t.Fatalf("template = %+v, %v", got, err)
	}
	_, err = s.Template(ctx, "b", uuidN(1))
	wantKind(t, err, apperr.NotFound)

	for _, tc := range []struct {
		name    string
		account string
		base    int
		stale   int // want a StaleRevisionError with this current revision
		kind    apperr.Kind
	}{
		{"current base", "a", 1, 0, -1},
		{"stale base", "a", 1, 2, -1},
		{"another account's", "b", 2, 0, apperr.NotFound},
	} {
		u := *got
		u.AccountID, u.Revision, u.Source = tc.account, tc.base+1, "src v"+tc.name
		err := s.UpdateTemplate(ctx, &u, tc.base)
		var se *exporttpl.StaleRevisionError
		switch {
		case tc.stale > 0:
			if !errors.As(err, &se) || se.Current != tc.stale {
				t.Errorf("%s: %v; want stale at %d", tc.name, err, tc.stale)
			}
		case tc.kind >= 0:
			wantKind(t, err, tc.kind)
		case err != nil:
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	if now, _ := s.Template(ctx, "a", uuidN(1)); now.Revision != 2 || now.Source != "src vcurrent base" {
		t.Errorf("after the updates: %+v", now)
	}
	wantKind(t, s.DeleteTemplate(ctx, "b", uuidN(1)), apperr.NotFound)
	if err := s.DeleteTemplate(ctx, "a", uuidN(1)); err != nil {
		t.Fatal(err)
	}
	wantKind(t, s.DeleteTemplate(ctx, "a", uuidN(1)), apperr.NotFound)
}
