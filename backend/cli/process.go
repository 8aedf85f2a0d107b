package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/captionqa/captionqa/backend/analysis"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/engine"
	"github.com/captionqa/captionqa/backend/jsonw"
	"github.com/captionqa/captionqa/backend/preset"
	"github.com/captionqa/captionqa/backend/server"
	"github.com/captionqa/captionqa/backend/userpreset"
)

// ExitNeedsAttention is the exit code of process when a delivery still has
// enforced problems, so a pipeline can gate on it.
const ExitNeedsAttention = 3

const processUsage = "FILE|DIR [--preset P | --preset-file FILE] [--fix-profile F] [--standard S] [--language TAG] [--media VIDEO | --analysis FILE] [--out FILE] [--out-dir OUT] [--report FILE.html|.pdf|.csv] [--all-diagnostics] [--format table|json|junit]"

type processFlags struct {
	preset, profile, standard, language, from, out, format string
	// outDir receives each file's delivery (DIR mode; see out_dir.go).
	outDir string
	// presetFile is a preset file of the user's own, resolved into
	// resolved against the built-ins (docs/presets.md, Your own presets).
	presetFile string
	resolved   *preset.Preset
	// report names the QC report to write (FILE mode); its extension
	// is its format.
	report string
	// media and analysis name the programme to check against: a video
	// analysed here, or a previous analyze --json.
	media, analysis, ffmpeg string
	// allDiagnostics lists every entry of the result's lists (FILE mode);
	// by default each keeps the first engine.MaxPerCode of each code, as
	// the API does.
	allDiagnostics bool
}

// runProcess checks one caption file and prints the process result as
// JSON, or checks every caption file under a folder and prints a summary.
func runProcess(ctx context.Context, args []string, env Env) int {
	fs := newFlagSet("process", processUsage, env)
	var f processFlags
	fs.StringVar(&f.preset, "preset", "youtube", "platform preset: youtube, tiktok, html5, generic, lms, instagram-reels, linkedin, vimeo, facebook, zoom, developer-json")
	fs.StringVar(&f.presetFile, "preset-file", "", "a preset file of your own: a built-in base and its overrides (docs/presets.md, Your own presets); instead of --preset")
	fs.StringVar(&f.profile, "fix-profile", "warn-only", "fix profile: warn-only, layout-preserve-breaks, auto-split-sentences, auto-split-cps, resync, snap-shot-changes")
	fs.StringVar(&f.standard, "standard", "", "grade against a standard: wcag-2.1-aa, en-301-549, fcc-79.1, dcmp")
	fs.StringVar(&f.language, "language", "", "the captions' language as a BCP 47 tag (e.g. en-GB), for files that declare none")
	fs.StringVar(&f.from, "from", "", "input format (default: detected)")
	fs.StringVar(&f.out, "out", "", "also write the delivery file here (FILE mode only)")
	fs.StringVar(&f.outDir, "out-dir", "", "DIR mode: write each file's delivery under this folder, at the file's path with the preset's extension")
	fs.StringVar(&f.report, "report", "", "also write the QC report here, as HTML, PDF or CSV by the extension: .html, .pdf, .csv (FILE mode only)")
	fs.StringVar(&f.format, "format", "table", "DIR mode output: table, json or junit")
	fs.BoolVar(&f.allDiagnostics, "all-diagnostics", false, fmt.Sprintf("list every diagnostic, fix and suggestion (FILE mode); by default each list keeps the first %d of each code and counts the rest under \"omitted\"", engine.MaxPerCode))
	fs.StringVar(&f.media, "media", "", "check against this programme, analysed first (FILE mode): sync to speech, uncaptioned speech, shot changes")
	fs.StringVar(&f.analysis, "analysis", "", "check against this analysis, from captionqa analyze --json (FILE mode)")
	fs.StringVar(&f.ffmpeg, "ffmpeg", envOr(envFFmpeg, ""), "the ffmpeg binary for --media (env "+envFFmpeg+"; default: ffmpeg on the PATH)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return usageFailed(err)
	}
	if len(pos) != 1 {
		fs.Usage()
		return usageError(env, "process takes exactly one FILE or DIR")
	}
	if f.media != "" && f.analysis != "" {
		return usageError(env, "--media and --analysis are one or the other")
	}
	if f.presetFile != "" && flagsSet(fs)["preset"] {
		return usageError(env, "--preset and --preset-file are one or the other")
	}
	// The command line reads local files: the API's request limit does not
	// apply, only the guard against non-caption files in readInput.
	eng, err := server.NewEngine(maxInput)
	if err != nil {
		fmt.Fprintf(env.Stderr, "captionqa: %v\n", err)
		return ExitEmpty
	}
	if f.presetFile != "" {
		if f.resolved, err = readPresetFile(eng, f.presetFile); err != nil {
			return printError(env, err)
		}
	}
	if st, err := os.Stat(pos[0]); err == nil && st.IsDir() {
		if f.out != "" || f.report != "" || f.media != "" || f.analysis != "" {
			return usageError(env, "--out, --report, --media and --analysis apply to a single FILE, not a folder")
		}
		return processDir(ctx, eng, pos[0], f, env)
	}
	if f.outDir != "" {
		return usageError(env, "--out-dir applies to a folder; a single FILE writes its delivery with --out")
	}
	if f.report != "" && reportFormat(f.report) == "" {
		return usageError(env, "--report %s: name a .html, .pdf or .csv file", f.report)
	}
	if flagsSet(fs)["format"] && f.format != "json" {
		return usageError(env, "--format %s applies to a folder; a single FILE prints the process result as JSON", f.format)
	}
	return processFile(ctx, eng, pos[0], f, env)
}

