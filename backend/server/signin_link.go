package server

import (
	"context"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/captionqa/captionqa/backend/account"
)

// SignInPath starts the UI address of a one-time sign-in link; the token
// follows. It is a URL fragment, which browsers never send to a server,
// so the token stays out of access logs and Referer headers.
const SignInPath = "/#/signin?link="

// SignInLink is a one-time sign-in link to the UI: opening it lets the
// holder set the account's password and signs them in, once, until
// ExpiresAt.
type SignInLink struct {
	URL       string    `json:"url"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// NewOwnerSignInLink makes a one-time sign-in link for the owner account
// of accounts (the oldest, see [account.Service.Owner]) on the UI at
// base, such as http://127.0.0.1:8787. The owner's earlier links stop
// working. It returns [apperr.NotFound] if there is no account yet.
func NewOwnerSignInLink(ctx context.Context, accounts *account.Service, base string) (SignInLink, error) {
	owner, err := accounts.Owner(ctx)
	if err != nil {
		return SignInLink{}, err
	}
	token, link, err := accounts.CreateSignInLink(ctx, owner.ID)
	if err != nil {
		return SignInLink{}, err
	}
	return SignInLink{URL: strings.TrimSuffix(base, "/") + SignInPath + token, ExpiresAt: link.ExpiresAt.UTC()}, nil
}

// OwnerSignInLink makes a one-time sign-in link for the owner account on
// this server's listener ([Server.LinkBase]). Call it after Listen.
func (s *Server) OwnerSignInLink(ctx context.Context) (SignInLink, error) {
	if s.ln == nil {
		return SignInLink{}, fmt.Errorf("server: sign-in link before Listen")
	}
	return NewOwnerSignInLink(ctx, s.accounts, s.LinkBase())
}

// LinkBase is the address a browser opens links to this server at: the
// bound address ([Server.URL]), except that a wildcard host (0.0.0.0,
// ::) becomes the first of [Config.AllowedHosts] or else 127.0.0.1.
// Valid after Listen.
func (s *Server) LinkBase() string {
	if s.ln == nil {
		return ""
	}
	host := ""
	if len(s.cfg.AllowedHosts) > 0 {
		host = s.cfg.AllowedHosts[0]
	}
	return BaseURL(s.ln.Addr().String(), s.tls != nil, host)
}

// BaseURL returns the UI's address for a server listening on addr
// (HOST:PORT), https when tls is set. A wildcard or empty host becomes
// wildcardHost, or 127.0.0.1 when that is empty: a browser cannot open a
// wildcard, and the server's Host check refuses it.
func BaseURL(addr string, tls bool, wildcardHost string) string {
	scheme := "http://"
	if tls {
		scheme = "https://"
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return scheme + addr
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = wildcardHost
		if host == "" {
			host = "127.0.0.1"
		}
	}
	return scheme + net.JoinHostPort(host, port)
}
