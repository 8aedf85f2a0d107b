package account

import (
	"net/mail"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/name"
)

// NormalizeEmail trims and lower-cases email and checks that it is a bare
// address (no display name). It returns [apperr.BadRequest] otherwise.
// It is the form an email is stored and looked up in; a new account's
// email must also pass [checkNewEmail].
func NormalizeEmail(email string) (string, error) {
	e := strings.ToLower(strings.TrimSpace(email))
	if e == "" {
		return "", badField("email", "email is required")
	}
	addr, err := mail.ParseAddress(e)
	if err != nil || addr.Address != e || addr.Name != "" {
		return "", badField("email", "email is not a valid address")
	}
	return e, nil
}

// checkNewEmail refuses an email, already normalised, that holds a
// character [name.Unsafe] refuses: net/mail accepts bidirectional
// controls and zero-width spaces, and an email is printed on terminals
// and pages like a name. Only new accounts are checked, so an account
// stored earlier can still be found, updated and signed in to.
func checkNewEmail(email string) error {
	if i := strings.IndexFunc(email, name.Unsafe); i >= 0 {
		r, _ := utf8.DecodeRuneInString(email[i:])
		return badField("email", "email holds the invisible or control character %U", r).
			WithDetail("reason", "unsafe_character")
	}
	return nil
}

// tierDefaults returns the features and daily cap of a tier, or false for
// an unknown tier.
func (s *Service) tierDefaults(tier string) (features []string, dailyCap int, ok bool) {
	switch tier {
	case TierFreePlus:
		return []string{FeatureAPIKeys, FeatureAPIV1}, FreePlusDailyCap, true
	case TierPro:
		return sortedCopy(Features()), s.proCap, true
	}
	return nil, 0, false
}

func checkTier(tier string) error {
	if tier != TierFreePlus && tier != TierPro {
		return badField("tier", "unknown tier %q (want %s or %s)", tier, TierFreePlus, TierPro)
	}
	return nil
}

// checkCap validates a daily cap for tier: 1 to 10 for free_plus, 1 to
// 9,999 for pro.
func checkCap(tier string, dailyCap int) error {
	limit := MaxProDailyCap
	if tier == TierFreePlus {
		limit = FreePlusDailyCap
	}
	if dailyCap < 1 || dailyCap > limit {
		return badField("dailyCap", "daily cap %d out of range for tier %s (1 to %d)", dailyCap, tier, limit)
	}
	return nil
}

// normalizeFeatures checks every name and returns them sorted and
// deduplicated.
func normalizeFeatures(features []string) ([]string, error) {
	return normalizeNames("features", "feature", features, Features())
}

// normalizeScopes checks every name and returns them sorted and
// deduplicated; nil for none (a legacy key).
func normalizeScopes(scopes []string) ([]string, error) {
	out, err := normalizeNames("scopes", "scope", scopes, Scopes())
	if len(out) == 0 {
		out = nil
	}
	return out, err
}

func normalizeNames(field, what string, names, known []string) ([]string, error) {
	out := make([]string, 0, len(names))
	for _, n := range names {
		if !slices.Contains(known, n) {
			return nil, apperr.New(apperr.BadRequest, "unknown %s %q", what, n).
				WithDetail("field", field).WithDetail("value", n)
		}
		out = append(out, n)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

func sortedCopy(s []string) []string {
	out := slices.Clone(s)
	slices.Sort(out)
	return out
}

func badField(field, format string, args ...any) *apperr.Error {
	return apperr.New(apperr.BadRequest, format, args...).WithDetail("field", field)
}
