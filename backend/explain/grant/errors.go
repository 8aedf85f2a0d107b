package grant

import (
	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
)

// notEntitled names the first feature a lacks, as the route guard does.
func notEntitled(a *account.Account) error {
	missing := account.FeatureProWorkspace
	if a.Has(missing) {
		missing = account.FeatureExplainAI
	}
	return apperr.New(apperr.Forbidden, "ExplainAI needs the Pro workspace and the explain entitlement").
		WithDetail("missingFeature", missing)
}

func off() error {
	return apperr.New(apperr.Unavailable, "ExplainAI is turned off on this server (serve --explain off)").
		WithDetail("reason", "explain_off")
}
