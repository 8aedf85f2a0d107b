package httpapi_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/internal/contract"
	"github.com/captionqa/captionqa/backend/internal/testkit"
)

// v1Route is one row of the scope table of docs/api.md (Scopes and
// entitlements) as the tests expect it, independently of
// the router's own table.
type v1Route struct {
	method, path string // echo syntax
	scope        string
	features     []string // the first is the one reported missing
}

func v1Routes() []v1Route {
	const (
		pro = account.FeatureProWorkspace
		adv = account.FeatureAdvancedExports
		exR = account.ScopeExportsRead
		exW = account.ScopeExportsWrite
	)
	return []v1Route{
		{"POST", "/api/v1/process", account.ScopeProcessWrite, nil},
		{"POST", "/api/v1/explain", account.ScopeProcessWrite, []string{pro, account.FeatureExplainAI}},
		{"GET", "/api/v1/me", account.ScopeAccountRead, nil},
		{"GET", "/api/v1/usage", account.ScopeUsageRead, nil},
		{"GET", "/api/v1/api-keys", account.ScopeKeysRead, []string{account.FeatureAPIKeys}},
		{"POST", "/api/v1/api-keys", account.ScopeKeysWrite, []string{account.FeatureAPIKeys}},
		{"DELETE", "/api/v1/api-keys/:keyId", account.ScopeKeysWrite, []string{account.FeatureAPIKeys}},
		{"GET", "/api/v1/webhook", account.ScopeWebhooksRead, []string{pro}},
		{"PUT", "/api/v1/webhook", account.ScopeWebhooksWrite, []string{pro}},
		{"GET", "/api/v1/webhook/deliveries", account.ScopeWebhooksRead, []string{pro}},
		{"POST", "/api/v1/webhook/deliveries/:deliveryId/redeliver", account.ScopeWebhooksWrite, []string{pro}},
		{"POST", "/api/v1/webhook/test", account.ScopeWebhooksWrite, []string{pro}},
		{"GET", "/api/v1/projects", exR, nil},
		{"POST", "/api/v1/projects", exW, nil},
		{"GET", "/api/v1/projects/:id", exR, nil},
		{"DELETE", "/api/v1/projects/:id", exW, nil},
		{"GET", "/api/v1/projects/:id/revisions", exR, nil},
		{"GET", "/api/v1/projects/:id/report", exR, nil},
		{"PUT", "/api/v1/projects/:id/ir", exW, nil},
		{"POST", "/api/v1/projects/:id/diff", exW, []string{account.FeatureCaptionDrift}},
		{"POST", "/api/v1/projects/:id/check", exW, nil},
		{"POST", "/api/v1/projects/:id/exports", exW, nil},
		{"POST", "/api/v1/media/upload", exW, []string{account.FeatureCaptionExtract, account.FeatureCaptionRender}},
		{"GET", "/api/v1/media/upload/:uploadId", exR, []string{account.FeatureCaptionExtract, account.FeatureCaptionRender}},
		{"POST", "/api/v1/media/upload/:uploadId/complete", exW, []string{account.FeatureCaptionExtract, account.FeatureCaptionRender}},
		{"GET", "/api/v1/media", exR, []string{account.FeatureCaptionExtract, account.FeatureCaptionRender}},
		{"GET", "/api/v1/media/upload/:uploadId/analysis", exR, []string{account.FeatureProWorkspace}},
		{"GET", "/api/v1/media/upload/:uploadId/link", exR, []string{account.FeatureCaptionExtract, account.FeatureCaptionRender}},
		{"GET", "/api/v1/export-templates", exR, []string{adv}},
		{"POST", "/api/v1/export-templates", exW, []string{adv}},
		{"GET", "/api/v1/export-templates/:id", exR, []string{adv}},
		{"PUT", "/api/v1/export-templates/:id", exW, []string{adv}},
		{"DELETE", "/api/v1/export-templates/:id", exW, []string{adv}},
		{"POST", "/api/v1/export-templates/validate", exW, []string{adv}},
		{"POST", "/api/v1/export-templates/:id/test", exW, []string{adv}},
		{"GET", "/api/v1/presets", exR, nil},
		{"GET", "/api/v1/presets/:name", exR, nil},
		{"PUT", "/api/v1/presets/:name", exW, nil},
		{"DELETE", "/api/v1/presets/:name", exW, nil},
		{"POST", "/api/v1/jobs/extract", exW, []string{account.FeatureCaptionExtract}},
		{"POST", "/api/v1/jobs/render", exW, []string{account.FeatureCaptionRender}},
		{"POST", "/api/v1/jobs/analyze", exW, []string{account.FeatureProWorkspace}},
		{"GET", "/api/v1/jobs", exR, nil},
		{"GET", "/api/v1/jobs/:jobId", exR, nil},
		{"DELETE", "/api/v1/jobs/:jobId", exW, nil},
		{"GET", "/api/v1/artifacts/:artifactId", exR, nil},
	}
}

// concrete fills path parameters with well-formed values.
func concrete(path string) string {
	const id = "7d444840-9dc0-11d1-b245-5ffdce74fad2"
	for _, p := range []string{":keyId", ":id", ":uploadId", ":jobId", ":artifactId"} {
		path = strings.ReplaceAll(path, p, id)
	}
	return path
}

// routerRoutes lists the router's v1 routes as "METHOD path".
func routerRoutes(t *testing.T, ts *testServer) []string {
	t.Helper()
	e, ok := ts.srv.Handler().(*echo.Echo)
	if !ok {
		t.Fatalf("handler is %T; want *echo.Echo", ts.srv.Handler())
	}
	var out []string
	for _, r := range e.Routes() {
		if strings.HasPrefix(r.Path, "/api/v1/") && r.Method != echo.RouteNotFound {
			out = append(out, r.Method+" "+r.Path)
		}
	}
	slices.Sort(out)
	return out
}

