package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/httpapi"
)

// admin runs an admin command against the data folder dir.
func admin(t *testing.T, dir string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return run(t, "", append(args, "--data", dir)...)
}

func decode[T any](t *testing.T, s string) T {
	t.Helper()
	var v T
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, s)
	}
	return v
}

func TestAccountAndKeyCommands(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantOut  string
		wantErr  string
	}{
		{"create", []string{"account", "create", "--email", "Ann@Example.com", "--tier", "free_plus"}, 0, "ann@example.com", ""},
		{"create pro with features", []string{"account", "create", "--email", "bo@example.com", "--tier", "pro", "--features", "API_V1,API_KEYS,PRO_WORKSPACE", "--cap", "500"}, 0, "500", ""},
		{"duplicate", []string{"account", "create", "--email", "ann@example.com", "--tier", "pro"}, 1, "", "already exists"},
		{"bad tier", []string{"account", "create", "--email", "x@example.com", "--tier", "gold"}, 1, "", "tier"},
		{"bad feature", []string{"account", "create", "--email", "x@example.com", "--tier", "pro", "--features", "TELEPORT"}, 1, "", "TELEPORT"},
		{"missing email", []string{"account", "create", "--tier", "pro"}, 2, "", "--email"},
		{"list", []string{"account", "list"}, 0, "bo@example.com", ""},
		{"set", []string{"account", "set", "--email", "bo@example.com", "--api-enabled", "false"}, 0, "disabled", ""},
		{"set bad bool", []string{"account", "set", "--email", "bo@example.com", "--api-enabled", "perhaps"}, 2, "", "--api-enabled"},
		{"set unknown", []string{"account", "set", "--email", "nobody@example.com", "--cap", "5"}, 1, "", "no account"},
		{"set storage quota", []string{"account", "set", "--email", "bo@example.com", "--storage-quota", "20GiB"}, 0, "Storage quota:  20 GiB", ""},
		{"storage quota in bytes", []string{"account", "set", "--email", "bo@example.com", "--storage-quota", "1.5 MiB", "--json"}, 0, `"storageQuotaBytes": 1572864`, ""},
		{"storage quota back to the tier's", []string{"account", "set", "--email", "bo@example.com", "--storage-quota", "0"}, 0, "Storage quota:  5 GiB", ""},
		{"bad storage quota", []string{"account", "set", "--email", "bo@example.com", "--storage-quota", "lots"}, 2, "", "--storage-quota"},
		{"negative storage quota", []string{"account", "set", "--email", "bo@example.com", "--storage-quota", "-1GiB"}, 2, "", "--storage-quota"},
		{"unknown verb", []string{"account", "remove"}, 2, "", "unknown account command"},
		{"key for unknown account", []string{"key", "create", "--account", "nobody@example.com", "--name", "k", "--scopes", "usage:read"}, 1, "", "not found"},
		{"key bad scope", []string{"key", "create", "--account", "ann@example.com", "--name", "k", "--scopes", "root"}, 1, "", "root"},
		{"key bad expiry", []string{"key", "create", "--account", "ann@example.com", "--name", "k", "--scopes", "usage:read", "--expires", "soon"}, 2, "", "--expires"},
		{"key past expiry", []string{"key", "create", "--account", "ann@example.com", "--name", "k", "--scopes", "usage:read", "--expires", "2001-01-01T00:00:00Z"}, 1, "", "future"},
		{"key beyond the maximum lifetime", []string{"key", "create", "--account", "ann@example.com", "--name", "k", "--scopes", "usage:read", "--expires", "9999-12-31T00:00:00Z"}, 1, "", "365 days"},
		{"key beyond the maximum lifetime as a duration", []string{"key", "create", "--account", "ann@example.com", "--name", "k", "--scopes", "usage:read", "--expires", "8761h"}, 1, "", "365 days"},
		{"key name with an escape", []string{"key", "create", "--account", "ann@example.com", "--name", "k\x1b[2J", "--scopes", "usage:read"}, 1, "", "U+001B"},
		{"key human", []string{"key", "create", "--account", "ann@example.com", "--name", "laptop", "--scopes", "usage:read"}, 0, "Secret:", ""},
		{"revoke unknown", []string{"key", "revoke", "7d444840-9dc0-11d1-b245-5ffdce74fad2"}, 1, "", "no key"},
		{"revoke no id", []string{"key", "revoke"}, 2, "", "KEYID"},
	}
	// Sequential: each row sees the previous rows' data.
	for _, tt := range tests {
		code, out, errOut := admin(t, dir, tt.args...)
		if code != tt.wantCode || !strings.Contains(out, tt.wantOut) || !strings.Contains(errOut, tt.wantErr) {
			t.Errorf("%s: exit %d (want %d)\nstdout: %s\nstderr: %s", tt.name, code, tt.wantCode, out, errOut)
		}
	}

	_, out, _ := admin(t, dir, "account", "list", "--json")
	accounts := decode[[]accountView](t, out)
	if len(accounts) != 2 || accounts[1].Email != "bo@example.com" || accounts[1].APIEnabled || accounts[1].DailyCap != 500 || !slices.Equal(accounts[1].Features, slices.Sorted(slices.Values(account.Features()))) {
		t.Errorf("accounts = %+v", accounts)
	}

	code, out, errOut := admin(t, dir, "key", "create", "--account", "ann@example.com", "--name", "ci", "--scopes", "process:write, usage:read", "--expires", "720h", "--json")
	if code != 0 {
		t.Fatalf("key create: %d %s", code, errOut)
	}
	k := decode[httpapi.KeyCreated](t, out)
	exp := k.ExpiresAt
	if !regexp.MustCompile(`^cqa_[a-z0-9]{12}_[A-Za-z0-9_-]{43}$`).MatchString(k.Secret) || k.KeyID == "" || k.Name != "ci" ||
		len(k.Scopes) != 2 || k.Status != "active" || time.Until(exp) < 719*time.Hour {
		t.Errorf("key create --json = %+v", k)
	}

	_, out, _ = admin(t, dir, "key", "list", "--account", "ann@example.com", "--json")
	if strings.Contains(out, k.Secret) || strings.Contains(out, `"secret"`) {
		t.Errorf("key list shows a secret: %s", out)
	}
	// The list is {"keys": [...]} (a map in keys.go).
	list := decode[struct{ Keys []httpapi.KeyView }](t, out)
	if len(list.Keys) != 2 {
		t.Fatalf("keys = %+v", list.Keys)
	}
	code, out, errOut = admin(t, dir, "key", "revoke", k.KeyID, "--json")
	if code != 0 {
		t.Fatalf("revoke: %d %s %s", code, out, errOut)
	}
	// The same body as the API's DELETE.
	rev := decode[httpapi.Revocation](t, out)
	if at := rev.RevokedAt; rev.KeyID != k.KeyID || !rev.Revoked || time.Since(at) > time.Minute {
		t.Errorf("key revoke --json = %+v", rev)
	}

	// With --json, a failure is the API's envelope on standard output.
	for _, args := range [][]string{
		{"key", "list", "--account", "nobody@example.com", "--json"},
		{"key", "revoke", "7d444840-9dc0-11d1-b245-5ffdce74fad2", "--json"},
		{"account", "create", "--email", "ann@example.com", "--tier", "pro", "--json"},
	} {
		code, out, errOut := admin(t, dir, args...)
		env := decode[apperr.Envelope](t, out)
		if code != 1 || env.Error.Code == "" || env.Error.Message == "" || !strings.Contains(errOut, env.Error.Message) {
			t.Errorf("%v: exit %d, stdout %s, stderr %s; want 1 with the envelope", args, code, out, errOut)
		}
	}
	_, out, _ = admin(t, dir, "key", "list", "--account", "ann@example.com")
	if !strings.Contains(out, "revoked") || !strings.Contains(out, "KEY ID") {
		t.Errorf("key list table:\n%s", out)
	}
}

