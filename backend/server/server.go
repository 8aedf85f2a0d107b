package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/httpapi"
	"github.com/captionqa/captionqa/backend/quota"
	"github.com/captionqa/captionqa/backend/store/sqlite"
	"github.com/captionqa/captionqa/frontend"
)

// Server is the headless CaptionQA service. Use [New], then
// [Server.Open], then [Server.Listen] and [Server.Serve] (or only
// [Server.Handler] in tests), then [Server.Close].
type Server struct {
	cfg Config
	log *slog.Logger

	db       *sqlite.DB
	ownDB    bool
	accounts *account.Service
	quota    *quota.Service
	router   *echo.Echo
	owner    Owner

	ln   net.Listener
	http *http.Server
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

// Open opens the database, builds the services and the HTTP handler, and
// creates the owner account (tier pro, every entitlement, a key with every
// scope) if the database holds no account yet.
func (s *Server) Open(ctx context.Context) (err error) {
	defer func() {
		if err != nil {
			_ = s.Close()
		}
	}()
	s.db = s.cfg.DB
	if s.db == nil {
		if s.db, err = openDB(ctx, s.cfg.DataDir, &s.cfg); err != nil {
			return err
		}
		s.ownDB = true
	}
	s.accounts = newAccounts(s.db, &s.cfg)
	s.quota = newQuota(s.db, &s.cfg)
	eng, err := NewEngine(s.cfg.MaxInputBytes)
	if err != nil {
		return err
	}
	contract, err := contractJSON()
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
	s.router = httpapi.New(httpapi.Options{
		Accounts: s.accounts, Quota: s.quota, Engine: eng, Logger: s.log, Now: s.cfg.Now,
		Ready: s.db.Ping, OpenAPIJSON: contract,
		MaxRequestBytes: s.cfg.MaxRequestBytes, AnonDailyCap: s.cfg.AnonDailyCap,
		LoginLimit: newLoginLimit(s.db, &s.cfg), OwnerAccountID: owner.ID,
		AllowedHosts: s.cfg.allowedHosts(), UI: ui,
	})
	return nil
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

// Listen binds the configured address, so [Server.URL] is known before
// [Server.Serve] runs.
func (s *Server) Listen() error {
	ln, err := net.Listen("tcp", s.cfg.Addr)
	if err != nil {
		return fmt.Errorf("server: listen on %s: %w", s.cfg.Addr, err)
	}
	s.ln = ln
	return nil
}

// URL returns the base address, such as http://127.0.0.1:8787; valid
// after Listen.
func (s *Server) URL() string {
	if s.ln == nil {
		return ""
	}
	return "http://" + s.ln.Addr().String()
}

// Serve serves HTTP on the bound listener until ctx is done, then shuts
// down gracefully: in-flight requests get [Config.ShutdownTimeout] to
// finish. It returns nil after a clean shutdown.
func (s *Server) Serve(ctx context.Context) error {
	if s.ln == nil {
		return errors.New("server: Serve before Listen")
	}
	s.http = &http.Server{
		Handler:           s.router,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       2 * time.Minute,
		WriteTimeout:      2 * time.Minute,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
		BaseContext:       func(net.Listener) context.Context { return context.WithoutCancel(ctx) },
	}
	errc := make(chan error, 1)
	go func() { errc <- s.http.Serve(s.ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("server: serve: %w", err)
	case <-ctx.Done():
	}
	timeout := s.cfg.ShutdownTimeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	sctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	s.log.Info("shutting down")
	if err := s.http.Shutdown(sctx); err != nil {
		return fmt.Errorf("server: shutdown: %w", err)
	}
	if err := <-errc; err != nil && !errors.Is(err, http.ErrServerClosed) {
		return fmt.Errorf("server: serve: %w", err)
	}
	return nil
}

// Close releases what Open and Listen acquired, in reverse order.
func (s *Server) Close() error {
	var errs []error
	if s.ln != nil && s.http == nil {
		errs = append(errs, s.ln.Close())
	}
	if s.ownDB && s.db != nil {
		errs = append(errs, s.db.Close())
		s.db = nil
	}
	return errors.Join(errs...)
}
