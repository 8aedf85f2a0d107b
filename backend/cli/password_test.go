package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/server"
)

// TestAccountSetPassword runs alone, before the parallel tests: argon2id
// is meant to be costly, and TestServeWithAdminCommands races a 2 s key.
func TestAccountSetPassword(t *testing.T) {
	dir := t.TempDir()
	if code, _, errOut := admin(t, dir, "account", "create", "--email", "pw@example.com", "--tier", "pro"); code != 0 {
		t.Fatalf("create: %s", errOut)
	}
	tests := []struct {
		name, stdin string
		args        []string
		wantCode    int
		wantOut     string
		wantErr     string
	}{
		{"short", "123456789\n", []string{"--email", "pw@example.com"}, 1, "", "at least 10 characters"},
		{"empty stdin", "", []string{"--email", "pw@example.com"}, 2, "", "no password on standard input"},
		{"empty line", "\nsecond line password\n", []string{"--email", "pw@example.com"}, 2, "", "no password"},
		{"no email", "long enough password\n", nil, 2, "", "--email"},
		{"unknown account", "long enough password\n", []string{"--email", "nobody@example.com"}, 1, "", "no account"},
		{"argument", "long enough password\n", []string{"--email", "pw@example.com", "extra"}, 2, "", "unexpected argument"},
		{"set", "first password\r\nignored second line\n", []string{"--email", "pw@example.com"}, 0, "Password set for pw@example.com", ""},
		{"json, no newline", "the final password", []string{"--email", "PW@example.com", "--json"}, 0, `"passwordSet": true`, ""},
	}
	for _, tt := range tests {
		code, out, errOut := run(t, tt.stdin, append([]string{"account", "set-password", "--data", dir}, tt.args...)...)
		if code != tt.wantCode || !strings.Contains(out, tt.wantOut) || !strings.Contains(errOut, tt.wantErr) {
			t.Errorf("%s: exit %d (want %d)\nstdout: %s\nstderr: %s", tt.name, code, tt.wantCode, out, errOut)
		}
		if pw := strings.TrimSuffix(strings.SplitN(tt.stdin, "\n", 2)[0], "\r"); len(pw) >= 10 && strings.Contains(out+errOut, pw) {
			t.Errorf("%s: the output echoes the password", tt.name)
		}
	}

	// The last password is the one that signs in.
	cfg := server.DefaultConfig()
	cfg.DataDir = dir
	adm, err := server.OpenAdmin(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer adm.Close()
	ctx := context.Background()
	if _, _, err := adm.Accounts.Login(ctx, "pw@example.com", "first password"); err == nil {
		t.Error("the replaced password still signs in")
	}
	if _, _, err := adm.Accounts.Login(ctx, "pw@example.com", "the final password"); err != nil {
		t.Errorf("login with the set password: %v", err)
	}
}
