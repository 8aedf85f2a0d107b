package cli

import (
	"context"
	"fmt"

	"github.com/captionqa/captionqa/backend/name"
	"github.com/captionqa/captionqa/backend/server"
)

const accountDeleteUsage = "--email E --yes [--data DIR | --store URL [--blobs URL]] [--json]"

// runAccountDelete deletes an account with everything it owns and the
// files its rows name: an operator removing a tenant. --yes is required,
// since nothing brings the account back.
func runAccountDelete(ctx context.Context, args []string, env Env) int {
	fs := newFlagSet("account delete", accountDeleteUsage, env)
	var af adminFlags
	af.register(fs)
	email := fs.String("email", "", "account email (required)")
	yes := fs.Bool("yes", false, "confirm: the account, its projects, exports, media and keys are deleted for good")
	blobs := fs.String("blobs", envOr(envBlobs, ""), "the cluster's s3:// blob store, with --store (env "+envBlobs+")")
	if code, ok := parseNoArgs(fs, args, env); !ok {
		return code
	}
	if *email == "" || !*yes {
		fs.Usage()
		return usageError(env, "account delete needs --email and --yes")
	}
	adm, err := af.open(ctx)
	if err != nil {
		return af.fail(env, err)
	}
	defer adm.Close()
	cfg := server.DefaultConfig()
	cfg.DataDir, cfg.Blobs = af.data, *blobs
	store, err := adm.Blobs(ctx, cfg)
	if err != nil {
		return af.fail(env, err)
	}
	a, err := adm.Accounts.DeleteAccount(ctx, *email, store)
	if err != nil {
		return af.fail(env, err)
	}
	if af.jsonOut {
		return printed(env, printJSON(env.Stdout, map[string]any{"id": a.ID, "email": a.Email, "deleted": true}))
	}
	_, err = fmt.Fprintf(env.Stdout, "Deleted account %s (%s) with its projects, exports, media and keys.\n", name.Escape(a.Email), a.ID)
	return printed(env, err)
}
