package cli

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/caption/format"
	"github.com/captionqa/captionqa/backend/engine"
)

// fileResult is one file of a folder run.
type fileResult struct {
	File        string `json:"file"`
	Status      string `json:"status"` // a delivery status, or "failed"
	InputFormat string `json:"inputFormat,omitempty"`
	Cues        int    `json:"cues"`
	Remaining   int    `json:"remaining"`
	Suggestions int    `json:"suggestions"`
	Summary     string `json:"summary"`
	// Error is the error envelope's code when the file could not be
	// processed, or its delivery not written (write_failed, out_dir_conflict).
	Error string `json:"error,omitempty"`
	// Delivery is where --out-dir wrote the delivery, relative to it.
	Delivery string `json:"delivery,omitempty"`

	problems []caption.Diagnostic // the remaining problems, for JUnit
	elapsed  time.Duration
}

const statusFailed = "failed"

// processDir checks every caption file under dir on all cores, shows
// progress on a terminal, and prints a table, JSON or JUnit XML. It exits
// 1 when a file could not be processed, 3 when one needs attention.
func processDir(ctx context.Context, eng *engine.Engine, dir string, f processFlags, env Env) int {
	if f.format != "table" && f.format != "json" && f.format != "junit" {
		return usageError(env, "--format must be table, json or junit")
	}
	if err := eng.Validate(engine.Request{From: f.from, Preset: f.preset, Resolved: f.resolved, FixProfile: f.profile, Standard: f.standard, Language: f.language}); err != nil {
		msg := err.Error()
		if e, ok := apperr.As(err); ok {
			msg = e.Message
		}
		return usageError(env, "%s", msg)
	}
	files, err := captionFiles(dir)
	if err != nil {
		return usageError(env, "%v", err)
	}
	if len(files) == 0 {
		// A gate that checked nothing must not pass: the folder is most
		// likely the wrong one.
		return usageError(env, "no caption files under %s", dir)
	}
	// Without --out-dir no file has a target, and none a reason.
	targets, reasons := make([]string, len(files)), make([]string, len(files))
	if f.outDir != "" {
		p, err := eng.Presets().Lookup(f.preset)
		if err != nil {
			return usageError(env, "%v", err)
		}
		if targets, reasons, err = planDeliveries(dir, f.outDir, "."+p.Output, files); err != nil {
			return usageError(env, "%v", err)
		}
	}
	start := time.Now()
	results := make([]fileResult, len(files))
	progress := newProgress(env.Stderr, len(files))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(1, len(files))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				results[i] = processOne(ctx, eng, dir, files[i], f, targets[i], reasons[i])
				progress.done(results[i].File)
			}
		}()
	}
	for i := range files {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	progress.finish()

	switch f.format {
	case "json":
		writeJSONResults(env, results, f)
	case "junit":
		writeJUnit(env, results, f, time.Since(start))
		if f.outDir != "" {
			// Standard output is the XML document: the count goes beside the progress.
			fmt.Fprintf(env.Stderr, "%s to %s\n", deliveriesLine(count(results, f.outDir)), f.outDir)
		}
	default:
		writeTable(env, results, f.outDir)
	}
	code := ExitOK
	for _, r := range results {
		switch {
		case r.Status == statusFailed:
			return ExitEmpty
		case r.Status == string(engine.NeedsAttention):
			code = ExitNeedsAttention
		}
	}
	return code
}

// processOne checks one file and, with a target, writes its delivery
// there; a reason (planDeliveries's) fails the file before it is read.
func processOne(ctx context.Context, eng *engine.Engine, dir, path string, f processFlags, target, reason string) (r fileResult) {
	start := time.Now()
	defer func() { r.elapsed = time.Since(start) }()
	r.File = relSlash(dir, path)
	if reason != "" {
		r.Status, r.Error, r.Summary = statusFailed, errOutDirConflict, reason
		return r
	}
	data, err := os.ReadFile(path)
	if err != nil {
		r.Status, r.Error, r.Summary = statusFailed, "read_failed", err.Error()
		return r
	}
	// Every problem: the counts and the JUnit failures list them all, and
	// none of the lists is printed whole.
	res, err := eng.Process(ctx, engine.Request{
		Filename: path, Data: data, From: f.from, Preset: f.preset, Resolved: f.resolved, FixProfile: f.profile, Standard: f.standard,
		Language: f.language, AllDiagnostics: true,
	})
	if err != nil {
		r.Status, r.Summary = statusFailed, err.Error()
		r.Error = apperr.KindOf(err).Code()
		if e, ok := apperr.As(err); ok {
			r.Summary = e.Message
		}
		return r
	}
	r.Status = string(res.DeliveryStatus)
	r.InputFormat = res.Report.InputFormat
	r.Cues = res.Report.InputCues
	r.Remaining = len(res.Report.Remaining)
	r.problems = res.Report.Remaining
	r.Suggestions = len(res.Suggestions)
	r.Summary = res.Report.Summary
	if target != "" {
		if err := writeDelivery(target, res.Output); err != nil {
			r.Status, r.Error, r.Summary = statusFailed, "write_failed", err.Error()
			return r
		}
		r.Delivery = relSlash(f.outDir, target)
	}
	return r
}

// captionFiles lists the files under dir that look like captions: a
// caption extension, and for the ambiguous .xml and .json, content that
// says TTML or IR.
func captionFiles(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != dir && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		ext := strings.ToLower(filepath.Ext(p))
		switch ext {
		case ".srt", ".vtt", ".sbv", ".ass", ".ssa", ".ttml", ".dfxp", ".scc", ".stl":
			files = append(files, p)
		case ".xml", ".json":
			if looksLikeCaptions(p, ext) {
				files = append(files, p)
			}
		}
		return nil
	})
	sort.Strings(files)
	return files, err
}

func looksLikeCaptions(path, ext string) bool {
	head := make([]byte, 4096)
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	n, _ := f.Read(head)
	head = head[:n]
	if ext == ".json" {
		return format.Detect(path, head) == format.JSON && bytes.Contains(head, []byte(`"cues"`))
	}
	return format.Detect(path, head) == format.TTML
}