func processFile(ctx context.Context, eng *engine.Engine, path string, f processFlags, env Env) int {
	data, err := readInput(path, env)
	if err != nil {
		// The envelope on stdout, as for every failure of one file, so a
		// pipeline reads one shape.
		return printError(env, apperr.New(apperr.BadRequest, "%v", err).WithDetail("field", "file"))
	}
	var programme *analysis.Analysis
	switch {
	case f.analysis != "":
		programme, err = readAnalysis(f.analysis)
	case f.media != "":
		programme, err = analyzeLocal(ctx, f.media, f.ffmpeg)
	}
	if err != nil {
		return printError(env, err)
	}
	res, err := eng.Process(ctx, engine.Request{
		Filename: path, Data: data, From: f.from, Preset: f.preset, Resolved: f.resolved, FixProfile: f.profile, Standard: f.standard,
		Language: f.language, AllDiagnostics: f.allDiagnostics, Media: programme,
	})
	if err != nil {
		return printError(env, err)
	}
	if f.out != "" {
		if err := os.WriteFile(f.out, []byte(res.Output), 0o644); err != nil {
			return printError(env, apperr.New(apperr.BadRequest, "--out: %v", err).WithDetail("field", "out"))
		}
	}
	if f.report != "" {
		if err := writeReport(f.report, path, data, f.from, res, programme); err != nil {
			return printError(env, apperr.New(apperr.BadRequest, "--report: %v", err).WithDetail("field", "report"))
		}
	}
	if err := writeResult(env.Stdout, res); err != nil {
		fmt.Fprintf(env.Stderr, "captionqa: %v\n", err)
		return ExitEmpty
	}
	if res.DeliveryStatus == engine.NeedsAttention {
		return ExitNeedsAttention
	}
	return ExitOK
}

// readPresetFile reads a preset file and derives it from its built-in
// base; the preset is named for the file (studio-a.json is studio-a). A
// file that does not check is [apperr.BadRequest] with details.field the
// first bad field and details.errors every one, as the API words it.
func readPresetFile(eng *engine.Engine, path string) (*preset.Preset, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, apperr.New(apperr.BadRequest, "--preset-file: %v", err).WithDetail("field", "presetFile")
	}
	id := strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	p, err := eng.Presets().ParseAndDerive(id, data)
	if err != nil {
		return nil, userpreset.InvalidFile(err)
	}
	return p, nil
}

// writeResult prints res as indented JSON, the document encoding/json's
// indenting encoder would print, but streamed: the result's own encoder
// (the API's) writes through an indenter, so a result of tens of
// megabytes is neither built whole nor re-read, and printing costs a
// fraction of the engine's time rather than several times it.
func writeResult(w io.Writer, res *engine.Result) error {
	ind := jsonw.NewIndenter(w, "  ")
	e := jsonw.NewEncoder(ind)
	res.EncodeJSON(e)
	if err := e.Flush(); err != nil {
		return err
	}
	if err := ind.Flush(); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// printError prints the API's error envelope on standard output, so a
// script reads the same shape as from the API. A bad request (unknown
// preset, profile or standard) is a usage error; anything else means the
// file could not be processed.
func printError(env Env, err error) int {
	e, ok := apperr.As(err)
	if !ok {
		if errors.Is(err, context.Canceled) {
			return ExitEmpty
		}
		e = apperr.New(apperr.Internal, "%v", err)
	}
	enc := json.NewEncoder(env.Stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	_ = enc.Encode(e.Envelope())
	// The message once: err's text would repeat it, with its cause, after
	// the code. Only an internal error, whose envelope hides it, shows all.
	msg := e.Message
	if e.Kind == apperr.Internal {
		msg = err.Error()
	}
	fmt.Fprintf(env.Stderr, "captionqa: %s\n", msg)
	if e.Kind == apperr.BadRequest {
		return ExitUsage
	}
	return ExitEmpty
}
