package cli

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/name"
)

func runAccount(ctx context.Context, args []string, env Env) int {
	return runGroup(ctx, "account", []subcommand{
		{"create", accountCreateUsage, runAccountCreate},
		{"list", "[--data DIR | --store URL] [--json]", runAccountList},
		{"set", accountSetUsage, runAccountSet},
		{"set-password", accountSetPasswordUsage, runAccountSetPassword},
		{"delete", accountDeleteUsage, runAccountDelete},
	}, args, env)
}

const (
	accountCreateUsage = "--email E --tier free_plus|pro [--features a,b] [--without a,b] [--cap N] [--data DIR | --store URL] [--json]"
	accountSetUsage    = "--email E [--tier T] [--features a,b] [--cap N] [--api-enabled true|false] [--storage-quota SIZE] [--data DIR | --store URL] [--json]"
)

// accountView is an account as the admin commands print it.
type accountView struct {
	ID         string   `json:"id"`
	Email      string   `json:"email"`
	Tier       string   `json:"tier"`
	Features   []string `json:"features"`
	DailyCap   int      `json:"dailyCap"`
	APIEnabled bool     `json:"apiEnabled"`
	// StorageQuota is the quota in bytes, the tier's unless overridden.
	StorageQuota int64     `json:"storageQuotaBytes"`
	CreatedAt    time.Time `json:"createdAt"`
}

func newAccountView(a *account.Account) accountView {
	f := a.Features
	if f == nil {
		f = []string{}
	}
	// As the API decides: the v1 API needs the API_V1 entitlement, and
	// the account not turned off.
	return accountView{ID: a.ID, Email: a.Email, Tier: a.Tier, Features: f, DailyCap: a.DailyCap,
		APIEnabled: !a.APIDisabled && a.Has(account.FeatureAPIV1), StorageQuota: a.StorageLimit(), CreatedAt: a.CreatedAt.UTC()}
}

func runAccountCreate(ctx context.Context, args []string, env Env) int {
	fs := newFlagSet("account create", accountCreateUsage, env)
	var af adminFlags
	af.register(fs)
	email := fs.String("email", "", "account email (required)")
	tier := fs.String("tier", "", "tier: free_plus or pro (required)")
	features := fs.String("features", "", "comma-separated entitlements to add to the tier's")
	without := fs.String("without", "", "comma-separated entitlements of the tier's to leave out")
	dailyCap := fs.Int("cap", 0, "successful v1 runs per UTC day (default: the tier's)")
	if code, ok := parseNoArgs(fs, args, env); !ok {
		return code
	}
	if *email == "" || *tier == "" {
		fs.Usage()
		return usageError(env, "account create needs --email and --tier")
	}
	in := account.NewAccount{Email: *email, Tier: *tier, DailyCap: *dailyCap,
		AddFeatures: splitList(*features), DropFeatures: splitList(*without)}
	adm, err := af.open(ctx)
	if err != nil {
		return af.fail(env, err)
	}
	defer adm.Close()
	a, err := adm.Accounts.CreateAccount(ctx, in)
	if err != nil {
		return af.fail(env, err)
	}
	return printAccounts(env, af.jsonOut, a)
}

func runAccountList(ctx context.Context, args []string, env Env) int {
	fs := newFlagSet("account list", "[--data DIR | --store URL] [--json]", env)
	var af adminFlags
	af.register(fs)
	if code, ok := parseNoArgs(fs, args, env); !ok {
		return code
	}
	adm, err := af.open(ctx)
	if err != nil {
		return af.fail(env, err)
	}
	defer adm.Close()
	list, err := adm.Accounts.ListAccounts(ctx)
	if err != nil {
		return af.fail(env, err)
	}
	views := make([]accountView, 0, len(list))
	for i := range list {
		views = append(views, newAccountView(&list[i]))
	}
	if af.jsonOut {
		return printed(env, printJSON(env.Stdout, views))
	}
	tw := newTable(env.Stdout)
	fmt.Fprintln(tw, "EMAIL\tTIER\tCAP\tAPI\tFEATURES\tID")
	for _, v := range views {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\n", name.Escape(v.Email), v.Tier, v.DailyCap, onOff(v.APIEnabled), strings.Join(v.Features, ","), v.ID)
	}
	return printed(env, tw.Flush())
}

func runAccountSet(ctx context.Context, args []string, env Env) int {
	fs := newFlagSet("account set", accountSetUsage, env)
	var af adminFlags
	af.register(fs)
	email := fs.String("email", "", "account email (required)")
	tier := fs.String("tier", "", "new tier: free_plus or pro (resets features and cap to the tier's unless given)")
	features := fs.String("features", "", "comma-separated entitlements, replacing the current ones")
	dailyCap := fs.Int("cap", 0, "successful v1 runs per UTC day (0: the tier's default)")
	apiEnabled := fs.String("api-enabled", "", "true or false: turn the account's v1 API on or off")
	storage := fs.String("storage-quota", "", "bytes the account may keep stored, as 500MiB, 20GiB or 1TiB (0: the tier's)")
	if code, ok := parseNoArgs(fs, args, env); !ok {
		return code
	}
	if *email == "" {
		fs.Usage()
		return usageError(env, "account set needs --email")
	}
	set := flagsSet(fs)
	var up account.AccountUpdate
	if set["tier"] {
		up.Tier = tier
	}
	if set["features"] {
		f := splitList(*features)
		if f == nil {
			f = []string{}
		}
		up.Features = &f
	}
	if set["cap"] {
		up.DailyCap = dailyCap
	}
	if set["api-enabled"] {
		on, err := strconv.ParseBool(*apiEnabled)
		if err != nil {
			return usageError(env, "--api-enabled must be true or false")
		}
		off := !on
		up.APIDisabled = &off
	}
	if set["storage-quota"] {
		n, err := parseSize(*storage)
		if err != nil {
			return usageError(env, "--storage-quota: "+err.Error())
		}
		up.StorageQuota = &n
	}
	adm, err := af.open(ctx)
	if err != nil {
		return af.fail(env, err)
	}
	defer adm.Close()
	a, err := adm.Accounts.UpdateAccount(ctx, *email, up)
	if err != nil {
		return af.fail(env, err)
	}
	return printAccounts(env, af.jsonOut, a)
}

func printAccounts(env Env, asJSON bool, a *account.Account) int {
	v := newAccountView(a)
	if asJSON {
		return printed(env, printJSON(env.Stdout, v))
	}
	tw := newTable(env.Stdout)
	fmt.Fprintf(tw, "Email:\t%s\nTier:\t%s\nDaily cap:\t%d\nAPI:\t%s\nStorage quota:\t%s\nFeatures:\t%s\nID:\t%s\n",
		name.Escape(v.Email), v.Tier, v.DailyCap, onOff(v.APIEnabled), sizeText(v.StorageQuota), strings.Join(v.Features, ","), v.ID)
	return printed(env, tw.Flush())
}

func onOff(b bool) string {
	if b {
		return "enabled"
	}
	return "disabled"
}

// parseNoArgs parses flags and refuses positional arguments.
func parseNoArgs(fs interface {
	Parse([]string) error
	Args() []string
}, args []string, env Env) (int, bool) {
	if err := fs.Parse(args); err != nil {
		return usageFailed(err), false
	}
	if len(fs.Args()) != 0 {
		return usageError(env, "unexpected argument %q", fs.Args()[0]), false
	}
	return 0, true
}

// printed turns a failed write to stdout into exit code 1.
func printed(env Env, err error) int {
	if err != nil {
		return failed(env, err)
	}
	return ExitOK
}
