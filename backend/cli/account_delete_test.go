package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/httpapi"
	"github.com/captionqa/captionqa/backend/server"
)

// TestAccountDelete: account delete needs --yes, then removes the
// account, its rows and its export files, and leaves other accounts and
// theirs alone.
func TestAccountDelete(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, email := range []string{"gone@example.com", "stays@example.com"} {
		if code, _, stderr := admin(t, dir, "account", "create", "--email", email, "--tier", "pro"); code != 0 {
			t.Fatalf("account create: %d %s", code, stderr)
		}
	}
	exportOf := func(email string) string {
		t.Helper()
		code, out, stderr := admin(t, dir, "project", "create", writeTemp(t, "show.srt", projectSRT), "--account", email, "--json")
		if code != 0 {
			t.Fatalf("project create: %d %s", code, stderr)
		}
		p := decode[httpapi.ProjectView](t, out)
		code, out, stderr = admin(t, dir, "project", "export", p.ID, "--presets", "youtube", "--account", email, "--json")
		if code != 0 {
			t.Fatalf("export: %d %s", code, stderr)
		}
		return filepath.Join(dir, server.BlobsDir, "artifacts", decode[exportBody](t, out).ExportID)
	}
	gone, stays := exportOf("gone@example.com"), exportOf("stays@example.com")

	if code, _, stderr := admin(t, dir, "account", "delete", "--email", "gone@example.com"); code != ExitUsage || !strings.Contains(stderr, "--yes") {
		t.Errorf("delete without --yes: %d %s", code, stderr)
	}
	code, out, stderr := admin(t, dir, "account", "delete", "--email", "gone@example.com", "--yes")
	if code != 0 || !strings.Contains(out, "Deleted account gone@example.com") {
		t.Fatalf("delete: %d %s %s", code, out, stderr)
	}
	if code, _, stderr := admin(t, dir, "account", "delete", "--email", "gone@example.com", "--yes"); code != 1 || !strings.Contains(stderr, "not found") {
		t.Errorf("delete again: %d %s", code, stderr)
	}
	if entries, err := os.ReadDir(gone); err == nil && len(entries) > 0 {
		t.Errorf("the deleted account's export files are left: %v", entries)
	}
	if entries, err := os.ReadDir(stays); err != nil || len(entries) == 0 {
		t.Errorf("another account's export files went too: %v, %v", entries, err)
	}
	if _, out, _ := admin(t, dir, "account", "list"); strings.Contains(out, "gone@example.com") || !strings.Contains(out, "stays@example.com") {
		t.Errorf("account list after the delete:\n%s", out)
	}
}
