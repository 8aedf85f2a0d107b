// Package server is CaptionQA's composition root: it makes the data
// folder private, opens the SQLite database and the per-install secret
// in it, builds the services (account, quota, engine), creates the owner
// account on first start, wires them into the HTTP API (the TCP
// listener's [Server.Handler], guarded by a Host check, and the desktop
// window's trusted [Server.DesktopHandler]) and runs the listener, over
// TLS when given a certificate, and the optional Prometheus metrics
// listener, with a graceful shutdown. Nothing else knows how the pieces
// fit.
package server

import (
	"errors"
	"io/fs"
	"log/slog"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/engine"
	"github.com/captionqa/captionqa/backend/httpapi"
	"github.com/captionqa/captionqa/backend/quota"
	"github.com/captionqa/captionqa/backend/store"
	"github.com/captionqa/captionqa/backend/webhook"
)

// Defaults of [Config].
const (
	DefaultAddr       = "127.0.0.1:8787"
	DefaultOwnerEmail = "owner@localhost"
	// DBFile is the database's name inside the data folder.
	DBFile = "captionqa.db"
	// InstallKeyFile holds the per-install secret inside the data folder.
	InstallKeyFile = "install.key"
)

// Config is everything the server needs; [DefaultConfig] fills it, flags
// and the environment adjust it (in package cli), tests set what they
// need. Zero numeric fields take the documented defaults of the package
// that owns them.
type Config struct {
	// Addr is the listen address, HOST:PORT; port 0 picks a free port.
	Addr string
	// DataDir holds the SQLite database (captionqa.db) and the
	// per-install secret (install.key); Open makes it private to the
	// user (folders 0700, files 0600).
	DataDir string
	// OwnerEmail names the owner account created on first start.
	OwnerEmail string
	// Logger receives structured logs; nil discards them.
	Logger *slog.Logger
	// Now is the clock of every service; nil is time.Now. Tests inject a
	// fake clock here.
	Now func() time.Time

	// MaxRequestBytes bounds a process request's declared and actual size
	// (default 4,456,448: 400 payload_too_large above it).
	MaxRequestBytes int64
	// MaxInputBytes bounds the caption file the engine accepts (default
	// 4,456,448: 413 payload_too_large above it).
	MaxInputBytes int
	// AnonDailyCap is the homepage converter's daily cap per anonymous
	// client (default 5).
	AnonDailyCap int
	// MaxUploads and MaxUploadsPerClient bound the process requests whose
	// bodies are being received, overall (503 unavailable beyond it) and
	// per client (429 rate_limited); 0 takes httpapi's defaults.
	MaxUploads, MaxUploadsPerClient int
	// BodyTimeout is how long a request body may take to arrive; 0 takes
	// httpapi's default.
	BodyTimeout time.Duration
	// MinPartRate and PartRateGrace: the slowest a media part may arrive
	// (bytes a second, on average, once the grace has passed); 0 takes
	// httpapi's defaults.
	MinPartRate   int64
	PartRateGrace time.Duration
	// MaxEngineRuns bounds the engine runs at once; 0 is GOMAXPROCS.
	MaxEngineRuns int
	// ProDailyCap is the daily cap given to new pro accounts and to the
	// owner when it is first created (default 1,000, at most 9,999).
	ProDailyCap int
	// DefaultKeyTTL is the lifetime of a key created without an expiry
	// (default 90 days).
	DefaultKeyTTL time.Duration
	// BurstPerSecond and Burst are the per-key burst limit (default 5 a
	// second sustained, bursts of 20).
	BurstPerSecond float64
	Burst          int
	// LoginFreeFailures is how many wrong passwords an account may get
	// from one address before each further one pauses sign-in to that
	// account from that address (default 5); LoginMaxPause bounds the
	// pause, which starts at one second and doubles (default 4 s).
	LoginFreeFailures int
	LoginMaxPause     time.Duration
	// SessionTTL is the lifetime of a dashboard session (default 12 h).
	SessionTTL time.Duration
	// AllowedHosts are Host names the TCP listener accepts besides the
	// loopback names and the host of Addr, such as the appliance's
	// name on the LAN. Any other Host gets 403 (DNS-rebinding guard).
	AllowedHosts []string
	// TLSCertFile and TLSKeyFile, both or neither, make the listener
	// serve HTTPS (TLS 1.2 or later) with this PEM certificate chain and
	// key; session cookies are then Secure. Neither serves plain HTTP,
	// meant for loopback: on any other address Listen logs a warning.
	TLSCertFile string
	TLSKeyFile  string
	// MetricsAddr, HOST:PORT, starts a second listener serving only
	// GET /metrics (Prometheus, plain HTTP, no authentication: keep it on
	// loopback or a private network); empty has no metrics at all.
	MetricsAddr string
	// BusyTimeout is how long a write waits for a write lock another
	// process holds before failing 503 unavailable (default 5 s).
	BusyTimeout time.Duration
	// WebhookCAFile names a PEM file of CA certificates that webhook
	// receivers' certificates may chain to, besides the system's roots
	// (an on-prem receiver with a private CA). Certificates are always
	// checked.
	WebhookCAFile string
	// WebhookTimeout bounds one delivery attempt (default 10 s).
	WebhookTimeout time.Duration
	// WebhookAllow names prefixes deliveries may connect to whatever
	// their class, and WebhookAllowPrivate opens the private ranges: by
	// default loopback, link-local, unspecified, multicast and private
	// addresses are refused at dial time (docs/webhooks.md,
	// Destinations). Tests allow loopback for their receivers.
	WebhookAllow        []netip.Prefix
	WebhookAllowPrivate bool
	// WebhookSchedule is the retry schedule of deliveries; zero is
	// webhook.DefaultSchedule() (10 s doubling to an hour, for 3 days).
	// Tests shorten it.
	WebhookSchedule webhook.Schedule
	// WebhookPerAccount bounds the delivery attempts of one account a
	// process makes at once (default webhook.DefaultPerAccount, 2): a
	// receiver that never answers holds no more delivery workers than
	// that, and another account's deliveries go on (docs/webhooks.md,
	// Delivery queue).
	WebhookPerAccount int
	// WebhookBreakerFailures failed attempts in a row to one URL (default
	// webhook.DefaultBreakerFailures, 5) open its circuit: no attempt to
	// it for WebhookBreakerCoolDown (default 1 minute), then one probe.
	// Both limits are per process.
	WebhookBreakerFailures int
	WebhookBreakerCoolDown time.Duration
	// TemplatesOff turns the export-template runtime off: every template
	// route answers 503 unavailable and exports refuse templateIds.
	TemplatesOff bool
	// TemplateRunTimeout bounds one run of a template's script (default
	// 10 s). Tests shorten it.
	TemplateRunTimeout time.Duration
	// TemplateRunsPerAccount bounds the template VMs one account has at
	// once, compiling or running (default exporttpl.DefaultRunsPerAccount,
	// 1), so one account's loops cannot queue everyone else's runs behind
	// them. TemplateQueueWait is how long a call waits for its account's
	// VM, and then for a free VM of the server, before it is answered 429
	// rate_limited or 503 unavailable (default 2 s each).
	TemplateRunsPerAccount int
	TemplateQueueWait      time.Duration
	// TemplateCPUBudget is the VM time one account's failed and timed-out
	// template calls may take in a rolling TemplateCPUWindow before its
	// next ones are answered 429 rate_limited (defaults 60 s in 10
	// minutes; a negative budget is none). Both counts are kept per
	// server process (docs/templates.md, Limits).
	TemplateCPUBudget, TemplateCPUWindow time.Duration
	// ExportRetention is how long exports and their files are kept
	// (default 30 days, [project.ExportRetention]; docs/api.md, Storage).
	ExportRetention time.Duration
	// VideoOff turns media uploads and video jobs off: their routes
	// answer 503 unavailable. They are also off when ffmpeg is missing.
	VideoOff bool
	// FFmpegPath and FFprobePath name the binaries (default: looked up
	// on PATH).
	FFmpegPath, FFprobePath string
	// VideoWorkers bounds the video jobs that decode or encode at once
	// (burn-in; default half the cores, at least 1). Stream copies and
	// sidecars run one at a time beside them.
	VideoWorkers int
	// VideoStaleAfter is how long a running job's heartbeat may be silent
	// before the job is taken for one whose process died and is run again
	// (default video.StaleAfter, 30 s); the rescuer looks twice as often.
	// Tests that kill servers on purpose shorten it.
	VideoStaleAfter time.Duration
	// FFmpegMemoryLimit is the address space (bytes) ffmpeg and ffprobe
	// may map on media (default ffmpeg.DefaultMemoryLimit, 2 GiB), and
	// TesseractMemoryLimit tesseract's (default 1 GiB); negative sets
	// none. A job over it fails with memory_limit (docs/security.md).
	FFmpegMemoryLimit, TesseractMemoryLimit int64
	// VideoJobsPerAccount is how many video jobs of one account run at
	// once in this process (default video.PerAccount, 1); the account's
	// next job waits without taking a worker from another account.
	VideoJobsPerAccount int
	// MaxMediaBytes is the largest media upload (default 8 GiB).
	MaxMediaBytes int64
	// MaxMediaSeconds, MaxPicturePixels and MaxFrameRate bound the media
	// complete accepts: its duration (default 4 hours), a video stream's
	// width times height (default 4096x2304) and frame rate (default 120
	// fps); zero takes the default (docs/media.md, Limits).
	MaxMediaSeconds  float64
	MaxPicturePixels int
	MaxFrameRate     float64
	// ExplainOff turns ExplainAI off: process results say
	// not_configured and POST /api/v1/explain answers 503 unavailable.
	ExplainOff bool
	// ExplainEndpoint, when set, is the base URL of an OpenAI-compatible
	// endpoint on the local network (llama.cpp's server, Ollama, vLLM)
	// whose ExplainModel rewrites the built-in explainer's prose; empty
	// keeps the built-in text. ExplainAPIKey is sent as its Bearer token
	// when set.
	ExplainEndpoint, ExplainModel, ExplainAPIKey string
	// ExplainTimeout bounds the model's answer, after which the built-in
	// text is used (default 20 s).
	ExplainTimeout time.Duration
	// ExplainDailyCap is the explanations an account may have per UTC
	// day (default 500).
	ExplainDailyCap int
	// JobPollInterval is how often an idle job queue looks for work
	// (default 1 s). Tests shorten it.
	JobPollInterval time.Duration
	// UI is the browser UI served at /; nil is the embedded build
	// (frontend.Dist). Tests put an fstest.MapFS here.
	UI fs.FS
	// ShutdownTimeout bounds the graceful shutdown (default 10 s).
	ShutdownTimeout time.Duration

	// Store is the store's URL: a postgres:// URL puts every store in
	// that PostgreSQL database, shared by the nodes of a cluster; empty
	// is the SQLite file DataDir/captionqa.db.
	Store string
	// Blobs is the blob store's URL: s3://BUCKET?endpoint=URL&region=R
	// keeps media and artifacts in an S3-compatible store (see
	// openBlobURL); empty is the data folder's blobs folder.
	Blobs string
	// Role is what this node does: RoleAll (default) serves the API and
	// works jobs, RoleAPI only serves, RoleWorker only works jobs (and
	// answers /healthz and /readyz).
	Role string

	// DB is an already open store to use instead of opening Store or
	// DataDir/captionqa.db; the server does not close it, and draws a
	// random per-install secret instead of reading DataDir/install.key
	// unless the store keeps a shared one. For tests.
	DB store.DB
}

