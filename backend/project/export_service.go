package project

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/analysis"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/blob"
	"github.com/captionqa/captionqa/backend/caption/format"
	"github.com/captionqa/captionqa/backend/engine"
	"github.com/captionqa/captionqa/backend/parallel"
)

// ArtifactPrefix starts the blob key of every artifact; the orphan
// sweeper lists it.
const ArtifactPrefix = "artifacts/"

// Pool is the daily run pool an export is counted in (*quota.Service).
type Pool interface {
	// Check returns [apperr.QuotaExceeded] when pool has no run left.
	Check(ctx context.Context, pool string, cap int) error
}

// Limiter is the export-operation burst limit (*quota.Service).
type Limiter interface {
	// Allow returns [apperr.RateLimited] (details.retryAfterSeconds) when
	// key's bucket is empty.
	Allow(ctx context.Context, key string) error
}

// StorageMeter reads an account's stored bytes (*account.Service).
type StorageMeter interface {
	// Storage returns [apperr.NotFound] for an unknown account.
	Storage(ctx context.Context, accountID string) (account.Storage, error)
}

// Analyses finds the analysis of a project's media (*media.Service), so
// that an export checks the captions against the programme.
type Analyses interface {
	// ProjectMediaAnalysis returns the newest analysis of the media
	// uploaded to the account's project, nil when none was analysed.
	ProjectMediaAnalysis(ctx context.Context, accountID, projectID string) (*analysis.Analysis, error)
}

// MaxExportBytes bounds the files of one export together (docs/api.md,
// Storage): eight templates may each return 16 MiB, and an export is a
// delivery, not a store.
const MaxExportBytes = 64 << 20

// ExportRetention is how long an export and its files are kept by
// default (docs/api.md, Storage): a delivery is downloaded within days;
// what is kept longer counts against the account's storage.
const ExportRetention = 30 * 24 * time.Hour

// retentionBatch bounds the exports one round of the retention sweep
// deletes.
const retentionBatch = 200

// ExporterOptions configure an [Exporter]. All but Retention and Now are
// required.
type ExporterOptions struct {
	Projects Store
	Exports  ExportStore
	Blobs    blob.Store
	Engine   *engine.Engine
	Pool     Pool
	// Storage is checked before each file is stored, so an export past
	// the account's quota writes nothing; the store checks again in the
	// transaction that records the export.
	Storage StorageMeter
	// Limiter holds the export-operation burst limit, keyed
	// "export:"+accountID (see [ExportBurst]).
	Limiter Limiter
	// Templates renders the export templates an export names; nil
	// refuses templateIds (503 unavailable: the runtime is off).
	Templates Templates
	// Presigner, when set, sends a signed download link's client to the
	// blob store's own URL for the artifact instead of the node serving
	// the bytes ([Exporter.PresignArtifact]).
	Presigner blob.Presigner
	// Analyses, when set, finds the project's analysed media: its
	// checks (sync, speech, shot changes) then run on every preset.
	Analyses Analyses
	// EngineSlots, when set, are the engine's slots the export's preset
	// runs hold while they run (shared with the process route); its
	// templates run in the template runtime's VMs and hold none, so
	// one account's template exports cannot keep the engine from others.
	EngineSlots parallel.Slots
	// Presets resolves the presets an export or a draft check names for
	// the account (its own presets); nil resolves the built-ins only.
	Presets engine.PresetResolver
	// Retention is how long exports are kept ([Exporter.SweepExpired]);
	// 0 is [ExportRetention].
	Retention time.Duration
	Now       func() time.Time
}

// Exporter runs exports: the engine over a project's current timeline
// for each preset asked, the delivery files kept as artifacts. It is
// safe for concurrent use.
type Exporter struct {
	o ExporterOptions
}

