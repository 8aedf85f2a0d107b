package standard

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

func TestLoadReal(t *testing.T) {
	t.Parallel()
	s := loadReal(t)
	got, want := s.IDs(), []string{"dcmp", "en-301-549", "fcc-79.1", "wcag-2.1-aa"}
	if !slices.Equal(got, want) {
		t.Fatalf("IDs() = %v, want %v (the standards docs/cli.md lists)", got, want)
	}
	for _, id := range want {
		c, err := s.Lookup(id)
		if err != nil {
			t.Fatalf("Lookup(%q): %v", id, err)
		}
		if c.ID != id || len(c.Clauses) == 0 {
			t.Errorf("Lookup(%q) = %q with %d clauses", id, c.ID, len(c.Clauses))
		}
	}
}

func TestUnknownStandardRefused(t *testing.T) {
	t.Parallel()
	s := loadReal(t)
	for _, id := range []string{"", "wcag", "WCAG-2.1-AA", "section-508"} {
		if _, err := s.Lookup(id); !errors.Is(err, ErrUnknownStandard) {
			t.Errorf("Lookup(%q) error = %v, want ErrUnknownStandard", id, err)
		} else if !strings.Contains(err.Error(), "fcc-79.1") {
			t.Errorf("Lookup(%q) error %q does not name the known standards", id, err)
		}
		if _, err := s.Grade(id, cleanInput("srt")); !errors.Is(err, ErrUnknownStandard) {
			t.Errorf("Grade(%q) error = %v, want ErrUnknownStandard", id, err)
		}
	}
}

func TestLoadBroken(t *testing.T) {
	t.Parallel()
	const head = `{"id":"x","title":"X","source":"S","clauses":[`
	manual := `{"id":"a","title":"A","requirement":"R","kind":"manual","reason":"why"}`
	tests := []struct {
		name, file, body, want string
	}{
		{"bad json", "x.json", `{"id":"x",`, "x.json"},
		{"unknown field", "x.json", head + `{"id":"a","title":"A","requirement":"R","kind":"manual","reason":"r","reasn":"typo"}]}`, `unknown field "reasn"`},
		{"id differs from file name", "y.json", head + manual + `]}`, `does not match the file name`},
		{"no clauses", "x.json", head + `]}`, "no clauses"},
		{"duplicate clause id", "x.json", head + manual + `,` + manual + `]}`, `duplicate clause id "a"`},
		{"unknown kind", "x.json", head + `{"id":"a","title":"A","requirement":"R","kind":"vibes"}]}`, `unknown kind "vibes"`},
		{"manual without reason", "x.json", head + `{"id":"a","title":"A","requirement":"R","kind":"manual"}]}`, `kind "manual" needs a reason`},
		{"unknown rule", "x.json", head + `{"id":"a","title":"A","requirement":"R","kind":"checks","passWhenHeld":true,"checks":[{"rule":"no_such_rule"}]}]}`, `unknown rule "no_such_rule"`},
		{"rule limit missing", "x.json", head + `{"id":"a","title":"A","requirement":"R","kind":"checks","passWhenHeld":true,"checks":[{"rule":"line_too_long"}]}]}`, `rule "line_too_long" needs a positive limit in chars`},
		{"negative tolerance", "x.json", head + `{"id":"a","title":"A","requirement":"R","kind":"checks","passWhenHeld":true,"checks":[{"rule":"overlapping_cues","limit":-5}]}]}`, `rule "overlapping_cues": limit must not be negative`},
		{"limit on rule without one", "x.json", head + `{"id":"a","title":"A","requirement":"R","kind":"checks","passWhenHeld":true,"checks":[{"rule":"position_out_of_bounds","limit":3}]}]}`, `takes no limit`},
		{"checks without reason", "x.json", head + `{"id":"a","title":"A","requirement":"R","kind":"checks","checks":[{"rule":"empty_cue"}]}]}`, "needs a reason"},
		{"kind limit missing", "x.json", head + `{"id":"a","title":"A","requirement":"R","kind":"sync"}]}`, `kind "sync" needs a positive limit`},
		{"manual with checks", "x.json", head + `{"id":"a","title":"A","requirement":"R","kind":"manual","reason":"r","checks":[{"rule":"empty_cue"}]}]}`, "runs no checks"},
		{"fcc without never-pass accuracy", "fcc-79.1.json", `{"id":"fcc-79.1","title":"X","source":"S","clauses":[{"id":"a","title":"A","requirement":"R","kind":"accuracy","reason":"r"}]}`, "neverPass is required"},
		{"missing requirement", "x.json", head + `{"id":"a","title":"A","kind":"manual","reason":"r"}]}`, "requirement are required"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Load(fstest.MapFS{tt.file: {Data: []byte(tt.body)}})
			if !errors.Is(err, ErrInvalidCatalogue) {
				t.Fatalf("Load error = %v, want ErrInvalidCatalogue", err)
			}
			if !strings.Contains(err.Error(), tt.file) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Load error = %q, want it to name %s and say %q", err, tt.file, tt.want)
			}
		})
	}
	if _, err := Load(fstest.MapFS{}); !errors.Is(err, ErrInvalidCatalogue) {
		t.Errorf("Load(empty fs) error = %v, want ErrInvalidCatalogue", err)
	}
}
