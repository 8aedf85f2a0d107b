package cli

import (
	"context"
	"fmt"
	"log/slog"
	"os"

	"github.com/captionqa/captionqa/backend/server"
)

const serveUsage = "[--addr HOST:PORT] [--data DIR] [--owner-email EMAIL] [--log-format text|json] [--log-level LEVEL]"

// Environment variables read by serve and the admin commands; a flag wins
// over its variable.
const (
	envAddr = "CAPTIONQA_ADDR"
	envData = "CAPTIONQA_DATA"
)

// runServe runs the headless server until ctx is done (SIGINT or SIGTERM
// in main), then shuts it down gracefully. The first start creates the
// owner account and prints its key's secret once.
func runServe(ctx context.Context, args []string, env Env) int {
	fs := newFlagSet("serve", serveUsage, env)
	cfg := server.DefaultConfig()
	addr := fs.String("addr", envOr(envAddr, cfg.Addr), "listen address HOST:PORT (env "+envAddr+")")
	data := fs.String("data", envOr(envData, cfg.DataDir), "data folder holding captionqa.db (env "+envData+")")
	fs.StringVar(&cfg.OwnerEmail, "owner-email", cfg.OwnerEmail, "email of the owner account created on first start")
	logFormat := fs.String("log-format", "text", "log format on stderr: text or json")
	logLevel := fs.String("log-level", "info", "log level: debug, info, warn or error")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return usageFailed(err)
	}
	if len(pos) != 0 {
		return usageError(env, "serve takes no arguments")
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		return usageError(env, "--log-level: %v", err)
	}
	opts := &slog.HandlerOptions{Level: level}
	switch *logFormat {
	case "text":
		cfg.Logger = slog.New(slog.NewTextHandler(env.Stderr, opts))
	case "json":
		cfg.Logger = slog.New(slog.NewJSONHandler(env.Stderr, opts))
	default:
		return usageError(env, "--log-format must be text or json")
	}
	if *data == "" {
		return usageError(env, "no data folder: set --data or %s", envData)
	}
	cfg.Addr, cfg.DataDir = *addr, *data

	srv := server.New(cfg)
	if err := srv.Open(ctx); err != nil {
		return failed(env, err)
	}
	defer srv.Close()
	if err := srv.Listen(); err != nil {
		return failed(env, err)
	}
	owner := srv.Owner()
	fmt.Fprintf(env.Stdout, "CaptionQA is running at %s/ (data folder %s)\n", srv.URL(), cfg.DataDir)
	if owner.Created {
		fmt.Fprintf(env.Stdout, "Created the owner account %s.\nOwner API key (shown once; store it now):\n  %s\n", owner.Email, owner.Secret)
	}
	cfg.Logger.Info("serving", "url", srv.URL(), "data", cfg.DataDir)
	if err := srv.Serve(ctx); err != nil {
		return failed(env, err)
	}
	return ExitOK
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// failed prints an error and returns exit code 1.
func failed(env Env, err error) int {
	fmt.Fprintf(env.Stderr, "captionqa: %v\n", err)
	return 1
}
