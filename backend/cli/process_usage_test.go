package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProcessUsageErrorsOnce: a usage error exits 2 and says what is wrong
// on stderr exactly once, naming the values that would be accepted.
func TestProcessUsageErrorsOnce(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "clean.srt")
	writeAt(t, file, plainSRT)
	tests := []struct {
		name      string
		args      []string
		wantOnce  string   // appears exactly once on stderr
		wantNames []string // the valid values, somewhere on stderr
		envelope  bool     // FILE mode also prints the error envelope on stdout
	}{
		{"dir: unknown standard", []string{"process", dir, "--standard", "bogus"}, `unknown standard "bogus"`, []string{"wcag-2.1-aa", "dcmp"}, false},
		{"dir: unknown preset", []string{"process", dir, "--preset", "bogus"}, `unknown preset "bogus"`, []string{"youtube", "vimeo"}, false},
		{"dir: unknown fix profile", []string{"process", dir, "--fix-profile", "bogus"}, `unknown fix profile "bogus"`, []string{"warn-only"}, false},
		{"dir: unknown format", []string{"process", dir, "--format", "xml"}, "--format", []string{"table", "json", "junit"}, false},
		{"dir: unknown flag", []string{"process", dir, "--bogus"}, "-bogus", []string{"-format", "-standard"}, false},
		{"file: unknown standard", []string{"process", file, "--standard", "bogus"}, `unknown standard "bogus"`, []string{"wcag-2.1-aa"}, true},
		{"file: unknown preset", []string{"process", file, "--preset", "bogus"}, `unknown preset "bogus"`, []string{"youtube"}, true},
		{"file: folder format", []string{"process", file, "--format", "junit"}, "--format junit", []string{"JSON"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			code, out, errOut := run(t, "", tt.args...)
			if code != ExitUsage {
				t.Errorf("exit = %d; want %d", code, ExitUsage)
			}
			if got := strings.Count(errOut, tt.wantOnce); got != 1 {
				t.Errorf("stderr says %q %d times; want once:\n%s", tt.wantOnce, got, errOut)
			}
			for _, name := range tt.wantNames {
				if !strings.Contains(errOut, name) {
					t.Errorf("stderr does not name %q:\n%s", name, errOut)
				}
			}
			if (out != "") != tt.envelope {
				t.Errorf("stdout = %q; want an envelope: %v", out, tt.envelope)
			}
		})
	}
}

// writeAt writes content to path, creating its folder.
func writeAt(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}
