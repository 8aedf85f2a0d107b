package postgres

import (
	"context"
	"crypto/rand"
	"fmt"
)

// SharedSecret returns the 32 random bytes every node of the cluster
// derives its signing keys from, made by the first node that asks: each
// node offers its own, the first insert wins, and all read the one
// stored. Two statements, not one: a statement reads from a snapshot
// taken before it waited on another node's insert, so one statement
// could see neither its own row nor the other's. It returns
// [apperr.Unavailable] when the database cannot be reached.
func (e *engine) SharedSecret(ctx context.Context) ([]byte, bool, error) {
	offer := make([]byte, 32)
	if _, err := rand.Read(offer); err != nil {
		return nil, false, fmt.Errorf("postgres: shared secret: %w", err)
	}
	if _, err := e.pool.Exec(ctx, `INSERT INTO shared_secret(id, secret) VALUES(1, $1) ON CONFLICT (id) DO NOTHING`, offer); err != nil {
		return nil, false, unavailable(fmt.Errorf("postgres: shared secret: %w", err))
	}
	var secret []byte
	if err := e.pool.QueryRow(ctx, `SELECT secret FROM shared_secret WHERE id = 1`).Scan(&secret); err != nil {
		return nil, false, unavailable(fmt.Errorf("postgres: shared secret: %w", err))
	}
	return secret, true, nil
}