// DefaultConfig returns the configuration of `captionqa serve` without
// flags: 127.0.0.1:8787, the user's data folder, owner@localhost.
func DefaultConfig() Config {
	dir, _ := DefaultDataDir()
	return Config{
		Addr:              DefaultAddr,
		DataDir:           dir,
		OwnerEmail:        DefaultOwnerEmail,
		MaxRequestBytes:   httpapi.DefaultMaxRequestBytes,
		MaxInputBytes:     engine.DefaultMaxInputBytes,
		AnonDailyCap:      httpapi.DefaultAnonDailyCap,
		ProDailyCap:       account.DefaultProDailyCap,
		DefaultKeyTTL:     account.DefaultKeyTTL,
		BurstPerSecond:    quota.DefaultBurstPerSecond,
		Burst:             quota.DefaultBurst,
		LoginFreeFailures: quota.DefaultFreeFailures,
		LoginMaxPause:     quota.DefaultMaxFailDelay,
		SessionTTL:        account.DefaultSessionTTL,
		ShutdownTimeout:   10 * time.Second,
	}
}

// DefaultDataDir returns $XDG_DATA_HOME/captionqa, or
// ~/.local/share/captionqa when XDG_DATA_HOME is unset.
func DefaultDataDir() (string, error) {
	if x := os.Getenv("XDG_DATA_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "captionqa"), nil
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return "", errors.New("server: no data folder: set --data, CAPTIONQA_DATA or HOME")
	}
	return filepath.Join(home, ".local", "share", "captionqa"), nil
}

func (c *Config) logger() *slog.Logger {
	if c.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return c.Logger
}

// allowedHosts returns the Host names the listener accepts besides the
// loopback names: the host of Addr, unless it is a wildcard, and
// AllowedHosts.
func (c *Config) allowedHosts() []string {
	hosts := slices.Clone(c.AllowedHosts)
	if host, _, err := net.SplitHostPort(c.Addr); err == nil && host != "" {
		if ip := net.ParseIP(host); ip == nil || !ip.IsUnspecified() {
			hosts = append(hosts, host)
		}
	}
	return hosts
}
