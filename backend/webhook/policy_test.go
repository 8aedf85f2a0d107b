package webhook

import (
	"context"
	"encoding/pem"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// TestPolicyClasses: each class is refused by the zero policy, the
// private ones are allowed by AllowPrivate, and an allow-list opens its
// prefixes whatever their class; IPv4-mapped addresses are unwrapped.
func TestPolicyClasses(t *testing.T) {
	loop8 := []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	for _, tc := range []struct {
		addr      string
		class     string // refused by the zero policy as
		private   bool   // allowed by AllowPrivate
		loopAllow bool   // allowed by Allow 127.0.0.0/8
	}{
		{"127.0.0.1", "loopback", false, true},
		{"127.9.9.9", "loopback", false, true},
		{"::1", "loopback", false, false},
		{"::ffff:127.0.0.1", "loopback", false, true},
		{"0.0.0.0", "unspecified", false, false},
		{"0.1.2.3", "unspecified", false, false},
		{"::", "unspecified", false, false},
		{"169.254.169.254", "link-local", false, false},
		{"fe80::1", "link-local", false, false},
		{"224.0.0.1", "multicast", false, false},
		{"ff02::1", "multicast", false, false},
		{"255.255.255.255", "multicast", false, false},
		{"10.0.0.1", "private", true, false},
		{"172.16.5.4", "private", true, false},
		{"192.168.1.1", "private", true, false},
		{"100.64.0.1", "private", true, false},
		{"fd00::1", "private", true, false},
		{"::ffff:10.0.0.1", "private", true, false},
		{"::7f00:1", "loopback", false, true},
		{"64:ff9b::a9fe:a9fe", "link-local", false, false},
		{"64:ff9b::5db8:d70e", "", true, true},
		{"93.184.215.14", "", true, true},
		{"2606:4700::1", "", true, true},
	} {
		a := netip.MustParseAddr(tc.addr)
		err := Policy{}.Check(a)
		var re *RefusedError
		if tc.class == "" {
			if err != nil {
				t.Errorf("Check(%s) = %v; want allowed", a, err)
			}
		} else if !errors.As(err, &re) || re.Class != tc.class {
			t.Errorf("Check(%s) = %v; want refused as %s", a, err, tc.class)
		}
		if got := (Policy{AllowPrivate: true}).Check(a) == nil; got != tc.private {
			t.Errorf("AllowPrivate: Check(%s) allowed %v; want %v", a, got, tc.private)
		}
		if got := (Policy{Allow: loop8}).Check(a) == nil; got != tc.loopAllow {
			t.Errorf("Allow 127.0.0.0/8: Check(%s) allowed %v; want %v", a, got, tc.loopAllow)
		}
	}
	if err := (Policy{}).Check(netip.MustParseAddr("10.0.0.1")); !strings.Contains(err.Error(), "--webhook-allow-private") {
		t.Errorf("private refusal %q: want it to name --webhook-allow-private", err)
	}
}

// hookReceiver is a real HTTPS receiver on loopback answering with h;
// it returns its port, the PEM of its certificate and a request count.
func hookReceiver(t *testing.T, h http.HandlerFunc) (port string, ca []byte, hits *atomic.Int32) {
	t.Helper()
	hits = &atomic.Int32{}
	srv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		h(w, r)
	}))
	t.Cleanup(srv.Close)
	_, port, _ = net.SplitHostPort(srv.Listener.Addr().String())
	return port, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), hits
}

func sendTo(t *testing.T, p Policy, ca []byte, url string) outcome {
	t.Helper()
	c, err := NewClient(ca, 5*time.Second, p)
	if err != nil {
		t.Fatal(err)
	}
	d := &Delivery{ID: "d-1", Event: EventTest, Body: []byte(`{"event":"test"}`)}
	return send(context.Background(), c, &Config{URL: url, Secret: "whsec_test"}, d, 1, time.Now())
}