// syncBuffer is a buffer the server goroutine writes while the test reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// serve starts "captionqa serve" on a free port over dir, with any extra
// flags, and returns its address, its standard output and a stop function
// returning the exit code.
func serve(t *testing.T, dir string, extra ...string) (url string, stdout *syncBuffer, stop func() int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stdout, stderr := &syncBuffer{}, &syncBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- Run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0", "--data", dir, "--log-format", "json"}, extra...),
			Env{Stdin: strings.NewReader(""), Stdout: stdout, Stderr: stderr})
	}()
	re := regexp.MustCompile(`running at (http://[0-9.:]+)/`)
	// Generous: a start migrates the database and checks ffmpeg, and
	// the tests run under -race on a loaded machine.
	deadline := time.Now().Add(60 * time.Second)
	for {
		if m := re.FindStringSubmatch(stdout.String()); m != nil {
			url = m[1]
			break
		}
		select {
		case code := <-done:
			cancel()
			t.Fatalf("serve exited with %d\n%s", code, stderr)
		default:
		}
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("serve did not start\n%s", stderr)
		}
		time.Sleep(10 * time.Millisecond)
	}
	stopped := false
	var code int
	stop = func() int {
		if !stopped {
			stopped = true
			cancel()
			code = <-done
		}
		return code
	}
	t.Cleanup(func() { stop() })
	return url, stdout, stop
}

