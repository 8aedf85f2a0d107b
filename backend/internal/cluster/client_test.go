package cluster_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/cli"
	"github.com/captionqa/captionqa/backend/httpapi"
)

// client sends the tests' requests, read-only once made; its timeout
// bounds a request to a node that hangs.
var client = &http.Client{Timeout: time.Minute}

// admin runs an admin command (account or key) on the cluster's store
// through the command line, in-process, and decodes its JSON output
// into out.
func (c *cluster) admin(t *testing.T, out any, args ...string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	args = append(args, "--store", c.store, "--json")
	code := cli.Run(context.Background(), args, cli.Env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr})
	if code != cli.ExitOK {
		t.Fatalf("captionqa %s: exit %d: %s%s", strings.Join(args[:2], " "), code, stderr.String(), stdout.String())
	}
	if err := json.Unmarshal(stdout.Bytes(), out); err != nil {
		t.Fatalf("captionqa %s: %v: %s", strings.Join(args[:2], " "), err, stdout.String())
	}
}

// account creates an account of tier (free_plus or pro) with the admin
// commands and returns a new key of it with scopes.
func (c *cluster) account(t *testing.T, email, tier string, scopes ...string) httpapi.KeyCreated {
	t.Helper()
	var a struct { // part of the account: package cli's accountView is unexported
		Email string `json:"email"`
	}
	c.admin(t, &a, "account", "create", "--email", email, "--tier", tier)
	return c.key(t, email, scopes...)
}

// key creates another key of the account with scopes, as `captionqa key
// create --json` prints it.
func (c *cluster) key(t *testing.T, email string, scopes ...string) httpapi.KeyCreated {
	t.Helper()
	var k httpapi.KeyCreated
	c.admin(t, &k, "key", "create", "--account", email, "--name", "cluster test", "--scopes", strings.Join(scopes, ","))
	if k.KeyID == "" || k.Secret == "" {
		t.Fatalf("key create for %s printed no id or secret", email)
	}
	return k
}

// allScopes are every scope of a key (docs/api.md, Scopes and
// entitlements); read-only.
var allScopes = []string{"process:write", "account:read", "usage:read", "keys:read", "keys:write",
	"webhooks:read", "webhooks:write", "exports:read", "exports:write"}

// response is a node's answer.
type response struct {
	Status int
	Header http.Header
	Body   []byte
}

// code is the error envelope's code, "" when the body is not one.
func (r response) code() string {
	var e apperr.Envelope
	_ = json.Unmarshal(r.Body, &e)
	return e.Error.Code
}

func (r response) String() string { return fmt.Sprintf("%d %s", r.Status, bytes.TrimSpace(r.Body)) }

// send sends a request with secret as the Bearer key ("" for none); body
// is sent as contentType. It may be called from any goroutine.
func send(method, url, secret, contentType string, body io.Reader) (response, error) {
	req, err := http.NewRequest(method, url, body)
	if err != nil {
		return response{}, err
	}
	if secret != "" {
		req.Header.Set("Authorization", "Bearer "+secret)
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	res, err := client.Do(req)
	if err != nil {
		return response{}, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	return response{Status: res.StatusCode, Header: res.Header, Body: b}, err
}

// do sends a JSON request (in nil sends no body) and fails t on a
// transport error.
func do(t testing.TB, method, url, secret string, in any) response {
	t.Helper()
	var body io.Reader
	ct := ""
	if in != nil {
		b, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		body, ct = bytes.NewReader(b), "application/json"
	}
	r, err := send(method, url, secret, ct, body)
	if err != nil {
		t.Fatalf("%s %s: %v", method, url, err)
	}
	return r
}

// call is do failing t unless the status is want; out, when not nil,
// receives the JSON body.
func call(t testing.TB, method, url, secret string, in any, want int, out any) response {
	t.Helper()
	r := do(t, method, url, secret, in)
	if r.Status != want {
		t.Fatalf("%s %s: %s; want status %d", method, url, r, want)
	}
	if out != nil {
		if err := json.Unmarshal(r.Body, out); err != nil {
			t.Fatalf("%s %s: %v: %s", method, url, err, r.Body)
		}
	}
	return r
}

// eventually polls check every 100 ms until it returns true, failing t
// with what() after limit.
func eventually(t testing.TB, limit time.Duration, check func() bool, what func() string) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !check() {
		if time.Now().After(deadline) {
			t.Fatalf("after %v: %s", limit, what())
		}
		time.Sleep(100 * time.Millisecond)
	}
}
