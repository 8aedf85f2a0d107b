package cli

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/caption/format"
	"github.com/captionqa/captionqa/backend/drift"
	"github.com/captionqa/captionqa/backend/httpapi"
	"github.com/captionqa/captionqa/backend/name"
	"github.com/captionqa/captionqa/backend/project"
	"github.com/captionqa/captionqa/backend/server"
)

// ExitDrift is the exit code of "project diff --exit-code" when the
// candidate differs from the project's current timeline.
const ExitDrift = 4

const (
	projectCreateUsage = "--name N [FILE|-] [--account EMAIL] [--data DIR] [--json]"
	projectListUsage   = "[--account EMAIL] [--limit N] [--cursor C | --all] [--data DIR] [--json]"
	projectDiffUsage   = "PROJECTID CANDIDATE_FILE|- [--account EMAIL] [--exit-code] [--data DIR] [--json]"
)

func runProject(ctx context.Context, args []string, env Env) int {
	return runGroup(ctx, "project", projectCommands(), args, env)
}

// projectFlags are the admin flags plus the account the command acts for.
type projectFlags struct {
	adminFlags
	email string
}

func (p *projectFlags) register(fs interface {
	StringVar(*string, string, string, string)
	BoolVar(*bool, string, bool, string)
}) {
	def := envOr(envData, server.DefaultConfig().DataDir)
	fs.StringVar(&p.data, "data", def, "data folder holding captionqa.db (env "+envData+")")
	fs.BoolVar(&p.jsonOut, "json", false, "print JSON (the API's response body) instead of text")
	fs.StringVar(&p.email, "account", "", "email of the account that owns the projects (default: the only account)")
}

// openFor opens the data folder and finds the account: the named one, or
// the only one when none is named.
func (p *projectFlags) openFor(ctx context.Context) (*server.Admin, string, error) {
	adm, a, err := p.openAccount(ctx)
	if err != nil {
		return nil, "", err
	}
	return adm, a.ID, nil
}

func (p *projectFlags) openAccount(ctx context.Context) (*server.Admin, *account.Account, error) {
	adm, err := p.open(ctx)
	if err != nil {
		return nil, nil, err
	}
	if p.email != "" {
		a, err := adm.Accounts.AccountByEmail(ctx, p.email)
		if err != nil {
			adm.Close()
			return nil, nil, err
		}
		return adm, a, nil
	}
	list, err := adm.Accounts.ListAccounts(ctx)
	if err != nil {
		adm.Close()
		return nil, nil, err
	}
	if len(list) != 1 {
		adm.Close()
		return nil, nil, apperr.New(apperr.BadRequest, "the data folder holds %d accounts: name one with --account EMAIL", len(list))
	}
	return adm, &list[0], nil
}

func runProjectCreate(ctx context.Context, args []string, env Env) int {
	fs := newFlagSet("project create", projectCreateUsage, env)
	var pf projectFlags
	pf.register(fs)
	projectName := fs.String("name", "", "project name (default: the file's base name)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return usageFailed(err)
	}
	if len(pos) > 1 {
		fs.Usage()
		return usageError(env, "project create takes at most one FILE")
	}
	in := project.New{Name: *projectName}
	if len(pos) == 1 {
		data, err := readInput(pos[0], env)
		if err != nil {
			return usageError(env, "%v", err)
		}
		base := filepath.Base(pos[0])
		if pos[0] == "-" {
			base = ""
		}
		in.File = &project.File{Name: base, Data: data}
		if in.Name == "" {
			in.Name = strings.TrimSuffix(base, filepath.Ext(base))
		}
	}
	if in.Name == "" {
		fs.Usage()
		return usageError(env, "project create needs --name (or a FILE to name it after)")
	}
	adm, accountID, err := pf.openFor(ctx)
	if err != nil {
		return pf.fail(env, err)
	}
	defer adm.Close()
	p, err := adm.Projects().Create(ctx, accountID, in)
	if err != nil {
		return pf.fail(env, err)
	}
	v := httpapi.NewProjectView(p)
	if pf.jsonOut {
		return printed(env, printJSON(env.Stdout, v))
	}
	tw := newTable(env.Stdout)
	fmt.Fprintf(tw, "Project ID:\t%s\nName:\t%s\nStatus:\t%s\nRevision:\t%d\nCues:\t%d\n",
		v.ID, name.Escape(v.Name), v.Status, v.IRRevision, v.CueCount)
	return printed(env, tw.Flush())
}

func runProjectList(ctx context.Context, args []string, env Env) int {
	fs := newFlagSet("project list", projectListUsage, env)
	var pf projectFlags
	pf.register(fs)
	limit := fs.Int("limit", 0, fmt.Sprintf("projects per page (default %d, at most %d)", project.DefaultListLimit, project.MaxListLimit))
	cursor := fs.String("cursor", "", "continue a listing from its nextCursor")
	all := fs.Bool("all", false, "follow nextCursor and list every project")
	if code, ok := parseNoArgs(fs, args, env); !ok {
		return code
	}
	if *all && *cursor != "" {
		return usageError(env, "--all and --cursor do not go together")
	}
	adm, accountID, err := pf.openFor(ctx)
	if err != nil {
		return pf.fail(env, err)
	}
	defer adm.Close()
	svc := adm.Projects()
	views := []httpapi.ProjectView{}
	var next *string
	cur := *cursor
	for {
		page, err := svc.List(ctx, accountID, *limit, cur)
		if err != nil {
			return pf.fail(env, err)
		}
		for i := range page.Projects {
			views = append(views, httpapi.NewProjectView(&page.Projects[i]))
		}
		next = nil
		if page.NextCursor != "" {
			c := page.NextCursor
			next = &c
		}
		if !*all || next == nil {
			break
		}
		cur = *next
	}
	if pf.jsonOut {
		return printed(env, printJSON(env.Stdout, struct {
			Projects   []httpapi.ProjectView `json:"projects"`
			NextCursor *string               `json:"nextCursor"`
		}{views, next}))
	}
	if len(views) == 0 {
		fmt.Fprintln(env.Stdout, "No projects.")
		return ExitOK
	}
	tw := newTable(env.Stdout)
	fmt.Fprintln(tw, "PROJECT ID\tNAME\tSTATUS\tREVISION\tCUES\tUPDATED")
	for _, v := range views {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%s\n", v.ID, name.Escape(v.Name), v.Status, v.IRRevision, v.CueCount, v.UpdatedAt.Format(time.RFC3339))
	}
	if err := tw.Flush(); err != nil {
		return pf.fail(env, err)
	}
	if next != nil {
		fmt.Fprintf(env.Stdout, "More: captionqa project list --cursor %s\n", *next)
	}
	return ExitOK
}