// NewExporter returns an [Exporter]; it panics when a required option is
// missing (a wiring defect of the composition root).
func NewExporter(o ExporterOptions) *Exporter {
	if o.Projects == nil || o.Exports == nil || o.Blobs == nil || o.Engine == nil || o.Pool == nil || o.Limiter == nil || o.Storage == nil {
		panic("project: NewExporter needs Projects, Exports, Blobs, Engine, Pool, Limiter and Storage")
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Retention <= 0 {
		o.Retention = ExportRetention
	}
	return &Exporter{o: o}
}

// SweepExpired deletes the exports older than the retention with their
// artifacts, and the artifacts' bytes, in rounds of a few hundred, and
// returns how many exports it deleted. The rows go first: a sweep cut off
// by a crash leaves bytes no row names, which the orphan sweeper deletes,
// and the next sweep goes on from the rows.
func (x *Exporter) SweepExpired(ctx context.Context) (int, error) {
	before := x.now().Add(-x.o.Retention)
	done := 0
	for {
		keys, n, err := x.o.Exports.DeleteExportsBefore(ctx, before, retentionBatch)
		if err != nil {
			return done, fmt.Errorf("project: export retention: %w", err)
		}
		deleteBlobs(ctx, x.o.Blobs, keys)
		done += n
		if n < retentionBatch {
			return done, nil
		}
	}
}

// ExportInput is what [Exporter.Export] is asked.
type ExportInput struct {
	Presets []string
	// TemplateIDs name the account's export templates to render too.
	TemplateIDs []string
	FixProfile  string // "" is warn-only
	Standard    string // "" grades none
}

// Account is who an export is for: the account and its daily pool.
type Account struct {
	ID string
	// Pool names the daily pool the export is counted in, Cap its size.
	Pool string
	Cap  int
	// Notify is set when the account is entitled to the export webhook
	// (Pro): its exports are then sent to its webhook, if enabled.
	Notify bool
}

// Export runs the engine on the project's current timeline once per
// preset and each named template once, stores each file in the blob
// store, then in one
// transaction records the export with its artifacts and counts one run
// in the account's daily pool (only an export that is stored counts;
// docs/api.md, Limits and quotas). It returns:
//   - [apperr.BadRequest] with details.field "presets" (no preset or
//     template, more than [MaxExportPresets], a repeated or unknown
//     preset), "templateIds" (a repeated or unknown template),
//     "fixProfile" or "standard" for an unknown name, and the errors of
//     [Service.Get] for a bad id;
//   - [apperr.Unavailable] for templateIds when the template runtime is
//     off;
//   - [apperr.RateLimited] (details.retryAfterSeconds) past the
//     export-operation burst limit;
//   - [apperr.QuotaExceeded] when the pool is full, before any work or,
//     when it filled meanwhile, at the end (nothing is stored then);
//   - [apperr.NotFound] for an unknown project or another account's;
//   - [apperr.Conflict] with details.reason "project_empty" when the
//     project has no timeline;
//   - [apperr.ProcessingFailed] or [apperr.InputTooLarge] when the engine
//     refuses the timeline, or a template's script fails (details as
//     exporttpl's);
//   - [apperr.InputTooLarge] with details.reason "export_too_large"
//     (details.limitBytes) when the files pass [MaxExportBytes], or
//     "storage_quota" ([account.StorageFull]) when they do not fit the
//     account's storage quota; nothing is stored then.
func (x *Exporter) Export(ctx context.Context, who Account, projectID string, in ExportInput) (*Export, error) {
	reqs, err := x.validate(ctx, who.ID, in)
	if err != nil {
		return nil, err
	}
	if err := x.o.Limiter.Allow(ctx, "export:"+who.ID); err != nil {
		return nil, err
	}
	if err := x.o.Pool.Check(ctx, who.Pool, who.Cap); err != nil {
		return nil, err
	}
	id, err := checkID(projectID)
	if err != nil {
		return nil, err
	}
	d, err := x.o.Projects.ProjectIR(ctx, who.ID, id)
	if err != nil {
		return nil, notFound(err, id, "export")
	}
	if d.IRRevision == 0 {
		return nil, apperr.New(apperr.Conflict, "the project has no timeline yet to export; store one with PUT .../ir first").
			WithDetail("reason", "project_empty").WithDetail("currentIrRevision", 0)
	}
	st, err := x.o.Storage.Storage(ctx, who.ID)
	if err != nil {
		return nil, err
	}
	var programme *analysis.Analysis
	if x.o.Analyses != nil {
		if programme, err = x.o.Analyses.ProjectMediaAnalysis(ctx, who.ID, d.ID); err != nil {
			return nil, err
		}
	}
	e := &Export{ID: uuid.NewString(), AccountID: who.ID, ProjectID: d.ID, IRRevision: d.IRRevision,
		CreatedAt: x.now()}
	// The bytes go first and the rows last: a crash in between leaves
	// bytes no row names, which the sweeper deletes, never a row whose
	// bytes are missing.
	if err := x.deliver(ctx, d, e, in, reqs, st, programme); err != nil {
		x.discard(e)
		return nil, err
	}
	count := RunCount{Pool: who.Pool, Day: dayOf(e.CreatedAt), Cap: who.Cap}
	used, err := x.o.Exports.CreateExport(ctx, e, count, who.Notify)
	if err != nil {
		x.discard(e)
		if errors.Is(err, ErrPoolFull) {
			// Filled while this export ran: Check words the refusal.
			if cerr := x.o.Pool.Check(ctx, who.Pool, who.Cap); cerr != nil {
				return nil, cerr
			}
			return nil, apperr.New(apperr.QuotaExceeded, "the daily limit of %d successful runs is reached", who.Cap).Wrap(err)
		}
		if _, ok := apperr.As(err); ok {
			return nil, err
		}
		return nil, fmt.Errorf("project: export %s: %w", id, err)
	}
	e.RemainingRuns = max(who.Cap-used, 0)
	return e, nil
}

// validate checks the names before any work, so a bad request costs
// nothing, and returns one engine request per preset, each resolved for
// the account.
func (x *Exporter) validate(ctx context.Context, accountID string, in ExportInput) ([]engine.Request, error) {
	bad := func(msg string, args ...any) *apperr.Error {
		return apperr.New(apperr.BadRequest, msg, args...).WithDetail("field", "presets")
	}
	switch {
	case len(in.Presets)+len(in.TemplateIDs) == 0:
		return nil, bad("presets: name at least one preset or template")
	case len(in.Presets)+len(in.TemplateIDs) > MaxExportPresets:
		return nil, bad("presets: at most %d presets and templates per export", MaxExportPresets)
	case len(in.TemplateIDs) > 0 && x.o.Templates == nil:
		return nil, apperr.New(apperr.Unavailable, "the export template runtime is off on this server")
	}
	tpl := map[string]bool{}
	for _, id := range in.TemplateIDs {
		if id == "" || tpl[id] {
			return nil, apperr.New(apperr.BadRequest, "templateIds: %q is empty or named twice", id).WithDetail("field", "templateIds")
		}
		tpl[id] = true
	}
	seen := map[string]bool{}
	var reqs []engine.Request
	for _, p := range in.Presets {
		if p == "" || seen[p] {
			return nil, bad("presets: %q is empty or named twice", p)
		}
		seen[p] = true
		req := engine.Request{Preset: p, FixProfile: in.FixProfile, Standard: in.Standard}
		err := x.resolvePreset(ctx, accountID, &req)
		if err == nil {
			err = x.o.Engine.Validate(req)
		}
		if ae, ok := apperr.As(err); ok && ae.Details["field"] == "preset" {
			return nil, bad("presets: %s", strings.TrimPrefix(ae.Message, "preset: ")).Wrap(err)
		}
		if err != nil {
			return nil, err
		}
		reqs = append(reqs, req)
	}
	return reqs, nil
}

// resolvePreset resolves req's preset for the account through
// [ExporterOptions.Presets], when there is one.
func (x *Exporter) resolvePreset(ctx context.Context, accountID string, req *engine.Request) error {
	if x.o.Presets == nil {
		return nil
	}
	return x.o.Presets.Resolve(ctx, accountID, req)
}

// deliver runs the engine per preset, then each template, and puts each
// file in the blob store, filling e.Artifacts; the runs check against
// programme, the project's analysed media (nil: none). A file that would take the
// export past [MaxExportBytes] or the account past st's quota ends it
// before it is stored. The runs are sequential: each already
// uses several cores, and they hold one of [ExporterOptions.EngineSlots]. A
// file's put (a durable write: it waits on the disk) overlaps the next
// preset's run; deliver returns once every put it started has ended, so
// a failed export leaves nothing in flight for discard to miss.
func (x *Exporter) deliver(ctx context.Context, d *Detail, e *Export, in ExportInput, reqs []engine.Request, st account.Storage, programme *analysis.Analysis) error {
	ir := []byte(d.IR)
	base := FileBase(d.Name)
	puts := make(chan error, len(in.Presets)+len(in.TemplateIDs))
	started := 0
	var runErr error
	var total int64
	// put records a and starts storing its bytes, unless they do not fit.
	put := func(a Artifact, output string) {
		n := int64(len(output))
		switch {
		case total+n > MaxExportBytes:
			runErr = apperr.New(apperr.InputTooLarge, "the export's files pass %d bytes together; name fewer presets or templates", MaxExportBytes).
				WithDetail("reason", "export_too_large").WithDetail("limitBytes", MaxExportBytes)
			return
		case !st.Fits(total + n):
			runErr = account.StorageFull(st, total+n)
			return
		}
		total += n
		a.Bytes = n
		sum := sha256.Sum256([]byte(output))
		a.SHA256 = hex.EncodeToString(sum[:])
		e.Artifacts = append(e.Artifacts, a)
		started++
		go func() {
			if _, err := x.o.Blobs.Put(ctx, a.BlobKey, strings.NewReader(output), a.Bytes); err != nil {
				puts <- fmt.Errorf("project: export %s: store %s: %w", e.ID, a.Preset, err)
				return
			}
			puts <- nil
		}()
	}
	if x.o.EngineSlots != nil && len(in.Presets) > 0 {
		if err := x.o.EngineSlots.Take(ctx); err != nil {
			return err
		}
	}
	for _, req := range reqs {
		p := req.Preset
		req.Filename, req.From, req.Data, req.Media = "timeline.json", format.JSON, ir, programme
		res, err := x.o.Engine.Process(ctx, req)
		if err != nil {
			runErr = err
			break
		}
		ext, ctype := FileType(res.Report.OutputFormat)
		put(Artifact{ID: uuid.NewString(), ExportID: e.ID, AccountID: e.AccountID, Preset: p,
			BlobKey: ArtifactPrefix + e.ID + "/" + p + "." + ext, Filename: base + "-" + p + "." + ext,
			ContentType: ctype, CreatedAt: e.CreatedAt, Verdict: verdictOf(res)}, res.Output)
		if runErr != nil {
			break
		}
	}
	if x.o.EngineSlots != nil && len(in.Presets) > 0 {
		x.o.EngineSlots.Give()
	}
	if runErr == nil {
		for _, id := range in.TemplateIDs {
			out, err := x.render(ctx, d, e.AccountID, id, in.Presets)
			if err != nil {
				runErr = err
				break
			}
			put(Artifact{ID: uuid.NewString(), ExportID: e.ID, AccountID: e.AccountID, Preset: TemplatePresetPrefix + out.TemplateID,
				BlobKey: ArtifactPrefix + e.ID + "/template-" + out.TemplateID, Filename: out.Filename,
				ContentType: out.ContentType, CreatedAt: e.CreatedAt}, out.Body)
			if runErr != nil {
				break
			}
		}
	}
	for range started {
		if err := <-puts; err != nil && runErr == nil {
			runErr = err
		}
	}
	return runErr
}

// render runs one template of an export, its ctx.preset the export's
// first preset. An unknown template is the request's fault: 400 on
// templateIds.
func (x *Exporter) render(ctx context.Context, d *Detail, accountID, id string, presets []string) (*Rendered, error) {
	preset := ""
	if len(presets) > 0 {
		preset = presets[0]
	}
	out, err := x.o.Templates.Render(ctx, accountID, id, d, preset)
	if apperr.KindOf(err) == apperr.NotFound {
		return nil, apperr.New(apperr.BadRequest, "templateIds: no export template %q", id).
			WithDetail("field", "templateIds").WithDetail("reason", "unknown_template").Wrap(err)
	}
	return out, err
}

// discard deletes the bytes of an export that will not be recorded. It
// is best effort, on its own context (the request's may be done): what
// it misses the orphan sweeper deletes.
func (x *Exporter) discard(e *Export) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, a := range e.Artifacts {
		_ = x.o.Blobs.Delete(ctx, a.BlobKey)
	}
}

