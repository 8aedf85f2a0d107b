package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Where `process DIR --out-dir OUT` writes the deliveries (docs/cli.md):
// OUT/<the file's path under DIR, with the preset's extension>. The plan
// is made before any file is checked, so a run that cannot write what it
// was asked to is refused at once, and every file's target is known.

// errOutDirConflict is the code of a file whose delivery has nowhere safe
// to go: its target is an input, or another file's target.
const errOutDirConflict = "out_dir_conflict"

// planDeliveries returns, for each of files (under dir), where its
// delivery goes under out, or the reason it cannot go anywhere (then its
// target is ""). OUT equal to DIR, or inside it, is refused as a whole:
// beside its input a delivery in the input's own format (a .vtt checked
// for a WebVTT preset) would replace it, and in a folder under DIR the
// next check of DIR would take the deliveries for inputs and write
// deliveries of deliveries. A file whose target is an input (DIR inside
// OUT can do that) or the target of a file before it (a.srt and a.vtt
// both become a.vtt) gets a reason instead, so no input and no delivery
// of this run is overwritten.
func planDeliveries(dir, out, ext string, files []string) (targets, reasons []string, err error) {
	realDir, err := realPath(dir)
	if err != nil {
		return nil, nil, err
	}
	realOut, err := realPath(out)
	if err != nil {
		return nil, nil, fmt.Errorf("--out-dir: %w", err)
	}
	if realOut == realDir {
		return nil, nil, fmt.Errorf("--out-dir %s is the folder being checked: a delivery in its input's format would replace the input; name another folder", out)
	}
	if within(realOut, realDir) {
		return nil, nil, fmt.Errorf("--out-dir %s is inside the folder being checked: the next check of %s would read the deliveries as inputs; name a folder outside it", out, dir)
	}
	if st, err := os.Stat(out); err == nil && !st.IsDir() {
		return nil, nil, fmt.Errorf("--out-dir %s is a file, not a folder", out)
	}
	inputs := make(map[string]string, len(files))
	for _, p := range files {
		rp, err := realPath(p)
		if err != nil {
			return nil, nil, err
		}
		inputs[rp] = relSlash(dir, p)
	}
	targets = make([]string, len(files))
	reasons = make([]string, len(files))
	claimed := make(map[string]string, len(files))
	for i, p := range files {
		rel := relSlash(dir, p)
		t := filepath.Join(out, filepath.FromSlash(strings.TrimSuffix(rel, filepath.Ext(rel))+ext))
		key, err := realPath(t)
		if err != nil {
			return nil, nil, fmt.Errorf("--out-dir: %w", err)
		}
		if in, ok := inputs[key]; ok {
			reasons[i] = fmt.Sprintf("its delivery %s would overwrite the input %s", t, in)
			continue
		}
		if prev, ok := claimed[key]; ok {
			reasons[i] = fmt.Sprintf("its delivery %s is already %s's", t, prev)
			continue
		}
		claimed[key] = rel
		targets[i] = t
	}
	return targets, reasons, nil
}

// writeDelivery writes body to target, creating its folders.
func writeDelivery(target, body string) error {
	if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
		return err
	}
	return os.WriteFile(target, []byte(body), 0o644)
}

// realPath is p made absolute with its symbolic links resolved, as far
// as it exists: the part that does not exist yet (a folder --out-dir
// will create) is joined as written, so two names of one place compare
// equal before either exists.
func realPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	var rest []string
	for cur := abs; ; {
		r, err := filepath.EvalSymlinks(cur)
		if err == nil {
			return filepath.Join(append([]string{r}, rest...)...), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return abs, nil
		}
		rest = append([]string{filepath.Base(cur)}, rest...)
		cur = parent
	}
}

// within reports whether p is strictly inside dir (both clean and absolute).
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// relSlash is p relative to dir with forward slashes, as the results name files.
func relSlash(dir, p string) string {
	rel, err := filepath.Rel(dir, p)
	if err != nil {
		return filepath.ToSlash(p)
	}
	return filepath.ToSlash(rel)
}
