package engine

import (
	"context"
	"strings"

	"github.com/captionqa/captionqa/backend/analysis"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/caption/format"
	"github.com/captionqa/captionqa/backend/fix"
	"github.com/captionqa/captionqa/backend/preset"
	"github.com/captionqa/captionqa/backend/standard"
)

// Request is one caption file to process.
type Request struct {
	// Filename is a hint for format detection; the content decides.
	Filename string
	Data     []byte
	// From names the input format; "" detects it.
	From string
	// Preset names the delivery target; "" is youtube.
	Preset string
	// Resolved, when set, is the preset to apply, already resolved by
	// the caller (an account's own preset, docs/presets.md, Your own
	// presets); Preset is then not looked up.
	Resolved *preset.Preset
	// FixProfile names the fix profile; "" is warn-only.
	FixProfile string
	// Standard names a standard to grade against; "" grades none.
	Standard string
	// Language is the BCP 47 tag of the captions' language, for a file
	// that declares none (SRT cannot): a delivery whose format can
	// declare one (WebVTT, TTML, the IR; not SRT) then does. A language
	// the file declares is kept. "" adds none.
	Language string
	// AllDiagnostics returns every entry of every list of the result.
	// Without it each list keeps the first [MaxPerCode] entries of each
	// code and counts the rest ([Report.Omitted], [Result.Omitted]).
	AllDiagnostics bool
	// Media is the analysis of the programme the captions are for
	// (docs/media.md, Analysis): with it the checks against the picture
	// and the sound run (sync, speech, shot changes); without it they do
	// not, and the standards' clauses that need them are not evaluated.
	Media *analysis.Analysis
}

// options is a validated request.
type options struct {
	preset   *preset.Preset
	profile  fix.Profile
	standard *standard.Catalogue
	language string
	// media is the request's Media, checked.
	media *analysis.Analysis
}

// Validate checks req's preset, fix profile, standard, input format,
// language and media analysis without reading any file, so a caller with many files can
// refuse a bad one once. It returns [apperr.BadRequest] with details.field
// naming the first bad one, as Process would.
func (e *Engine) Validate(req Request) error {
	_, err := e.resolve(req)
	return err
}

// resolve validates the request's names and language. Each failure is a
// [apperr.BadRequest] whose details name the field.
func (e *Engine) resolve(req Request) (options, error) {
	var o options
	var err error
	if o.preset = req.Resolved; o.preset == nil {
		if o.preset, err = e.presets.Lookup(req.Preset); err != nil {
			return o, badField("preset", err)
		}
	}
	if o.profile, err = fix.ParseProfile(req.FixProfile); err != nil {
		return o, badField("fixProfile", err)
	}
	if req.Standard != "" {
		if o.standard, err = e.standards.Lookup(req.Standard); err != nil {
			return o, badField("standard", err)
		}
	}
	if req.From != "" {
		if _, err := format.Normalize(req.From); err != nil {
			return o, badField("from", err)
		}
	}
	if req.Language != "" && !caption.IsLanguageTag(req.Language) {
		return o, apperr.New(apperr.BadRequest, "language: %q is not a BCP 47 language tag such as en or pt-BR", req.Language).
			WithDetail("field", "language")
	}
	o.language = req.Language
	if req.Media != nil {
		if err := req.Media.Check(); err != nil {
			return o, badField("media", err)
		}
		o.media = req.Media
	}
	return o, nil
}

func badField(field string, err error) error {
	// The sentinels read "pkg: unknown x ..."; the caller wants the rest.
	msg := err.Error()
	if _, after, ok := strings.Cut(msg, ": "); ok {
		msg = after
	}
	return apperr.New(apperr.BadRequest, "%s: %s", field, msg).WithDetail("field", field).Wrap(err)
}

// PresetResolver resolves the preset a request names for the account
// that sent it (*userpreset.Service): it sets [Request.Resolved] when the
// name is one of the account's own presets, and leaves built-in and
// unknown names to the engine. Its errors are the caller's to return.
type PresetResolver interface {
	Resolve(ctx context.Context, accountID string, req *Request) error
}
