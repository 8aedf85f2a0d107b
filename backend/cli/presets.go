package cli

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/httpapi"
	"github.com/captionqa/captionqa/backend/name"
	"github.com/captionqa/captionqa/backend/preset"
	"github.com/captionqa/captionqa/backend/server"
	"github.com/captionqa/captionqa/backend/userpreset"
)

const (
	presetListUsage   = "--email EMAIL [--data DIR | --store URL] [--json]"
	presetShowUsage   = "NAME --email EMAIL [--data DIR | --store URL]"
	presetSetUsage    = "NAME --email EMAIL --file FILE [--data DIR | --store URL] [--json]"
	presetDeleteUsage = "NAME --email EMAIL [--data DIR | --store URL] [--json]"
)

// runPreset manages an account's own presets (docs/presets.md, Your own
// presets), as the API's /api/v1/presets routes do.
func runPreset(ctx context.Context, args []string, env Env) int {
	return runGroup(ctx, "preset", []subcommand{
		{"list", presetListUsage, runPresetList},
		{"show", presetShowUsage, runPresetShow},
		{"set", presetSetUsage, runPresetSet},
		{"delete", presetDeleteUsage, runPresetDelete},
	}, args, env)
}

// presetCommand is what every preset command opens: the account and the
// presets service.
type presetCommand struct {
	adm       *server.Admin
	presets   *userpreset.Service
	accountID string
}

// openPresets opens the store and finds the account by email.
func openPresets(ctx context.Context, af *adminFlags, email string) (*presetCommand, error) {
	adm, err := af.open(ctx)
	if err != nil {
		return nil, err
	}
	a, err := adm.Accounts.AccountByEmail(ctx, email)
	if err == nil {
		var svc *userpreset.Service
		if svc, err = adm.UserPresets(server.DefaultConfig()); err == nil {
			return &presetCommand{adm: adm, presets: svc, accountID: a.ID}, nil
		}
	}
	_ = adm.Close()
	return nil, err
}

// presetFlags are the flags every preset command takes.
type presetFlags struct {
	fs    *flag.FlagSet
	af    adminFlags
	email *string
}

func newPresetFlags(verb, usage string, env Env) *presetFlags {
	p := &presetFlags{fs: newFlagSet("preset "+verb, usage, env)}
	p.af.register(p.fs)
	p.email = p.fs.String("email", "", "account email (required)")
	return p
}

// start parses a preset command's line (its NAME when wantName), runs
// check (the command's own flags, before anything is opened; nil for
// none), then opens the store and finds the account. A nil command ends
// the run with the exit code returned; otherwise the caller closes
// pc.adm.
func (p *presetFlags) start(ctx context.Context, verb string, args []string, env Env, wantName bool, check func() (int, bool)) (pc *presetCommand, presetName string, code int) {
	pos, err := parseInterspersed(p.fs, args)
	if err != nil {
		return nil, "", usageFailed(err)
	}
	if wantName != (len(pos) == 1) || len(pos) > 1 || *p.email == "" {
		p.fs.Usage()
		if wantName {
			return nil, "", usageError(env, "preset %s takes one NAME and --email", verb)
		}
		return nil, "", usageError(env, "preset %s takes --email and no arguments", verb)
	}
	if wantName {
		presetName = pos[0]
	}
	if check != nil {
		if code, ok := check(); !ok {
			return nil, "", code
		}
	}
	if pc, err = openPresets(ctx, &p.af, *p.email); err != nil {
		return nil, "", p.af.fail(env, err)
	}
	return pc, presetName, ExitOK
}

