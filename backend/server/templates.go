package server

import (
	"github.com/captionqa/captionqa/backend/exporttpl"
	"github.com/captionqa/captionqa/backend/jsrun"
	"github.com/captionqa/captionqa/backend/project"
	"github.com/captionqa/captionqa/backend/quota"
	"github.com/captionqa/captionqa/backend/store"
)

// newTemplates returns the export-template service, its scripts run by
// jsrun's QuickJS sandbox, or nil when [Config.TemplatesOff]. Tests share
// the export-operation burst limit with exports. One wait bounds both the
// queue for the account's VM and the one for any VM.
func newTemplates(db store.DB, projects *project.Service, pool *quota.Service, limiter *quota.Service, cfg *Config) *exporttpl.Service {
	if cfg.TemplatesOff {
		return nil
	}
	wait := cfg.TemplateQueueWait
	if wait <= 0 {
		wait = exporttpl.DefaultQueueWait
	}
	return exporttpl.NewService(db.Templates(), exporttpl.Options{Runner: jsrun.New(jsrun.Options{QueueWait: wait}),
		Projects: projects, Pool: pool, Limiter: limiter, RunTimeout: cfg.TemplateRunTimeout,
		RunsPerAccount: cfg.TemplateRunsPerAccount, QueueWait: wait,
		CPUBudget: cfg.TemplateCPUBudget, CPUWindow: cfg.TemplateCPUWindow, Now: cfg.Now})
}

// templatesOrNil is t as the exporter's renderer: a nil *Service must
// be a nil interface, which the exporter reads as "runtime off".
func templatesOrNil(t *exporttpl.Service) project.Templates {
	if t == nil {
		return nil
	}
	return t
}
