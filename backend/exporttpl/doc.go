// Package exporttpl keeps an account's export templates, scripts that
// turn a project's timeline into a file of the author's own format by
// defining exportTimeline(cues, ctx) (docs/templates.md), and runs them:
// validate before saving, test against a project (drawing from the daily
// pool), and render during exports. Scripts run in a sandbox
// behind the [Runner] interface (package jsrun); this package knows no
// JavaScript engine.
package exporttpl
