package preset

import (
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/captionqa/captionqa/backend/rules"
)

func shipped(t *testing.T) *Set {
	t.Helper()
	s, err := Load(os.DirFS("../../assets/presets"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// userCases are valid and invalid user preset files. field is the path of
// the first error wanted ("-" for a valid file); goOnly marks a problem
// the schema cannot see, since it depends on the base.
var userCases = []struct {
	name, file, field string
	goOnly            bool
}{
	{"base only", `{"base":"youtube"}`, "-", false},
	{"every override", `{"$schema":"preset-v1.schema.json","base":"generic","title":"Studio A","output":"vtt","stripStyling":false,
		"rules":{"line_too_long":{"level":"enforced","limit":37},"reading_speed_high":{"limit":17},"empty_cue":"off","overlapping_cues":{"limit":0}}}`, "-", false},
	{"new rule with level", `{"base":"html5","rules":{"line_too_long":{"level":"suggestion","limit":32}}}`, "-", false},
	{"not json", `{"base":`, "", false},
	{"not an object", `["youtube"]`, "", false},
	{"trailing data", `{"base":"youtube"} {}`, "", false},
	{"no base", `{"title":"T"}`, "base", false},
	{"base not a string", `{"base":7}`, "base", false},
	{"unknown field", `{"base":"youtube","colour":"red"}`, "colour", false},
	{"empty title", `{"base":"youtube","title":"  "}`, "title", false},
	{"long title", `{"base":"youtube","title":"` + strings.Repeat("x", 201) + `"}`, "title", false},
	{"unknown output", `{"base":"youtube","output":"ass"}`, "output", false},
	{"stripStyling not bool", `{"base":"youtube","stripStyling":"yes"}`, "stripStyling", false},
	{"rules not an object", `{"base":"youtube","rules":["empty_cue"]}`, "rules", false},
	{"unknown rule", `{"base":"youtube","rules":{"too_loud":"off"}}`, "rules.too_loud", false},
	{"rule neither off nor object", `{"base":"youtube","rules":{"empty_cue":"on"}}`, "rules.empty_cue", false},
	{"unknown rule field", `{"base":"youtube","rules":{"empty_cue":{"level":"enforced","colour":1}}}`, "rules.empty_cue.colour", false},
	{"bad level", `{"base":"youtube","rules":{"empty_cue":{"level":"always"}}}`, "rules.empty_cue.level", false},
	{"zero limit", `{"base":"youtube","rules":{"line_too_long":{"limit":0}}}`, "rules.line_too_long.limit", false},
	{"negative tolerance", `{"base":"youtube","rules":{"overlapping_cues":{"limit":-1}}}`, "rules.overlapping_cues.limit", false},
	{"limit on a rule without one", `{"base":"youtube","rules":{"empty_cue":{"limit":3}}}`, "rules.empty_cue.limit", false},
	{"limit not a number", `{"base":"youtube","rules":{"line_too_long":{"limit":"42"}}}`, "rules.line_too_long.limit", false},
	{"unknown base", `{"base":"myspace"}`, "base", true},
	{"new rule without level", `{"base":"html5","rules":{"line_too_long":{"limit":32}}}`, "rules.line_too_long.level", true},
	{"new threshold rule without limit", `{"base":"html5","rules":{"line_too_long":{"level":"enforced"}}}`, "rules.line_too_long.limit", true},
}

// TestUserPresetFiles: each file parses and derives, or fails with its
// field path.
func TestUserPresetFiles(t *testing.T) {
	t.Parallel()
	s := shipped(t)
	for _, tc := range userCases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, err := s.ParseAndDerive("studio-a", []byte(tc.file))
			if tc.field == "-" {
				if err != nil {
					t.Fatalf("valid file refused: %v", err)
				}
				return
			}
			var ie *InvalidError
			if !errors.As(err, &ie) || len(ie.Errors) == 0 {
				t.Fatalf("error = %v; want an InvalidError", err)
			}
			if ie.Errors[0].Field != tc.field || ie.Errors[0].Message == "" {
				t.Errorf("errors = %+v; want the first on %q", ie.Errors, tc.field)
			}
		})
	}
}