// ownerKeyRe matches an API key's secret.
var ownerKeyRe = regexp.MustCompile(`cqa_[a-z0-9]{12}_[A-Za-z0-9_-]{43}`)

// waitOwnerKey returns the owner key a first start prints: serve returns
// once the address is printed, and the key lines follow it, so this waits
// for them (or fails after a minute).
func waitOwnerKey(t *testing.T, out *syncBuffer) string {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		if k := ownerKeyRe.FindString(out.String()); k != "" {
			return k
		}
		if time.Now().After(deadline) {
			t.Fatalf("the first start printed no owner key:\n%s", out)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func apiStatus(t *testing.T, url, path, secret string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", url+path, nil)
	req.Header.Set("Authorization", "Bearer "+secret)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var env apperr.Envelope
	_ = json.NewDecoder(res.Body).Decode(&env)
	return res.StatusCode, env.Error.Code
}

// TestServeWithAdminCommands runs the admin commands on the data folder
// of a running server, and checks the first-start owner key.
func TestServeWithAdminCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("serves and runs every admin command against the server (make test runs it)")
	}
	t.Parallel()
	dir := t.TempDir()
	url, out, stop := serve(t, dir)
	owner := waitOwnerKey(t, out)
	if owner == "" || !strings.Contains(out.String(), "owner@localhost") {
		t.Fatalf("first start printed no owner key:\n%s", out)
	}
	if s, _ := apiStatus(t, url, "/api/v1/me", owner); s != 200 {
		t.Fatalf("owner key: %d", s)
	}
	if s, _ := apiStatus(t, url, "/healthz", ""); s != 200 {
		t.Errorf("healthz: %d", s)
	}
	if s, _ := apiStatus(t, url, "/readyz", ""); s != 200 {
		t.Errorf("readyz: %d", s)
	}

	if code, _, errOut := admin(t, dir, "account", "create", "--email", "ci@example.com", "--tier", "free_plus"); code != 0 {
		t.Fatalf("account create while serving: %s", errOut)
	}
	// The short key must outlive the admin commands below, each a process
	// start that takes seconds on a loaded machine; the disabled account
	// is checked with a key that does not expire.
	_, js, _ := admin(t, dir, "key", "create", "--account", "ci@example.com", "--name", "short", "--scopes", "usage:read", "--expires", "15s", "--json")
	short := decode[httpapi.KeyCreated](t, js)
	_, js, _ = admin(t, dir, "key", "create", "--account", "ci@example.com", "--name", "long", "--scopes", "usage:read", "--json")
	long := decode[httpapi.KeyCreated](t, js)
	_, js, _ = admin(t, dir, "key", "create", "--account", "ci@example.com", "--name", "kept", "--scopes", "usage:read", "--json")
	kept := decode[httpapi.KeyCreated](t, js)
	for _, k := range []httpapi.KeyCreated{short, long} {
		if s, code := apiStatus(t, url, "/api/v1/usage", k.Secret); s != 200 {
			t.Fatalf("%s key: %d %s", k.Name, s, code)
		}
	}
	if code, _, errOut := admin(t, dir, "key", "revoke", long.KeyID, "--account", "ci@example.com"); code != 0 {
		t.Fatalf("revoke: %s", errOut)
	}
	if s, code := apiStatus(t, url, "/api/v1/usage", long.Secret); s != 401 || code != "api_key_revoked" {
		t.Errorf("revoked key: %d %s", s, code)
	}
	if code, _, _ := admin(t, dir, "account", "set", "--email", "ci@example.com", "--api-enabled", "false"); code != 0 {
		t.Fatal("account set")
	}
	if s, code := apiStatus(t, url, "/api/v1/usage", kept.Secret); s != 403 || code != "forbidden" {
		t.Errorf("disabled account: %d %s", s, code)
	}
	admin(t, dir, "account", "set", "--email", "ci@example.com", "--api-enabled", "true")
	time.Sleep(time.Until(short.ExpiresAt) + 100*time.Millisecond)
	if s, code := apiStatus(t, url, "/api/v1/usage", short.Secret); s != 401 || code != "api_key_expired" {
		t.Errorf("expired key: %d %s", s, code)
	}
	if code := stop(); code != 0 {
		t.Fatalf("serve exited with %d", code)
	}

	// A later start prints only the address.
	_, out2, stop2 := serve(t, dir)
	if strings.Contains(out2.String(), "cqa_") {
		t.Errorf("second start printed a key:\n%s", out2)
	}
	if code := stop2(); code != 0 {
		t.Errorf("second serve exited with %d", code)
	}
}