// projectDiff is the JSON of "project diff": the body of POST
// /api/v1/projects/{id}/diff.
type projectDiff struct {
	drift.Result
	CurrentIRRevision int `json:"currentIrRevision"`
}

func runProjectDiff(ctx context.Context, args []string, env Env) int {
	fs := newFlagSet("project diff", projectDiffUsage, env)
	var pf projectFlags
	pf.register(fs)
	exitCode := fs.Bool("exit-code", false, fmt.Sprintf("exit %d when the candidate differs from the current timeline", ExitDrift))
	from := fs.String("from", "", "candidate format (default: detected)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return usageFailed(err)
	}
	if len(pos) != 2 {
		fs.Usage()
		return usageError(env, "project diff takes a PROJECTID and a CANDIDATE_FILE")
	}
	data, err := readInput(pos[1], env)
	if err != nil {
		return usageError(env, "%v", err)
	}
	ir, err := candidateIR(pos[1], *from, data)
	if err != nil {
		return pf.fail(env, err)
	}
	adm, accountID, err := pf.openFor(ctx)
	if err != nil {
		return pf.fail(env, err)
	}
	defer adm.Close()
	res, err := adm.Projects().Diff(ctx, accountID, pos[0], project.DiffInput{IR: &ir})
	if err != nil {
		return pf.fail(env, err)
	}
	out := projectDiff{Result: res.Result, CurrentIRRevision: res.CurrentIRRevision}
	if out.Preview == nil {
		out.Preview = []drift.Item{}
	}
	if pf.jsonOut {
		if code := printed(env, printJSON(env.Stdout, out)); code != ExitOK {
			return code
		}
	} else if err := printDiff(env, &out); err != nil {
		return pf.fail(env, err)
	}
	s := out.Summary
	if *exitCode && (s.Added+s.Removed+s.Changed > 0 || out.OffsetMs != 0) {
		return ExitDrift
	}
	return ExitOK
}

// candidateIR reads a caption file in any format the engine reads, as a
// project's file is read (leniently; refused only without cues), and
// returns it as IR v1 JSON text for the diff.
func candidateIR(path, from string, data []byte) (string, error) {
	hint := filepath.Base(path)
	if path == "-" {
		hint = ""
	}
	_, t, diags, err := format.Read(hint, from, data)
	if err != nil {
		return "", fmt.Errorf("read %s: %w", path, err)
	}
	if len(t.Cues) == 0 {
		return "", apperr.New(apperr.ProcessingFailed, "%s yielded no caption cues", path).
			WithDetail("field", "ir").WithDetail("diagnostics", diags)
	}
	var buf bytes.Buffer
	if err := caption.WriteJSON(&buf, t); err != nil {
		return "", fmt.Errorf("encode %s as ir: %w", path, err)
	}
	return buf.String(), nil
}

func printDiff(env Env, d *projectDiff) error {
	s := d.Summary
	fmt.Fprintf(env.Stdout, "Against revision %d: %d added, %d removed, %d changed", d.CurrentIRRevision, s.Added, s.Removed, s.Changed)
	if d.OffsetMs != 0 {
		fmt.Fprintf(env.Stdout, "; whole timeline shifted by %+d ms", d.OffsetMs)
	}
	fmt.Fprintln(env.Stdout, ".")
	if len(d.Preview) == 0 {
		return nil
	}
	tw := newTable(env.Stdout)
	fmt.Fprintln(tw, "KIND\tCURRENT\tCANDIDATE\tFIELDS\tBEFORE\tAFTER")
	idx := func(p *int) string {
		if p == nil {
			return "-"
		}
		return fmt.Sprintf("#%d", *p+1)
	}
	cue := func(c *drift.Cue) string {
		if c == nil {
			return "-"
		}
		text := strings.ReplaceAll(c.Text, "\n", " / ")
		if r := []rune(text); len(r) > 40 {
			text = string(r[:39]) + "…"
		}
		return fmt.Sprintf("%s-%s %s", msClock(c.StartMs), msClock(c.EndMs), name.Escape(text))
	}
	for _, it := range d.Preview {
		fields := strings.Join(it.Fields, ",")
		if fields == "" {
			fields = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", it.Kind, idx(it.CurrentIndex), idx(it.CandidateIndex), fields, cue(it.Before), cue(it.After))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if d.Truncated {
		fmt.Fprintln(env.Stdout, "The preview is truncated; the summary counts every cue.")
	}
	return nil
}

// msClock formats milliseconds as H:MM:SS.mmm.
func msClock(ms int64) string {
	sign := ""
	if ms < 0 {
		sign, ms = "-", -ms
	}
	return fmt.Sprintf("%s%d:%02d:%02d.%03d", sign, ms/3_600_000, ms/60_000%60, ms/1000%60, ms%1000)
}
