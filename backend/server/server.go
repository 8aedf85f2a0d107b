package server

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/captionqa/captionqa/assets"
	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/blob"
	"github.com/captionqa/captionqa/backend/httpapi"
	"github.com/captionqa/captionqa/backend/metrics"
	"github.com/captionqa/captionqa/backend/parallel"
	"github.com/captionqa/captionqa/backend/project"
	"github.com/captionqa/captionqa/backend/quota"
	"github.com/captionqa/captionqa/backend/store"
	"github.com/captionqa/captionqa/frontend"
)

var _ httpapi.Metrics = (*metrics.Metrics)(nil)

// Server is the headless CaptionQA service. Use [New], then
// [Server.Open], then [Server.Listen] and [Server.Serve] (or only
// [Server.Handler] in tests), then [Server.Close].
type Server struct {
	cfg Config
	log *slog.Logger

	db       store.DB
	ownDB    bool
	accounts *account.Service
	quota    *quota.Service
	projects *project.Service
	// exporter runs exports; the export retention sweep, registered
	// before it is built, runs once the queue starts.
	exporter *project.Exporter
	// blobs keeps media and artifacts: the S3-compatible store of
	// Config.Blobs, the data folder's blobs folder, or a temporary one
	// removed on Close when the server was handed an open database.
	blobs blob.Store
	// presigner, set when the blob store's URL says presign=true, sends
	// clients' upload parts and downloads to the store's own URLs.
	presigner blob.Presigner
	tempDir   string
	// queue is the job queue (webhook deliveries, the orphan sweeper),
	// opened by Open and started by Run.
	queue   store.Queue
	router  *echo.Echo
	owner   Owner
	tls     *tls.Config      // nil serves plain HTTP
	metrics *metrics.Metrics // nil without Config.MetricsAddr

	ln          net.Listener
	http        *http.Server
	metricsLn   net.Listener
	metricsHTTP *http.Server
}

// Owner is the owner account as the first start left it.
type Owner struct {
	Email string
	// Secret is the owner key's one-time secret, set only on the start
	// that created the owner.
	Secret string
	// Created is true on the first start.
	Created bool
}

// New returns a server for cfg; it opens nothing yet.
func New(cfg Config) *Server {
	return &Server{cfg: cfg, log: cfg.logger()}
}

// Open loads the TLS certificate if one is configured, makes the data
// folder private (see [Config.DataDir]), opens the database and the
// per-install secret (creating both on the first start), builds the
// services and the HTTP handler, and creates the owner account (tier
// pro, every entitlement, a key with every scope) if the database holds
// no account yet.
func (s *Server) Open(ctx context.Context) (err error) {
	defer func() {
		if err != nil {
			_ = s.Close()
		}
	}()
	// Before anything is written: a first start that failed later on a
	// bad certificate would have shown the owner key's secret to no one.
	if s.tls, err = s.cfg.tlsConfig(s.log, s.now()); err != nil {
		return err
	}
	if err := s.cfg.checkRole(); err != nil {
		return err
	}
	s.db = s.cfg.DB
	if s.db == nil {
		if s.db, err = openStore(ctx, &s.cfg); err != nil {
			return err
		}
		s.ownDB = true
	}
	installKey, err := s.installKey(ctx)
	if err != nil {
		return err
	}
	keys, err := deriveSecrets(installKey)
	if err != nil {
		return err
	}
	s.accounts = newAccounts(s.db, &s.cfg)
	s.quota = newQuota(s.db, &s.cfg)
	eng, err := NewEngine(s.cfg.MaxInputBytes)
	if err != nil {
		return err
	}
	if err := s.openBlobs(ctx); err != nil {
		return err
	}
	presets := newUserPresets(s.db, eng, &s.cfg)
	s.projects = project.NewService(s.db.Projects(), project.Options{Blobs: s.blobs, Now: s.cfg.Now})
	var hooks webhookWorker
	var vids videoParts
	if err := vids.openRunner(ctx, s); err != nil {
		return err
	}
	if err := s.openJobs(ctx, &hooks, &vids); err != nil {
		return err
	}
	if hooks.svc, err = newWebhooks(s.queue, &s.cfg); err != nil {
		return err
	}
	exportLimiter := newExportLimiter(s.db, &s.cfg)
	templates := newTemplates(s.db, s.projects, s.quota, exportLimiter, &s.cfg)
	slots := parallel.NewSlots(s.cfg.MaxEngineRuns)
	vids.build(s, eng, presets, keys, s.quota, exportLimiter)
	s.exporter = project.NewExporter(project.ExporterOptions{
		Projects: s.db.Projects(), Exports: s.queue.Exports(), Blobs: s.blobs, Engine: eng, Pool: s.quota,
		Storage: s.accounts, Limiter: exportLimiter, Templates: templatesOrNil(templates), Presigner: s.presigner,
		Analyses: vids.analyses(), EngineSlots: slots, Presets: presets, Retention: s.cfg.ExportRetention, Now: s.cfg.Now,
	})
	explainer, err := newExplain(s.quota, eng.Presets(), &s.cfg, s.log)
	if err != nil {
		return err
	}
	contract, err := contractJSON()
	if err != nil {
		return err
	}
	presetSchema, err := presetSchemaJSON()
	if err != nil {
		return err
	}
	email := s.cfg.OwnerEmail
	if email == "" {
		email = DefaultOwnerEmail
	}
	owner, secret, created, err := s.accounts.EnsureOwner(ctx, email)
	if err != nil {
		return fmt.Errorf("server: owner account: %w", err)
	}
	s.owner = Owner{Email: owner.Email, Secret: secret, Created: created}
	if created {
		s.log.Info("created the owner account", "email", owner.Email)
	}
	ui := s.cfg.UI
	if ui == nil {
		ui = frontend.Dist()
	}
	// A nil *metrics.Metrics in the interface would not read as "none".
	var m httpapi.Metrics
	if s.cfg.MetricsAddr != "" {
		s.metrics = metrics.New()
		m = s.metrics
	}
	s.router = httpapi.New(httpapi.Options{
		Accounts: s.accounts, Quota: s.quota, Engine: eng, Projects: s.projects, Exports: s.exporter, Webhooks: hooks.svc,
		Templates: templates, Media: vids.media, Videos: vids.videos, Explain: explainer, Presets: presets,
		Links: project.NewLinkSigner(keys.linkKey), Logger: s.log, Now: s.cfg.Now,
		Ready: s.db.Ready, OpenAPIJSON: contract, PresetSchemaJSON: presetSchema, ReportFont: assets.ReportFont,
		MaxRequestBytes: s.cfg.MaxRequestBytes, AnonDailyCap: s.cfg.AnonDailyCap,
		MaxUploads: s.cfg.MaxUploads, MaxUploadsPerClient: s.cfg.MaxUploadsPerClient,
		BodyTimeout: s.cfg.BodyTimeout, EngineSlots: slots,
		MinPartRate: s.cfg.MinPartRate, PartRateGrace: s.cfg.PartRateGrace,
		OwnerAccountID: owner.ID,
		AllowedHosts:   s.cfg.allowedHosts(), UI: ui,
		Metrics: m, AnonSalt: keys.anonSalt, CSRFKey: keys.csrfKey,
	})
	return nil
}

