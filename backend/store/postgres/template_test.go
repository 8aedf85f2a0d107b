package postgres

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/exporttpl"
)

func testTemplate(n int, accountID string, at time.Time) *exporttpl.Template {
	return &exporttpl.Template{ID: idN(n), AccountID: accountID, Name: "t", Source: "src", JS: "js", Revision: 1,
		FilenamePattern: exporttpl.DefaultFilenamePattern, ContentType: exporttpl.DefaultContentType, CreatedAt: at, UpdatedAt: at}
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