// Artifact returns the account's artifact: [apperr.BadRequest]
// (details.field "artifactId") for an id that is not a UUID,
// [apperr.NotFound] when it is unknown or another account's.
func (x *Exporter) Artifact(ctx context.Context, accountID, id string) (*Artifact, error) {
	u, err := uuid.Parse(id)
	if err != nil || len(id) != 36 {
		return nil, apperr.New(apperr.BadRequest, "the artifact id must be a UUID").
			WithDetail("field", "artifactId").WithDetail("reason", "invalid_uuid")
	}
	a, err := x.o.Exports.Artifact(ctx, accountID, u.String())
	if err != nil {
		return nil, artifactNotFound(err)
	}
	return a, nil
}

// OpenArtifact returns the artifact id (whoever owns it: the caller has
// checked a signed link) and a reader of its bytes that seeks by ranged
// gets, for http.ServeContent. It returns [apperr.NotFound] when the
// artifact or its bytes are gone. Close the reader.
func (x *Exporter) OpenArtifact(ctx context.Context, id string) (*Artifact, *blob.Reader, error) {
	a, err := x.o.Exports.ArtifactByID(ctx, id)
	if err != nil {
		return nil, nil, artifactNotFound(err)
	}
	return a, blob.NewReader(ctx, x.o.Blobs, a.BlobKey, a.Bytes), nil
}

