// Package httpapi is the HTTP adapter of CaptionQA: the echo v4 router of
// the localhost v1 API (docs/api.md), its middleware (request ids, logs,
// size guard, Bearer authentication, scopes, entitlements, burst limits),
// the homepage converter with its browser guards, dashboard sessions
// (cookie and CSRF token), the desktop window's trusted path and the
// DNS-rebinding Host check, the browser UI, and the one table that
// maps [apperr.Kind] to an HTTP status. Handlers are thin: they bind input,
// call one service method and render a wire type from a dto_*.go file.
// It knows nothing of SQL: the composition root (package server) hands it
// the services.
package httpapi

import (
	"context"
	"crypto/rand"
	"io/fs"
	"log/slog"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/engine"
	"github.com/captionqa/captionqa/backend/explain/grant"
	"github.com/captionqa/captionqa/backend/exporttpl"
	"github.com/captionqa/captionqa/backend/media"
	"github.com/captionqa/captionqa/backend/parallel"
	"github.com/captionqa/captionqa/backend/project"
	"github.com/captionqa/captionqa/backend/quota"
	"github.com/captionqa/captionqa/backend/userpreset"
	"github.com/captionqa/captionqa/backend/video"
	"github.com/captionqa/captionqa/backend/webhook"
)

// Defaults of [Options].
const (
	// DefaultMaxRequestBytes bounds a process request: about 4.25 MiB
	// (docs/security.md, Limits), refused from the declared
	// Content-Length before the body is read.
	DefaultMaxRequestBytes = 4_456_448
	// DefaultMaxJSONBytes bounds a JSON request body.
	DefaultMaxJSONBytes = 64 << 10
	// DefaultAnonDailyCap is the homepage converter's daily cap per
	// anonymous client (docs/api.md, The homepage converter).
	DefaultAnonDailyCap = 5
)

// Options configures the API. Accounts, Quota, Engine, Presets and
// PresetSchemaJSON are required.
type Options struct {
	Accounts *account.Service
	Quota    *quota.Service
	Engine   *engine.Engine
	// Projects serves the project routes; nil answers them 503
	// unavailable: the backing store is not configured.
	Projects *project.Service
	// Exports runs exports and finds artifacts, and Links signs their
	// download links; either nil answers the export and artifact routes
	// 503 unavailable.
	Exports *project.Exporter
	Links   *project.LinkSigner
	// Webhooks serves the webhook routes; nil answers them 503
	// unavailable.
	Webhooks *webhook.Service
	// Templates serves the export-template routes; nil (the runtime is
	// off) answers them 503 unavailable.
	Templates *exporttpl.Service
	// Presets serves the preset routes and resolves the preset a process
	// request names for its account (required).
	Presets *userpreset.Service
	// PresetSchemaJSON is the JSON Schema of a preset file, served at
	// GET /api/v1/preset-v1.schema.json (required).
	PresetSchemaJSON []byte
	// Media serves the media upload routes and Videos the job routes;
	// nil (no ffmpeg on this deployment) answers them 503 unavailable.
	Media  *media.Service
	Videos *video.Service
	// Explain grants and writes ExplainAI explanations; nil has ExplainAI
	// turned off (not_configured, 503 on POST /api/v1/explain).
	Explain *grant.Service
	// Logger receives one line per request and every internal error; nil
	// discards.
	Logger *slog.Logger
	// Now is the clock; nil is time.Now.
	Now func() time.Time
	// Ready reports whether the backing store answers (GET /readyz); nil
	// is always ready.
	Ready func(ctx context.Context) error
	// OpenAPIJSON is the contract served at GET /api/v1/openapi.json; nil
	// answers 503 unavailable.
	OpenAPIJSON []byte
	// ReportFont is the Unicode TrueType font QC reports in PDF are drawn
	// with (the binary embeds DejaVu Sans); nil answers format=pdf 503
	// unavailable.
	ReportFont []byte
	// MaxRequestBytes bounds process requests; 0 is [DefaultMaxRequestBytes].
	MaxRequestBytes int64
	// AnonDailyCap is the homepage converter's cap; 0 is [DefaultAnonDailyCap].
	AnonDailyCap int
	// MaxUploads and MaxUploadsPerClient bound the process requests in
	// flight, overall (503 unavailable beyond it) and per client (429
	// rate_limited); 0 is [DefaultMaxUploads], [DefaultMaxUploadsPerClient].
	MaxUploads, MaxUploadsPerClient int
	// BodyTimeout is how long a request body may take to arrive; 0 is
	// [DefaultBodyTimeout].
	BodyTimeout time.Duration
	// MinPartRate is the slowest a media part may arrive, in bytes a
	// second on average, once PartRateGrace has passed; 0 is
	// [DefaultMinPartRate] and [DefaultPartRateGrace].
	MinPartRate   int64
	PartRateGrace time.Duration
	// MaxEngineRuns bounds the engine runs at once, the rest wait their
	// turn; 0 is the number of CPUs Go may use (GOMAXPROCS).
	MaxEngineRuns int
	// EngineSlots, when set, are the engine's slots instead (shared with
	// the exporter, whose preset runs take them too); MaxEngineRuns is
	// then unused.
	EngineSlots parallel.Slots
	// CSRFKey signs the homepage converter's CSRF tokens; nil draws a
	// random key, so tokens die with the process.
	CSRFKey []byte
	// OwnerAccountID is the account a request through [TrustLocal] (the
	// desktop window) acts as; empty refuses such requests 401.
	OwnerAccountID string
	// AllowedHosts are Host names accepted besides the loopback names
	// (localhost, 127.0.0.1, ::1), such as the configured listen host.
	// Any other Host is refused 403 (DNS-rebinding guard).
	AllowedHosts []string
	// Metrics receives request, engine, upload and refusal measurements;
	// nil discards them.
	Metrics Metrics
	// AnonSalt salts the hash that names an anonymous client's quota pool,
	// so the stored pool ids cannot be reversed to addresses by hashing
	// every IPv4 address; a per-install secret. nil draws a random salt,
	// which resets anonymous pools with the process.
	AnonSalt []byte
	// UI is the built browser UI (index.html and its assets), served at /
	// and every path no route claims; nil, or no index.html, serves a
	// plain "UI not built" page.
	UI fs.FS
}

