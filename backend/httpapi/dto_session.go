package httpapi

import "github.com/captionqa/captionqa/backend/account"

// loginRequest is the body of POST /api/session.
type loginRequest struct {
	Email    string `json:"email"`
	Password string `json:"password"`
}

// linkRequest is the body of POST /api/session/link: the one-time link's
// token and the password to set.
type linkRequest struct {
	Token    string `json:"token"`
	Password string `json:"password"`
}

// sessionResponse answers POST and GET /api/session and POST
// /api/session/link.
type sessionResponse struct {
	Email string `json:"email"`
	Tier  string `json:"tier"`
	// CSRFToken goes in X-CSRF-Token on every mutating request; empty in
	// the desktop window, which needs none.
	CSRFToken string `json:"csrfToken"`
	// Desktop is true in the desktop window, signed in as the owner.
	Desktop bool `json:"desktop"`
	// Owner is true when the account is the local owner (the account the
	// first start created), whose first key the UI warns about revoking.
	Owner bool `json:"owner"`
}

func (h *handler) newSessionResponse(p *account.Principal, csrf string, desktop bool) sessionResponse {
	return sessionResponse{Email: p.Account.Email, Tier: p.Account.Tier, CSRFToken: csrf, Desktop: desktop,
		Owner: h.ownerID != "" && p.Account.ID == h.ownerID}
}