// PresignArtifact returns the blob store's own URL for artifact id (whoever
// owns it: the caller has checked a signed link), valid until until, or
// "" when the exporter has no [ExporterOptions.Presigner] (the node serves
// the bytes: [Exporter.OpenArtifact]). It returns [apperr.NotFound] when
// the artifact is gone.
func (x *Exporter) PresignArtifact(ctx context.Context, id string, until time.Time) (string, error) {
	if x.o.Presigner == nil {
		return "", nil
	}
	a, err := x.o.Exports.ArtifactByID(ctx, id)
	if err != nil {
		return "", artifactNotFound(err)
	}
	ttl := min(max(until.Sub(x.o.Now()), time.Second), 7*24*time.Hour)
	return x.o.Presigner.PresignGet(ctx, a.BlobKey, ttl, a.Filename)
}

func artifactNotFound(err error) error {
	if apperr.KindOf(err) == apperr.NotFound {
		return apperr.New(apperr.NotFound, "artifact not found").Wrap(err)
	}
	return err
}

func (x *Exporter) now() time.Time { return x.o.Now().UTC().Truncate(time.Second) }

// dayOf is the UTC midnight that starts t's day, as package quota counts.
func dayOf(t time.Time) time.Time {
	t = t.UTC()
	return time.Date(t.Year(), t.Month(), t.Day(), 0, 0, 0, 0, time.UTC)
}

// FileType returns the file extension and media type of a delivery in
// caption format f: those of format.Extension and format.ContentType for
// a format CaptionQA writes (EBU-TT-D is .xml, EBU STL .stl and binary),
// text for anything else.
func FileType(f string) (ext, contentType string) {
	if !slices.Contains(format.Writable(), f) {
		return "txt", "text/plain; charset=utf-8"
	}
	return strings.TrimPrefix(format.Extension(f), "."), format.ContentType(f)
}

// FileBase makes a download file name's stem from a project name: its
// letters, digits, dots and dashes, the rest as dashes, at most 60; a
// name with none gives "captions".
func FileBase(name string) string {
	var b strings.Builder
	for _, r := range name {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '.', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
		if b.Len() >= 60 {
			break
		}
	}
	s := strings.Trim(b.String(), "-.")
	if s == "" {
		return "captions"
	}
	return s
}
