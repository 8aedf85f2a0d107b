package cli

import (
	"flag"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strconv"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/server"
)

// ServerFlags declares on fs every flag of the server's configuration,
// the one parser `captionqa serve` and `captionqa desktop` share: --addr,
// --data, --owner-email, --burst, --burst-rate, --pro-cap, --tls-cert,
// --tls-key, --allowed-host, --webhook-ca, --webhook-allow,
// --webhook-allow-private, --templates, --video,
// --video-workers, --ffmpeg, --max-media-bytes, --max-media-duration,
// --max-picture, --max-frame-rate, --video-jobs-per-account,
// --ffmpeg-memory, --tesseract-memory, --export-retention, --explain,
// --explain-endpoint, --explain-model, --explain-timeout,
// --explain-daily-cap, --metrics-addr, --store, --blobs, --role,
// --log-format and --log-level, each defaulting to its environment
// variable read through getenv (a flag wins over its variable). After fs.Parse, the returned
// function builds the server.Config, with a logger writing to logs; its
// error is a usage error, worded for the command line.
func ServerFlags(fs *flag.FlagSet, getenv func(string) string, logs io.Writer) func() (server.Config, error) {
	cfg := server.DefaultConfig()
	envOr := func(name, def string) string {
		if v := getenv(name); v != "" {
			return v
		}
		return def
	}
	// Numeric variables are parsed when the config is built, so that a
	// bad one is a usage error like a bad flag.
	var envErr error
	numEnv := func(name string, set func(string) error) {
		if v := getenv(name); v != "" && envErr == nil {
			if err := set(v); err != nil {
				envErr = fmt.Errorf("%s=%q is not a number", name, v)
			}
		}
	}
	numEnv(envBurst, func(v string) (err error) { cfg.Burst, err = strconv.Atoi(v); return err })
	numEnv(envBurstRate, func(v string) (err error) { cfg.BurstPerSecond, err = strconv.ParseFloat(v, 64); return err })
	numEnv(envProCap, func(v string) (err error) { cfg.ProDailyCap, err = strconv.Atoi(v); return err })
	numEnv(envVideoWorkers, func(v string) (err error) { cfg.VideoWorkers, err = strconv.Atoi(v); return err })
	numEnv(envMaxMedia, func(v string) (err error) { cfg.MaxMediaBytes, err = strconv.ParseInt(v, 10, 64); return err })
	numEnv(envExplainCap, func(v string) (err error) { cfg.ExplainDailyCap, err = strconv.Atoi(v); return err })

	fs.StringVar(&cfg.Addr, "addr", envOr(envAddr, cfg.Addr), "listen address HOST:PORT (env "+envAddr+")")
	fs.StringVar(&cfg.DataDir, "data", envOr(envData, cfg.DataDir), "data folder holding captionqa.db and blobs/ (env "+envData+")")
	fs.StringVar(&cfg.OwnerEmail, "owner-email", cfg.OwnerEmail, "email of the owner account created on first start")
	registerCluster(fs, &cfg, getenv)
	fs.IntVar(&cfg.Burst, "burst", cfg.Burst, "requests a key may send at once before the burst limit applies (env "+envBurst+")")
	fs.Float64Var(&cfg.BurstPerSecond, "burst-rate", cfg.BurstPerSecond, "requests a second a key may keep sending after a burst (env "+envBurstRate+")")
	fs.IntVar(&cfg.ProDailyCap, "pro-cap", cfg.ProDailyCap, fmt.Sprintf("daily successful runs given to new pro accounts and to the owner when first created, at most %d (env %s; account set --cap changes an existing account)", account.MaxProDailyCap, envProCap))
	fs.StringVar(&cfg.TLSCertFile, "tls-cert", getenv(envTLSCert), "serve HTTPS with this PEM certificate (chain); needs --tls-key (env "+envTLSCert+")")
	fs.StringVar(&cfg.TLSKeyFile, "tls-key", getenv(envTLSKey), "PEM private key of --tls-cert (env "+envTLSKey+")")
	var hosts []string
	fs.Func("allowed-host", "a Host name the listener accepts besides the loopback names and --addr's host, such as the appliance's name on the network; repeat for more (env "+envAllowedHosts+", comma-separated)",
		func(v string) error { hosts = append(hosts, v); return nil })
	fs.StringVar(&cfg.WebhookCAFile, "webhook-ca", getenv(envWebhookCA), "PEM file of CA certificates that webhook receivers' certificates may chain to, besides the system's roots (env "+envWebhookCA+"); certificates are always checked")
	var allow []string
	fs.Func("webhook-allow", "CIDR prefixes (comma-separated; repeat for more) webhook deliveries may connect to although the destination policy refuses their class: loopback, link-local, unspecified, multicast (env "+envWebhookAllow+")",
		func(v string) error { allow = append(allow, v); return nil })
	allowPrivate, envErrPrivate := parseBoolEnv(envWebhookAllowPrivate, getenv(envWebhookAllowPrivate))
	fs.BoolVar(&cfg.WebhookAllowPrivate, "webhook-allow-private", allowPrivate, "let webhook deliveries connect to private addresses (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7), for receivers on the LAN (env "+envWebhookAllowPrivate+")")
	templates := fs.String("templates", envOr(envTemplates, "on"), "on or off: off turns the export-template runtime off, and every template route answers 503 (env "+envTemplates+")")
	video := fs.String("video", envOr(envVideo, "on"), "on or off: off turns media uploads and video jobs off, and their routes answer 503; they are also off when ffmpeg is missing (env "+envVideo+")")
	fs.IntVar(&cfg.VideoWorkers, "video-workers", cfg.VideoWorkers, "video jobs that encode (burn-in) at once; default half the cores (env "+envVideoWorkers+")")
	fs.StringVar(&cfg.FFmpegPath, "ffmpeg", getenv(envFFmpeg), "the ffmpeg binary; ffprobe is looked up beside it (env "+envFFmpeg+"; default: ffmpeg on the PATH)")
	fs.Int64Var(&cfg.MaxMediaBytes, "max-media-bytes", cfg.MaxMediaBytes, "the largest media upload in bytes; default 8 GiB (env "+envMaxMedia+")")
	maxDuration := fs.Duration("max-media-duration", 0, "the longest media accepted; default 4h")
	maxPicture := fs.String("max-picture", "", "the largest video picture accepted, WIDTHxHEIGHT (compared as width times height); default 4096x2304")
	fs.Float64Var(&cfg.MaxFrameRate, "max-frame-rate", 0, "the fastest video frame rate accepted; default 120")
	fs.IntVar(&cfg.VideoJobsPerAccount, "video-jobs-per-account", cfg.VideoJobsPerAccount, "video jobs of one account that run at once on this process; default 1")
	ffmpegMemory := fs.String("ffmpeg-memory", "", "the address space ffmpeg and ffprobe may take, as 2GiB; default 2 GiB, -1 for none")
	ocrMemory := fs.String("tesseract-memory", "", "the address space tesseract may take, as 1GiB; default 1 GiB, -1 for none")
	fs.DurationVar(&cfg.ExportRetention, "export-retention", 0, "how long exports and their files are kept before the hourly sweep deletes them; default 720h (30 days)")
	explain := fs.String("explain", envOr(envExplain, "on"), "on or off: off turns ExplainAI off; process results then say not_configured and POST /api/v1/explain answers 503 (env "+envExplain+")")
	fs.StringVar(&cfg.ExplainEndpoint, "explain-endpoint", getenv(envExplainEndpoint), "base URL of an OpenAI-compatible endpoint on your network (llama.cpp server, Ollama, vLLM), such as http://127.0.0.1:8080/v1, whose model rewrites ExplainAI's prose; without it the built-in explainer writes it (env "+envExplainEndpoint+"; its key, if any, in "+envExplainAPIKey+")")
	fs.StringVar(&cfg.ExplainModel, "explain-model", getenv(envExplainModel), "the model --explain-endpoint serves (env "+envExplainModel+")")
	fs.DurationVar(&cfg.ExplainTimeout, "explain-timeout", 0, "how long to wait for the model before the built-in text is used; default 20s")
	fs.IntVar(&cfg.ExplainDailyCap, "explain-daily-cap", cfg.ExplainDailyCap, "explanations an account may have per UTC day; default 500 (env "+envExplainCap+")")
	fs.StringVar(&cfg.MetricsAddr, "metrics-addr", getenv(envMetricsAddr), "serve Prometheus metrics at http://HOST:PORT/metrics, a listener of its own without authentication: keep it on loopback (env "+envMetricsAddr+")")
	logFormat := fs.String("log-format", "text", "log format on stderr: text or json")
	logLevel := fs.String("log-level", "info", "log level: debug, info, warn or error")

	return func() (server.Config, error) {
		if envErr != nil {
			return cfg, envErr
		}
		if envErrPrivate != nil {
			return cfg, envErrPrivate
		}
		if allow == nil {
			allow = []string{getenv(envWebhookAllow)}
		}
		for _, list := range allow {
			prefixes, err := parseAllow(list)
			if err != nil {
				return cfg, err
			}
			cfg.WebhookAllow = append(cfg.WebhookAllow, prefixes...)
		}
		switch *templates {
		case "on":
		case "off":
			cfg.TemplatesOff = true
		default:
			return cfg, fmt.Errorf("--templates is on or off, not %q", *templates)
		}
		switch *video {
		case "on":
		case "off":
			cfg.VideoOff = true
		default:
			return cfg, fmt.Errorf("--video is on or off, not %q", *video)
		}
		switch *explain {
		case "on":
		case "off":
			cfg.ExplainOff = true
		default:
			return cfg, fmt.Errorf("--explain is on or off, not %q", *explain)
		}
		if cfg.ExplainEndpoint != "" && cfg.ExplainModel == "" {
			return cfg, fmt.Errorf("--explain-endpoint needs --explain-model (env %s)", envExplainModel)
		}
		if cfg.ExplainTimeout < 0 || cfg.ExplainDailyCap < 0 {
			return cfg, fmt.Errorf("--explain-timeout and --explain-daily-cap cannot be negative")
		}
		cfg.ExplainAPIKey = getenv(envExplainAPIKey)
		if cfg.VideoWorkers < 0 || cfg.MaxMediaBytes < 0 || cfg.ExportRetention < 0 {
			return cfg, fmt.Errorf("--video-workers, --max-media-bytes and --export-retention cannot be negative")
		}
		if err := videoLimits(&cfg, *maxDuration, *maxPicture, *ffmpegMemory, *ocrMemory); err != nil {
			return cfg, err
		}
		if cfg.FFmpegPath != "" && cfg.FFprobePath == "" {
			cfg.FFprobePath = filepath.Join(filepath.Dir(cfg.FFmpegPath), "ffprobe")
		}
		if err := checkCluster(cfg); err != nil {
			return cfg, err
		}
		if err := checkLimits(cfg); err != nil {
			return cfg, err
		}
		if hosts == nil {
			hosts = splitList(getenv(envAllowedHosts))
		}
		cfg.AllowedHosts = hosts
		if err := checkListeners(cfg); err != nil {
			return cfg, err
		}
		var level slog.Level
		if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
			return cfg, fmt.Errorf("--log-level: %v", err)
		}
		opts := &slog.HandlerOptions{Level: level}
		switch *logFormat {
		case "text":
			cfg.Logger = slog.New(slog.NewTextHandler(logs, opts))
		case "json":
			cfg.Logger = slog.New(slog.NewJSONHandler(logs, opts))
		default:
			return cfg, fmt.Errorf("--log-format must be text or json")
		}
		if cfg.DataDir == "" {
			return cfg, fmt.Errorf("no data folder: set --data or %s", envData)
		}
		return cfg, nil
	}
}
