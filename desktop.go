package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/captionqa/captionqa/app"
	"github.com/captionqa/captionqa/backend/cli"
	"github.com/captionqa/captionqa/backend/server"
)

// The desktop command takes serve's flags and variables, so that it can
// fall back to serve with the same arguments.
const (
	desktopUsage = "Usage: captionqa desktop [serve's flags: --addr, --data, --owner-email, --tls-cert/--tls-key, --allowed-host, --metrics-addr, --burst, --burst-rate, --pro-cap, --log-format, --log-level]\n\n" +
		"Opens the CaptionQA window; the localhost API keeps listening on --addr for integrations.\n" +
		"Without a display (DISPLAY and WAYLAND_DISPLAY unset) it runs captionqa serve instead.\n\nFlags:\n"
	// The variables of --addr and --data, as cli.ServerFlags reads them.
	envAddr = "CAPTIONQA_ADDR"
	envData = "CAPTIONQA_DATA"
)

// runDesktop runs "captionqa desktop": the window in a desktop build with
// a display, serve with the same flags when there is no display, an error
// in a headless build.
func runDesktop(ctx context.Context, args []string, env cli.Env, getenv func(string) string) int {
	cfg, code, ok := desktopConfig(args, env, getenv)
	if !ok {
		return code
	}
	if !app.Built {
		fmt.Fprintf(env.Stderr, "captionqa: %v\n", app.ErrNotBuilt)
		return 1
	}
	if !app.HasDisplay(getenv) {
		fmt.Fprintln(env.Stderr, "captionqa: no display (DISPLAY and WAYLAND_DISPLAY are unset): running the headless server instead; open its address in a browser")
		return cli.Run(ctx, append([]string{"serve"}, args...), env)
	}
	srv := server.New(cfg)
	err := app.Run(ctx, srv, app.Options{Logger: cfg.Logger, Started: func() { printStarted(env.Stdout, srv, cfg.DataDir) }})
	if err != nil {
		fmt.Fprintf(env.Stderr, "captionqa: %v\n", err)
		return 1
	}
	return cli.ExitOK
}

// desktopConfig parses the desktop command's flags into a server
// configuration with the parser serve uses (cli.ServerFlags), so every
// serve flag and variable applies to the window too. ok is false when
// the command should exit with code (--help, or a usage error already
// printed).
func desktopConfig(args []string, env cli.Env, getenv func(string) string) (cfg server.Config, code int, ok bool) {
	fs := flag.NewFlagSet("desktop", flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.Usage = func() { fmt.Fprint(env.Stderr, desktopUsage); fs.PrintDefaults() }
	config := cli.ServerFlags(fs, getenv, env.Stderr)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return cfg, cli.ExitOK, false
		}
		return cfg, cli.ExitUsage, false
	}
	if fs.NArg() != 0 {
		fmt.Fprintln(env.Stderr, "captionqa: desktop takes no arguments")
		return cfg, cli.ExitUsage, false
	}
	cfg, err := config()
	if err != nil {
		fmt.Fprintf(env.Stderr, "captionqa: %v\n", err)
		return cfg, cli.ExitUsage, false
	}
	return cfg, cli.ExitOK, true
}

// printStarted prints what serve prints on start: the address of the
// localhost API and, on the first start only, the owner key's secret.
func printStarted(w io.Writer, srv *server.Server, dataDir string) {
	fmt.Fprintf(w, "CaptionQA is running at %s/ (data folder %s); the window uses it in-process\n", srv.URL(), dataDir)
	if owner := srv.Owner(); owner.Created {
		fmt.Fprintf(w, "Created the owner account %s.\nOwner API key (shown once; store it now):\n  %s\n", owner.Email, owner.Secret)
	}
}