// handler holds what the handlers share.
type handler struct {
	// scopeRoutes holds, by scope, the access of every v1 route that needs
	// it (routes fills it): what a new key's scopes are checked against.
	scopeRoutes map[string][]access
	// partsByUpload and partsByClient count media part PUTs at once;
	// minPartRate and partRateGrace bound how slowly one may arrive
	// ([handler.partLimits]).
	partsByUpload, partsByClient *parallel.InFlight
	minPartRate                  int64
	partRateGrace                time.Duration
	accounts                     *account.Service
	quota                        *quota.Service
	engine                       *engine.Engine
	projects                     *project.Service
	exports                      *project.Exporter
	webhooks                     *webhook.Service
	templates                    *exporttpl.Service
	presets                      *userpreset.Service
	presetSchemaJSON             []byte
	media                        *media.Service
	videos                       *video.Service
	explainer                    *grant.Service
	links                        *project.LinkSigner
	log                          *slog.Logger
	now                          func() time.Time
	ready                        func(ctx context.Context) error
	openapi                      []byte
	reportFont                   []byte
	maxRequest                   int64
	anonCap                      int
	anonSalt                     []byte
	uploads                      *uploadGate
	bodyTime                     time.Duration
	engineRuns                   parallel.Slots
	metrics                      Metrics
	csrf                         csrfSigner
	ownerID                      string
	hosts                        map[string]bool
	methods                      routeMethods
	ui                           fs.FS
}

// New returns the API's router. It panics if a required service is nil:
// that is a wiring defect of the composition root.
func New(opts Options) *echo.Echo {
	if opts.Accounts == nil || opts.Quota == nil || opts.Engine == nil || opts.Presets == nil || opts.PresetSchemaJSON == nil {
		panic("httpapi: New needs Accounts, Quota, Engine, Presets and PresetSchemaJSON")
	}
	h := &handler{
		accounts: opts.Accounts, quota: opts.Quota, engine: opts.Engine, projects: opts.Projects,
		exports: opts.Exports, links: opts.Links, webhooks: opts.Webhooks,
		templates: opts.Templates, presets: opts.Presets, presetSchemaJSON: opts.PresetSchemaJSON, media: opts.Media, videos: opts.Videos, explainer: opts.Explain,
		log: opts.Logger, now: opts.Now, ready: opts.Ready, openapi: opts.OpenAPIJSON,
		reportFont: opts.ReportFont,
		maxRequest: opts.MaxRequestBytes, anonCap: opts.AnonDailyCap,
		ownerID: opts.OwnerAccountID, hosts: allowedHosts(opts.AllowedHosts), ui: opts.UI,
	}
	if h.log == nil {
		h.log = slog.New(slog.DiscardHandler)
	}
	if h.explainer == nil {
		h.explainer = grant.New(grant.Options{Quota: opts.Quota})
	}
	if h.now == nil {
		h.now = time.Now
	}
	if h.maxRequest <= 0 {
		h.maxRequest = DefaultMaxRequestBytes
	}
	if h.anonCap <= 0 {
		h.anonCap = DefaultAnonDailyCap
	}
	h.uploads = newUploadGate(opts.MaxUploads, opts.MaxUploadsPerClient)
	h.partsByUpload, h.partsByClient = parallel.NewInFlight(MaxPartPutsPerUpload), parallel.NewInFlight(MaxPartPutsPerClient)
	if h.minPartRate = opts.MinPartRate; h.minPartRate <= 0 {
		h.minPartRate = DefaultMinPartRate
	}
	if h.partRateGrace = opts.PartRateGrace; h.partRateGrace <= 0 {
		h.partRateGrace = DefaultPartRateGrace
	}
	if h.bodyTime = opts.BodyTimeout; h.bodyTime <= 0 {
		h.bodyTime = DefaultBodyTimeout
	}
	if h.engineRuns = opts.EngineSlots; h.engineRuns == nil {
		h.engineRuns = parallel.NewSlots(opts.MaxEngineRuns)
	}
	if h.metrics = opts.Metrics; h.metrics == nil {
		h.metrics = noMetrics{}
	}
	h.csrf = csrfSigner{key: secretOr(opts.CSRFKey)}
	h.anonSalt = secretOr(opts.AnonSalt)

	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	// A localhost appliance has no trusted proxy: the peer address is the
	// client, and X-Forwarded-For cannot buy an anonymous client more runs.
	e.IPExtractor = echo.ExtractIPDirect()
	e.HTTPErrorHandler = h.handleError
	h.routes(e)
	h.methods = newRouteMethods(e.Routes())
	return e
}

// secretOr returns key, or 32 random bytes when it is empty.
func secretOr(key []byte) []byte {
	if len(key) > 0 {
		return key
	}
	key = make([]byte, 32)
	_, _ = rand.Read(key) // crypto/rand.Read never fails (Go 1.24+)
	return key
}
