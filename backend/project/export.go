package project

import (
	"context"
	"errors"
	"time"
)

// Limits of an export.
const (
	// MaxExportPresets bounds the presets and templates of one export:
	// each is a full engine or script run, and the whole export counts as
	// one run of the pool.
	MaxExportPresets = 8
	// TemplatePresetPrefix starts the Preset of an artifact made by a
	// template: "template:" and the template's id.
	TemplatePresetPrefix = "template:"
	// ExportBurst and ExportBurstPerSecond are the export-operation burst
	// limit of the server's limiter: per account, bursts
	// of 10 exports, then one every 2 seconds.
	ExportBurst          = 10
	ExportBurstPerSecond = 0.5
)

// ErrPoolFull is returned, wrapped, by [ExportStore.CreateExport] when
// the daily pool has no run left: nothing was inserted.
var ErrPoolFull = errors.New("project: daily pool full")

// Export is one export of a project's timeline: a delivery file per
// preset, all made from the same revision.
type Export struct {
	ID         string // uuid
	AccountID  string
	ProjectID  string
	IRRevision int
	CreatedAt  time.Time
	Artifacts  []Artifact
	// RemainingRuns is what the account's daily pool holds after this
	// export was counted; set by [Exporter.Export] only.
	RemainingRuns int
}

// Artifact is one stored delivery file of an export.
type Artifact struct {
	ID        string // uuid
	ExportID  string
	AccountID string
	Preset    string
	// BlobKey names the bytes in the blob store; never shown to clients.
	BlobKey     string
	Filename    string
	ContentType string
	Bytes       int64
	SHA256      string // hex
	CreatedAt   time.Time
	// Verdict is what the engine found of a preset's file, set by
	// [Exporter.Export]; nil for a template's file, which the engine
	// does not check, and for an artifact read back from the store.
	Verdict *Verdict
}

// RunCount is the run an export counts against a daily pool in the same
// transaction that stores it: only an export that is stored counts.
type RunCount struct {
	Pool string
	Day  time.Time // UTC midnight
	Cap  int
}

// ExportStore is the persistence [Exporter] needs. Errors a caller may
// see come back as *apperr.Error.
type ExportStore interface {
	// CreateExport inserts e and its artifacts and adds one to count's
	// pool, in one transaction: all of it or nothing. When the pool is
	// already at its cap it inserts nothing and returns an error wrapping
	// [ErrPoolFull]. When notify is set, the same transaction records and
	// queues the export's webhook delivery if the account's webhook is
	// enabled (the outbox: an export that rolls back sends nothing, one
	// that commits is delivered even after a crash). It returns the
	// pool's new count.
	CreateExport(ctx context.Context, e *Export, count RunCount, notify bool) (used int, err error)
	// Artifact returns the account's artifact, or [apperr.NotFound] when
	// it is unknown or another account's.
	Artifact(ctx context.Context, accountID, id string) (*Artifact, error)
	// ArtifactByID returns the artifact whoever owns it (a signed link
	// names no account), or [apperr.NotFound].
	ArtifactByID(ctx context.Context, id string) (*Artifact, error)
	// DeleteExportsBefore deletes up to limit exports created before
	// before, with their artifacts, oldest first, and returns the blob
	// keys of those artifacts and how many exports it deleted.
	DeleteExportsBefore(ctx context.Context, before time.Time, limit int) (artifactKeys []string, deleted int, err error)
}

// Templates renders the account's export templates during an export
// (*exporttpl.Service).
type Templates interface {
	// Render runs the account's template on d's current timeline, preset
	// being the export's first preset ("" when it has none). It returns
	// [apperr.NotFound] for an unknown template, [apperr.ProcessingFailed]
	// when the script fails.
	Render(ctx context.Context, accountID, templateID string, d *Detail, preset string) (*Rendered, error)
}

// Rendered is a template's output for an export.
type Rendered struct {
	TemplateID   string
	TemplateName string
	Body         string
	Filename     string
	ContentType  string
}
