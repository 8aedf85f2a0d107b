package httpapi_test

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/server"
	"github.com/captionqa/captionqa/backend/webhook"
)

const webhookPath = "/api/v1/webhook"

// TestWebhookConfig walks a webhook's configuration through the API, each
// answer checked against the contract: none yet, created (the secret
// shown once), read back masked, changed without a new secret, rotated.
func TestWebhookConfig(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	key := ts.pro("hooks@example.com")

	none := ts.get(webhookPath, key)
	if none.status != 200 {
		t.Fatalf("GET without a webhook: %d %s", none.status, none.body)
	}
	if m := none.json(t); m["configured"] != false || m["url"] != nil || m["enabled"] != false || m["secret"] != nil {
		t.Errorf("GET without a webhook = %s", none.body)
	}

	created := ts.postJSON("PUT", webhookPath, key, `{"url":"https://hooks.example/in"}`).json(t)
	secret, _ := created["secret"].(string)
	if created["secretRevealed"] != true || !strings.HasPrefix(secret, "whsec_") || len(secret) != 49 ||
		created["enabled"] != true || created["url"] != "https://hooks.example/in" {
		t.Fatalf("first PUT = %v; want the full secret once, enabled", created)
	}

	read := ts.get(webhookPath, key).json(t)
	if read["secret"] != "whsec_****"+secret[len(secret)-4:] || read["secretRevealed"] != false || read["configured"] != true {
		t.Errorf("GET = %v; want the secret masked", read)
	}

	changed := ts.postJSON("PUT", webhookPath, key, `{"enabled":false,"url":"https://hooks.example/v2"}`).json(t)
	if changed["secretRevealed"] != false || changed["enabled"] != false || changed["url"] != "https://hooks.example/v2" ||
		changed["secret"] != read["secret"] {
		t.Errorf("PUT without rotate = %v; want the same secret, masked", changed)
	}

	rotated := ts.postJSON("PUT", webhookPath, key, `{"rotateSecret":true}`).json(t)
	if s, _ := rotated["secret"].(string); rotated["secretRevealed"] != true || s == secret || len(s) != 49 {
		t.Errorf("rotate = %v; want a new full secret", rotated)
	}
	if got := ts.get(webhookPath, key).json(t); got["enabled"] != false || got["url"] != "https://hooks.example/v2" {
		t.Errorf("after rotate: %v; want the other fields kept", got)
	}
}

func TestWebhookErrors(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	key := ts.pro("hook-errors@example.com")
	_, free := ts.account("free-hooks@example.com", account.TierFreePlus,
		[]string{account.ScopeWebhooksRead, account.ScopeWebhooksWrite})
	_, readOnly := ts.account("ro-hooks@example.com", account.TierPro, []string{account.ScopeWebhooksRead}, account.FeatureProWorkspace)
	tests := []struct {
		name, method, path, secret, body string
		status                           int
		code, field, reason              string
	}{
		// Before any PUT succeeds:
		{"test without webhook", "POST", webhookPath + "/test", key, ``, 409, "conflict", "", "no_webhook"},
		{"first PUT without url", "PUT", webhookPath, key, `{"enabled":true}`, 400, "bad_request", "url", "required"},
		{"http url", "PUT", webhookPath, key, `{"url":"http://hooks.example/in"}`, 400, "bad_request", "url", "https_required"},
		{"credentials in url", "PUT", webhookPath, key, `{"url":"https://u:p@hooks.example/"}`, 400, "bad_request", "url", "credentials"},
		{"not a url", "PUT", webhookPath, key, `{"url":"hooks"}`, 400, "bad_request", "url", "invalid"},
		{"wrong type", "PUT", webhookPath, key, `{"url":"https://hooks.example/","enabled":"yes"}`, 400, "bad_request", "enabled", "wrong_type"},
		{"redeliver unknown", "POST", webhookPath + "/deliveries/" + unknownID + "/redeliver", key, ``, 404, "not_found", "", ""},
		{"limit too high", "GET", webhookPath + "/deliveries?limit=101", key, ``, 400, "bad_request", "limit", ""},
		{"limit not a number", "GET", webhookPath + "/deliveries?limit=x", key, ``, 400, "bad_request", "limit", "wrong_type"},
		{"free tier", "GET", webhookPath, free, ``, 403, "forbidden", "", ""},
		{"read scope writes", "PUT", webhookPath, readOnly, `{"url":"https://hooks.example/"}`, 403, "forbidden", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var r response
			if tt.method == "GET" {
				r = ts.get(tt.path, tt.secret)
			} else {
				r = ts.postJSON(tt.method, tt.path, tt.secret, tt.body)
			}
			e := wantError(t, r, tt.status, tt.code)
			if (tt.field != "" && e.Details["field"] != tt.field) || (tt.reason != "" && e.Details["reason"] != tt.reason) {
				t.Errorf("error = %+v; want field %q reason %q", e, tt.field, tt.reason)
			}
		})
	}
}

// TestWebhookTestAndLog: a test event to a receiver that refuses the
// connection is answered 200 with the failed delivery, which the log then
// lists; a redeliver queues it again (202, pending) and a disabled
// webhook refuses one (409).
func TestWebhookTestAndLog(t *testing.T) {
	t.Parallel()
	// Loopback is allowed for the test (docs/webhooks.md, Destinations).
	ts := newTestServer(t, func(c *server.Config) { c.WebhookAllow = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")} })
	key := ts.pro("hook-log@example.com")
	// Port 1 on loopback: nothing listens, the connection is refused.
	ts.postJSON("PUT", webhookPath, key, `{"url":"https://127.0.0.1:1/in"}`)
	r := ts.postJSON("POST", webhookPath+"/test", key, ``)
	if r.status != 200 {
		t.Fatalf("test: %d %s", r.status, r.body)
	}
	d := r.json(t)["delivery"].(map[string]any)
	if d["status"] != "failed" || d["event"] != "test" || d["attempts"] != 1.0 || d["lastError"] != webhook.ReasonConnect || d["lastStatusCode"] != nil {
		t.Errorf("test delivery = %v; want failed after one attempt, with the error", d)
	}
	list := ts.get(webhookPath+"/deliveries", key).json(t)["deliveries"].([]any)
	if len(list) != 1 || list[0].(map[string]any)["deliveryId"] != d["deliveryId"] {
		t.Fatalf("log = %v; want the test delivery", list)
	}
	if last := ts.get(webhookPath, key).json(t)["lastDelivery"].(map[string]any); last["deliveryId"] != d["deliveryId"] {
		t.Errorf("lastDelivery = %v", last)
	}
	again := ts.postJSON("POST", webhookPath+"/deliveries/"+d["deliveryId"].(string)+"/redeliver", key, ``)
	if again.status != 202 || again.json(t)["delivery"].(map[string]any)["status"] != "pending" {
		t.Errorf("redeliver: %d %s; want 202 pending", again.status, again.body)
	}
	other := ts.pro("hook-log-other@example.com")
	wantError(t, ts.postJSON("POST", webhookPath+"/deliveries/"+d["deliveryId"].(string)+"/redeliver", other, ``), 404, "not_found")
	ts.postJSON("PUT", webhookPath, key, `{"enabled":false}`)
	e := wantError(t, ts.postJSON("POST", webhookPath+"/deliveries/"+d["deliveryId"].(string)+"/redeliver", key, ``), 409, "conflict")
	if e.Details["reason"] != "webhook_disabled" {
		t.Errorf("redeliver while disabled: %+v", e)
	}
}