// TestAdminNeedsAnExistingDataFolder: a mistyped --data is refused and
// creates nothing.
func TestAdminNeedsAnExistingDataFolder(t *testing.T) {
	t.Parallel()
	typo := filepath.Join(t.TempDir(), "captionqa-typo")
	code, _, errOut := run(t, "", "account", "create", "--email", "a@example.com", "--tier", "pro", "--data", typo)
	if code != 1 || !strings.Contains(errOut, "no data folder") {
		t.Errorf("exit %d, %q; want 1 naming the missing folder", code, errOut)
	}
	if _, err := os.Stat(typo); !os.IsNotExist(err) {
		t.Errorf("the folder was created: %v", err)
	}
}

func TestServeUsage(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{
		{"serve", "extra"},
		{"serve", "--log-format", "xml", "--data", t.TempDir()},
		{"serve", "--log-level", "loud", "--data", t.TempDir()},
		{"serve", "--burst", "0", "--data", t.TempDir()},
		{"serve", "--burst", "many", "--data", t.TempDir()},
		{"serve", "--burst-rate", "0", "--data", t.TempDir()},
		{"serve", "--burst-rate", "-1", "--data", t.TempDir()},
		{"serve", "--pro-cap", "10000", "--data", t.TempDir()},
		{"serve", "--pro-cap", "0", "--data", t.TempDir()},
	} {
		if code, _, _ := run(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d; want 2", args, code)
		}
	}
	if code, _, errOut := run(t, "", "serve", "--addr", "256.0.0.1:99999", "--data", t.TempDir()); code != 1 || !strings.Contains(errOut, "listen") {
		t.Errorf("bad address: exit %d, %s", code, errOut)
	}
}

