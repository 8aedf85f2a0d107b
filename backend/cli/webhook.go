package cli

import "context"

// envWebhookSecret gives "webhook listen" its secret without a flag, so
// that the secret stays out of the shell's history and the process list.
const envWebhookSecret = "CAPTIONQA_WEBHOOK_SECRET"

const webhookListenUsage = "--secret S [--addr HOST:PORT] [--tls-cert FILE --tls-key FILE] [--json]"

// runWebhook runs "captionqa webhook VERB", the integrator's side of the
// webhook: what a receiver sees of CaptionQA's deliveries.
func runWebhook(ctx context.Context, args []string, env Env) int {
	return runGroup(ctx, "webhook", []subcommand{
		{"listen", webhookListenUsage, runWebhookListen},
	}, args, env)
}
