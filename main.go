// Command captionqa checks and converts caption files: a command line, and
// (in later builds) the localhost API and the desktop window.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"github.com/captionqa/captionqa/backend/cli"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := cli.Run(ctx, os.Args[1:], cli.Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr})
	stop()
	os.Exit(code)
}