// installKey returns the secret the signing keys derive from: the
// store's when it keeps one (every node of a cluster shares it), else
// the data folder's install.key, else (a server handed an open database,
// as tests do) a random one for this process.
func (s *Server) installKey(ctx context.Context) ([]byte, error) {
	secret, ok, err := s.db.SharedSecret(ctx)
	switch {
	case err != nil:
		return nil, fmt.Errorf("server: shared secret: %w", err)
	case ok:
		return secret, nil
	case s.ownDB:
		return installSecret(s.cfg.DataDir)
	}
	return randomSecret(), nil
}

// openBlobs opens the blob store: the S3-compatible store of Config.Blobs,
// or the data folder's, or without one (a server handed an open
// database, as tests do) a temporary folder that Close removes, like the
// random install secret of that case.
func (s *Server) openBlobs(ctx context.Context) error {
	if s.cfg.Blobs != "" {
		b, err := openBlobURL(ctx, s.cfg.Blobs, &s.cfg)
		if err != nil {
			return err
		}
		s.blobs = b
		if b.Presign() {
			s.presigner = b
		}
		return nil
	}
	dir := s.cfg.DataDir
	if dir == "" {
		tmp, err := os.MkdirTemp("", "captionqa-blobs-*")
		if err != nil {
			return fmt.Errorf("server: blob store: %w", err)
		}
		s.tempDir, dir = tmp, tmp
	}
	b, err := openBlobs(dir, &s.cfg)
	if err != nil {
		return err
	}
	s.blobs = b
	return nil
}

// newExportLimiter is the export-operation burst limit (docs/api.md,
// Exports and artifact links):
// per account, bursts of [project.ExportBurst] exports, then
// [project.ExportBurstPerSecond] a second, on the server's clock.
func newExportLimiter(db store.DB, cfg *Config) *quota.Service {
	return quota.NewService(db.Quotas(), quota.Options{
		Now: cfg.Now, BurstPerSecond: project.ExportBurstPerSecond, Burst: project.ExportBurst, Buckets: db.Buckets()})
}

func (s *Server) now() time.Time {
	if s.cfg.Now != nil {
		return s.cfg.Now()
	}
	return time.Now()
}

// Handler returns the HTTP handler of every route (an *echo.Echo) as the
// TCP listener serves it: callers authenticate with a Bearer key or a
// dashboard session, and only loopback Host names (plus the configured
// ones) are accepted. Valid after Open.
func (s *Server) Handler() http.Handler { return s.router }

// DesktopHandler returns the handler for the desktop window, which the
// Wails asset server calls in-process (Host "wails", no network): the
// same router as [Server.Handler] wrapped by [httpapi.TrustLocal], so
// every request through it acts as the local owner (the oldest account,
// see [account.Service.EnsureOwner]) with every scope, without a key,
// cookie or CSRF token, and skips the Host check. Entitlements still
// apply. Hand it only to Wails (options.App AssetServer Handler), never
// to a listener. Valid after Open.
func (s *Server) DesktopHandler() http.Handler { return httpapi.TrustLocal(s.router) }

