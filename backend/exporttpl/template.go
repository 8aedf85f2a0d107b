package exporttpl

import (
	"errors"
	"fmt"
	"time"
)

// Defaults and limits of a template.
const (
	DefaultFilenamePattern = "{project}-{template}.txt"
	DefaultContentType     = "text/plain; charset=utf-8"
	// MaxTemplates bounds an account's templates (docs/templates.md, The
	// sandbox).
	MaxTemplates = 100
	// MaxNameLen bounds a template's name, as other names.
	MaxNameLen = 100
	// maxPatternLen bounds the file name pattern and the content type.
	maxPatternLen = 200
)

// Template is an account's export template.
type Template struct {
	ID        string // uuid
	AccountID string
	Name      string
	// Source is the script as its author wrote it; JS what the runtime
	// runs, compiled from it when it was saved.
	Source string
	JS     string
	// Revision counts the saves, from 1: an update names the revision
	// it changes (optimistic locking).
	Revision int
	// FilenamePattern names the output file: {project}, {template} and
	// {revision} are replaced. ContentType is the output's type. A
	// script's own filename and contentType win.
	FilenamePattern string
	ContentType     string
	CreatedAt       time.Time
	UpdatedAt       time.Time
}

// ErrTooManyTemplates is returned, wrapped, by [Store.CreateTemplate]
// when the account already holds its most templates.
var ErrTooManyTemplates = errors.New("exporttpl: too many templates")

// StaleRevisionError is returned by [Store.UpdateTemplate] when the
// template's revision is not the one the update names.
type StaleRevisionError struct {
	Current int
}

func (e *StaleRevisionError) Error() string {
	return fmt.Sprintf("exporttpl: stale revision: current is %d", e.Current)
}