// TestSendRefusedAtDial: a delivery to an address of each refused class,
// and to the name localhost, which only the resolver turns into
// 127.0.0.1 (a name rebound to loopback is the same case), is refused
// when dialling, before anything is sent: lastError is the generic
// connection reason, the detail names the class. The allow-list lets
// the same receiver be reached.
func TestSendRefusedAtDial(t *testing.T) {
	port, ca, hits := hookReceiver(t, func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(204) })
	for _, host := range []string{"127.0.0.1", "localhost", "[::1]", "0.0.0.0", "169.254.169.254",
		"10.0.0.1", "192.168.1.1", "[fd00::1]", "[::ffff:127.0.0.1]"} {
		out := sendTo(t, Policy{}, ca, "https://"+host+":"+port+"/hook")
		if out.ok || out.err != ReasonConnect || !strings.Contains(out.detail, "refused unless") {
			t.Errorf("%s: %+v; want %q, the policy's refusal in the detail", host, out, ReasonConnect)
		}
	}
	if n := hits.Load(); n != 0 {
		t.Errorf("the receiver got %d requests; want none", n)
	}
	allow := Policy{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}}
	if out := sendTo(t, allow, ca, "https://127.0.0.1:"+port+"/hook"); !out.ok {
		t.Errorf("allowed 127.0.0.0/8: %+v; want delivered", out)
	}
}

// TestSendGenericReasons: lastError is one generic reason per class and
// holds nothing the receiver sent (its body, its status text, a
// Location); a closed port reads like a refused address.
func TestSendGenericReasons(t *testing.T) {
	const leak = "db-password=hunter2"
	allow := Policy{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}
	for _, tc := range []struct {
		name   string
		answer http.HandlerFunc
		want   string
	}{
		{"500 with a body", func(w http.ResponseWriter, _ *http.Request) { http.Error(w, leak, 500) }, "HTTP 500 Internal Server Error"},
		{"redirect", func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Location", "https://internal.example/"+leak)
			w.WriteHeader(302)
		}, "HTTP 302 Found" + reasonRedirect},
		{"unknown status", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(599) }, "HTTP 599"},
	} {
		port, ca, _ := hookReceiver(t, tc.answer)
		out := sendTo(t, allow, ca, "https://127.0.0.1:"+port+"/hook")
		if out.err != tc.want || strings.Contains(out.err, leak) {
			t.Errorf("%s: lastError %q; want %q", tc.name, out.err, tc.want)
		}
	}
	port, _, _ := hookReceiver(t, func(w http.ResponseWriter, _ *http.Request) {})
	if out := sendTo(t, allow, nil, "https://127.0.0.1:"+port+"/hook"); out.err != ReasonTLS ||
		!strings.Contains(out.detail, "--webhook-ca") {
		t.Errorf("unknown CA: %+v; want %q, the hint in the detail", out, ReasonTLS)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close()
	if out := sendTo(t, allow, nil, "https://"+closed+"/hook"); out.err != ReasonConnect {
		t.Errorf("closed port: %+v; want %q, as for a refused address", out, ReasonConnect)
	}
}

// TestCheckHost: the up-front check refuses literal addresses and
// localhost names the policy refuses, and leaves other names to the
// dial.
func TestCheckHost(t *testing.T) {
	v6only := Policy{Allow: []netip.Prefix{netip.MustParsePrefix("::1/128")}}
	for _, tc := range []struct {
		p      Policy
		host   string
		refuse bool
	}{
		{Policy{}, "localhost", true},
		{Policy{}, "LOCALHOST.", true},
		{Policy{}, "api.localhost", true},
		{Policy{}, "::ffff:169.254.169.254", true},
		{Policy{}, "hooks.studio.example", false},
		{Policy{}, "93.184.215.14", false},
		{v6only, "localhost", false},
		{v6only, "127.0.0.1", true},
	} {
		if got := tc.p.CheckHost(tc.host) != nil; got != tc.refuse {
			t.Errorf("%+v CheckHost(%q) refused %v; want %v", tc.p, tc.host, got, tc.refuse)
		}
	}
}
