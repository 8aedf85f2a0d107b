package server_test

import (
	"encoding/json"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/server"
	"github.com/captionqa/captionqa/backend/webhook"
)

// TestWebhookPutRefusesDestination: without an allow-list, PUT /webhook
// refuses a URL whose host is a literal address, or localhost, of a
// class the destination policy refuses (docs/webhooks.md,
// Destinations), as 400 bad_request on details.field "url";
// --webhook-allow-private lets a private one through, and
// --webhook-allow 127.0.0.0/8 lets loopback through, to a receiver the
// test event then reaches.
func TestWebhookPutRefusesDestination(t *testing.T) {
	t.Parallel()
	refused := []string{"127.0.0.1", "localhost", "[::1]", "0.0.0.0", "169.254.169.254",
		"10.0.0.1", "192.168.1.1", "[fd00::1]", "[::ffff:127.0.0.1]", "100.64.0.1", "[ff02::1]"}
	e := startHookServer(t, func(c *server.Config) { c.WebhookAllow = nil })
	for _, host := range refused {
		st, b, err := call("PUT", e.base+"/webhook", e.key, `{"url":"https://`+host+`:8443/hook"}`)
		if err != nil || st != 400 || errorCode(b) != "bad_request" || errorDetail(b, "field") != "url" ||
			errorDetail(b, "reason") != "destination_refused" {
			t.Errorf("PUT host %s: %d %s %v; want 400 bad_request, field url, reason destination_refused", host, st, b, err)
		}
		if host == "10.0.0.1" && !strings.Contains(string(b), "--webhook-allow-private") {
			t.Errorf("PUT host %s: %s; want the message to name --webhook-allow-private", host, b)
		}
	}

	private := startHookServer(t, func(c *server.Config) { c.WebhookAllow, c.WebhookAllowPrivate = nil, true })
	mustCall(t, "PUT", private.base+"/webhook", private.key, `{"url":"https://10.0.0.1:8443/hook"}`, 200, nil)
	st, b, _ := call("PUT", private.base+"/webhook", private.key, `{"url":"https://127.0.0.1:8443/hook"}`)
	if st != 400 {
		t.Errorf("--webhook-allow-private, PUT loopback: %d %s; want 400", st, b)
	}

	loop := newHookEnv(t, func(c *server.Config) { c.WebhookAllow = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")} })
	if d := testEvent(t, loop); d.Status != "delivered" {
		t.Errorf("--webhook-allow 127.0.0.0/8: test event %v; want delivered", d)
	}
}

// TestWebhookRefusedAtDial: the check that counts is made at dial time,
// on the address a name resolves to: a webhook stored while loopback was
// allowed, whose host is the name localhost, is refused once the server
// runs without the allow-list, and the receiver gets nothing. The test
// event then says the same generic reason as for a closed port that
// the policy allows, so its answers do not scan ports (docs/webhooks.md,
// Destinations), and the log names the refused address.
func TestWebhookRefusedAtDial(t *testing.T) {
	t.Parallel()
	rcv := newReceiver(t)
	dir := t.TempDir()
	_, port, _ := net.SplitHostPort(rcv.srv.Listener.Addr().String())
	closed := closedPort(t)
	var key, closedReason string
	t.Run("allowed", func(t *testing.T) {
		cfg := server.DefaultConfig()
		cfg.Addr, cfg.DataDir = "127.0.0.1:0", dir
		fastWebhooks(&cfg, rcv.CAFile)
		srv := server.New(cfg)
		key = runServer(t, srv)
		e := &hookEnv{srv: srv, base: srv.URL() + "/api/v1", key: key, rcv: rcv}
		mustCall(t, "PUT", e.base+"/webhook", key, `{"url":"https://127.0.0.1:`+closed+`/hook"}`, 200, nil)
		closedReason = testEvent(t, e).errText()
		mustCall(t, "PUT", e.base+"/webhook", key, `{"url":"https://localhost:`+port+`/hook"}`, 200, nil)
	})
	if closedReason != webhook.ReasonConnect {
		t.Errorf("closed port: lastError %q; want %q", closedReason, webhook.ReasonConnect)
	}
	cfg := server.DefaultConfig()
	cfg.Addr, cfg.DataDir = "127.0.0.1:0", dir
	fastWebhooks(&cfg, rcv.CAFile)
	cfg.WebhookAllow = nil
	logs := withLog(&cfg)
	srv := server.New(cfg)
	runServer(t, srv)
	d := testEvent(t, &hookEnv{srv: srv, base: srv.URL() + "/api/v1", key: key, rcv: rcv})
	if d.Status != "failed" || d.code() != 0 || d.errText() != closedReason {
		t.Errorf("localhost without the allow-list: %v; want failed, no status, lastError %q as for a closed port", d, closedReason)
	}
	if n := len(rcv.deliveries()); n != 0 {
		t.Errorf("the receiver got %d requests; want none", n)
	}
	if l := logs.String(); !strings.Contains(l, "loopback address") {
		t.Errorf("log: want the refused loopback address named:\n%s", l)
	}
}

// testEvent sends e's test event and returns its delivery.
func testEvent(t *testing.T, e *hookEnv) hookDelivery {
	t.Helper()
	var out struct {
		Delivery hookDelivery `json:"delivery"`
	}
	st, b, err := call("POST", e.base+"/webhook/test", e.key, "")
	if err != nil || st != 200 {
		t.Fatalf("POST /webhook/test: %d %s %v", st, b, err)
	}
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out.Delivery
}

// closedPort returns a loopback port nothing listens on: one that was
// bound and then closed.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	ln.Close()
	return port
}
