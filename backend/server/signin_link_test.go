package server_test

import (
	"context"
	"io"
	"log/slog"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/server"
)

func TestBaseURL(t *testing.T) {
	t.Parallel()
	tests := []struct {
		addr     string
		tls      bool
		wildcard string
		want     string
	}{
		{"127.0.0.1:8787", false, "", "http://127.0.0.1:8787"},
		{"127.0.0.1:8787", true, "", "https://127.0.0.1:8787"},
		{"0.0.0.0:8787", false, "", "http://127.0.0.1:8787"},
		{"[::]:8787", true, "", "https://127.0.0.1:8787"},
		{":8787", false, "", "http://127.0.0.1:8787"},
		{"0.0.0.0:8443", true, "captionqa.lan", "https://captionqa.lan:8443"},
		{"192.168.1.20:8787", false, "captionqa.lan", "http://192.168.1.20:8787"},
		{"[::1]:8787", false, "", "http://[::1]:8787"},
		{"localhost:8787", false, "", "http://localhost:8787"},
	}
	for _, tt := range tests {
		if got := server.BaseURL(tt.addr, tt.tls, tt.wildcard); got != tt.want {
			t.Errorf("BaseURL(%q, %v, %q) = %q; want %q", tt.addr, tt.tls, tt.wildcard, got, tt.want)
		}
	}
}

// TestOwnerSignInLink: the link is on the bound address, in the URL
// fragment, and the owner's account uses it.
func TestOwnerSignInLink(t *testing.T) {
	t.Parallel()
	cfg := server.DefaultConfig()
	cfg.Addr = "0.0.0.0:0"
	cfg.DataDir = t.TempDir()
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	srv := server.New(cfg)
	ctx := context.Background()
	if err := srv.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	if _, err := srv.OwnerSignInLink(ctx); err == nil {
		t.Error("a link before Listen")
	}
	if err := srv.Listen(); err != nil {
		t.Fatal(err)
	}
	link, err := srv.OwnerSignInLink(ctx)
	if err != nil {
		t.Fatal(err)
	}
	port := srv.URL()[strings.LastIndex(srv.URL(), ":"):]
	prefix := "http://127.0.0.1" + port + server.SignInPath
	if !strings.HasPrefix(link.URL, prefix) || len(link.URL) != len(prefix)+43 {
		t.Fatalf("link %q; want %s and a 43-character token", link.URL, prefix)
	}
	if _, _, err := srv.Accounts().UseSignInLink(ctx, link.URL[len(prefix):], "an owner password"); err != nil {
		t.Errorf("using the link: %v", err)
	}
}
