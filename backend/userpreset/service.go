package userpreset

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/engine"
	"github.com/captionqa/captionqa/backend/name"
	"github.com/captionqa/captionqa/backend/preset"
)

// Limits of an account's presets.
const (
	// MaxPresets bounds an account's own presets.
	MaxPresets = 100
	// MaxNameLen bounds a preset's name, in characters.
	MaxNameLen = 64
)

// Service manages accounts' presets and resolves preset names. It is safe
// for concurrent use.
type Service struct {
	store    Store
	builtins *preset.Set
	now      func() time.Time
}

// NewService returns a [Service] over store deriving from builtins; now
// is the clock (nil: time.Now).
func NewService(store Store, builtins *preset.Set, now func() time.Time) *Service {
	if store == nil || builtins == nil {
		panic("userpreset: NewService needs a Store and the built-in presets")
	}
	if now == nil {
		now = time.Now
	}
	return &Service{store: store, builtins: builtins, now: now}
}

// Entry is a preset as the service shows it: a built-in (File nil) or
// one of the account's, with the preset it resolves to.
type Entry struct {
	Name     string
	Builtin  bool
	File     *preset.UserFile
	Resolved *preset.Preset
	// CreatedAt and UpdatedAt are zero for a built-in.
	CreatedAt, UpdatedAt time.Time
}

// List returns the built-in presets, in their order, then the account's,
// by name. An account's preset that no longer derives (its base was
// removed) is listed without Resolved.
func (s *Service) List(ctx context.Context, accountID string) ([]Entry, error) {
	var out []Entry
	for _, id := range s.builtins.IDs() {
		p, err := s.builtins.Lookup(id)
		if err != nil {
			return nil, err
		}
		out = append(out, Entry{Name: id, Builtin: true, Resolved: p})
	}
	own, err := s.store.ListPresets(ctx, accountID)
	if err != nil {
		return nil, err
	}
	for i := range own {
		e, err := s.entry(&own[i])
		if err != nil && e == nil {
			return nil, err
		}
		out = append(out, *e)
	}
	return out, nil
}

// entry reads a stored preset; a file that no longer derives returns the
// entry without Resolved and the error.
func (s *Service) entry(st *Stored) (*Entry, error) {
	f, err := preset.ParseUser(st.File)
	if err != nil {
		return nil, fmt.Errorf("userpreset: stored preset %q: %w", st.Name, err)
	}
	e := &Entry{Name: st.Name, File: f, CreatedAt: st.CreatedAt, UpdatedAt: st.UpdatedAt}
	e.Resolved, err = s.builtins.Derive(st.Name, f)
	return e, err
}

// Get returns the built-in preset or the account's preset name, or
// [apperr.NotFound].
func (s *Service) Get(ctx context.Context, accountID, name string) (*Entry, error) {
	if s.builtins.IsBuiltin(name) {
		p, err := s.builtins.Lookup(name)
		if err != nil {
			return nil, err
		}
		return &Entry{Name: name, Builtin: true, Resolved: p}, nil
	}
	st, err := s.store.Preset(ctx, accountID, name)
	if apperr.KindOf(err) == apperr.NotFound {
		return nil, notFound(name).Wrap(err)
	}
	if err != nil {
		return nil, err
	}
	e, err := s.entry(st)
	if e == nil {
		return nil, err
	}
	return e, nil
}

func notFound(name string) *apperr.Error {
	return apperr.New(apperr.NotFound, "preset %q not found", name)
}

