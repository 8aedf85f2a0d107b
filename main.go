// Command captionqa checks and converts caption files: a command line, the
// localhost API (captionqa serve) and, in later builds, the desktop window.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/captionqa/captionqa/backend/cli"
)

func main() {
	// SIGINT and SIGTERM cancel ctx: serve shuts down gracefully.
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	args := os.Args[1:]
	if len(args) == 0 {
		// Started without a command (make run, a service manager, a
		// double-click): run the appliance. "captionqa help" lists the
		// commands.
		args = []string{"serve"}
	}
	code := cli.Run(ctx, args, cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr})
	stop()
	os.Exit(code)
}
