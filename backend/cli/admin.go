package cli

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/server"
)

// adminFlags are the flags every account and key command takes.
type adminFlags struct {
	data    string
	jsonOut bool
}

func (a *adminFlags) register(fs *flag.FlagSet) {
	def := envOr(envData, server.DefaultConfig().DataDir)
	fs.StringVar(&a.data, "data", def, "data folder holding captionqa.db (env "+envData+")")
	fs.BoolVar(&a.jsonOut, "json", false, "print JSON instead of a table")
}

// open opens the data folder's database; it works while a server runs on
// the same folder.
func (a *adminFlags) open(ctx context.Context) (*server.Admin, error) {
	if a.data == "" {
		return nil, fmt.Errorf("no data folder: set --data or %s", envData)
	}
	cfg := server.DefaultConfig()
	cfg.DataDir = a.data
	return server.OpenAdmin(ctx, cfg)
}

// subcommand is one verb of a command group such as "account create".
type subcommand struct {
	name, usage string
	run         func(ctx context.Context, args []string, env Env) int
}

// runGroup dispatches "captionqa GROUP VERB ...".
func runGroup(ctx context.Context, group string, subs []subcommand, args []string, env Env) int {
	if len(args) == 0 || isHelp(args[0]) {
		w, code := env.Stderr, ExitUsage
		if len(args) > 0 {
			w, code = env.Stdout, ExitOK
		}
		fmt.Fprintf(w, "Usage:\n")
		for _, s := range subs {
			fmt.Fprintf(w, "  captionqa %s %s %s\n", group, s.name, s.usage)
		}
		return code
	}
	for _, s := range subs {
		if s.name == args[0] {
			return s.run(ctx, args[1:], env)
		}
	}
	return usageError(env, "unknown %s command %q", group, args[0])
}

// fail reports a failed command (exit 1) on standard error: the
// service's message for the caller, or the whole error when it is
// unexpected. With --json it also prints the error as the API's envelope
// on standard output, so a script reads one shape whatever happened; the
// local operator sees the whole message there too.
func (a *adminFlags) fail(env Env, err error) int {
	body := apperr.Body{Code: apperr.Internal.Code(), Message: err.Error()}
	if e, ok := apperr.As(err); ok && e.Kind != apperr.Internal {
		body = apperr.Body{Code: e.Code(), Message: e.Message, Details: e.Details}
	}
	fmt.Fprintf(env.Stderr, "captionqa: %s\n", body.Message)
	if a.jsonOut {
		_ = printJSON(env.Stdout, apperr.Envelope{Error: body})
	}
	return 1
}

func printJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func newTable(w io.Writer) *tabwriter.Writer { return tabwriter.NewWriter(w, 0, 0, 2, ' ', 0) }

// splitList splits "a,b, c" into its non-empty items.
func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}

// flagsSet returns the names of the flags given on the command line.
func flagsSet(fs *flag.FlagSet) map[string]bool {
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	return set
}
