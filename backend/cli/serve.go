package cli

import (
	"context"
	"fmt"
	"math"
	"net"
	"os"
	"strings"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/name"
	"github.com/captionqa/captionqa/backend/server"
)

const serveUsage = "[--addr HOST:PORT] [--data DIR] [--store postgres://...] [--blobs s3://BUCKET?endpoint=URL&region=R] [--role all|api|worker] [--owner-email EMAIL] [--tls-cert FILE --tls-key FILE] [--allowed-host NAME]... [--webhook-ca FILE] [--webhook-allow CIDR,...] [--webhook-allow-private] [--templates on|off] [--video on|off] [--video-workers N] [--ffmpeg PATH] [--max-media-bytes N] [--metrics-addr HOST:PORT] [--burst N] [--burst-rate R] [--pro-cap N] [--log-format text|json] [--log-level LEVEL]"

// Environment variables read by serve and the admin commands; a flag wins
// over its variable.
const (
	envAddr      = "CAPTIONQA_ADDR"
	envData      = "CAPTIONQA_DATA"
	envBurst     = "CAPTIONQA_BURST"
	envBurstRate = "CAPTIONQA_BURST_RATE"
	envProCap    = "CAPTIONQA_PRO_CAP"
	envTLSCert   = "CAPTIONQA_TLS_CERT"
	envTLSKey    = "CAPTIONQA_TLS_KEY"
	// envAllowedHosts is a comma-separated list of names.
	envAllowedHosts = "CAPTIONQA_ALLOWED_HOSTS"
	envMetricsAddr  = "CAPTIONQA_METRICS_ADDR"
	envWebhookCA    = "CAPTIONQA_WEBHOOK_CA"
	// envWebhookAllow is a comma-separated list of CIDR prefixes.
	envWebhookAllow        = "CAPTIONQA_WEBHOOK_ALLOW"
	envWebhookAllowPrivate = "CAPTIONQA_WEBHOOK_ALLOW_PRIVATE"
	envTemplates           = "CAPTIONQA_TEMPLATES"
	envVideo               = "CAPTIONQA_VIDEO"
	envVideoWorkers        = "CAPTIONQA_VIDEO_WORKERS"
	envFFmpeg              = "CAPTIONQA_FFMPEG"
	envMaxMedia            = "CAPTIONQA_MAX_MEDIA_BYTES"
	envExplain             = "CAPTIONQA_EXPLAIN"
	// envExplainEndpoint, envExplainModel and envExplainAPIKey configure
	// the optional model; the key is read from the environment only, so
	// that it never shows in a process list.
	envExplainEndpoint = "CAPTIONQA_EXPLAIN_ENDPOINT"
	envExplainModel    = "CAPTIONQA_EXPLAIN_MODEL"
	envExplainAPIKey   = "CAPTIONQA_EXPLAIN_API_KEY"
	envExplainCap      = "CAPTIONQA_EXPLAIN_DAILY_CAP"
)

// runServe runs the headless server until ctx is done (SIGINT or SIGTERM
// in main), then shuts it down gracefully. The first start creates the
// owner account and prints its key's secret once, with a one-time link
// to set the owner's password in the UI; later starts print how to
// replace a lost owner key and get a new link.
func runServe(ctx context.Context, args []string, env Env) int {
	fs := newFlagSet("serve", serveUsage, env)
	config := ServerFlags(fs, os.Getenv, env.Stderr)
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return usageFailed(err)
	}
	if len(pos) != 0 {
		return usageError(env, "serve takes no arguments")
	}
	cfg, err := config()
	if err != nil {
		return usageError(env, "%v", err)
	}

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
	if m := srv.MetricsURL(); m != "" {
		fmt.Fprintf(env.Stdout, "Prometheus metrics at %s\n", m)
	}
	if owner.Created {
		fmt.Fprintf(env.Stdout, "Created the owner account %s.\nOwner API key (shown once; store it now):\n  %s\n", name.Escape(owner.Email), owner.Secret)
		if link, err := srv.OwnerSignInLink(ctx); err != nil {
			fmt.Fprintf(env.Stderr, "captionqa: no sign-in link for the owner: %v; run 'captionqa owner link' for one\n", err)
		} else {
			fmt.Fprintln(env.Stdout, firstLinkLine(link))
		}
	} else {
		fmt.Fprintln(env.Stdout, laterStartLine(owner.Email, cfg.DataDir, srv.LinkBase()))
	}
	cfg.Logger.Info("serving", "url", srv.URL(), "data", cfg.DataDir, "metrics", srv.MetricsURL(), "build", currentBuild())
	// Run serves until ctx is done, with the job queue and its sweeper,
	// then shuts down in order and closes the store.
	if err := srv.Run(ctx); err != nil {
		return failed(env, err)
	}
	return ExitOK
}

// checkLimits refuses limits that would lock every key out or pass the
// pro tier's ceiling.
func checkLimits(cfg server.Config) error {
	switch {
	case cfg.Burst < 1:
		return fmt.Errorf("--burst must be at least 1, not %d", cfg.Burst)
	case !(cfg.BurstPerSecond > 0) || math.IsInf(cfg.BurstPerSecond, 0):
		return fmt.Errorf("--burst-rate must be a number above 0, not %v", cfg.BurstPerSecond)
	case cfg.ProDailyCap < 1 || cfg.ProDailyCap > account.MaxProDailyCap:
		return fmt.Errorf("--pro-cap must be between 1 and %d, not %d", account.MaxProDailyCap, cfg.ProDailyCap)
	}
	return nil
}

// checkListeners refuses a certificate without its key (or the other way
// round), an allowed host that is not a bare name, and a metrics address
// that is not HOST:PORT. Whether the files can be read is the server's
// to say, when it starts.
func checkListeners(cfg server.Config) error {
	if (cfg.TLSCertFile == "") != (cfg.TLSKeyFile == "") {
		return fmt.Errorf("--tls-cert and --tls-key go together (env %s and %s)", envTLSCert, envTLSKey)
	}
	for _, h := range cfg.AllowedHosts {
		if h == "" || strings.ContainsAny(h, "/*@?# \t") {
			return fmt.Errorf("--allowed-host %q: give a host name or address, such as captionqa.example.lan, without scheme, path or wildcard", h)
		}
	}
	if cfg.MetricsAddr != "" {
		if _, _, err := net.SplitHostPort(cfg.MetricsAddr); err != nil {
			return fmt.Errorf("--metrics-addr %q: want HOST:PORT, such as 127.0.0.1:9464", cfg.MetricsAddr)
		}
	}
	return nil
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
