// Package webhook sends the export_complete event (docs/webhooks.md) to an
// account's HTTPS webhook: its configuration (HTTPS only, a server-made
// secret shown once, masked after), the body's signature ([Sign],
// [Verify]), and durable delivery. A delivery is recorded and queued in
// the same transaction as its export (the outbox, in the store), then
// attempted by a queue worker ([Service.Attempt]) until the receiver
// answers 2xx or the retry window ends.
package webhook
