package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// tree writes files (slash paths under root) and returns root.
func tree(t *testing.T, root string, files map[string]string) string {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// snapshot reads every file under root, by slash path.
func snapshot(t *testing.T, root string) map[string]string {
	t.Helper()
	got := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		got[relSlash(root, p)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return got
}

var outDirInputs = map[string]string{
	"a/clean.srt":  sampleSRT,
	"a/b/fast.srt": fastSRT,
	"ir.json":      `{"version":1,"cues":[{"id":"1","startMs":0,"endMs":2000,"text":"Hello."}]}`,
	"broken.vtt":   "WEBVTT\n\nnothing here\n",
	"notes.txt":    "not captions",
}

// TestProcessOutDir: each delivery lands under OUT at its input's path
// with the preset's extension, in folders made for it; the inputs stay
// as they were, a file that failed writes nothing, and the summary counts
// the deliveries. A second run writes the same deliveries again.
func TestProcessOutDir(t *testing.T) {
	t.Parallel()
	dir := tree(t, t.TempDir(), outDirInputs)
	out := filepath.Join(t.TempDir(), "deliveries", "html5")
	for range 2 {
		code, stdout, stderr := run(t, "", "process", dir, "--preset", "html5", "--out-dir", out)
		if code != 1 {
			t.Errorf("exit = %d; want 1 (broken.vtt failed)\n%s%s", code, stdout, stderr)
		}
		if want := "3 deliveries written to " + out; !strings.Contains(stdout, want) {
			t.Errorf("summary lacks %q:\n%s", want, stdout)
		}
	}
	got := snapshot(t, out)
	if len(got) != 3 {
		t.Errorf("OUT holds %v; want a/clean.vtt, a/b/fast.vtt, ir.vtt", keys(got))
	}
	for _, name := range []string{"a/clean.vtt", "a/b/fast.vtt", "ir.vtt"} {
		if !strings.HasPrefix(got[name], "WEBVTT") {
			t.Errorf("%s = %q; want a WebVTT delivery", name, got[name])
		}
	}
	// The delivery is the one `process FILE --out` writes.
	one := filepath.Join(t.TempDir(), "clean.vtt")
	if code, _, stderr := run(t, "", "process", filepath.Join(dir, "a", "clean.srt"), "--preset", "html5", "--out", one); code != 0 {
		t.Fatalf("process FILE: exit %d: %s", code, stderr)
	}
	if b, _ := os.ReadFile(one); string(b) != got["a/clean.vtt"] {
		t.Errorf("a/clean.vtt = %q; process FILE --out wrote %q", got["a/clean.vtt"], b)
	}
	if in := snapshot(t, dir); len(in) != len(outDirInputs) {
		t.Errorf("DIR holds %v after the runs; want only its inputs", keys(in))
	} else {
		for name, content := range outDirInputs {
			if in[name] != content {
				t.Errorf("input %s changed", name)
			}
		}
	}

	t.Run("json", func(t *testing.T) {
		t.Parallel()
		out := filepath.Join(t.TempDir(), "json")
		_, stdout, _ := run(t, "", "process", dir, "--preset", "developer-json", "--out-dir", out, "--format", "json")
		var res struct {
			Totals totals       `json:"totals"`
			Files  []fileResult `json:"files"`
		}
		if err := json.Unmarshal([]byte(stdout), &res); err != nil {
			t.Fatalf("%v\n%s", err, stdout)
		}
		if res.Totals.Deliveries == nil || *res.Totals.Deliveries != 3 {
			t.Errorf("totals = %+v; want 3 deliveries", res.Totals)
		}
		// Files come sorted: a/b/fast.srt, a/clean.srt, broken.vtt, ir.json.
		want := []string{"a/b/fast.json", "a/clean.json", "", "ir.json"}
		for i, f := range res.Files {
			if i < len(want) && f.Delivery != want[i] {
				t.Errorf("%s: delivery %q; want %q", f.File, f.Delivery, want[i])
			}
		}
		if _, err := os.Stat(filepath.Join(out, "ir.json")); err != nil {
			t.Error(err)
		}
	})
	t.Run("junit counts on stderr", func(t *testing.T) {
		t.Parallel()
		out := filepath.Join(t.TempDir(), "junit")
		_, stdout, stderr := run(t, "", "process", dir, "--preset", "html5", "--out-dir", out, "--format", "junit")
		if !strings.HasPrefix(stdout, "<?xml") || !strings.Contains(stderr, "3 deliveries written to "+out) {
			t.Errorf("stdout %.40q, stderr %q; want the XML and the count on stderr", stdout, stderr)
		}
	})
	t.Run("without --out-dir no count", func(t *testing.T) {
		t.Parallel()
		_, stdout, _ := run(t, "", "process", dir, "--format", "json")
		if strings.Contains(stdout, `"deliveries"`) || strings.Contains(stdout, `"delivery"`) {
			t.Errorf("a run without --out-dir mentions deliveries:\n%s", stdout)
		}
	})
}

// TestProcessOutDirRefused: an OUT that is DIR (by any name) or inside it,
// or a file, is refused before anything is read or written, as is
// --out-dir for a single FILE.
func TestProcessOutDirRefused(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	dir := tree(t, filepath.Join(root, "in"), map[string]string{"a.srt": sampleSRT})
	if err := os.Symlink(dir, filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	tree(t, root, map[string]string{"file.txt": "x"})
	for _, tc := range []struct {
		name, out, file, want string
	}{
		{"DIR itself", dir, dir, "is the folder being checked"},
		{"DIR with a trailing dot", filepath.Join(dir, "."), dir, "is the folder being checked"},
		{"DIR through a symbolic link", filepath.Join(root, "link"), dir, "is the folder being checked"},
		{"inside DIR", filepath.Join(dir, "out"), dir, "inside the folder being checked"},
		{"inside DIR, through the link", filepath.Join(root, "link", "x", "y"), dir, "inside the folder being checked"},
		{"a file", filepath.Join(root, "file.txt"), dir, "is a file"},
		{"a single FILE", filepath.Join(root, "out"), filepath.Join(dir, "a.srt"), "--out-dir applies to a folder"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			code, stdout, stderr := run(t, "", "process", tc.file, "--preset", "html5", "--out-dir", tc.out)
			if code != 2 || stdout != "" || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want 2 and %q", code, stdout, stderr, tc.want)
			}
		})
	}
	if got := snapshot(t, dir); len(got) != 1 || got["a.srt"] != sampleSRT {
		t.Errorf("DIR holds %v; want a.srt unchanged", keys(got))
	}
	if _, err := os.Stat(filepath.Join(root, "out")); !os.IsNotExist(err) {
		t.Errorf("a refused run made its OUT: %v", err)
	}
}

// TestProcessOutDirConflicts: a file whose delivery would overwrite an
// input (DIR inside OUT) or another file's delivery fails with
// out_dir_conflict and writes nothing; the others are written.
func TestProcessOutDirConflicts(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	// DIR is root/sub and OUT is root: sub/x.srt's delivery is
	// root/sub/x.vtt, the input x.vtt. a.sbv and a.srt both become a.vtt.
	dir := tree(t, filepath.Join(root, "sub"), map[string]string{
		"x.vtt":     "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHi.\n",
		"sub/x.srt": sampleSRT,
		"a.sbv":     "0:00:01.000,0:00:02.000\nHi.\n",
		"a.srt":     sampleSRT,
	})
	before := snapshot(t, dir)
	_, stdout, _ := run(t, "", "process", dir, "--preset", "html5", "--out-dir", root, "--format", "json")
	var res struct {
		Totals totals       `json:"totals"`
		Files  []fileResult `json:"files"`
	}
	if err := json.Unmarshal([]byte(stdout), &res); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	conflicts := map[string]string{}
	for _, f := range res.Files {
		if f.Error == errOutDirConflict {
			conflicts[f.File] = f.Summary
		}
	}
	if !strings.Contains(conflicts["sub/x.srt"], "overwrite the input x.vtt") || !strings.Contains(conflicts["a.srt"], "already a.sbv's") || len(conflicts) != 2 {
		t.Errorf("conflicts = %q; want sub/x.srt (the input x.vtt) and a.srt (a.sbv's)", conflicts)
	}
	if res.Totals.Deliveries == nil || *res.Totals.Deliveries != 2 {
		t.Errorf("totals = %+v; want 2 deliveries (a.sbv, x.vtt)", res.Totals)
	}
	after := snapshot(t, dir)
	for name, content := range before {
		if after[name] != content {
			t.Errorf("input %s was overwritten", name)
		}
	}
	if b, err := os.ReadFile(filepath.Join(root, "a.vtt")); err != nil || !strings.Contains(string(b), "Hi.") {
		t.Errorf("a.vtt = %q, %v; want a.sbv's delivery", b, err)
	}
}

func keys(m map[string]string) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	return ks
}
