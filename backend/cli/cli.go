// Package cli is the captionqa command line: it parses arguments, runs one
// command and returns the process exit code. main only hands it the
// process's streams, so tests run every command in-process.
package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
)

// Exit codes shared by every command.
const (
	ExitOK    = 0
	ExitEmpty = 1 // the input yielded no cues
	ExitUsage = 2 // bad flags, arguments or unreadable input file
)

// Env is what a command may touch of the outside world.
type Env struct {
	Stdin  io.Reader
	Stdout io.Writer
	Stderr io.Writer
}

type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, env Env) int
}

func commands() []command {
	return []command{
		{"convert", "convert a caption file between formats", runConvert},
		{"process", "check a caption file (or a folder) for delivery to a platform", runProcess},
		{"analyze", "analyse a programme: shot changes, speech, waveform (for process --media)", runAnalyze},
		{"serve", "run the localhost HTTP API (headless)", runServe},
		{"account", "manage accounts: create, list, set, set-password", runAccount},
		{"owner", "the owner account: link (a one-time sign-in link to set its password in the UI)", runOwner},
		{"key", "manage API keys: create, list, revoke", runKey},
		{"project", "manage projects: create, list, diff, export", runProject},
		{"preset", "manage an account's own presets: list, show, set, delete", runPreset},
		{"webhook", "receive and verify webhook deliveries: listen", runWebhook},
		{"version", "print the version, commit and build date", runVersion},
	}
}

// Run runs the command named by args[0] and returns its exit code.
func Run(ctx context.Context, args []string, env Env) int {
	if len(args) == 0 || isHelp(args[0]) || args[0] == "help" {
		w := env.Stdout
		code := ExitOK
		if len(args) == 0 {
			w, code = env.Stderr, ExitUsage
		}
		printHelp(w)
		return code
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(ctx, args[1:], env)
		}
	}
	fmt.Fprintf(env.Stderr, "captionqa: unknown command %q\n\n", args[0])
	printHelp(env.Stderr)
	return ExitUsage
}

func printHelp(w io.Writer) {
	fmt.Fprint(w, "CaptionQA checks and converts caption files for delivery.\n\nUsage:\n  captionqa <command> [flags] [arguments]\n\nCommands:\n")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	// The window lives in package app, which only desktop builds link.
	fmt.Fprintf(w, "  %-10s %s\n", "desktop", "open the desktop window (desktop builds: make desktop-run)")
	fmt.Fprint(w, "\nWithout a command captionqa starts serve (the window, in a desktop build with a display).\nRun 'captionqa <command> --help' for a command's flags.\n")
}

func isHelp(a string) bool { return a == "-h" || a == "--help" || a == "-help" }

// parseInterspersed parses flags wherever they stand among the positional
// arguments ("convert in.srt --to vtt" as well as "convert --to vtt
// in.srt"), which the flag package alone does not allow. A lone "-" is a
// positional argument (standard input).
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return positional, nil
		}
		if args[0] == "--" {
			return append(positional, args[1:]...), nil
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
}

// newFlagSet returns a flag set that reports errors instead of exiting and
// prints its usage to env.Stderr.
func newFlagSet(name, usage string, env Env) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.Usage = func() {
		fmt.Fprintf(env.Stderr, "Usage: captionqa %s %s\n\nFlags:\n", name, usage)
		fs.PrintDefaults()
	}
	return fs
}

// usageFailed reports a flag error: --help is success, anything else a
// usage error (the flag package has already printed why).
func usageFailed(err error) int {
	if errors.Is(err, flag.ErrHelp) {
		return ExitOK
	}
	return ExitUsage
}

func usageError(env Env, format string, args ...any) int {
	fmt.Fprintf(env.Stderr, "captionqa: "+strings.TrimSuffix(format, "\n")+"\n", args...)
	return ExitUsage
}
