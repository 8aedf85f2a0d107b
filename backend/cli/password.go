package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/name"
)

const accountSetPasswordUsage = "--email E [--data DIR | --store URL] [--json]  (the password is read from standard input)"

// runAccountSetPassword sets an account's dashboard password, the one the
// browser UI's login page asks for. The password comes from the first
// line of standard input, so it stays out of the process list and the
// shell history; on a terminal the command prompts for it on stderr.
func runAccountSetPassword(ctx context.Context, args []string, env Env) int {
	fs := newFlagSet("account set-password", accountSetPasswordUsage, env)
	var af adminFlags
	af.register(fs)
	email := fs.String("email", "", "account email (required)")
	if code, ok := parseNoArgs(fs, args, env); !ok {
		return code
	}
	if *email == "" {
		fs.Usage()
		return usageError(env, "account set-password needs --email")
	}
	if isTerminalReader(env.Stdin) {
		fmt.Fprintf(env.Stderr, "New password for %s (at least %d characters; it is shown as you type): ", name.Escape(*email), account.MinPasswordLen)
	}
	password, err := readLine(env.Stdin)
	if err != nil {
		return usageError(env, "%v", err)
	}
	adm, err := af.open(ctx)
	if err != nil {
		return af.fail(env, err)
	}
	defer adm.Close()
	a, err := adm.Accounts.SetPassword(ctx, *email, password)
	if err != nil {
		return af.fail(env, err)
	}
	if af.jsonOut {
		return printed(env, printJSON(env.Stdout, passwordSetView{Email: a.Email, PasswordSet: true}))
	}
	_, err = fmt.Fprintf(env.Stdout, "Password set for %s; its dashboard sessions were signed out.\n", name.Escape(a.Email))
	return printed(env, err)
}

type passwordSetView struct {
	Email       string `json:"email"`
	PasswordSet bool   `json:"passwordSet"`
}

// readLine reads the first line of r without its line ending.
func readLine(r io.Reader) (string, error) {
	line, err := bufio.NewReader(io.LimitReader(r, account.MaxPasswordLen+2)).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("reading the password: %w", err)
	}
	line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
	if line == "" {
		return "", errors.New("no password on standard input (give it as the first line)")
	}
	return line, nil
}

// isTerminalReader reports whether r is a terminal.
func isTerminalReader(r io.Reader) bool {
	f, ok := r.(*os.File)
	return ok && isTerminal(f)
}
