package exporttpl

import "context"

// Store is the persistence [Service] needs. Errors a caller may see come
// back as *apperr.Error; a template of another account is
// [apperr.NotFound], as an unknown one is. Times are UTC, whole seconds.
type Store interface {
	// CreateTemplate inserts t unless the account holds max templates
	// already: then it inserts nothing and returns an error wrapping
	// [ErrTooManyTemplates]. [apperr.NotFound] when the account is
	// unknown.
	CreateTemplate(ctx context.Context, t *Template, max int) error
	// ListTemplates returns the account's templates, newest first,
	// without Source and JS.
	ListTemplates(ctx context.Context, accountID string) ([]Template, error)
	// Template returns the account's template, or [apperr.NotFound].
	Template(ctx context.Context, accountID, id string) (*Template, error)
	// UpdateTemplate stores t (its Revision already the new one) if the
	// stored revision is base, or returns a *[StaleRevisionError], or
	// [apperr.NotFound].
	UpdateTemplate(ctx context.Context, t *Template, base int) error
	// DeleteTemplate deletes the account's template, or returns
	// [apperr.NotFound].
	DeleteTemplate(ctx context.Context, accountID, id string) error
}
