package quota

// AccountPool is the pool of an account's successful v1 runs
// (docs/api.md, Limits and quotas): process, template validate and test,
// exports, jobs and explain calls all count in it.
func AccountPool(accountID string) string { return "account:" + accountID }

// ExplainPool is the pool of an account's explanations, under the daily
// explain cap, apart from its runs.
func ExplainPool(accountID string) string { return "explain:" + accountID }
