package cli

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/httpapi"
	"github.com/captionqa/captionqa/backend/name"
	"github.com/captionqa/captionqa/backend/server"
)

const (
	keyCreateUsage = "--account EMAIL --name N --scopes a,b [--expires RFC3339|DURATION] [--data DIR | --store URL] [--json]"
	keyListUsage   = "--account EMAIL [--data DIR | --store URL] [--json]"
	keyRevokeUsage = "KEYID [--account EMAIL] [--data DIR | --store URL] [--json]"
)

func runKey(ctx context.Context, args []string, env Env) int {
	return runGroup(ctx, "key", []subcommand{
		{"create", keyCreateUsage, runKeyCreate},
		{"list", keyListUsage, runKeyList},
		{"revoke", keyRevokeUsage, runKeyRevoke},
	}, args, env)
}

// parseExpiry reads --expires: an RFC 3339 time, or a duration from now
// such as 720h or 2s.
func parseExpiry(s string, now time.Time) (*time.Time, error) {
	if s == "" {
		return nil, nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return &t, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return nil, fmt.Errorf("--expires %q is neither an RFC 3339 time nor a positive duration like 720h", s)
	}
	t := now.Add(d)
	return &t, nil
}

func runKeyCreate(ctx context.Context, args []string, env Env) int {
	fs := newFlagSet("key create", keyCreateUsage, env)
	var af adminFlags
	af.register(fs)
	email := fs.String("account", "", "email of the account that owns the key (required)")
	keyName := fs.String("name", "", "key name (required)")
	scopes := fs.String("scopes", "", "comma-separated scopes: "+strings.Join(account.Scopes(), ","))
	expires := fs.String("expires", "", "expiry: an RFC 3339 time or a duration from now (default 90 days, at most 365)")
	if code, ok := parseNoArgs(fs, args, env); !ok {
		return code
	}
	if *email == "" || *keyName == "" || *scopes == "" {
		fs.Usage()
		return usageError(env, "key create needs --account, --name and --scopes")
	}
	exp, err := parseExpiry(*expires, time.Now())
	if err != nil {
		return usageError(env, "%v", err)
	}
	adm, err := af.open(ctx)
	if err != nil {
		return af.fail(env, err)
	}
	defer adm.Close()
	a, err := adm.Accounts.AccountByEmail(ctx, *email)
	if err != nil {
		return af.fail(env, err)
	}
	k, secret, err := adm.Accounts.CreateKey(ctx, a.ID, account.NewKey{Name: *keyName, Scopes: splitList(*scopes), ExpiresAt: exp})
	if err != nil {
		return af.fail(env, err)
	}
	body := httpapi.NewKeyCreated(k, secret, time.Now())
	if af.jsonOut {
		return printed(env, printJSON(env.Stdout, body))
	}
	tw := newTable(env.Stdout)
	fmt.Fprintf(tw, "Key ID:\t%s\nName:\t%s\nAccount:\t%s\nScopes:\t%s\nExpires:\t%s\nSecret:\t%s\n",
		body.KeyID, name.Escape(body.Name), name.Escape(a.Email), strings.Join(body.Scopes, ","), body.ExpiresAt.Format(time.RFC3339), secret)
	if err := tw.Flush(); err != nil {
		return af.fail(env, err)
	}
	fmt.Fprintln(env.Stdout, "The secret is shown only now; store it safely.")
	return ExitOK
}

func runKeyList(ctx context.Context, args []string, env Env) int {
	fs := newFlagSet("key list", keyListUsage, env)
	var af adminFlags
	af.register(fs)
	email := fs.String("account", "", "email of the account (required)")
	if code, ok := parseNoArgs(fs, args, env); !ok {
		return code
	}
	if *email == "" {
		fs.Usage()
		return usageError(env, "key list needs --account")
	}
	adm, err := af.open(ctx)
	if err != nil {
		return af.fail(env, err)
	}
	defer adm.Close()
	a, err := adm.Accounts.AccountByEmail(ctx, *email)
	if err != nil {
		return af.fail(env, err)
	}
	keys, err := allKeys(ctx, adm, a.ID)
	if err != nil {
		return af.fail(env, err)
	}
	now := time.Now()
	views := make([]httpapi.KeyView, 0, len(keys))
	for i := range keys {
		views = append(views, httpapi.NewKeyView(&keys[i], now))
	}
	if af.jsonOut {
		return printed(env, printJSON(env.Stdout, map[string]any{"keys": views}))
	}
	// Names stored before names were checked may hold control
	// characters: the table shows them escaped.
	tw := newTable(env.Stdout)
	fmt.Fprintln(tw, "KEY ID\tPREFIX\tNAME\tSTATUS\tEXPIRES\tLAST USED\tSCOPES")
	for _, v := range views {
		last := "never"
		if v.LastUsedAt != nil {
			last = v.LastUsedAt.Format(time.RFC3339)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", v.KeyID, v.Prefix, name.Escape(v.Name), v.Status,
			v.ExpiresAt.Format(time.RFC3339), last, strings.Join(v.Scopes, ","))
	}
	return printed(env, tw.Flush())
}

func runKeyRevoke(ctx context.Context, args []string, env Env) int {
	fs := newFlagSet("key revoke", keyRevokeUsage, env)
	var af adminFlags
	af.register(fs)
	email := fs.String("account", "", "email of the account that owns the key (default: look it up)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return usageFailed(err)
	}
	if len(pos) != 1 {
		fs.Usage()
		return usageError(env, "key revoke takes exactly one KEYID")
	}
	keyID := pos[0]
	adm, err := af.open(ctx)
	if err != nil {
		return af.fail(env, err)
	}
	defer adm.Close()
	accountID, err := keyOwner(ctx, adm, *email, keyID)
	if err != nil {
		return af.fail(env, err)
	}
	k, err := adm.Accounts.RevokeKey(ctx, accountID, keyID)
	if err != nil {
		return af.fail(env, err)
	}
	if af.jsonOut {
		return printed(env, printJSON(env.Stdout, httpapi.NewRevocation(k)))
	}
	fmt.Fprintf(env.Stdout, "Revoked key %s.\n", keyID)
	return ExitOK
}

// keyOwner returns the id of the account holding keyID: the named one,
// or the one found among all accounts' keys.
func keyOwner(ctx context.Context, adm *server.Admin, email, keyID string) (string, error) {
	if email != "" {
		a, err := adm.Accounts.AccountByEmail(ctx, email)
		if err != nil {
			return "", err
		}
		return a.ID, nil
	}
	list, err := adm.Accounts.ListAccounts(ctx)
	if err != nil {
		return "", err
	}
	for _, a := range list {
		keys, err := allKeys(ctx, adm, a.ID)
		if err != nil {
			return "", err
		}
		for _, k := range keys {
			if k.ID == keyID {
				return a.ID, nil
			}
		}
	}
	return "", apperr.New(apperr.NotFound, "no key %s", keyID)
}

// allKeys returns every key of the account, revoked and expired ones
// included, oldest first: the pages of the listing, newest first, put
// together and reversed.
func allKeys(ctx context.Context, adm *server.Admin, accountID string) ([]account.Key, error) {
	var keys []account.Key
	cursor := ""
	for {
		page, err := adm.Accounts.ListKeys(ctx, accountID, account.MaxKeyListLimit, cursor)
		if err != nil {
			return nil, err
		}
		keys = append(keys, page.Keys...)
		if page.NextCursor == "" {
			break
		}
		cursor = page.NextCursor
	}
	slices.Reverse(keys)
	return keys, nil
}
