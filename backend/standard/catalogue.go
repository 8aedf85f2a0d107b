package standard

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/captionqa/captionqa/backend/rules"
)

// ErrUnknownStandard is returned by [Set.Lookup] and [Set.Grade] for a
// standard id that no catalogue defines. A request naming such a standard
// is refused, never graded as if no standard were asked for.
var ErrUnknownStandard = errors.New("standard: unknown standard")

// ErrInvalidCatalogue is wrapped by every error [Load] returns for a
// catalogue file that cannot be used.
var ErrInvalidCatalogue = errors.New("standard: invalid catalogue")

// Catalogue is one standard's clause catalogue, as read from its JSON file.
type Catalogue struct {
	// ID is the standard's request value ("wcag-2.1-aa"); it equals the
	// file name without ".json".
	ID    string `json:"id"`
	Title string `json:"title"`
	// Version names the edition the clauses follow.
	Version string `json:"version"`
	// Source names the published text the requirements paraphrase.
	Source  string       `json:"source"`
	Clauses []ClauseSpec `json:"clauses"`
}

// ReadsOutput reports whether grading against c looks at
// [Input.Reparse]: a clause of the structure, colour, contrast, language,
// sync or preservation kind, or of a kind this package does not know.
// When it is false, Grade returns the same report with or without
// Reparse, and a caller may skip reading its output back.
func (c *Catalogue) ReadsOutput() bool {
	for i := range c.Clauses {
		if k, ok := kindOf(c.Clauses[i].Kind); !ok || k.readsOutput {
			return true
		}
	}
	return false
}

// ClauseSpec is one clause of a [Catalogue]: what it asks and how it is
// graded.
type ClauseSpec struct {
	ID    string `json:"id"`
	Title string `json:"title"`
	// Requirement paraphrases the clause in one sentence.
	Requirement string `json:"requirement"`
	// Source cites where the clause's text comes from, when it differs
	// from the catalogue's source.
	Source string `json:"source,omitempty"`
	// Kind names the grader: one of the Kind constants.
	Kind string `json:"kind"`
	// Checks are the rules run on the delivery track, with this
	// standard's thresholds. Any finding fails the clause.
	Checks []Check `json:"checks,omitempty"`
	// PassWhenHeld says, for a [KindChecks] clause, that the checks cover
	// every part of the clause, so the clause passes when they hold. When
	// false a held clause is not_evaluated with Reason.
	PassWhenHeld bool `json:"passWhenHeld,omitempty"`
	// NeverPass makes the clause not_evaluated whenever it would pass: the
	// clause needs something a caption file cannot show (FCC accuracy).
	NeverPass bool `json:"neverPass,omitempty"`
	// Limit is the threshold of kinds that take one (drift in ms, share
	// of cues, contrast ratio); see each Kind constant.
	Limit float64 `json:"limit,omitempty"`
	// Reason says why the file alone cannot settle the clause; it is the
	// clause's reason whenever the clause ends not_evaluated for that cause.
	Reason string `json:"reason,omitempty"`
}

// Check is one rule a [KindChecks] clause runs.
type Check struct {
	// Rule is a rule code that rules.Lookup knows.
	Rule string `json:"rule"`
	// Limit is the rule's threshold in the rule's unit; 0 for rules that
	// take none.
	Limit float64 `json:"limit,omitempty"`
	// Note labels the threshold, for example as a proxy borrowed from a
	// style guide where the standard itself gives no number.
	Note string `json:"note,omitempty"`

	rule rules.Rule // resolved by Load
}

// Set holds every loaded catalogue. It is read-only after [Load] and safe
// for concurrent use.
type Set struct {
	byID map[string]*Catalogue
	ids  []string
}

// Load reads every *.json file at the root of fsys as a [Catalogue] and
// validates it: the id matches the file name, clause ids are unique, kinds
// are known, every rule code is known to rules.Lookup with a limit exactly
// when the rule takes one, and every clause that can end not_evaluated for
// a reason the file cannot show carries that reason. A broken file stops
// start-up: Load returns an error wrapping [ErrInvalidCatalogue] that names
// the file and the problem, or the fs error when a file cannot be read.
func Load(fsys fs.FS) (*Set, error) {
	names, err := fs.Glob(fsys, "*.json")
	if err != nil {
		return nil, fmt.Errorf("standard: list catalogues: %w", err)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("%w: no *.json catalogue found", ErrInvalidCatalogue)
	}
	s := &Set{byID: make(map[string]*Catalogue, len(names))}
	for _, name := range names {
		b, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("standard: read %s: %w", name, err)
		}
		c, err := parseCatalogue(name, b)
		if err != nil {
			return nil, err
		}
		s.byID[c.ID] = c
		s.ids = append(s.ids, c.ID)
	}
	slices.Sort(s.ids)
	return s, nil
}