// Put checks file, a preset file (docs/presets.md, Your own presets), and
// stores it as the account's preset name, creating it or replacing it
// (created tells which). It returns [apperr.BadRequest] for a bad name
// (details.field "name", details.reason as [name.Check] or
// "reserved_character" for '/', '\' or ':') and for a file that does not
// check (details.field the first bad field, details.errors every
// {field, message}); [apperr.Conflict] with details.reason
// "builtin_preset" for the name of a built-in (in any case) and
// "preset_limit" past [MaxPresets].
func (s *Service) Put(ctx context.Context, accountID, rawName string, file []byte) (*Entry, bool, error) {
	n, err := checkName(rawName)
	if err != nil {
		return nil, false, err
	}
	for _, id := range s.builtins.IDs() {
		if strings.EqualFold(id, n) {
			return nil, false, apperr.New(apperr.Conflict, "%q is a built-in preset: give your preset another name", id).
				WithDetail("field", "name").WithDetail("reason", "builtin_preset")
		}
	}
	f, err := preset.ParseUser(file)
	if err != nil {
		return nil, false, InvalidFile(err)
	}
	p, err := s.builtins.Derive(n, f)
	if err != nil {
		return nil, false, InvalidFile(err)
	}
	canonical, err := json.Marshal(f)
	if err != nil {
		return nil, false, fmt.Errorf("userpreset: encode %q: %w", n, err)
	}
	now := s.now().UTC().Truncate(time.Second)
	st := &Stored{AccountID: accountID, Name: n, File: canonical, CreatedAt: now, UpdatedAt: now}
	created, err := s.store.PutPreset(ctx, st, MaxPresets)
	if errors.Is(err, ErrTooManyPresets) {
		return nil, false, apperr.New(apperr.Conflict, "the account already holds %d presets, the most it may", MaxPresets).
			WithDetail("reason", "preset_limit").WithDetail("limit", MaxPresets).Wrap(err)
	}
	if err != nil {
		return nil, false, err
	}
	return &Entry{Name: n, File: f, Resolved: p, CreatedAt: st.CreatedAt, UpdatedAt: st.UpdatedAt}, created, nil
}

// checkName applies the name rules ([name.Check]) and refuses the
// characters a preset name cannot hold where it is used: in a path
// segment, a file name and the "template:" artifact prefix.
func checkName(raw string) (string, error) {
	n, err := name.Check("name", raw, MaxNameLen)
	if err != nil {
		return "", err
	}
	if i := strings.IndexAny(n, `/\:`); i >= 0 {
		return "", apperr.New(apperr.BadRequest, "name may not hold %q", n[i:i+1]).
			WithDetail("field", "name").WithDetail("reason", "reserved_character")
	}
	return n, nil
}

// InvalidFile words a preset file that does not check, an
// *[preset.InvalidError], as [apperr.BadRequest]: every problem in
// details.errors, the first one's field in details.field. Any other
// error passes through.
func InvalidFile(err error) error {
	var ie *preset.InvalidError
	if !errors.As(err, &ie) {
		return err
	}
	first := ie.Errors[0]
	msg := first.Message
	if first.Field != "" {
		msg = first.Field + ": " + msg
	}
	if len(ie.Errors) > 1 {
		msg += fmt.Sprintf(" (and %d more)", len(ie.Errors)-1)
	}
	return apperr.New(apperr.BadRequest, "the preset file does not check: %s", msg).
		WithDetail("field", first.Field).WithDetail("errors", ie.Errors).Wrap(err)
}

// Delete deletes the account's preset name; a built-in's name is
// [apperr.Conflict] (details.reason "builtin_preset"), an unknown one
// [apperr.NotFound].
func (s *Service) Delete(ctx context.Context, accountID, name string) error {
	if s.builtins.IsBuiltin(name) {
		return apperr.New(apperr.Conflict, "%q is a built-in preset and cannot be deleted", name).
			WithDetail("reason", "builtin_preset")
	}
	err := s.store.DeletePreset(ctx, accountID, name)
	if apperr.KindOf(err) == apperr.NotFound {
		return notFound(name).Wrap(err)
	}
	return err
}

// Resolve fills req.Resolved when req.Preset names one of the account's
// presets. A built-in name, "" and a name the account does not hold are
// left to the engine, which applies the built-in or refuses the name as
// it always has ([apperr.BadRequest], details.field "preset"). A preset
// whose base is gone is [apperr.BadRequest] on "preset" too.
func (s *Service) Resolve(ctx context.Context, accountID string, req *engine.Request) error {
	if req.Resolved != nil || req.Preset == "" || s.builtins.IsBuiltin(req.Preset) || accountID == "" {
		return nil
	}
	st, err := s.store.Preset(ctx, accountID, req.Preset)
	if apperr.KindOf(err) == apperr.NotFound {
		return nil
	}
	if err != nil {
		return err
	}
	e, err := s.entry(st)
	if err != nil {
		return apperr.New(apperr.BadRequest, "preset: your preset %q no longer checks: %s", req.Preset, err).
			WithDetail("field", "preset").Wrap(err)
	}
	req.Resolved = e.Resolved
	return nil
}
