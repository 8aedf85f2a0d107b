package sqlstore_test

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/exporttpl"
	"github.com/captionqa/captionqa/backend/store/sqlstore"
)

// TestTemplateStore: templates, one account's invisible to another; the
// limit and the revision lock hold.
func TestTemplateStore(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, open func(testing.TB, func() time.Time) *sqlstore.DB) {
		ctx := context.Background()
		db := open(t, nil)
		for _, id := range []string{"a", "b"} {
			wantKind(t, db.Accounts().CreateAccount(ctx, newAccount(id, id+"@example.test")), apperr.Internal)
		}
		s := db.Templates()
		for i := 1; i <= 3; i++ {
			if err := s.CreateTemplate(ctx, newTemplate(i, "a", acctT0.Add(time.Duration(i)*time.Minute)), 3); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.CreateTemplate(ctx, newTemplate(4, "a", acctT0), 3); !errors.Is(err, exporttpl.ErrTooManyTemplates) {
			t.Errorf("a fourth at max 3: %v", err)
		}
		wantKind(t, s.CreateTemplate(ctx, newTemplate(5, "nobody", acctT0), 3), apperr.NotFound)

		list, err := s.ListTemplates(ctx, "a")
		if err != nil || len(list) != 3 || list[0].ID != templateID(3) || list[1].ID != templateID(2) || list[2].ID != templateID(1) ||
			list[0].Source != "" || list[0].JS != "" {
			t.Fatalf("list = %+v, %v; want 3 newest first, without scripts", list, err)
		}
		if other, err := s.ListTemplates(ctx, "b"); err != nil || len(other) != 0 {
			t.Errorf("b's list = %+v, %v", other, err)
		}
		got, err := s.Template(ctx, "a", templateID(1))
		if err != nil || got.Source != "src" || got.JS != "js" || got.Revision != 1 || !got.CreatedAt.Equal(acctT0.Add(time.Minute)) ||
			got.FilenamePattern != exporttpl.DefaultFilenamePattern || got.ContentType != exporttpl.DefaultContentType {
			t.Fatalf("template = %+v, %v", got, err)
		}
		_, err = s.Template(ctx, "b", templateID(1))
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
		if now, err := s.Template(ctx, "a", templateID(1)); err != nil || now.Revision != 2 || now.Source != "src vcurrent base" {
			t.Errorf("after the updates: %+v, %v", now, err)
		}
		wantKind(t, s.DeleteTemplate(ctx, "b", templateID(1)), apperr.NotFound)
		if err := s.DeleteTemplate(ctx, "a", templateID(1)); err != nil {
			t.Fatal(err)
		}
		wantKind(t, s.DeleteTemplate(ctx, "a", templateID(1)), apperr.NotFound)
		_, err = s.Template(ctx, "a", templateID(1))
		wantKind(t, err, apperr.NotFound)
	})
}

// TestTemplateStoreRaces: creators on two nodes (handles on one SQLite
// file, pools on one PostgreSQL database) stay within the limit, and of
// updates from one base exactly one is stored.
func TestTemplateStoreRaces(t *testing.T) {
	t.Parallel()
	for _, e := range engines {
		t.Run(e.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			nodes := e.nodes(t, 2, nil)
			wantKind(t, nodes[0].Accounts().CreateAccount(ctx, newAccount("a", "a@example.test")), apperr.Internal)
			const limit, tries = 4, 10
			var wg sync.WaitGroup
			errs := make([]error, tries)
			start := make(chan struct{})
			for i := range tries {
				wg.Go(func() {
					<-start
					errs[i] = nodes[i%2].Templates().CreateTemplate(ctx, newTemplate(i+1, "a", acctT0), limit)
				})
			}
			close(start)
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
			if list, err := nodes[1].Templates().ListTemplates(ctx, "a"); err != nil || len(list) != limit {
				t.Errorf("%d stored (%v); want %d", len(list), err, limit)
			}

			id := templateID(created[0])
			start = make(chan struct{})
			for i := range tries {
				errs[i] = nil
				wg.Go(func() {
					<-start
					u := newTemplate(created[0], "a", acctT0)
					u.Revision, u.Source = 2, fmt.Sprintf("writer %d", i)
					errs[i] = nodes[i%2].Templates().UpdateTemplate(ctx, u, 1)
				})
			}
			close(start)
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
		})
	}
}
