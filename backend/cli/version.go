package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"runtime/debug"
	"strings"
	"time"
)

// The build's identity, set by the linker: the Makefile passes
// -ldflags "-X github.com/captionqa/captionqa/backend/cli.version=0.1.0"
// and the same for commit and buildDate. They are read-only at run time
// (nothing but the linker writes them) and empty in a plain go build,
// where [currentBuild] falls back to what the go command stamped.
var (
	version   string
	commit    string
	buildDate string
)

const versionUsage = "[--json]"

// buildInfo identifies a binary: its version, the commit it was built from
// (with -dirty when the tree had uncommitted changes) and when, in RFC 3339
// UTC. Unknown parts read "unknown".
type buildInfo struct {
	Version string `json:"version"`
	Commit  string `json:"commit"`
	Date    string `json:"date"`
	Go      string `json:"go"`
}

// String is the line captionqa version prints.
func (b buildInfo) String() string {
	return fmt.Sprintf("captionqa %s (commit %s, built %s)", b.Version, b.Commit, b.Date)
}

// LogValue logs the build as a group: build.version=... build.commit=...
func (b buildInfo) LogValue() slog.Value {
	return slog.GroupValue(slog.String("version", b.Version), slog.String("commit", b.Commit),
		slog.String("date", b.Date), slog.String("go", b.Go))
}

// currentBuild returns the running binary's identity.
func currentBuild() buildInfo {
	bi, _ := debug.ReadBuildInfo()
	return resolveBuild(version, commit, buildDate, bi)
}

// resolveBuild prefers the linked values; without them (go build, go
// run) everything comes from the go command's VCS stamp: the version is
// the main module's, which the go command derives from the commit (a tag
// such as v0.1.0, else a pseudo-version v0.0.0-DATE-COMMIT), the commit is
// vcs.revision with vcs.modified, the date vcs.time (the commit's time,
// the best a plain build knows). Only a build without a stamp (go test,
// -buildvcs=false, a source tarball) reads "dev". bi may be nil.
func resolveBuild(linkedVersion, linkedCommit, linkedDate string, bi *debug.BuildInfo) buildInfo {
	b := buildInfo{Version: linkedVersion, Commit: linkedCommit, Date: linkedDate, Go: runtime.Version()}
	vcs := map[string]string{}
	if bi != nil {
		for _, s := range bi.Settings {
			vcs[s.Key] = s.Value
		}
	}
	if b.Version == "" && bi != nil && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		// The commit already says -dirty.
		b.Version = strings.TrimSuffix(bi.Main.Version, "+dirty")
	}
	if b.Version == "" {
		b.Version = "dev"
	}
	if rev := vcs["vcs.revision"]; b.Commit == "" && rev != "" {
		b.Commit = rev[:min(len(rev), 7)]
		if vcs["vcs.modified"] == "true" {
			b.Commit += "-dirty"
		}
	}
	if t, err := time.Parse(time.RFC3339, vcs["vcs.time"]); b.Date == "" && err == nil {
		b.Date = t.UTC().Format(time.RFC3339)
	}
	if b.Commit == "" {
		b.Commit = "unknown"
	}
	if b.Date == "" {
		b.Date = "unknown"
	}
	return b
}

// runVersion prints the build's identity: one line, or JSON with --json.
func runVersion(_ context.Context, args []string, env Env) int {
	fs := newFlagSet("version", versionUsage, env)
	asJSON := fs.Bool("json", false, "print JSON: version, commit, date, go")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return usageFailed(err)
	}
	if len(pos) != 0 {
		return usageError(env, "version takes no arguments")
	}
	return printVersion(env.Stdout, currentBuild(), *asJSON)
}

func printVersion(w io.Writer, b buildInfo, asJSON bool) int {
	if asJSON {
		if err := printJSON(w, b); err != nil {
			return 1
		}
		return ExitOK
	}
	fmt.Fprintln(w, b)
	return ExitOK
}