// TestServeBurstLimit starts serve with a burst of 2 and a slow refill:
// the third request in a row is refused with a Retry-After.
func TestServeBurstLimit(t *testing.T) {
	t.Parallel()
	url, out, _ := serve(t, t.TempDir(), "--burst", "2", "--burst-rate", "0.01")
	owner := waitOwnerKey(t, out)
	for i := range 2 {
		if s, code := apiStatus(t, url, "/api/v1/me", owner); s != 200 {
			t.Fatalf("request %d: %d %s", i+1, s, code)
		}
	}
	req, _ := http.NewRequest("GET", url+"/api/v1/me", nil)
	req.Header.Set("Authorization", "Bearer "+owner)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 429 || res.Header.Get("Retry-After") == "" {
		t.Errorf("third request: %d, Retry-After %q; want 429 with Retry-After", res.StatusCode, res.Header.Get("Retry-After"))
	}
}

// TestServeLimitsFromEnv: the limits' variables are read, and a value
// that is not a number is a usage error. Not parallel: it sets the
// environment.
func TestServeLimitsFromEnv(t *testing.T) {
	for _, tc := range []struct{ name, value string }{
		{envBurst, "lots"}, {envBurstRate, "fast"}, {envProCap, "1e9"}, {envBurst, "0"}, {envProCap, "10000"},
	} {
		t.Run(tc.name+"="+tc.value, func(t *testing.T) {
			t.Setenv(tc.name, tc.value)
			if code, _, errOut := run(t, "", "serve", "--data", t.TempDir()); code != 2 || !strings.Contains(errOut, "captionqa:") {
				t.Errorf("exit %d, %q; want 2 with a message", code, errOut)
			}
		})
	}
	t.Setenv(envBurst, "1")
	t.Setenv(envBurstRate, "0.01")
	url, out, _ := serve(t, t.TempDir())
	owner := waitOwnerKey(t, out)
	if s, _ := apiStatus(t, url, "/api/v1/me", owner); s != 200 {
		t.Fatalf("first request: %d", s)
	}
	if s, code := apiStatus(t, url, "/api/v1/me", owner); s != 429 || code != "rate_limited" {
		t.Errorf("second request with %s=1: %d %s; want 429 rate_limited", envBurst, s, code)
	}
}

// TestAccountCreateFeatures: on account create, --features adds to the
// tier's entitlements and --without leaves some out, and the apiEnabled
// the command prints is what the API enforces (API_V1, not turned off).
// Before, --features replaced the tier's: a free_plus account given
// PRO_WORKSPACE lost API_V1, every call was 403, and the command still
// printed apiEnabled true.
func TestAccountCreateFeatures(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, tc := range []struct {
		name, email string
		flags       []string
		features    []string
		apiEnabled  bool
	}{
		{"features add", "cy@example.com", []string{"--features", "PRO_WORKSPACE"}, []string{account.FeatureAPIKeys, account.FeatureAPIV1, account.FeatureProWorkspace}, true},
		{"without leaves out", "dee@example.com", []string{"--without", "API_V1"}, []string{account.FeatureAPIKeys}, false},
		{"both", "eve@example.com", []string{"--features", "PRO_WORKSPACE", "--without", "API_KEYS"}, []string{account.FeatureAPIV1, account.FeatureProWorkspace}, true},
	} {
		args := append([]string{"account", "create", "--email", tc.email, "--tier", "free_plus", "--json"}, tc.flags...)
		code, out, errOut := admin(t, dir, args...)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.name, code, errOut)
		}
		got := decode[accountView](t, out)
		if !slices.Equal(got.Features, tc.features) || got.APIEnabled != tc.apiEnabled {
			t.Errorf("%s: %+v; want features %v, apiEnabled %v", tc.name, got, tc.features, tc.apiEnabled)
		}
	}
	if code, _, errOut := admin(t, dir, "account", "create", "--email", "x@example.com", "--tier", "pro", "--without", "TELEPORT"); code != 1 || !strings.Contains(errOut, "TELEPORT") {
		t.Errorf("--without an unknown feature: exit %d, %s; want 1 naming it", code, errOut)
	}
}
