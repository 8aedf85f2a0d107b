package postgres

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/exporttpl"
)

func testTemplate(n int, accountID string, at time.Time) *exporttpl.Template {
	return &exporttpl.Template{ID: idN(n), AccountID: accountID, Name: "t", Source: "src", JS: "js", Revision: 1,
		FilenamePattern: exporttpl.DefaultFilenamePattern, ContentType: exporttpl.DefaultContentType, CreatedAt: at, UpdatedAt: at}
}

// TestTemplateStore: one account's templates are invisible to another;
// the limit and the revision lock hold.
func TestTemplateStore(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTest(t, nil)
	seedAccounts(t, db, "a", "b")
	s := db.Templates()
	for i := 1; i <= 3; i++ {
		if err := s.CreateTemplate(ctx, testTemplate(i, "a", projT0.Add(time.Duration(i)*time.Minute)), 3); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.CreateTemplate(ctx, testTemplate(4, "a", projT0), 3); !errors.Is(err, exporttpl.ErrTooManyTemplates) {
		t.Errorf("a fourth at max 3: %v", err)
	}
	checkKind(t, s.CreateTemplate(ctx, testTemplate(5, "nobody", projT0), 3), apperr.NotFound)

	list, err := s.ListTemplates(ctx, "a")
	if err != nil || len(list) != 3 || list[0].ID != idN(3) || list[0].Source != "" || list[0].JS != "" {
		t.Fatalf("list = %+v, %v; want 3 newest first, without scripts", list, err)
	}
	if other, err := s.ListTemplates(ctx, "b"); err != nil || len(other) != 0 {
		t.Errorf("b's list = %+v, %v", other, err)
	}
	got, err := s.Template(ctx, "a", idN(1))
	if err != nil || got.Source != "src" || got.JS != "js" || !got.CreatedAt.Equal(projT0.Add(time.Minute)) || got.CreatedAt.Location() != time.UTC {
		t.Fatalf("template = %+v, %v", got, err)
	}
	_, err = s.Template(ctx, "b", idN(1))
	checkKind(t, err, apperr.NotFound)

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
		u.UpdatedAt = projT0.Add(time.Hour + 300*time.Millisecond)
		err := s.UpdateTemplate(ctx, &u, tc.base)
		var se *exporttpl.StaleRevisionError
		switch {
		case tc.stale > 0:
			if !errors.As(err, &se) || se.Current != tc.stale {
				t.Errorf("%s: %v; want stale at %d", tc.name, err, tc.stale)
			}
		case tc.kind >= 0:
			checkKind(t, err, tc.kind)
		case err != nil:
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	if now, _ := s.Template(ctx, "a", idN(1)); now.Revision != 2 || now.Source != "src vcurrent base" || !now.UpdatedAt.Equal(projT0.Add(time.Hour)) {
		t.Errorf("after the updates: %+v", now)
	}
	checkKind(t, s.DeleteTemplate(ctx, "b", idN(1)), apperr.NotFound)
	if err := s.DeleteTemplate(ctx, "a", idN(1)); err != nil {
		t.Fatal(err)
	}
	checkKind(t, s.DeleteTemplate(ctx, "a", idN(1)), apperr.NotFound)
}

// TestTemplateStoreRaces: creators on two nodes stay within the limit,
// and of updates from one base exactly one is stored.
func TestTemplateStoreRaces(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	nodes := openNodes(t, 2, nil)
	seedAccounts(t, nodes[0], "a")
	const limit, tries = 4, 10
	var wg sync.WaitGroup
	errs := make([]error, tries)
	for i := range tries {
		wg.Go(func() { errs[i] = nodes[i%2].Templates().CreateTemplate(ctx, testTemplate(i+1, "a", projT0), limit) })
	}
	wg.Wait()
	var created []int
	for i, err := range errs {
		switch {
		case err == nil:
			created = append(created, i+1)
		case !errors.Is(err, exporttpl.ErrTooManyTemplates):
			t.Errorf("create %d: %v", i+1, err)
		}
	}
	if len(created) != limit {
		t.Fatalf("%d created; want %d", len(created), limit)
	}

	id := idN(created[0])
	for i := range tries {
		errs[i] = nil
		wg.Go(func() {
			u := testTemplate(created[0], "a", projT0)
			u.Revision, u.Source = 2, fmt.Sprintf("writer %d", i)
			errs[i] = nodes[i%2].Templates().UpdateTemplate(ctx, u, 1)
		})
	}
	wg.Wait()
	winner := -1
	for i, err := range errs {
		var se *exporttpl.StaleRevisionError
		switch {
		case err == nil && winner < 0:
			winner = i
		case err == nil:
			t.Errorf("writers %d and %d both updated revision 1", winner, i)
		case !errors.As(err, &se) || se.Current != 2:
			t.Errorf("writer %d: %v; want stale at 2", i, err)
		}
	}
	if got, err := nodes[1].Templates().Template(ctx, "a", id); err != nil || got.Revision != 2 || got.Source != fmt.Sprintf("writer %d", winner) {
		t.Errorf("stored %+v, %v; want writer %d's revision 2", got, err, winner)
	}
}