// TestUserPresetDerive: the overrides change the base's copy, not the
// base.
func TestUserPresetDerive(t *testing.T) {
	t.Parallel()
	s := shipped(t)
	p, err := s.ParseAndDerive("studio-a", []byte(`{"base":"generic","title":"Studio A","output":"vtt","stripStyling":false,
		"rules":{"line_too_long":{"limit":37},"reading_speed_high":{"level":"suggestion"},"empty_cue":"off"}}`))
	if err != nil {
		t.Fatal(err)
	}
	base, _ := s.Lookup("generic")
	if p.ID != "studio-a" || p.Title != "Studio A" || p.Output != "vtt" || p.StripStyling {
		t.Errorf("preset = %+v", p)
	}
	if got := p.Rules[rules.CodeLineTooLong]; got.Limit != 37 || got.Level != base.Rules[rules.CodeLineTooLong].Level {
		t.Errorf("line_too_long = %+v; want the base's level with limit 37", got)
	}
	if got := p.Rules[rules.CodeReadingSpeedHigh]; got.Level != rules.Suggestion || got.Limit != base.Rules[rules.CodeReadingSpeedHigh].Limit {
		t.Errorf("reading_speed_high = %+v; want a suggestion at the base's limit", got)
	}
	if _, ok := p.Setting(rules.CodeEmptyCue); ok {
		t.Error("empty_cue is off but still checked")
	}
	if _, ok := base.Setting(rules.CodeEmptyCue); !ok || base.Rules[rules.CodeLineTooLong].Limit == 37 || base.ID != "generic" {
		t.Error("deriving changed the base")
	}
	if len(p.Rules) != len(base.Rules)-1 {
		t.Errorf("%d rules; want the base's %d less one", len(p.Rules), len(base.Rules))
	}
}

// TestUserPresetOnFrames: a preset of one's own on a base that counts a
// limit in frames keeps the base's frame rate and its frames, and a limit
// given in milliseconds replaces the frames.
func TestUserPresetOnFrames(t *testing.T) {
	t.Parallel()
	s := shipped(t)
	base, _ := s.Lookup("netflix")
	if base.FrameRate == 0 || base.Rules[rules.CodeGapTooSmall].Frames == 0 {
		t.Fatalf("netflix counts its gap in frames no more: %+v", base.Rules[rules.CodeGapTooSmall])
	}
	p, err := s.ParseAndDerive("studio-n", []byte(`{"base":"netflix","rules":{"line_too_long":{"limit":39}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if p.FrameRate != base.FrameRate || p.Rules[rules.CodeGapTooSmall] != base.Rules[rules.CodeGapTooSmall] {
		t.Errorf("derived frame rate %v, gap %+v; want the base's %v, %+v", p.FrameRate, p.Rules[rules.CodeGapTooSmall], base.FrameRate, base.Rules[rules.CodeGapTooSmall])
	}
	p, err = s.ParseAndDerive("studio-n", []byte(`{"base":"netflix","rules":{"gap_too_small":{"limit":120}}}`))
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Rules[rules.CodeGapTooSmall]; got.Limit != 120 || got.Frames != 0 {
		t.Errorf("gap = %+v; want 120 ms, no frames", got)
	}
}

// TestUserPresetSchemaAgrees: the published schema accepts exactly the
// files the Go validation accepts, but for the problems that depend on
// the base; and it names every rule of the catalogue, with a limit where
// the rule has a unit.
func TestUserPresetSchemaAgrees(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("../../assets/schema/preset-v1.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("preset-v1.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile("preset-v1.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	s := shipped(t)
	for _, tc := range userCases {
		inst, jerr := jsonschema.UnmarshalJSON(strings.NewReader(tc.file))
		schemaOK := jerr == nil && schema.Validate(inst) == nil
		_, goErr := s.ParseAndDerive("studio-a", []byte(tc.file))
		if want := goErr == nil || tc.goOnly; schemaOK != want {
			t.Errorf("%s: schema accepts = %v, Go error = %v", tc.name, schemaOK, goErr)
		}
	}
	ruleProps := doc["properties"].(map[string]any)["rules"].(map[string]any)["properties"].(map[string]any)
	var codes []string
	for _, r := range rules.Catalogue() {
		codes = append(codes, r.Code())
		prop, ok := ruleProps[r.Code()].(map[string]any)
		if !ok {
			t.Errorf("the schema has no rule %s", r.Code())
			continue
		}
		obj := prop["oneOf"].([]any)[1].(map[string]any)["properties"].(map[string]any)
		if _, hasLimit := obj["limit"]; hasLimit != (r.Unit() != "") {
			t.Errorf("rule %s: schema limit = %v; the rule's unit is %q", r.Code(), hasLimit, r.Unit())
		}
	}
	for code := range ruleProps {
		if !slices.Contains(codes, code) {
			t.Errorf("the schema names %s, which is not in the catalogue", code)
		}
	}
	schemaOutputs := doc["properties"].(map[string]any)["output"].(map[string]any)["enum"].([]any)
	if len(schemaOutputs) != len(outputs()) {
		t.Errorf("schema outputs %v; Go's %v", schemaOutputs, outputs())
	}
}
