// Command bundle builds CaptionQA's browser UI with esbuild's Go API. The
// npm packages it bundles (the CodeMirror editor) are resolved from
// frontend/node_modules, which `make ui` fills with npm ci from
// frontend/package-lock.json; Node runs nothing else in the build.
//
//	go run ./frontend/bundle            # frontend/src -> frontend/dist
//	go run ./frontend/bundle -watch     # rebuild on change (development)
//
// It bundles src/main.ts into dist/app.js (minified, linked source map,
// target es2020) and src/app.css into dist/app.css, and copies
// src/index.html. The output is deterministic: the same sources give the
// same bytes. dist/.gitkeep is kept so go:embed always matches. Errors
// are printed and the command exits non-zero.
//
// Run it from the repository root (make ui does), or pass -src and -dist.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"github.com/evanw/esbuild/pkg/api"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bundle", flag.ContinueOnError)
	fs.SetOutput(stderr)
	src := fs.String("src", "", "UI sources (default: frontend/src, found from the working directory)")
	dist := fs.String("dist", "", "output folder (default: the sibling dist of -src)")
	watch := fs.Bool("watch", false, "rebuild when a source changes (no minify, inline source maps)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *src == "" {
		*src = findSrc()
	}
	if *dist == "" {
		*dist = filepath.Join(filepath.Dir(*src), "dist")
	}
	opts := options{src: *src, dist: *dist, dev: *watch}
	if *watch {
		if err := watchBuild(opts, stdout, stderr); err != nil {
			fmt.Fprintln(stderr, "bundle:", err)
			return 1
		}
		return 0
	}
	start := time.Now()
	if err := build(opts, stderr); err != nil {
		fmt.Fprintln(stderr, "bundle:", err)
		return 1
	}
	fmt.Fprintf(stdout, "bundle: %s -> %s in %s\n", opts.src, opts.dist, time.Since(start).Round(time.Millisecond))
	return 0
}

// findSrc returns frontend/src relative to the working directory: the
// repository root, frontend/ or frontend/bundle/ all work.
func findSrc() string {
	for _, c := range []string{"frontend/src", "src", "../src"} {
		if st, err := os.Stat(filepath.Join(c, "main.ts")); err == nil && !st.IsDir() {
			return c
		}
	}
	return "frontend/src"
}

type options struct {
	src, dist string
	dev       bool
}

func (o options) buildOptions() api.BuildOptions {
	src, _ := filepath.Abs(o.src)
	dist, _ := filepath.Abs(o.dist)
	b := api.BuildOptions{
		EntryPointsAdvanced: []api.EntryPoint{
			{InputPath: "./main.ts", OutputPath: "app"},
			{InputPath: "./app.css", OutputPath: "app"},
		},
		// Paths relative to src keep the output and its source map
		// identical across checkouts.
		AbsWorkingDir:     src,
		Outdir:            dist,
		Bundle:            true,
		Write:             true,
		Format:            api.FormatIIFE,
		Target:            api.ES2020,
		Platform:          api.PlatformBrowser,
		Sourcemap:         api.SourceMapLinked,
		MinifyWhitespace:  !o.dev,
		MinifyIdentifiers: !o.dev,
		MinifySyntax:      !o.dev,
		LegalComments:     api.LegalCommentsNone,
		Charset:           api.CharsetUTF8,
		LogLevel:          api.LogLevelSilent,
		// Bare imports ("@codemirror/view") resolve from the node_modules
		// beside src: frontend/node_modules.
		NodePaths: []string{filepath.Join(filepath.Dir(src), "node_modules")},
	}
	if o.dev {
		b.Sourcemap = api.SourceMapInline
	}
	return b
}

// build runs one production (or dev) build into o.dist.
func build(o options, stderr io.Writer) error {
	if _, err := os.Stat(filepath.Join(o.src, "main.ts")); err != nil {
		return fmt.Errorf("no UI sources: %w", err)
	}
	if _, err := os.Stat(filepath.Join(filepath.Dir(o.src), "node_modules")); err != nil {
		return fmt.Errorf("the UI's npm packages are not installed (%w): run make ui, or npm ci in %s", err, filepath.Dir(o.src))
	}
	if err := os.MkdirAll(o.dist, 0o755); err != nil {
		return err
	}
	if err := cleanDist(o.dist); err != nil {
		return err
	}
	res := api.Build(o.buildOptions())
	if err := report(res, stderr); err != nil {
		return err
	}
	return copyHTML(o)
}

func report(res api.BuildResult, stderr io.Writer) error {
	for _, m := range api.FormatMessages(res.Warnings, api.FormatMessagesOptions{Kind: api.WarningMessage}) {
		fmt.Fprint(stderr, m)
	}
	if len(res.Errors) > 0 {
		for _, m := range api.FormatMessages(res.Errors, api.FormatMessagesOptions{Kind: api.ErrorMessage}) {
			fmt.Fprint(stderr, m)
		}
		return fmt.Errorf("%d error(s)", len(res.Errors))
	}
	return nil
}

// cleanDist removes earlier output but keeps .gitkeep, which go:embed
// needs before the UI is built.
func cleanDist(dist string) error {
	entries, err := os.ReadDir(dist)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.Name() == ".gitkeep" {
			continue
		}
		if err := os.RemoveAll(filepath.Join(dist, e.Name())); err != nil {
			return err
		}
	}
	keep := filepath.Join(dist, ".gitkeep")
	if _, err := os.Stat(keep); errors.Is(err, os.ErrNotExist) {
		return os.WriteFile(keep, nil, 0o644)
	}
	return nil
}

func copyHTML(o options) error {
	b, err := os.ReadFile(filepath.Join(o.src, "index.html"))
	if err != nil {
		return err
	}
	b = bytes.ReplaceAll(b, []byte("\r\n"), []byte("\n"))
	return os.WriteFile(filepath.Join(o.dist, "index.html"), b, 0o644)
}

// watchBuild rebuilds on every change of the entry graph; index.html is
// copied after each build by an OnEnd plugin, since esbuild does not
// watch it.
func watchBuild(o options, stdout, stderr io.Writer) error {
	if err := os.MkdirAll(o.dist, 0o755); err != nil {
		return err
	}
	bo := o.buildOptions()
	bo.Plugins = []api.Plugin{{
		Name: "captionqa-html",
		Setup: func(pb api.PluginBuild) {
			pb.OnEnd(func(r *api.BuildResult) (api.OnEndResult, error) {
				_ = report(*r, stderr)
				if len(r.Errors) == 0 {
					if err := copyHTML(o); err != nil {
						fmt.Fprintln(stderr, "bundle:", err)
					}
					fmt.Fprintf(stdout, "bundle: rebuilt at %s\n", time.Now().Format(time.TimeOnly))
				}
				return api.OnEndResult{}, nil
			})
		},
	}}
	ctx, cerr := api.Context(bo)
	if cerr != nil {
		return errors.New(strings.TrimSpace(cerr.Error()))
	}
	defer ctx.Dispose()
	if err := ctx.Watch(api.WatchOptions{}); err != nil {
		return err
	}
	fmt.Fprintln(stdout, "bundle: watching", o.src, "(Ctrl-C stops)")
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt)
	<-sig
	return nil
}
