package httpapi

import (
	"time"

	"github.com/captionqa/captionqa/backend/preset"
	"github.com/captionqa/captionqa/backend/userpreset"
)

// MaxPresetBodyBytes bounds a preset file's body (PUT
// /api/v1/presets/{name}).
const MaxPresetBodyBytes = preset.MaxUserFileBytes

// presetList is the body of GET /api/v1/presets.
type presetList struct {
	Presets []PresetView `json:"presets"`
}

// presetDeleted is the body of DELETE /api/v1/presets/{name}.
type presetDeleted struct {
	Name    string `json:"name"`
	Deleted bool   `json:"deleted"`
}

// PresetView is a preset, built-in or the account's own, with the rules
// it resolves to (the OpenAPI schema PresetView).
type PresetView struct {
	Name    string `json:"name"`
	Builtin bool   `json:"builtin"`
	// File is the account's preset file as saved; absent for a built-in.
	File *preset.UserFile `json:"file,omitempty"`
	// Resolved is the preset the file makes of its base; null when it no
	// longer derives (Problem says why).
	Resolved  *ResolvedPreset `json:"resolved"`
	Problem   string          `json:"problem,omitempty"`
	CreatedAt *time.Time      `json:"createdAt,omitempty"`
	UpdatedAt *time.Time      `json:"updatedAt,omitempty"`
}

// ResolvedPreset is what a preset applies.
type ResolvedPreset struct {
	Title        string                        `json:"title"`
	Output       string                        `json:"output"`
	StripStyling bool                          `json:"stripStyling"`
	FrameRate    float64                       `json:"frameRate,omitempty"`
	Rules        map[string]preset.RuleSetting `json:"rules"`
}

// NewPresetView shows e; problem, when e does not resolve, says why.
func NewPresetView(e *userpreset.Entry, problem error) PresetView {
	v := PresetView{Name: e.Name, Builtin: e.Builtin, File: e.File}
	if p := e.Resolved; p != nil {
		v.Resolved = &ResolvedPreset{Title: p.Title, Output: p.Output, StripStyling: p.StripStyling, FrameRate: p.FrameRate, Rules: p.Rules}
	} else if problem != nil {
		v.Problem = problem.Error()
	}
	if !e.Builtin {
		c, u := e.CreatedAt, e.UpdatedAt
		v.CreatedAt, v.UpdatedAt = &c, &u
	}
	return v
}
