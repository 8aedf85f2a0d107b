package postgres

import (
	"errors"

	"github.com/jackc/pgx/v5/pgconn"

	"github.com/captionqa/captionqa/backend/apperr"
)

// SQLSTATE codes the store tells apart; classification goes by the code,
// never by the error text.
const (
	codeUnique     = "23505"
	codeForeignKey = "23503"
	codeCheck      = "23514"
)

func sqlState(err error) string {
	var e *pgconn.PgError
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// isUnique reports whether err is a UNIQUE or PRIMARY KEY violation.
func isUnique(err error) bool { return sqlState(err) == codeUnique }

// isForeignKey reports whether err is a FOREIGN KEY violation.
func isForeignKey(err error) bool { return sqlState(err) == codeForeignKey }

// unavailable classifies a failure to reach the database (a refused or
// lost connection, a server shutting down, too many clients) as
// [apperr.Unavailable] with details.retryAfterSeconds, so the API answers
// 503 with Retry-After rather than 500; any other error, and one already
// classified, comes back as is.
func unavailable(err error) error {
	if _, classified := apperr.As(err); err == nil || classified {
		return err
	}
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		switch pe.Code[:2] {
		case "08", "53", "57": // connection exception, insufficient resources, operator intervention
		default:
			return err
		}
	} else if !pgconn.SafeToRetry(err) && !isConnectError(err) {
		return err
	}
	return apperr.New(apperr.Unavailable, "the database cannot be reached; retry later").
		WithDetail("retryAfterSeconds", 1).Wrap(err)
}

func isConnectError(err error) bool {
	var ce *pgconn.ConnectError
	return errors.As(err, &ce)
}
