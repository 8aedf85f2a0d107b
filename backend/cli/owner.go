package cli

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strings"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/name"
	"github.com/captionqa/captionqa/backend/server"
)

const ownerLinkUsage = "[--data DIR | --store URL] [--url BASE] [--json]"

func runOwner(ctx context.Context, args []string, env Env) int {
	return runGroup(ctx, "owner", []subcommand{
		{"link", ownerLinkUsage, runOwnerLink},
	}, args, env)
}

// runOwnerLink prints a one-time sign-in link for the owner account: the
// UI at --url opens it, asks for a new password and signs in. It works
// while a server runs on the same data folder, as the account commands
// do. A new link replaces the owner's earlier ones.
func runOwnerLink(ctx context.Context, args []string, env Env) int {
	fs := newFlagSet("owner link", ownerLinkUsage, env)
	var af adminFlags
	af.register(fs)
	base := fs.String("url", defaultLinkBase(), "the UI's address the link opens, as your browser reaches the server (default from "+envAddr+", https when "+envTLSCert+" is set)")
	if code, ok := parseNoArgs(fs, args, env); !ok {
		return code
	}
	if u, err := url.Parse(*base); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" || u.Fragment != "" {
		return usageError(env, "--url %q: give the server's address, such as http://127.0.0.1:8787", *base)
	}
	adm, err := af.open(ctx)
	if err != nil {
		return af.fail(env, err)
	}
	defer adm.Close()
	link, err := server.NewOwnerSignInLink(ctx, adm.Accounts, *base)
	if err != nil {
		return af.fail(env, err)
	}
	if af.jsonOut {
		return printed(env, printJSON(env.Stdout, link))
	}
	owner, err := adm.Accounts.Owner(ctx)
	if err != nil {
		return af.fail(env, err)
	}
	_, err = fmt.Fprintf(env.Stdout, "One-time sign-in link for the owner account %s, valid until %s (%d minutes); opening it sets the owner's password and signs you in:\n  %s\n",
		name.Escape(owner.Email), link.ExpiresAt.Format("2006-01-02 15:04:05 UTC"), int(account.SignInLinkTTL.Minutes()), link.URL)
	return printed(env, err)
}

// defaultLinkBase is the address owner link puts in its links without
// --url: the listen address serve takes by default ($CAPTIONQA_ADDR or
// 127.0.0.1:8787), https when $CAPTIONQA_TLS_CERT is set.
func defaultLinkBase() string {
	return server.BaseURL(envOr(envAddr, server.DefaultAddr), os.Getenv(envTLSCert) != "", "")
}

// firstLinkLine is what the first start prints after the owner key: a
// one-time link to set the owner's password.
func firstLinkLine(link server.SignInLink) string {
	return fmt.Sprintf("Sign in to the UI within %d minutes to set the owner's password: %s",
		int(account.SignInLinkTTL.Minutes()), link.URL)
}

// laterStartLine is what a later start prints: how to replace a lost
// owner key and how to get a sign-in link, as commands that reach this
// server's data folder and address.
func laterStartLine(ownerEmail, dataDir, linkBase string) string {
	data := ""
	if dataDir != envOr(envData, server.DefaultConfig().DataDir) {
		data = " --data " + shellQuote(dataDir)
	}
	link := account.OwnerLinkCommand + data
	if linkBase != defaultLinkBase() {
		link += " --url " + shellQuote(linkBase)
	}
	return fmt.Sprintf("Lost the owner API key? Make a new one with `captionqa key create --account %s --name owner --scopes %s%s`; to sign in to the UI, get a one-time link with `%s`.",
		shellQuote(name.Escape(ownerEmail)), strings.Join(account.Scopes(), ","), data, link)
}

// shellQuote quotes s for a POSIX shell when it holds anything but
// letters, digits and -_./:@,+=.
func shellQuote(s string) string {
	safe := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:@,+=", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
