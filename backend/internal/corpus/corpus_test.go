package corpus

import (
	"fmt"
	"path/filepath"
	"testing"
)

// recorder is a testing.TB that notes how a test would have ended.
type recorder struct {
	testing.TB
	fatal, skip string
}

func (r *recorder) Helper()                        {}
func (r *recorder) Fatalf(format string, a ...any) { r.fatal = fmt.Sprintf(format, a...) }
func (r *recorder) Skipf(format string, a ...any)  { r.skip = fmt.Sprintf(format, a...) }

func TestDirAbsent(t *testing.T) {
	absent := filepath.Join(t.TempDir(), "no-corpus")
	for _, tt := range []struct {
		ci        string
		wantFatal bool
	}{
		{ci: "true", wantFatal: true},
		{ci: "", wantFatal: false},
	} {
		t.Run("CI="+tt.ci, func(t *testing.T) {
			t.Setenv("CI", tt.ci)
			t.Setenv("CAPTIONQA_CORPUS", absent)
			r := &recorder{TB: t}
			if d := Dir(r); d != "" {
				t.Fatalf("Dir = %q for an absent folder", d)
			}
			if got := r.fatal != ""; got != tt.wantFatal {
				t.Errorf("failed = %v (%q), want %v", got, r.fatal, tt.wantFatal)
			}
			if got := r.skip != ""; got == tt.wantFatal {
				t.Errorf("skipped = %v (%q), want %v", got, r.skip, !tt.wantFatal)
			}
		})
	}
}

func TestDirFromEnv(t *testing.T) {
	d := t.TempDir()
	t.Setenv("CAPTIONQA_CORPUS", d)
	if got := Dir(t); got != d {
		t.Errorf("Dir = %q, want %q", got, d)
	}
}
