package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/name"
	"github.com/captionqa/captionqa/backend/server"
)

// adminFlags are the flags every account and key command takes.
type adminFlags struct {
	data    string
	store   string
	jsonOut bool
}

func (a *adminFlags) register(fs *flag.FlagSet) {
	def := envOr(envData, server.DefaultConfig().DataDir)
	fs.StringVar(&a.data, "data", def, "data folder holding captionqa.db (env "+envData+")")
	fs.StringVar(&a.store, "store", envOr(envStore, ""), "a cluster's postgres:// URL instead of the data folder's database (env "+envStore+")")
	fs.BoolVar(&a.jsonOut, "json", false, "print JSON instead of a table")
}

// open opens the store: the cluster's (--store) or the data folder's
// database; it works while servers run on it.
func (a *adminFlags) open(ctx context.Context) (*server.Admin, error) {
	if a.data == "" && a.store == "" {
		return nil, fmt.Errorf("no data folder: set --data or %s", envData)
	}
	cfg := server.DefaultConfig()
	cfg.DataDir, cfg.Store = a.data, a.store
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
	fmt.Fprintf(env.Stderr, "captionqa: %s\n", name.Escape(body.Message))
	if a.jsonOut {
		_ = printJSON(env.Stdout, apperr.Envelope{Error: body})
	}
	return 1
}

// printJSON prints v as indented JSON in which no character
// [name.Unsafe] refuses appears raw: see [jsonSafe].
func printJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(jsonSafe(buf.Bytes()))
	return err
}

// jsonSafe rewrites the characters of encoded JSON that [name.Unsafe]
// refuses and encoding/json leaves raw (DEL, the C1 controls, the
// bidirectional and other format characters) as \u escapes: the JSON
// decodes to the same value, and a terminal shows the escape instead of
// obeying it. Control characters below U+0020 are escaped by the encoder
// inside strings, so those left are its own line breaks and are kept.
func jsonSafe(b []byte) []byte {
	unsafe := func(r rune) bool { return r >= '\x7f' && name.Unsafe(r) }
	if bytes.IndexFunc(b, unsafe) < 0 {
		return b
	}
	out := make([]byte, 0, len(b)+32)
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if unsafe(r) {
			for _, u := range utf16.AppendRune(nil, r) {
				out = fmt.Appendf(out, `\u%04x`, u)
			}
		} else {
			out = append(out, b[:size]...)
		}
		b = b[size:]
	}
	return out
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
