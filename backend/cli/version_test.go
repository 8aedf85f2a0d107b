package cli

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"regexp"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

func stamped(settings ...string) *debug.BuildInfo {
	bi := &debug.BuildInfo{}
	for i := 0; i+1 < len(settings); i += 2 {
		bi.Settings = append(bi.Settings, debug.BuildSetting{Key: settings[i], Value: settings[i+1]})
	}
	return bi
}

func TestResolveBuild(t *testing.T) {
	t.Parallel()
	vcs := stamped("vcs", "git", "vcs.revision", "0123456789abcdef0123456789abcdef01234567", "vcs.time", "2026-11-26T15:00:00+01:00", "vcs.modified", "false")
	dirty := stamped("vcs.revision", "0123456789abcdef", "vcs.time", "2026-11-26T14:00:00Z", "vcs.modified", "true")
	// What go build stamps in a checkout (Go 1.24 and later): the main
	// module's version from the commit, a tag or a pseudo-version.
	pseudo := stamped("vcs", "git", "vcs.revision", "0123456789abcdef0123456789abcdef01234567", "vcs.time", "2026-11-26T14:00:00Z", "vcs.modified", "false")
	pseudo.Main.Version = "v0.0.0-20261126140000-0123456789ab"
	pseudoDirty := stamped("vcs.revision", "0123456789abcdef", "vcs.time", "2026-11-26T14:00:00Z", "vcs.modified", "true")
	pseudoDirty.Main.Version = "v0.0.0-20261126140000-0123456789ab+dirty"
	tagged := stamped("vcs.revision", "0123456789abcdef", "vcs.time", "2026-11-26T14:00:00Z", "vcs.modified", "false")
	tagged.Main.Version = "v0.1.0"
	devel := stamped("vcs.revision", "0123456789abcdef", "vcs.time", "2026-11-26T14:00:00Z")
	devel.Main.Version = "(devel)"
	tests := []struct {
		name                  string
		version, commit, date string
		bi                    *debug.BuildInfo
		want                  string
	}{
		{"linked by make", "0.1.0", "abc1234", "2026-11-26T14:00:00Z", vcs, "captionqa 0.1.0 (commit abc1234, built 2026-11-26T14:00:00Z)"},
		{"linked, no build info", "0.1.0", "abc1234-dirty", "2026-11-26T14:00:00Z", nil, "captionqa 0.1.0 (commit abc1234-dirty, built 2026-11-26T14:00:00Z)"},
		{"plain go build: the VCS stamp, in UTC", "", "", "", vcs, "captionqa dev (commit 0123456, built 2026-11-26T14:00:00Z)"},
		{"plain go build, uncommitted changes", "", "", "", dirty, "captionqa dev (commit 0123456-dirty, built 2026-11-26T14:00:00Z)"},
		{"no VCS stamp (go test, a tarball of the source)", "", "", "", stamped("-trimpath", "true"), "captionqa dev (commit unknown, built unknown)"},
		{"no build info at all", "", "", "", nil, "captionqa dev (commit unknown, built unknown)"},
		{"a short revision", "", "", "", stamped("vcs.revision", "abc"), "captionqa dev (commit abc, built unknown)"},
		{"linked version only", "1.2.3", "", "", vcs, "captionqa 1.2.3 (commit 0123456, built 2026-11-26T14:00:00Z)"},
		{"plain go build: the module version from the commit", "", "", "", pseudo, "captionqa v0.0.0-20261126140000-0123456789ab (commit 0123456, built 2026-11-26T14:00:00Z)"},
		{"plain go build, uncommitted changes: -dirty once", "", "", "", pseudoDirty, "captionqa v0.0.0-20261126140000-0123456789ab (commit 0123456-dirty, built 2026-11-26T14:00:00Z)"},
		{"plain go build of a tag", "", "", "", tagged, "captionqa v0.1.0 (commit 0123456, built 2026-11-26T14:00:00Z)"},
		{"linked version over the module's", "0.1.0", "", "", pseudo, "captionqa 0.1.0 (commit 0123456, built 2026-11-26T14:00:00Z)"},
		{"(devel): no module version", "", "", "", devel, "captionqa dev (commit 0123456, built 2026-11-26T14:00:00Z)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := resolveBuild(tt.version, tt.commit, tt.date, tt.bi)
			var out bytes.Buffer
			if code := printVersion(&out, b, false); code != ExitOK {
				t.Fatalf("exit %d", code)
			}
			if got, want := out.String(), tt.want+"\n"; got != want {
				t.Errorf("got %q, want %q", got, want)
			}
			if b.Go != runtime.Version() {
				t.Errorf("go = %q, want %q", b.Go, runtime.Version())
			}
		})
	}
}

func TestPrintVersionJSON(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	printVersion(&out, resolveBuild("0.1.0", "abc1234", "2026-11-26T14:00:00Z", nil), true)
	var got map[string]string
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatalf("%v: %s", err, out.String())
	}
	want := map[string]string{"version": "0.1.0", "commit": "abc1234", "date": "2026-11-26T14:00:00Z", "go": runtime.Version()}
	if len(got) != len(want) {
		t.Errorf("got %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s = %q, want %q", k, got[k], v)
		}
	}
}

// TestVersionCommand runs the command as the test binary was built: no
// linked values, so version "dev".
func TestVersionCommand(t *testing.T) {
	t.Parallel()
	code, out, errOut := run(t, "", "version")
	if code != ExitOK || !regexp.MustCompile(`^captionqa dev \(commit ([0-9a-f]{7}(-dirty)?|unknown), built \S+\)\n$`).MatchString(out) {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	code, out, _ = run(t, "", "version", "--json")
	var b buildInfo
	if err := json.Unmarshal([]byte(out), &b); code != ExitOK || err != nil || b.Version != "dev" || b.Go == "" {
		t.Errorf("--json: exit %d, %v, %q", code, err, out)
	}
	if code, _, errOut := run(t, "", "version", "extra"); code != ExitUsage || !strings.Contains(errOut, "version takes no arguments") {
		t.Errorf("extra argument: exit %d, stderr %q", code, errOut)
	}
	if code, _, errOut := run(t, "", "version", "--help"); code != ExitOK || !strings.Contains(errOut, "Usage: captionqa version [--json]") {
		t.Errorf("--help: exit %d, stderr %q", code, errOut)
	}
	if code, out, _ := run(t, "", "help"); code != ExitOK || !regexp.MustCompile(`(?m)^  version +print the version`).MatchString(out) {
		t.Errorf("help does not list version: %q", out)
	}
}

func TestBuildLogValue(t *testing.T) {
	t.Parallel()
	var logs bytes.Buffer
	slog.New(slog.NewTextHandler(&logs, nil)).Info("serving", "build", resolveBuild("0.1.0", "abc1234", "2026-11-26T14:00:00Z", nil))
	if want := "build.version=0.1.0 build.commit=abc1234 build.date=2026-11-26T14:00:00Z build.go=" + runtime.Version(); !strings.Contains(logs.String(), want) {
		t.Errorf("log %q does not contain %q", logs.String(), want)
	}
}
