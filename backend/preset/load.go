package preset

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"

	"github.com/captionqa/captionqa/backend/rules"
)

// Required lists the 11 presets CaptionQA ships (docs/cli.md, Presets and
// standards); [Load] fails unless every one is present.
func Required() []string {
	return []string{"youtube", "tiktok", "html5", "generic", "lms", "instagram-reels", "linkedin", "vimeo", "facebook", "zoom", "developer-json"}
}

// outputs are the formats a preset may deliver.
func outputs() []string { return []string{"srt", "vtt", "ttml", "ebu-tt-d", "scc", "stl", "json"} }

// Set holds every loaded preset.
type Set struct {
	byID map[string]*Preset
}

// Load reads every *.json file at the root of fsys, one preset each, and
// validates them: known output format, known rule codes, valid levels,
// non-negative limits for threshold rules and none for the others, the file
// name equal to the id, and all [Required] presets present. The error
// names the file and the problem.
func Load(fsys fs.FS) (*Set, error) {
	names, err := fs.Glob(fsys, "*.json")
	if err != nil {
		return nil, fmt.Errorf("preset: list: %w", err)
	}
	s := &Set{byID: map[string]*Preset{}}
	for _, name := range names {
		p, err := loadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		s.byID[p.ID] = p
	}
	for _, id := range Required() {
		if _, ok := s.byID[id]; !ok {
			return nil, fmt.Errorf("preset: %s.json is missing: every preset of the spec must be defined", id)
		}
	}
	return s, nil
}

func loadFile(fsys fs.FS, name string) (*Preset, error) {
	b, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("preset: read %s: %w", name, err)
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	dec.DisallowUnknownFields()
	var p Preset
	if err := dec.Decode(&p); err != nil {
		return nil, fmt.Errorf("preset: %s: %w", name, err)
	}
	if err := p.validate(strings.TrimSuffix(path.Base(name), ".json")); err != nil {
		return nil, fmt.Errorf("preset: %s: %w", name, err)
	}
	return &p, nil
}

func (p *Preset) validate(fileID string) error {
	if p.ID != fileID {
		return fmt.Errorf("id %q does not match the file name", p.ID)
	}
	if p.Title == "" {
		return fmt.Errorf("title is empty")
	}
	if !slices.Contains(outputs(), p.Output) {
		return fmt.Errorf("output %q is not one of %s", p.Output, strings.Join(outputs(), ", "))
	}
	for _, code := range p.RuleCodes() {
		s := p.Rules[code]
		r, ok := rules.Lookup(code)
		if !ok {
			return fmt.Errorf("rule %q is not in the catalogue", code)
		}
		if s.Level != rules.Enforced && s.Level != rules.Suggestion {
			return fmt.Errorf("rule %s: level %q is neither enforced nor suggestion", code, s.Level)
		}
		switch {
		case rules.NeedsLimit(r) && s.Limit <= 0:
			return fmt.Errorf("rule %s: needs a limit above 0 (%s)", code, r.Unit())
		case r.Unit() != "" && s.Limit < 0:
			return fmt.Errorf("rule %s: limit must not be negative (%s)", code, r.Unit())
		case r.Unit() == "" && s.Limit != 0:
			return fmt.Errorf("rule %s: takes no limit", code)
		}
	}
	return nil
}

// RuleCodes returns the codes the preset checks, sorted.
func (p *Preset) RuleCodes() []string {
	codes := make([]string, 0, len(p.Rules))
	for c := range p.Rules {
		codes = append(codes, c)
	}
	sort.Strings(codes)
	return codes
}

// Lookup returns the preset named id; "" means [Default]. It returns
// [ErrUnknownPreset] (wrapped, naming the known presets) otherwise.
func (s *Set) Lookup(id string) (*Preset, error) {
	if id == "" {
		id = Default
	}
	if p, ok := s.byID[id]; ok {
		return p, nil
	}
	return nil, fmt.Errorf("%w %q (known: %s)", ErrUnknownPreset, id, strings.Join(s.IDs(), ", "))
}

// IDs returns the preset ids in the order of [Required], then any others
// sorted.
func (s *Set) IDs() []string {
	ids := []string{}
	for _, id := range Required() {
		if _, ok := s.byID[id]; ok {
			ids = append(ids, id)
		}
	}
	var extra []string
	for id := range s.byID {
		if !slices.Contains(ids, id) {
			extra = append(extra, id)
		}
	}
	sort.Strings(extra)
	return append(ids, extra...)
}