func runPresetList(ctx context.Context, args []string, env Env) int {
	p := newPresetFlags("list", presetListUsage, env)
	pc, _, code := p.start(ctx, "list", args, env, false, nil)
	if pc == nil {
		return code
	}
	defer pc.adm.Close()
	af := &p.af
	list, err := pc.presets.List(ctx, pc.accountID)
	if err != nil {
		return af.fail(env, err)
	}
	views := make([]httpapi.PresetView, 0, len(list))
	for i := range list {
		views = append(views, httpapi.NewPresetView(&list[i], nil))
	}
	if af.jsonOut {
		return printed(env, printJSON(env.Stdout, map[string]any{"presets": views}))
	}
	tw := newTable(env.Stdout)
	fmt.Fprintln(tw, "NAME\tKIND\tBASE\tOUTPUT\tRULES\tTITLE")
	for _, v := range views {
		kind, base, output, rules, title := "built-in", "-", "-", "-", "-"
		if !v.Builtin {
			kind, base = "own", v.File.Base
		}
		if v.Resolved != nil {
			output, rules, title = v.Resolved.Output, fmt.Sprint(len(v.Resolved.Rules)), name.Escape(v.Resolved.Title)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", name.Escape(v.Name), kind, base, output, rules, title)
	}
	return printed(env, tw.Flush())
}

func runPresetShow(ctx context.Context, args []string, env Env) int {
	p := newPresetFlags("show", presetShowUsage, env)
	pc, presetName, code := p.start(ctx, "show", args, env, true, nil)
	if pc == nil {
		return code
	}
	defer pc.adm.Close()
	e, err := pc.presets.Get(ctx, pc.accountID, presetName)
	if e == nil {
		return p.af.fail(env, err)
	}
	return printed(env, printJSON(env.Stdout, httpapi.NewPresetView(e, err)))
}

func runPresetSet(ctx context.Context, args []string, env Env) int {
	p := newPresetFlags("set", presetSetUsage, env)
	file := p.fs.String("file", "", "the preset file, JSON (required; docs/presets.md, Your own presets)")
	af := &p.af
	var data []byte
	pc, presetName, code := p.start(ctx, "set", args, env, true, func() (int, bool) {
		if *file == "" {
			p.fs.Usage()
			return usageError(env, "preset set needs --file"), false
		}
		var err error
		if data, err = os.ReadFile(*file); err != nil {
			return af.fail(env, apperr.New(apperr.BadRequest, "--file: %v", err).WithDetail("field", "file")), false
		}
		return ExitOK, true
	})
	if pc == nil {
		return code
	}
	defer pc.adm.Close()
	e, created, err := pc.presets.Put(ctx, pc.accountID, presetName, data)
	if err != nil {
		printFieldErrors(env, err)
		return af.fail(env, err)
	}
	if af.jsonOut {
		return printed(env, printJSON(env.Stdout, httpapi.NewPresetView(e, nil)))
	}
	verb := "replaced"
	if created {
		verb = "created"
	}
	fmt.Fprintf(env.Stdout, "Preset %s %s (base %s, %s, %d rules).\n", name.Escape(e.Name), verb, e.File.Base, e.Resolved.Output, len(e.Resolved.Rules))
	return ExitOK
}

// printFieldErrors lists each bad field of a refused preset file on
// standard error, one a line, before the command's failure.
func printFieldErrors(env Env, err error) {
	e, ok := apperr.As(err)
	if !ok {
		return
	}
	list, ok := e.Details["errors"].([]preset.FieldError)
	if !ok || len(list) < 2 {
		return
	}
	for _, fe := range list {
		fmt.Fprintf(env.Stderr, "  %s: %s\n", fe.Field, fe.Message)
	}
}

func runPresetDelete(ctx context.Context, args []string, env Env) int {
	p := newPresetFlags("delete", presetDeleteUsage, env)
	pc, presetName, code := p.start(ctx, "delete", args, env, true, nil)
	if pc == nil {
		return code
	}
	defer pc.adm.Close()
	if err := pc.presets.Delete(ctx, pc.accountID, presetName); err != nil {
		return p.af.fail(env, err)
	}
	if p.af.jsonOut {
		return printed(env, printJSON(env.Stdout, map[string]any{"name": presetName, "deleted": true}))
	}
	fmt.Fprintf(env.Stdout, "Preset %s deleted.\n", name.Escape(presetName))
	return ExitOK
}
