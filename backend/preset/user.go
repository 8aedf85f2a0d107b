package preset

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"sort"
	"strings"

	"github.com/captionqa/captionqa/backend/rules"
)

// MaxUserFileBytes bounds a user preset file (docs/presets.md, Your own
// presets).
const MaxUserFileBytes = 64 << 10

// maxTitleLen bounds a user preset's title, in bytes.
const maxTitleLen = 200

// RuleOff is the value of a rule a user preset stops checking.
const RuleOff = "off"

// UserFile is a studio's own preset: a built-in base and what it
// overrides (docs/presets.md, Your own presets; the schema is
// assets/schema/preset-v1.schema.json). Nil fields keep the base's value.
type UserFile struct {
	// Schema is the optional "$schema" an editor uses; it is kept, not read.
	Schema       string                  `json:"$schema,omitempty"`
	Base         string                  `json:"base"`
	Title        *string                 `json:"title,omitempty"`
	Output       *string                 `json:"output,omitempty"`
	StripStyling *bool                   `json:"stripStyling,omitempty"`
	Rules        map[string]RuleOverride `json:"rules,omitempty"`
}

// RuleOverride is one rule of a [UserFile]: off, or a level and limit of
// which an empty one keeps the base's.
type RuleOverride struct {
	Off   bool
	Level rules.Level
	Limit *float64
}

// MarshalJSON writes "off" or {"level","limit"}.
func (o RuleOverride) MarshalJSON() ([]byte, error) {
	if o.Off {
		return json.Marshal(RuleOff)
	}
	return json.Marshal(struct {
		Level rules.Level `json:"level,omitempty"`
		Limit *float64    `json:"limit,omitempty"`
	}{o.Level, o.Limit})
}

// FieldError is one problem of a user preset file, at a path such as
// rules.line_too_long.limit ("" for the file as a whole).
type FieldError struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// InvalidError lists every problem found in a user preset file.
type InvalidError struct {
	Errors []FieldError
}

func (e *InvalidError) Error() string {
	parts := make([]string, len(e.Errors))
	for i, fe := range e.Errors {
		parts[i] = fe.Message
		if fe.Field != "" {
			parts[i] = fe.Field + ": " + fe.Message
		}
	}
	return "preset: invalid preset file: " + strings.Join(parts, "; ")
}

// problems collects [FieldError]s.
type problems []FieldError

func (p *problems) add(field, format string, args ...any) {
	*p = append(*p, FieldError{Field: field, Message: fmt.Sprintf(format, args...)})
}

func (p problems) err() error {
	if len(p) == 0 {
		return nil
	}
	return &InvalidError{Errors: p}
}

// ParseUser reads a user preset file strictly: JSON of one object whose
// fields are those of [UserFile], every rule "off" or an object of level
// and limit. It returns an *[InvalidError] naming each bad field.
func ParseUser(data []byte) (*UserFile, error) {
	var ps problems
	if len(data) > MaxUserFileBytes {
		ps.add("", "the file is larger than %d bytes", MaxUserFileBytes)
		return nil, ps.err()
	}
	var top map[string]json.RawMessage
	if err := strictDecode(data, &top); err != nil || top == nil {
		ps.add("", "not a JSON object: %s", jsonProblem(err))
		return nil, ps.err()
	}
	f := &UserFile{}
	for _, key := range sortedKeys(top) {
		raw := top[key]
		var err error
		switch key {
		case "$schema":
			err = strictDecode(raw, &f.Schema)
		case "base":
			err = strictDecode(raw, &f.Base)
		case "title":
			err = strictDecode(raw, &f.Title)
		case "output":
			err = strictDecode(raw, &f.Output)
		case "stripStyling":
			err = strictDecode(raw, &f.StripStyling)
		case "rules":
			f.Rules = parseRules(raw, &ps)
			continue
		default:
			ps.add(key, "unknown field (known: $schema, base, title, output, stripStyling, rules)")
			continue
		}
		if err != nil {
			ps.add(key, "%s", jsonProblem(err))
		}
	}
	if _, ok := top["base"]; !ok {
		ps.add("base", "required: the id of a built-in preset")
	}
	if err := ps.err(); err != nil {
		return nil, err
	}
	return f, nil
}