// TestRouteParity: the router serves exactly the contract's operations.
func TestRouteParity(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	var want []string
	for _, op := range contract.Load(t).Operations() {
		want = append(want, op.Method+" "+contract.EchoPath(op.Path))
	}
	slices.Sort(want)
	if got := routerRoutes(t, ts); !slices.Equal(got, want) {
		t.Errorf("router routes:\n%s\ncontract operations:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Every v1 route is served: none may still be marked as a 501 stub.
	for _, op := range contract.Load(t).NotImplemented() {
		t.Errorf("%s %s: the contract marks it not_implemented, but the router serves it", op.Method, op.Path)
	}
}

// TestAuthMatrix runs every v1 route against every way a caller can fail
// authentication or authorisation.
func TestAuthMatrix(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	ctx := context.Background()
	table := v1Routes()

	// The test table must cover the router (openapi.json and the preset
	// schema are public).
	var listed []string
	for _, r := range table {
		listed = append(listed, r.method+" "+r.path)
	}
	listed = append(listed, "GET /api/v1/openapi.json", "GET /api/v1/preset-v1.schema.json")
	slices.Sort(listed)
	if got := routerRoutes(t, ts); !slices.Equal(got, listed) {
		t.Fatalf("the matrix lists:\n%s\nthe router has:\n%s", strings.Join(listed, "\n"), strings.Join(got, "\n"))
	}

	pro, _ := ts.account("matrix@example.com", account.TierPro, nil)
	revokedKey, revokedSecret := ts.mustKey(pro.ID, account.NewKey{Name: "revoked", Scopes: account.Scopes()})
	if _, err := ts.accounts.RevokeKey(ctx, pro.ID, revokedKey.ID); err != nil {
		t.Fatal(err)
	}
	soon := start.Add(time.Minute)
	_, expiredSecret := ts.mustKey(pro.ID, account.NewKey{Name: "expiring", Scopes: account.Scopes(), ExpiresAt: &soon})
	ts.clock.Advance(2 * time.Minute)
	disabled, disabledSecret := ts.account("disabled@example.com", account.TierPro, nil)
	off := true
	if _, err := ts.accounts.UpdateAccount(ctx, disabled.Email, account.AccountUpdate{APIDisabled: &off}); err != nil {
		t.Fatal(err)
	}

	for i, r := range table {
		path := concrete(r.path)
		// A key with every scope but this route's.
		others := slices.DeleteFunc(account.Scopes(), func(s string) bool { return s == r.scope })
		_, noScope := ts.mustKey(pro.ID, account.NewKey{Name: "no-scope", Scopes: others})
		// An account with every feature but those this route needs (or,
		// for a route that needs none, without the v1 API).
		lacking := append([]string{account.FeatureAPIV1}, r.features...)
		if len(r.features) > 0 {
			lacking = r.features
		}
		feats := slices.DeleteFunc(account.Features(), func(f string) bool { return slices.Contains(lacking, f) })
		_, noFeature := ts.account(fmt.Sprintf("lacking%d@example.com", i), account.TierPro, nil, feats...)
		wantFeature := lacking[0]

		cases := []struct {
			name, secret string
			status       int
			code         string
			missingScope string
			missingFeat  string
		}{
			{"no key", "", 401, "unauthorized", "", ""},
			{"unknown key", "cqa_0123456789ab_" + strings.Repeat("A", 43), 401, "unauthorized", "", ""},
			{"malformed key", "not-a-key", 401, "unauthorized", "", ""},
			{"revoked key", revokedSecret, 401, "api_key_revoked", "", ""},
			{"expired key", expiredSecret, 401, "api_key_expired", "", ""},
			{"missing scope", noScope, 403, "forbidden", r.scope, ""},
			{"missing entitlement", noFeature, 403, "forbidden", "", wantFeature},
			{"v1 API disabled", disabledSecret, 403, "forbidden", "", account.FeatureAPIV1},
		}
		for _, c := range cases {
			t.Run(r.method+" "+r.path+"/"+c.name, func(t *testing.T) {
				res := ts.do(request{method: r.method, path: path, secret: c.secret})
				e := wantError(t, res, c.status, c.code)
				if got, _ := e.Details["missingScope"].(string); got != c.missingScope {
					t.Errorf("details.missingScope = %q; want %q", got, c.missingScope)
				}
				if got, _ := e.Details["missingFeature"].(string); got != c.missingFeat {
					t.Errorf("details.missingFeature = %q; want %q", got, c.missingFeat)
				}
			})
		}
	}
}

func (ts *testServer) mustKey(accountID string, in account.NewKey) (*account.Key, string) {
	ts.t.Helper()
	k, s, err := ts.accounts.CreateKey(context.Background(), accountID, in)
	if err != nil {
		ts.t.Fatalf("create key: %v", err)
	}
	return k, s
}

// TestLegacyKey: a key stored without scopes may process and nothing
// else (docs/api.md, Authentication).
func TestLegacyKey(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	a, _ := ts.account("legacy@example.com", account.TierPro, nil)
	_, legacy := testkit.MustCreateLegacyKey(t, ts.db.Accounts(), a.ID, ts.clock.Now())
	if r := ts.process("/api/v1/process", legacy, readySRT, nil); r.status != 200 {
		t.Errorf("process: %d %s", r.status, r.body)
	}
	e := wantError(t, ts.get("/api/v1/me", legacy), 403, "forbidden")
	if e.Details["missingScope"] != account.ScopeAccountRead {
		t.Errorf("details = %v", e.Details)
	}
}
