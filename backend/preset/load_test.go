package preset

import (
	"errors"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/captionqa/captionqa/backend/rules"
)

// TestLoadShippedPresets loads the presets CaptionQA ships and checks the
// facts the docs state about them (docs/cli.md, Presets and standards).
func TestLoadShippedPresets(t *testing.T) {
	t.Parallel()
	s, err := Load(os.DirFS("../../assets/presets"))
	if err != nil {
		t.Fatal(err)
	}
	wantOutput := map[string]string{
		"youtube": "srt", "tiktok": "srt", "html5": "vtt", "generic": "srt", "lms": "ttml", "instagram-reels": "srt",
		"linkedin": "srt", "vimeo": "vtt", "facebook": "srt", "zoom": "vtt", "developer-json": "json",
	}
	if got := strings.Join(s.IDs(), ","); got != strings.Join(Required(), ",") {
		t.Errorf("IDs = %s", got)
	}
	for id, out := range wantOutput {
		p, err := s.Lookup(id)
		if err != nil {
			t.Fatal(err)
		}
		if p.Output != out {
			t.Errorf("%s: output %s; want %s", id, p.Output, out)
		}
	}
	if p, _ := s.Lookup(""); p.ID != "youtube" {
		t.Errorf("default preset = %s; want youtube", p.ID)
	}
	// Only generic enforces line length and reading speed.
	for _, id := range s.IDs() {
		p, _ := s.Lookup(id)
		for _, code := range []string{rules.CodeLineTooLong, rules.CodeReadingSpeedHigh} {
			st, ok := p.Setting(code)
			if enforced := ok && st.Level == rules.Enforced; enforced != (id == "generic") {
				t.Errorf("%s: %s enforced = %v", id, code, enforced)
			}
		}
	}
	// html5 emphasises "no line length or CPS limits on export".
	if p, _ := s.Lookup("html5"); p.Rules[rules.CodeLineTooLong] != (RuleSetting{}) || p.Rules[rules.CodeReadingSpeedHigh] != (RuleSetting{}) {
		t.Error("html5 must not check line length or reading speed")
	}
}

func TestLookupUnknown(t *testing.T) {
	t.Parallel()
	s, err := Load(os.DirFS("../../assets/presets"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.Lookup("myspace")
	if !errors.Is(err, ErrUnknownPreset) || !strings.Contains(err.Error(), "youtube") {
		t.Errorf("Lookup(myspace) = %v; want ErrUnknownPreset listing the known presets", err)
	}
}

// TestLoadRefusesBrokenPresets: a broken preset file stops start-up with a
// message naming the file and the problem.
func TestLoadRefusesBrokenPresets(t *testing.T) {
	t.Parallel()
	valid := func(id string) string {
		return `{"id":"` + id + `","title":"T","output":"srt","stripStyling":true,"rules":{"reading_speed_high":{"level":"suggestion","limit":20}}}`
	}
	base := func() fstest.MapFS {
		fsys := fstest.MapFS{}
		for _, id := range Required() {
			fsys[id+".json"] = &fstest.MapFile{Data: []byte(valid(id))}
		}
		return fsys
	}
	tests := []struct {
		name, file, content, want string
	}{
		{"bad json", "generic.json", `{"id":`, "generic.json"},
		{"unknown field", "generic.json", `{"id":"generic","title":"T","output":"srt","colour":"red","rules":{}}`, `unknown field "colour"`},
		{"id differs from file", "generic.json", valid("vimeo"), `id "vimeo" does not match`},
		{"no title", "generic.json", `{"id":"generic","output":"srt","rules":{}}`, "title is empty"},
		{"unknown output", "generic.json", `{"id":"generic","title":"T","output":"ass","rules":{}}`, `output "ass"`},
		{"unknown rule", "generic.json", `{"id":"generic","title":"T","output":"srt","rules":{"too_loud":{"level":"enforced"}}}`, `rule "too_loud"`},
		{"bad level", "generic.json", `{"id":"generic","title":"T","output":"srt","rules":{"empty_cue":{"level":"always"}}}`, `level "always"`},
		{"negative limit", "generic.json", `{"id":"generic","title":"T","output":"srt","rules":{"too_many_lines":{"level":"enforced","limit":-2}}}`, "needs a limit above 0"},
		{"absent limit", "generic.json", `{"id":"generic","title":"T","output":"srt","rules":{"line_too_long":{"level":"enforced"}}}`, "needs a limit above 0"},
		{"negative tolerance", "generic.json", `{"id":"generic","title":"T","output":"srt","rules":{"overlapping_cues":{"level":"enforced","limit":-1}}}`, "must not be negative"},
		{"limit on a rule without one", "generic.json", `{"id":"generic","title":"T","output":"srt","rules":{"empty_cue":{"level":"enforced","limit":3}}}`, "takes no limit"},
		{"missing preset", "zoom.json", "", "zoom.json is missing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fsys := base()
			if tt.content == "" {
				delete(fsys, tt.file)
			} else {
				fsys[tt.file] = &fstest.MapFile{Data: []byte(tt.content)}
			}
			_, err := Load(fsys)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Load error = %v; want one mentioning %q", err, tt.want)
			}
		})
	}
	if _, err := Load(base()); err != nil {
		t.Errorf("the valid base set fails: %v", err)
	}
}
