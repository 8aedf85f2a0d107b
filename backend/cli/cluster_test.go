package cli

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/internal/testkit"
)

func TestClusterFlagsUsage(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--store", "mysql://db/captionqa"}, "--store takes a postgres:// URL"},
		{[]string{"--blobs", "/srv/blobs"}, "--blobs takes an s3://"},
		{[]string{"--role", "api"}, "--role api needs --store"},
		{[]string{"--role", "worker"}, "--role worker needs --store"},
		{[]string{"--role", "leader", "--store", "postgres://db/x"}, "--role is all, api or worker"},
	} {
		code, _, errOut := run(t, "", append([]string{"serve", "--data", t.TempDir()}, tc.args...)...)
		if code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d, %q; want 2 and %q", tc.args, code, errOut, tc.want)
		}
	}
}

// TestServeOnPostgres: two serve processes' worth of nodes on one
// PostgreSQL database: the owner is created once, the admin commands
// reach the cluster with --store, and a worker node answers only its
// health routes.
func TestServeOnPostgres(t *testing.T) {
	t.Parallel()
	store := testkit.PostgresURL(t)
	url1, out1, _ := serve(t, t.TempDir(), "--store", store)
	secret := waitOwnerKey(t, out1)
	url2, out2, _ := serve(t, t.TempDir(), "--store", store, "--role", "api")
	if strings.Contains(out2.String(), "cqa_") {
		t.Errorf("the second node printed an owner key:\n%s", out2)
	}
	for _, u := range []string{url1, url2} {
		if code, _ := apiStatus(t, u, "/api/v1/me", secret); code != 200 {
			t.Errorf("%s/api/v1/me with the owner key: %d", u, code)
		}
	}
	if code, out, errOut := run(t, "", "account", "create", "--email", "ed@example.com", "--tier", "free_plus", "--store", store); code != 0 || !strings.Contains(out, "ed@example.com") {
		t.Fatalf("account create --store: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, _ := run(t, "", "account", "list", "--store", store); code != 0 || !strings.Contains(out, "ed@example.com") || !strings.Contains(out, "owner@localhost") {
		t.Errorf("account list --store: exit %d\n%s", code, out)
	}
	worker, _, _ := serve(t, t.TempDir(), "--store", store, "--role", "worker")
	res, err := http.Get(worker + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), `"worker"`) {
		t.Errorf("worker /healthz: %d %s", res.StatusCode, body)
	}
	if code, _ := apiStatus(t, worker, "/api/v1/me", secret); code != 404 {
		t.Errorf("worker /api/v1/me: %d, want 404 (a worker serves no API)", code)
	}
}
