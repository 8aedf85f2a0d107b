package webhook

import (
	"strings"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
)

func TestSignVerify(t *testing.T) {
	const secret = "whsec_test"
	body := []byte(`{"event":"export_complete"}`)
	sig := Sign(secret, body)
	if !strings.HasPrefix(sig, "sha256=") || len(sig) != 7+64 {
		t.Fatalf("Sign = %q; want sha256= and 64 hex digits", sig)
	}
	hexOnly := sig[7:]
	for _, tc := range []struct {
		name   string
		secret string
		body   string
		header string
		want   bool
	}{
		{"as sent", secret, string(body), sig, true},
		{"prefix upper case", secret, string(body), "SHA256=" + hexOnly, true},
		{"prefix mixed case", secret, string(body), "Sha256=" + hexOnly, true},
		{"no prefix", secret, string(body), hexOnly, true},
		{"surrounding spaces", secret, string(body), "  " + sig + " ", true},
		{"hex upper case", secret, string(body), strings.ToUpper(hexOnly), true},
		{"other secret", "whsec_other", string(body), sig, false},
		{"body changed", secret, string(body) + " ", sig, false},
		{"truncated", secret, string(body), sig[:len(sig)-2], false},
		{"not hex", secret, string(body), "sha256=zz" + hexOnly[2:], false},
		{"empty", secret, string(body), "", false},
		{"other algorithm", secret, string(body), "sha1=" + hexOnly, false},
	} {
		if got := Verify(tc.secret, []byte(tc.body), tc.header); got != tc.want {
			t.Errorf("%s: Verify = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestCheckURL(t *testing.T) {
	for _, tc := range []struct {
		in, want, reason string
	}{
		{"https://hooks.example/captionqa", "https://hooks.example/captionqa", ""},
		{"  HTTPS://hooks.example:8443/a?b=c  ", "https://hooks.example:8443/a?b=c", ""},
		{"https://10.0.0.5/in", "https://10.0.0.5/in", ""},
		{"", "", "required"},
		{"http://hooks.example/", "", "https_required"},
		{"ftp://hooks.example/", "", "https_required"},
		{"hooks.example/path", "", "invalid"},
		{"https:///path", "", "invalid"},
		{"https://user:pw@hooks.example/", "", "credentials"},
		{"https://hooks.example/#frag", "", "invalid"},
		{"https://hooks.example/" + strings.Repeat("a", MaxURLBytes), "", "too_long"},
		{"https://hooks example/", "", "invalid"},
	} {
		got, err := CheckURL(tc.in)
		if tc.reason == "" {
			if err != nil || got != tc.want {
				t.Errorf("CheckURL(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
			}
			continue
		}
		ae, ok := apperr.As(err)
		if !ok || ae.Kind != apperr.BadRequest || ae.Details["field"] != "url" || ae.Details["reason"] != tc.reason {
			t.Errorf("CheckURL(%q) = %q, %v; want bad_request url %s", tc.in, got, err, tc.reason)
		}
	}
}

func TestSecretAndMask(t *testing.T) {
	a, b := NewSecret(), NewSecret()
	if a == b || !strings.HasPrefix(a, "whsec_") || len(a) != 49 {
		t.Fatalf("NewSecret = %q, %q; want two different whsec_ secrets of 49 characters", a, b)
	}
	m := Mask(a)
	if m != "whsec_****"+a[len(a)-4:] || strings.Contains(m, a[6:40]) {
		t.Errorf("Mask = %q", m)
	}
	if Mask("short") != "whsec_****" {
		t.Errorf("Mask of a short secret = %q", Mask("short"))
	}
}

// TestScheduleSpansTheWindow: the default schedule doubles from 10 s to
// an hour, keeps every wait within its jitter, and keeps retrying for at
// least 24 hours (3 days) whatever the jitter draws.
func TestScheduleSpansTheWindow(t *testing.T) {
	s := DefaultSchedule()
	for _, tc := range []struct {
		attempts int
		want     time.Duration
	}{{1, 10 * time.Second}, {2, 20 * time.Second}, {3, 40 * time.Second}, {9, 2560 * time.Second}, {10, time.Hour}, {60, time.Hour}} {
		if got := s.wait(tc.attempts, 0.5); got != tc.want {
			t.Errorf("wait(%d) = %v, want %v", tc.attempts, got, tc.want)
		}
		lo, hi := s.wait(tc.attempts, 0), s.wait(tc.attempts, 0.999999)
		if lo < time.Duration(float64(tc.want)*0.8)-time.Millisecond || hi > time.Duration(float64(tc.want)*1.2) {
			t.Errorf("wait(%d) jitter range [%v, %v] outside ±20%% of %v", tc.attempts, lo, hi, tc.want)
		}
	}
	for _, r := range []float64{0, 0.999999} {
		start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		now, attempts := start, 0
		for {
			attempts++
			at := now.Add(s.wait(attempts, r))
			if at.Sub(start) > s.Window {
				break
			}
			now = at
		}
		if span := now.Sub(start); span < 24*time.Hour {
			t.Errorf("jitter %v: the last retry comes %v after the first attempt; want at least 24 h", r, span)
		}
		if attempts > 120 {
			t.Errorf("jitter %v: %d attempts; want a bounded number", r, attempts)
		}
	}
}
