package server_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/server"
)

func testConfig(t *testing.T, dir string) server.Config {
	cfg := server.DefaultConfig()
	cfg.Addr = "127.0.0.1:0"
	cfg.DataDir = dir
	cfg.OwnerEmail = "boss@example.com"
	// Above net/http's 5 s: a connection a client dialled but never
	// used counts as busy for that long, and a shutdown bound of 5 s
	// then failed now and then on a loaded machine.
	cfg.ShutdownTimeout = 15 * time.Second
	return cfg
}

// TestFirstStartAndRestart: the first start creates the data folder, the
// database and the owner with a one-time key; a restart creates nothing
// and shows no secret; the server shuts down cleanly when ctx ends.
func TestFirstStartAndRestart(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "nested", "data")
	ctx := context.Background()

	srv := server.New(testConfig(t, dir))
	if err := srv.Open(ctx); err != nil {
		t.Fatal(err)
	}
	owner := srv.Owner()
	if !owner.Created || owner.Email != "boss@example.com" || !strings.HasPrefix(owner.Secret, "cqa_") {
		t.Fatalf("owner = %+v", owner)
	}
	if _, err := os.Stat(filepath.Join(dir, server.DBFile)); err != nil {
		t.Fatalf("database: %v", err)
	}
	if err := srv.Listen(); err != nil {
		t.Fatal(err)
	}
	sctx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- srv.Serve(sctx) }()

	req, _ := http.NewRequest("GET", srv.URL()+"/api/v1/me", nil)
	req.Header.Set("Authorization", "Bearer "+owner.Secret)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	// Part of the profile: httpapi's meResponse is unexported.
	var me struct {
		Tier     string   `json:"tier"`
		Features []string `json:"features"`
	}
	_ = json.NewDecoder(res.Body).Decode(&me)
	res.Body.Close()
	if res.StatusCode != 200 || me.Tier != "pro" || len(me.Features) != 8 {
		t.Errorf("me: %d %+v", res.StatusCode, me)
	}
	res, err = http.Get(srv.URL() + "/api/v1/openapi.json")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !json.Valid(body) {
		t.Errorf("openapi.json: %d", res.StatusCode)
	}

	stop()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after cancel")
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := http.Get(srv.URL() + "/healthz"); err == nil {
		t.Error("still serving after shutdown")
	}

	again := server.New(testConfig(t, dir))
	if err := again.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if o := again.Owner(); o.Created || o.Secret != "" || o.Email != "boss@example.com" {
		t.Errorf("restart owner = %+v", o)
	}
}

func TestOpenFailsWithoutDataDir(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t, "")
	if err := server.New(cfg).Open(context.Background()); err == nil {
		t.Error("Open without a data folder succeeded")
	}
}

func TestDefaultDataDir(t *testing.T) {
	t.Setenv("XDG_DATA_HOME", "/xdg")
	if d, _ := server.DefaultDataDir(); d != "/xdg/captionqa" {
		t.Errorf("with XDG_DATA_HOME: %s", d)
	}
	t.Setenv("XDG_DATA_HOME", "")
	t.Setenv("HOME", "/home/ann")
	if d, _ := server.DefaultDataDir(); d != "/home/ann/.local/share/captionqa" {
		t.Errorf("without: %s", d)
	}
}

// TestListenerHostCheck: the listener accepts the loopback names and the
// host of its configured address, and refuses any other Host; the
// desktop handler acts as the owner with no credential at all.
func TestListenerHostCheck(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t, t.TempDir())
	cfg.Addr = "127.0.0.2:0"
	srv := server.New(cfg)
	ctx := context.Background()
	if err := srv.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if err := srv.Listen(); err != nil {
		t.Skipf("cannot listen on 127.0.0.2: %v", err)
	}
	sctx, stop := context.WithCancel(ctx)
	defer stop()
	go func() { _ = srv.Serve(sctx) }()
	port := srv.URL()[strings.LastIndex(srv.URL(), ":")+1:]
	for host, want := range map[string]int{
		"127.0.0.2:" + port: 200, "localhost:" + port: 200, "127.0.0.1": 200,
		"evil.example:" + port: 403, "127.0.0.3:" + port: 403,
	} {
		req, _ := http.NewRequest("GET", srv.URL()+"/healthz", nil)
		req.Host = host
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != want {
			t.Errorf("Host %s: %d, want %d", host, res.StatusCode, want)
		}
	}

	res, err := http.Get(srv.URL() + "/api/v1/me")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 401 {
		t.Errorf("listener /me without a key: %d, want 401", res.StatusCode)
	}
	rec := httptest.NewRecorder()
	srv.DesktopHandler().ServeHTTP(rec, httptest.NewRequest("GET", "http://wails/api/v1/me", nil))
	// Part of the profile: httpapi's meResponse is unexported.
	var me struct {
		Email string `json:"email"`
	}
	_ = json.Unmarshal(rec.Body.Bytes(), &me)
	if rec.Code != 200 || me.Email != "boss@example.com" {
		t.Errorf("desktop /me: %d %s", rec.Code, rec.Body)
	}
}
