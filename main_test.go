package main

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/app"
	"github.com/captionqa/captionqa/backend/cli"
)

func env() (cli.Env, *bytes.Buffer, *bytes.Buffer) {
	var out, errb bytes.Buffer
	return cli.Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb}, &out, &errb
}

func TestDefaultCommand(t *testing.T) {
	for _, tc := range []struct {
		built, display bool
		want           string
	}{
		{false, false, "serve"},
		{false, true, "serve"},
		{true, false, "serve"},
		{true, true, "desktop"},
	} {
		if got := defaultCommand(tc.built, tc.display); got != tc.want {
			t.Errorf("defaultCommand(%v, %v) = %q, want %q", tc.built, tc.display, got, tc.want)
		}
	}
}

func TestDesktopInHeadlessBuild(t *testing.T) {
	if app.Built {
		t.Skip("desktop build")
	}
	e, _, stderr := env()
	code := run(context.Background(), []string{"desktop", "--data", t.TempDir()}, e, func(string) string { return "" })
	if code != 1 || !strings.Contains(stderr.String(), "built without the desktop window") || !strings.Contains(stderr.String(), "run captionqa serve") {
		t.Fatalf("code %d, stderr %q", code, stderr)
	}
}

func TestDesktopConfig(t *testing.T) {
	dir := t.TempDir()
	getenv := func(k string) string {
		return map[string]string{envAddr: "127.0.0.1:9999", envData: "/from/env"}[k]
	}
	e, _, _ := env()
	cfg, _, ok := desktopConfig([]string{"--data", dir, "--owner-email", "me@example.com"}, e, getenv)
	if !ok || cfg.Addr != "127.0.0.1:9999" || cfg.DataDir != dir || cfg.OwnerEmail != "me@example.com" || cfg.Logger == nil {
		t.Fatalf("ok %v, cfg %+v", ok, cfg)
	}
	for _, tc := range []struct {
		args []string
		code int
		msg  string
	}{
		{[]string{"--help"}, cli.ExitOK, "Usage: captionqa desktop"},
		{[]string{"--nope"}, cli.ExitUsage, "flag provided but not defined"},
		{[]string{"extra"}, cli.ExitUsage, "desktop takes no arguments"},
		{[]string{"--log-format", "xml"}, cli.ExitUsage, "--log-format"},
		{[]string{"--log-level", "loud"}, cli.ExitUsage, "--log-level"},
		{[]string{"--data", ""}, cli.ExitUsage, "no data folder"},
	} {
		e, _, stderr := env()
		_, code, ok := desktopConfig(tc.args, e, func(string) string { return "" })
		if ok || code != tc.code || !strings.Contains(stderr.String(), tc.msg) {
			t.Errorf("%v: ok %v, code %d, stderr %q; want code %d and %q", tc.args, ok, code, stderr, tc.code, tc.msg)
		}
	}
}

// Every other command still reaches package cli.
func TestRunDelegatesToCLI(t *testing.T) {
	e, out, _ := env()
	if code := run(context.Background(), []string{"help"}, e, func(string) string { return "" }); code != 0 || !strings.Contains(out.String(), "serve") {
		t.Fatalf("help: code %d, out %q", code, out)
	}
}

// Flags without a command go to the default command: "captionqa --data
// DIR" starts the appliance on that folder.
func TestFlagsWithoutCommand(t *testing.T) {
	tests := []struct {
		arg  string
		want bool
	}{
		{"--data", true}, {"-addr", true}, {"--help", false}, {"-h", false}, {"-", false}, {"serve", false}, {"convert", false},
	}
	for _, tt := range tests {
		if got := startsWithFlag(tt.arg); got != tt.want {
			t.Errorf("startsWithFlag(%q) = %v; want %v", tt.arg, got, tt.want)
		}
	}
	e, _, errOut := env()
	if code := run(context.Background(), []string{"--no-such-flag"}, e, func(string) string { return "" }); code != cli.ExitUsage || !strings.Contains(errOut.String(), "serve") {
		t.Errorf("an unknown flag should be reported by serve's usage: code %d, stderr %q", code, errOut)
	}
}