// parseCatalogue decodes and validates one file.
func parseCatalogue(name string, b []byte) (*Catalogue, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w %s: %s", ErrInvalidCatalogue, name, fmt.Sprintf(format, args...))
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	// A misspelt field would otherwise be dropped silently and change a
	// clause's grading.
	dec.DisallowUnknownFields()
	var c Catalogue
	if err := dec.Decode(&c); err != nil {
		return nil, bad("%v", err)
	}
	if dec.More() {
		return nil, bad("trailing data after the catalogue object")
	}
	if want := strings.TrimSuffix(path.Base(name), ".json"); c.ID != want {
		return nil, bad("id %q does not match the file name (want %q)", c.ID, want)
	}
	if c.Title == "" || c.Source == "" {
		return nil, bad("title and source are required")
	}
	if len(c.Clauses) == 0 {
		return nil, bad("no clauses")
	}
	seen := make(map[string]bool, len(c.Clauses))
	for i := range c.Clauses {
		cl := &c.Clauses[i]
		if cl.ID == "" {
			return nil, bad("clause %d has no id", i+1)
		}
		if seen[cl.ID] {
			return nil, bad("duplicate clause id %q", cl.ID)
		}
		seen[cl.ID] = true
		if err := validateClause(cl); err != nil {
			return nil, bad("clause %q: %v", cl.ID, err)
		}
	}
	if c.ID == "fcc-79.1" && !hasNeverPassAccuracy(c.Clauses) {
		// Accuracy needs audio and is never passed. Guard
		// the promise against an edit of the data.
		return nil, bad("an accuracy clause with neverPass is required")
	}
	return &c, nil
}

func hasNeverPassAccuracy(cls []ClauseSpec) bool {
	for _, cl := range cls {
		if cl.Kind == KindAccuracy && cl.NeverPass {
			return true
		}
	}
	return false
}

// validateClause checks one clause and resolves its rules.
func validateClause(cl *ClauseSpec) error {
	if cl.Title == "" || cl.Requirement == "" {
		return errors.New("title and requirement are required")
	}
	k, ok := kindOf(cl.Kind)
	if !ok {
		return fmt.Errorf("unknown kind %q (known: %s)", cl.Kind, strings.Join(kindNames(), ", "))
	}
	switch {
	case k.needsLimit && cl.Limit <= 0:
		return fmt.Errorf("kind %q needs a positive limit", cl.Kind)
	case !k.needsLimit && cl.Limit != 0:
		return fmt.Errorf("kind %q takes no limit", cl.Kind)
	case k.needsReason && cl.Reason == "":
		return fmt.Errorf("kind %q needs a reason", cl.Kind)
	case cl.NeverPass && cl.Reason == "":
		return errors.New("neverPass needs a reason")
	case cl.PassWhenHeld && cl.Kind != KindChecks:
		return errors.New("passWhenHeld applies to kind \"checks\" only")
	case cl.Kind == KindChecks && len(cl.Checks) == 0:
		return errors.New("kind \"checks\" needs at least one check")
	case cl.Kind == KindSpeechChecks && len(cl.Checks) == 0:
		return errors.New("kind \"speech-checks\" needs at least one check")
	case cl.Kind == KindChecks && !cl.PassWhenHeld && cl.Reason == "":
		return errors.New("a checks clause that does not pass when held needs a reason")
	case cl.Kind == KindManual && len(cl.Checks) > 0:
		return errors.New("a manual clause runs no checks")
	}
	for i := range cl.Checks {
		ch := &cl.Checks[i]
		r, ok := rules.Lookup(ch.Rule)
		if !ok {
			return fmt.Errorf("unknown rule %q", ch.Rule)
		}
		if rules.NeedsLimit(r) && ch.Limit <= 0 {
			return fmt.Errorf("rule %q needs a positive limit in %s", ch.Rule, r.Unit())
		}
		if ch.Limit < 0 {
			return fmt.Errorf("rule %q: limit must not be negative", ch.Rule)
		}
		if r.Unit() == "" && ch.Limit != 0 {
			return fmt.Errorf("rule %q takes no limit", ch.Rule)
		}
		ch.rule = r
	}
	return nil
}

// Lookup returns the catalogue of the standard id. It returns an error
// wrapping [ErrUnknownStandard], naming the known ids, for any other id.
func (s *Set) Lookup(id string) (*Catalogue, error) {
	if c, ok := s.byID[id]; ok {
		return c, nil
	}
	return nil, fmt.Errorf("%w %q (known: %s)", ErrUnknownStandard, id, strings.Join(s.ids, ", "))
}

// IDs returns the ids of the loaded standards, sorted.
func (s *Set) IDs() []string { return slices.Clone(s.ids) }

// Grade grades in against the standard id. It returns an error wrapping
// [ErrUnknownStandard] when no catalogue defines id.
func (s *Set) Grade(id string, in Input) (Report, error) {
	c, err := s.Lookup(id)
	if err != nil {
		return Report{}, err
	}
	return Grade(c, in), nil
}
