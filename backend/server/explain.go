package server

import (
	"fmt"
	"log/slog"

	"github.com/captionqa/captionqa/backend/explain"
	"github.com/captionqa/captionqa/backend/explain/grant"
	"github.com/captionqa/captionqa/backend/explain/llm"
	"github.com/captionqa/captionqa/backend/preset"
	"github.com/captionqa/captionqa/backend/quota"
)

// newExplain builds ExplainAI: the built-in explainer, with the model of
// an OpenAI-compatible endpoint writing the prose when one is configured,
// and the grant that decides who gets it and counts it.
func newExplain(q *quota.Service, presets *preset.Set, cfg *Config, log *slog.Logger) (*grant.Service, error) {
	opts := grant.Options{Quota: q, DailyCap: cfg.ExplainDailyCap}
	if cfg.ExplainOff {
		log.Info("ExplainAI is off (--explain off)")
		return grant.New(opts), nil
	}
	xo := explain.Options{Presets: presets, Timeout: cfg.ExplainTimeout, Logger: cfg.Logger}
	if cfg.ExplainEndpoint != "" {
		w, err := llm.New(llm.Options{Endpoint: cfg.ExplainEndpoint, Model: cfg.ExplainModel, APIKey: cfg.ExplainAPIKey})
		if err != nil {
			return nil, fmt.Errorf("server: explain endpoint: %w", err)
		}
		xo.Writer = w
		log.Info("ExplainAI: the model writes the prose, the built-in explainer the plan", "endpoint", cfg.ExplainEndpoint, "model", cfg.ExplainModel)
	}
	opts.Explainer = explain.New(xo)
	return grant.New(opts), nil
}