// Accounts returns the account service; valid after Open.
func (s *Server) Accounts() *account.Service { return s.accounts }

// Quota returns the quota service; valid after Open.
func (s *Server) Quota() *quota.Service { return s.quota }

// Owner reports the owner account and, on the first start only, its key's
// one-time secret.
func (s *Server) Owner() Owner { return s.owner }

// Listen binds the configured address, and [Config.MetricsAddr] if set,
// so [Server.URL] and [Server.MetricsURL] are known before [Server.Serve]
// runs. Call it after Open. Plain HTTP on an address other than loopback
// is served, with a warning in the log: keys, passwords and cookies would
// cross the network in clear.
func (s *Server) Listen() error {
	if s.router == nil {
		return errors.New("server: Listen before Open")
	}
	ln, err := net.Listen("tcp", s.cfg.Addr)
	if err != nil {
		return fmt.Errorf("server: listen on %s: %w", s.cfg.Addr, err)
	}
	if s.metrics != nil {
		mln, err := net.Listen("tcp", s.cfg.MetricsAddr)
		if err != nil {
			ln.Close()
			return fmt.Errorf("server: metrics listen on %s: %w", s.cfg.MetricsAddr, err)
		}
		s.metricsLn = mln
		if !isLoopback(mln.Addr()) {
			s.log.Warn("serving /metrics without authentication on an address other than loopback; anyone who reaches it reads the server's counters",
				"addr", mln.Addr().String())
		}
	}
	s.ln = ln
	if s.tls == nil && !isLoopback(ln.Addr()) {
		s.log.Warn("serving plain HTTP on an address other than loopback: API keys, passwords and session cookies cross the network in clear; serve HTTPS with --tls-cert and --tls-key",
			"addr", ln.Addr().String())
	}
	return nil
}

// URL returns the base address, such as http://127.0.0.1:8787 (https
// with a certificate); valid after Listen.
func (s *Server) URL() string {
	if s.ln == nil {
		return ""
	}
	scheme := "http://"
	if s.tls != nil {
		scheme = "https://"
	}
	return scheme + s.ln.Addr().String()
}

// MetricsURL returns the address of the metrics endpoint, such as
// http://127.0.0.1:9464/metrics, or "" without one; valid after Listen.
func (s *Server) MetricsURL() string {
	if s.metricsLn == nil {
		return ""
	}
	return "http://" + s.metricsLn.Addr().String() + "/metrics"
}

// Serve serves HTTP (HTTPS with a certificate) on the bound listener,
// and the metrics on theirs, until ctx is done, then shuts both down
// gracefully: in-flight requests get [Config.ShutdownTimeout] to finish.
// It returns nil after a clean shutdown; if either listener fails, both
// are shut down and the error returned.
func (s *Server) Serve(ctx context.Context) error {
	if s.ln == nil {
		return errors.New("server: Serve before Listen")
	}
	var handler http.Handler = s.router
	if s.cfg.role() == RoleWorker {
		handler = s.healthOnly()
	}
	s.http = &http.Server{
		Handler:           handler,
		TLSConfig:         s.tls,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       2 * time.Minute,
		WriteTimeout:      2 * time.Minute,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	servers := []*http.Server{s.http}
	errc := make(chan error, 2)
	go func() {
		if s.tls != nil {
			// The certificate is in TLSConfig already.
			errc <- s.http.ServeTLS(s.ln, "", "")
			return
		}
		errc <- s.http.Serve(s.ln)
	}()
	if s.metricsLn != nil {
		s.metricsHTTP = newMetricsServer(s.metrics, s.log)
		servers = append(servers, s.metricsHTTP)
		go func() { errc <- s.metricsHTTP.Serve(s.metricsLn) }()
	}
	var failed error
	select {
	case err := <-errc:
		failed = fmt.Errorf("server: serve: %w", err)
	case <-ctx.Done():
		s.log.Info("shutting down")
	}
	timeout := s.cfg.ShutdownTimeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	sctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	errs := []error{failed}
	for _, srv := range servers {
		if err := srv.Shutdown(sctx); err != nil {
			errs = append(errs, fmt.Errorf("server: shutdown: %w", err))
		}
	}
	// Every Serve has returned once Shutdown has; collect what is left.
	for range len(servers) - boolInt(failed != nil) {
		if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
			errs = append(errs, fmt.Errorf("server: serve: %w", err))
		}
	}
	return errors.Join(errs...)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Close releases what Open and Listen acquired, in reverse order.
func (s *Server) Close() error {
	var errs []error
	if s.ln != nil && s.http == nil {
		errs = append(errs, s.ln.Close())
	}
	if s.metricsLn != nil && s.metricsHTTP == nil {
		errs = append(errs, s.metricsLn.Close())
	}
	if s.ownDB && s.db != nil {
		errs = append(errs, s.db.Close())
		s.db = nil
	}
	if s.tempDir != "" {
		errs = append(errs, os.RemoveAll(s.tempDir))
		s.tempDir = ""
	}
	return errors.Join(errs...)
}
