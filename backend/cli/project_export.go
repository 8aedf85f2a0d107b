package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/httpapi"
	"github.com/captionqa/captionqa/backend/name"
	"github.com/captionqa/captionqa/backend/project"
	"github.com/captionqa/captionqa/backend/quota"
	"github.com/captionqa/captionqa/backend/server"
)

const projectExportUsage = "PROJECTID --presets a,b [--fix-profile F] [--standard S] [--out DIR] [--account EMAIL] [--data DIR] [--json]"

// exportBody is the JSON of "project export": the 201 body of POST
// /api/v1/projects/{id}/exports, with where --out wrote each file.
type exportBody struct {
	httpapi.ExportCreated
	Artifacts []exportedFile `json:"artifacts"`
}

type exportedFile struct {
	httpapi.ExportedFile
	// Path is where --out wrote the file; absent without --out.
	Path string `json:"path,omitempty"`
}

func newExportBody(e *project.Export) exportBody {
	out := exportBody{ExportCreated: httpapi.NewExportCreated(e)}
	out.Artifacts = make([]exportedFile, len(out.ExportCreated.Artifacts))
	for i, a := range out.ExportCreated.Artifacts {
		out.Artifacts[i] = exportedFile{ExportedFile: a}
	}
	return out
}

func runProjectExport(ctx context.Context, args []string, env Env) int {
	fs := newFlagSet("project export", projectExportUsage, env)
	var pf projectFlags
	pf.register(fs)
	presets := fs.String("presets", "", "comma-separated presets to export to (required), e.g. youtube,lms")
	fix := fs.String("fix-profile", "", "fix profile (default warn-only)")
	standard := fs.String("standard", "", "grade against a standard")
	outDir := fs.String("out", "", "write each delivery file into this folder")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return usageFailed(err)
	}
	if len(pos) != 1 || *presets == "" {
		fs.Usage()
		return usageError(env, "project export takes a PROJECTID and --presets")
	}
	adm, a, err := pf.openAccount(ctx)
	if err != nil {
		return pf.fail(env, err)
	}
	defer adm.Close()
	cfg := server.DefaultConfig()
	cfg.DataDir = pf.data
	x, err := adm.Exporter(ctx, cfg)
	if err != nil {
		return pf.fail(env, err)
	}
	// The pool is the account's own, as for an export through the API.
	e, err := x.Export(ctx, project.Account{ID: a.ID, Pool: quota.AccountPool(a.ID), Cap: a.DailyCap,
		Notify: a.Has(account.FeatureProWorkspace)}, pos[0],
		project.ExportInput{Presets: splitList(*presets), FixProfile: *fix, Standard: *standard})
	if err != nil {
		return pf.fail(env, err)
	}
	body := newExportBody(e)
	if *outDir != "" {
		if err := os.MkdirAll(*outDir, 0o755); err != nil {
			return pf.fail(env, err)
		}
		for i := range body.Artifacts {
			p, err := saveArtifact(ctx, x, body.Artifacts[i].ArtifactID, *outDir)
			if err != nil {
				return pf.fail(env, err)
			}
			body.Artifacts[i].Path = p
		}
	}
	if pf.jsonOut {
		return printed(env, printJSON(env.Stdout, body))
	}
	fmt.Fprintf(env.Stdout, "Export %s of revision %d (%d runs left today).\n", body.ExportID, body.IRRevision, body.RemainingAPIRunsToday)
	tw := newTable(env.Stdout)
	fmt.Fprintln(tw, "PRESET\tSTATUS\tPROBLEMS\tSUGGESTIONS\tSTANDARD\tARTIFACT ID\tFILE\tBYTES")
	for _, f := range body.Artifacts {
		file := f.Filename
		if f.Path != "" {
			file = f.Path
		}
		status, problems, suggestions, graded := verdictColumns(f.Verdict)
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\n", f.Preset, status, problems, suggestions, graded, f.ArtifactID, name.Escape(file), f.Bytes)
	}
	return printed(env, tw.Flush())
}

// verdictColumns are the table's words for a file's verdict: "-" for a
// template's file, which the engine does not check, and for the standard
// of an export without one.
func verdictColumns(v *httpapi.ExportVerdict) (status, problems, suggestions, graded string) {
	if v == nil {
		return "-", "-", "-", "-"
	}
	graded = "-"
	if s := v.Standard; s != nil {
		graded = fmt.Sprintf("%s: %d pass, %d fail, %d to check", s.ID, s.Summary.Pass, s.Summary.Fail, s.Summary.NotEvaluated)
	}
	return v.DeliveryStatus, strconv.Itoa(v.Problems), strconv.Itoa(v.Suggestions), graded
}

// saveArtifact copies an artifact's bytes into dir under its filename.
func saveArtifact(ctx context.Context, x *project.Exporter, id, dir string) (string, error) {
	a, r, err := x.OpenArtifact(ctx, id)
	if err != nil {
		return "", err
	}
	defer r.Close()
	p := filepath.Join(dir, filepath.Base(a.Filename))
	f, err := os.Create(p)
	if err != nil {
		return "", err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return "", fmt.Errorf("write %s: %w", p, err)
	}
	if err := f.Close(); err != nil {
		return "", err
	}
	return p, nil
}
