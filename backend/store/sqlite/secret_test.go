package sqlite

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/account"
)

// TestOnlyTheHashIsStored reads every column of the key's row and checks
// that the secret appears nowhere, only its SHA-256.
func TestOnlyTheHashIsStored(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := openTemp(t, filepath.Join(t.TempDir(), "h.db"))
	svc := account.NewService(db.Accounts(), account.Options{})
	a, err := svc.CreateAccount(ctx, account.NewAccount{Email: "h@example.test", Tier: account.TierPro})
	if err != nil {
		t.Fatal(err)
	}
	k, secret, err := svc.CreateKey(ctx, a.ID, account.NewKey{Name: "n", Scopes: []string{account.ScopeKeysRead}})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := db.read.Query(`SELECT * FROM api_keys WHERE id = ?`, k.ID)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	if !rows.Next() {
		t.Fatal("key row missing")
	}
	vals := make([]any, len(cols))
	ptrs := make([]any, len(cols))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	if err := rows.Scan(ptrs...); err != nil {
		t.Fatal(err)
	}
	body := secret[len(k.Prefix)+1:]
	sum := sha256.Sum256([]byte(secret))
	for i, v := range vals {
		if b, ok := v.([]byte); ok && cols[i] == "hash" {
			if !bytes.Equal(b, sum[:]) {
				t.Errorf("hash column is not SHA-256 of the secret")
			}
			continue
		}
		if s := fmt.Sprint(v); strings.Contains(s, body) {
			t.Errorf("column %s holds the secret", cols[i])
		}
	}
}
