// Command captionqa checks and converts caption files: a command line, the
// localhost API (captionqa serve) and, in a binary built with the tags
// desktop,production,webkit2_41, the desktop window (captionqa desktop).
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/captionqa/captionqa/app"
	"github.com/captionqa/captionqa/backend/cli"
	"github.com/captionqa/captionqa/backend/gctune"
)

func main() {
	// SIGINT and SIGTERM cancel ctx: serve shuts down gracefully, the
	// desktop window closes.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	gctune.Apply()
	code := run(ctx, os.Args[1:], cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr}, os.Getenv)
	stop()
	os.Exit(code)
}

// run dispatches a command line: "desktop" is handled here (it needs the
// app package, which only main may combine with the CLI), everything else
// by package cli.
func run(ctx context.Context, args []string, env cli.Env, getenv func(string) string) int {
	if len(args) == 0 || startsWithFlag(args[0]) {
		// Started without a command (make run, a service manager, a
		// double-click), perhaps with flags ("captionqa --data DIR"): the
		// window when this build has one and a display is there, else the
		// appliance. "captionqa help" lists the commands.
		args = append([]string{defaultCommand(app.Built, app.HasDisplay(getenv))}, args...)
	}
	if args[0] == "desktop" {
		return runDesktop(ctx, args[1:], env, getenv)
	}
	return cli.Run(ctx, args, env)
}

// startsWithFlag reports whether a is a flag for the default command
// rather than help or a command name.
func startsWithFlag(a string) bool {
	return len(a) > 1 && a[0] == '-' && a != "-h" && a != "--help" && a != "-help"
}

// defaultCommand is the command of a bare "captionqa".
func defaultCommand(built, display bool) string {
	if built && display {
		return "desktop"
	}
	return "serve"
}
