package postgres

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
)

func newLink(accountID string, at time.Time) *account.SignInLink {
	return &account.SignInLink{AccountID: accountID, CreatedAt: at, ExpiresAt: at.Add(15 * time.Minute)}
}

// TestUseSignInLinkRace: one link used from several nodes at once
// succeeds once.
func TestUseSignInLinkRace(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	nodes := openNodes(t, 3, nil)
	s := nodes[0].Accounts()
	checkKind(t, s.CreateAccount(ctx, newAccount("id-1", "one@example.test")), apperr.Internal)
	checkKind(t, s.CreateSignInLink(ctx, newLink("id-1", acctT0), []byte("tok")), apperr.Internal)
	errs := make([]error, 12)
	var wg sync.WaitGroup
	for i := range errs {
		n := nodes[i%len(nodes)].Accounts()
		wg.Go(func() { _, errs[i] = n.UseSignInLink(ctx, []byte("tok"), acctT0.Add(time.Minute), "$argon2id$w") })
	}
	wg.Wait()
	ok := 0
	for _, err := range errs {
		switch apperr.KindOf(err) {
		case apperr.Internal:
			if err != nil {
				t.Errorf("unexpected error: %v", err)
				continue
			}
			ok++
		case apperr.NotFound:
		default:
			t.Errorf("unexpected error: %v", err)
		}
	}
	if ok != 1 {
		t.Errorf("%d callers used the link, want 1", ok)
	}
}