func parseRules(raw json.RawMessage, ps *problems) map[string]RuleOverride {
	var m map[string]json.RawMessage
	if err := strictDecode(raw, &m); err != nil {
		ps.add("rules", "an object of rule codes: %s", jsonProblem(err))
		return nil
	}
	out := map[string]RuleOverride{}
	for _, code := range sortedKeys(m) {
		field := "rules." + code
		v := bytes.TrimSpace(m[code])
		if len(v) > 0 && v[0] == '"' {
			var s string
			if err := strictDecode(v, &s); err != nil || s != RuleOff {
				ps.add(field, `a rule is "off" or an object of level and limit`)
				continue
			}
			out[code] = RuleOverride{Off: true}
			continue
		}
		var obj map[string]json.RawMessage
		if err := strictDecode(v, &obj); err != nil || obj == nil {
			ps.add(field, `a rule is "off" or an object of level and limit`)
			continue
		}
		var o RuleOverride
		for _, key := range sortedKeys(obj) {
			var err error
			switch key {
			case "level":
				err = strictDecode(obj[key], &o.Level)
			case "limit":
				err = strictDecode(obj[key], &o.Limit)
			default:
				ps.add(field+"."+key, "unknown field (known: level, limit)")
				continue
			}
			if err != nil {
				ps.add(field+"."+key, "%s", jsonProblem(err))
			}
		}
		out[code] = o
	}
	return out
}

// strictDecode decodes exactly one JSON value of data into v.
func strictDecode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("data after the JSON value")
	}
	return nil
}

// jsonProblem words a decoding error without Go's type names.
func jsonProblem(err error) string {
	var te *json.UnmarshalTypeError
	switch {
	case err == nil:
		return "null"
	case errors.As(err, &te):
		return fmt.Sprintf("a JSON %s where %s is wanted", te.Value, jsonKind(te.Type.Kind().String()))
	}
	return err.Error()
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "bool":
		return "true or false"
	case "float64":
		return "a number"
	case "map", "struct":
		return "an object"
	}
	return "another type"
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Derive returns the preset id that f makes of its base, a preset of s:
// the base's settings with f's overrides, each checked as [Load] checks a
// shipped preset. It returns an *[InvalidError] naming each bad field:
// an unknown base, an empty or long title, an unknown output, a rule not
// in the catalogue, a level that is neither enforced nor suggestion, a
// limit the rule refuses, or a rule the base does not check given no
// level.
func (s *Set) Derive(id string, f *UserFile) (*Preset, error) {
	var ps problems
	base, ok := s.byID[f.Base]
	if !ok {
		ps.add("base", "%q is not a built-in preset (known: %s)", f.Base, strings.Join(s.IDs(), ", "))
		return nil, ps.err()
	}
	p := &Preset{ID: id, Title: base.Title, Output: base.Output, StripStyling: base.StripStyling, FrameRate: base.FrameRate,
		Rules: maps.Clone(base.Rules), Notes: append([]string(nil), base.Notes...)}
	if f.Title != nil {
		p.Title = strings.TrimSpace(*f.Title)
		if len(p.Title) > maxTitleLen {
			ps.add("title", "at most %d bytes", maxTitleLen)
		}
	}
	if f.Output != nil {
		p.Output = *f.Output
	}
	if f.StripStyling != nil {
		p.StripStyling = *f.StripStyling
	}
	// The file-wide checks of validate, one aspect at a time so that each
	// failure has its field.
	if err := (&Preset{ID: id, Title: p.Title, Output: outputs()[0]}).validate(id); err != nil {
		ps.add("title", "%s", err)
	}
	if err := (&Preset{ID: id, Title: "t", Output: p.Output}).validate(id); err != nil {
		ps.add("output", "%s", err)
	}
	for _, code := range sortedKeys(f.Rules) {
		o, field := f.Rules[code], "rules."+code
		if _, known := rules.Lookup(code); !known {
			ps.add(field, "rule %q is not in the catalogue", code)
			continue
		}
		if o.Off {
			delete(p.Rules, code)
			continue
		}
		st, checked := p.Rules[code]
		if o.Level != "" {
			st.Level = o.Level
		}
		if o.Limit != nil {
			// A limit given replaces the base's, also one counted in frames.
			st.Limit, st.Frames = *o.Limit, 0
		}
		if !checked && o.Level == "" {
			ps.add(field+".level", "%s does not check %s: give its level (enforced or suggestion)", f.Base, code)
			continue
		}
		if err := (&Preset{ID: id, Title: "t", Output: p.Output, FrameRate: p.FrameRate, Rules: map[string]RuleSetting{code: st}}).validate(id); err != nil {
			sub := ".limit"
			if st.Level != rules.Enforced && st.Level != rules.Suggestion {
				sub = ".level"
			}
			ps.add(field+sub, "%s", err)
			continue
		}
		p.Rules[code] = st
	}
	if err := ps.err(); err != nil {
		return nil, err
	}
	return p, nil
}

// ParseAndDerive is [ParseUser] then [Set.Derive]: the preset id that
// the file data makes, or an *[InvalidError].
func (s *Set) ParseAndDerive(id string, data []byte) (*Preset, error) {
	f, err := ParseUser(data)
	if err != nil {
		return nil, err
	}
	return s.Derive(id, f)
}

// IsBuiltin reports whether id names a preset of s (not "", which
// [Set.Lookup] takes for [Default]).
func (s *Set) IsBuiltin(id string) bool {
	_, ok := s.byID[id]
	return ok
}
