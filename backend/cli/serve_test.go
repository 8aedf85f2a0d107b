package cli

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"flag"
	"fmt"
	"io"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/server"
)

// startServe runs "captionqa serve" on a free loopback port over a new
// data folder with the extra flags, waits until it prints its address,
// and stops it when the test ends. It returns the address (http or
// https) and the standard output so far.
func startServe(t *testing.T, extra ...string) (url, stdout string) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	out, errOut := &syncBuffer{}, &syncBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- Run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0", "--data", t.TempDir(), "--log-format", "json"}, extra...),
			Env{Stdin: strings.NewReader(""), Stdout: out, Stderr: errOut})
	}()
	t.Cleanup(func() {
		cancel()
		if code := <-done; code != ExitOK {
			t.Errorf("serve exited with %d\n%s", code, errOut)
		}
	})
	re := regexp.MustCompile(`running at (https?://[0-9.:]+)/`)
	for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		// The owner key line comes last.
		if m := re.FindStringSubmatch(out.String()); m != nil && strings.Contains(out.String(), "cqa_") {
			return m[1], out.String()
		}
		select {
		case code := <-done:
			done <- code
			t.Fatalf("serve exited with %d\n%s", code, errOut)
		default:
		}
	}
	t.Fatalf("serve did not start\n%s", errOut)
	return "", ""
}

// writeCert writes a self-signed certificate for 127.0.0.1 and its key,
// and returns their paths and a pool trusting it.
func writeCert(t *testing.T) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}, IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, _ := x509.MarshalPKCS8PrivateKey(key)
	dir := t.TempDir()
	certFile, keyFile = filepath.Join(dir, "c.pem"), filepath.Join(dir, "k.pem")
	_ = os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	_ = os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600)
	cert, _ := x509.ParseCertificate(der)
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

// TestServeListenerUsage: the TLS, allowed-host and metrics flags refuse
// what cannot work with a usage error before anything starts, and a
// certificate that cannot be loaded stops the start with an error.
func TestServeListenerUsage(t *testing.T) {
	t.Parallel()
	certFile, keyFile, _ := writeCert(t)
	tests := []struct {
		args     []string
		wantCode int
		wantErr  string
	}{
		{[]string{"--tls-cert", certFile}, ExitUsage, "--tls-cert and --tls-key go together"},
		{[]string{"--tls-key", keyFile}, ExitUsage, "--tls-cert and --tls-key go together"},
		{[]string{"--allowed-host", "https://cq.example.lan"}, ExitUsage, "--allowed-host"},
		{[]string{"--allowed-host", "*.example.lan"}, ExitUsage, "--allowed-host"},
		{[]string{"--allowed-host", ""}, ExitUsage, "--allowed-host"},
		{[]string{"--metrics-addr", "9464"}, ExitUsage, "--metrics-addr"},
		{[]string{"--tls-cert", certFile, "--tls-key", certFile}, 1, "TLS certificate"},
		{[]string{"--tls-cert", filepath.Join(t.TempDir(), "missing.pem"), "--tls-key", keyFile}, 1, "missing.pem"},
	}
	for _, tt := range tests {
		args := append([]string{"serve", "--addr", "127.0.0.1:0", "--data", t.TempDir()}, tt.args...)
		code, _, errOut := run(t, "", args...)
		if code != tt.wantCode || !strings.Contains(errOut, tt.wantErr) {
			t.Errorf("%v: exit %d, %q; want %d saying %q", tt.args, code, errOut, tt.wantCode, tt.wantErr)
		}
	}
}

// TestServeTLSAndMetrics: --tls-cert and --tls-key serve HTTPS, and
// --metrics-addr a metrics listener whose address serve prints.
func TestServeTLSAndMetrics(t *testing.T) {
	t.Parallel()
	certFile, keyFile, pool := writeCert(t)
	url, out := startServe(t, "--tls-cert", certFile, "--tls-key", keyFile, "--metrics-addr", "127.0.0.1:0")
	if !strings.HasPrefix(url, "https://") {
		t.Fatalf("serving at %s, want https", url)
	}
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	defer client.CloseIdleConnections()
	res, err := client.Get(url + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("GET /healthz over TLS: %d", res.StatusCode)
	}
	m := regexp.MustCompile(`metrics at (http://127\.0\.0\.1:[0-9]+/metrics)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no metrics address in\n%s", out)
	}
	res, err = http.Get(m[1])
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.Contains(string(body), `captionqa_http_requests_total{method="GET",route="/healthz",status="200"} 1`) {
		t.Errorf("scrape: %d\n%s", res.StatusCode, body)
	}
}

// TestServeAllowedHosts: --allowed-host (repeated) and, without it,
// CAPTIONQA_ALLOWED_HOSTS add names the listener answers to; any other
// name is still refused.
func TestServeAllowedHosts(t *testing.T) {
	t.Setenv(envAllowedHosts, " env-a.example.lan , env-b.example.lan,")
	tests := []struct {
		name     string
		flags    []string
		accepted []string
		refused  []string
	}{
		{"environment", nil, []string{"env-a.example.lan", "env-b.example.lan"}, []string{"cq.example.lan", "evil.example"}},
		{"flags win", []string{"--allowed-host", "cq.example.lan", "--allowed-host", "CQ2.example.lan"},
			[]string{"cq.example.lan", "cq2.example.lan", "localhost"}, []string{"env-a.example.lan", "evil.example"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			url, _ := startServe(t, tt.flags...)
			port := url[strings.LastIndex(url, ":"):]
			for _, host := range append(tt.accepted, tt.refused...) {
				req, _ := http.NewRequest("GET", url+"/healthz", nil)
				req.Host = host + port
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				res.Body.Close()
				want := 403
				for _, a := range tt.accepted {
					if a == host {
						want = 200
					}
				}
				if res.StatusCode != want {
					t.Errorf("Host %s: %d, want %d", host, res.StatusCode, want)
				}
			}
		})
	}
}

// TestServerFlags: serve and desktop build their config with the same
// parser, flags over variables over defaults.
func TestServerFlags(t *testing.T) {
	for _, tc := range []struct {
		name    string
		args    []string
		env     map[string]string
		check   func(t *testing.T, cfg server.Config)
		wantErr string
	}{
		{"flags", []string{"--burst", "3", "--pro-cap", "7", "--burst-rate", "1.5", "--data", "/d", "--allowed-host", "qa.lan", "--metrics-addr", "127.0.0.1:9464"}, nil,
			func(t *testing.T, cfg server.Config) {
				if cfg.Burst != 3 || cfg.ProDailyCap != 7 || cfg.BurstPerSecond != 1.5 || cfg.DataDir != "/d" ||
					len(cfg.AllowedHosts) != 1 || cfg.AllowedHosts[0] != "qa.lan" || cfg.MetricsAddr != "127.0.0.1:9464" || cfg.Logger == nil {
					t.Errorf("cfg = %+v", cfg)
				}
			}, ""},
		{"env", []string{"--data", "/d"}, map[string]string{envBurst: "4", envProCap: "8", envAllowedHosts: "a.lan, b.lan", envTLSCert: "c.pem", envTLSKey: "k.pem"},
			func(t *testing.T, cfg server.Config) {
				if cfg.Burst != 4 || cfg.ProDailyCap != 8 || len(cfg.AllowedHosts) != 2 || cfg.TLSCertFile != "c.pem" || cfg.TLSKeyFile != "k.pem" {
					t.Errorf("cfg = %+v", cfg)
				}
			}, ""},
		{"flag wins over env", []string{"--burst", "3", "--data", "/d"}, map[string]string{envBurst: "9"},
			func(t *testing.T, cfg server.Config) {
				if cfg.Burst != 3 {
					t.Errorf("burst %d", cfg.Burst)
				}
			}, ""},
		{"bad env", []string{"--data", "/d"}, map[string]string{envProCap: "many"}, nil, "is not a number"},
		{"pro cap too high", []string{"--pro-cap", "100000", "--data", "/d"}, nil, nil, "--pro-cap"},
		{"cert without key", []string{"--tls-cert", "c.pem", "--data", "/d"}, nil, nil, "go together"},
		{"bad log format", []string{"--log-format", "xml", "--data", "/d"}, nil, nil, "--log-format"},
		{"webhook destinations", []string{"--data", "/d", "--webhook-allow", "127.0.0.0/8,::1", "--webhook-allow", "::ffff:10.1.2.3/128", "--webhook-allow-private"}, nil,
			func(t *testing.T, cfg server.Config) {
				if got := fmt.Sprint(cfg.WebhookAllow); got != "[127.0.0.0/8 ::1/128 10.1.2.3/32]" || !cfg.WebhookAllowPrivate {
					t.Errorf("WebhookAllow %s, WebhookAllowPrivate %v; want [127.0.0.0/8 ::1/128 10.1.2.3/32], true", got, cfg.WebhookAllowPrivate)
				}
			}, ""},
		{"webhook destinations from env", []string{"--data", "/d"}, map[string]string{envWebhookAllow: "127.0.0.1/32", envWebhookAllowPrivate: "true"},
			func(t *testing.T, cfg server.Config) {
				if got := fmt.Sprint(cfg.WebhookAllow); got != "[127.0.0.1/32]" || !cfg.WebhookAllowPrivate {
					t.Errorf("WebhookAllow %s, WebhookAllowPrivate %v", got, cfg.WebhookAllowPrivate)
				}
			}, ""},
		{"webhook destinations off by default", []string{"--data", "/d"}, nil,
			func(t *testing.T, cfg server.Config) {
				if cfg.WebhookAllow != nil || cfg.WebhookAllowPrivate {
					t.Errorf("WebhookAllow %v, WebhookAllowPrivate %v; want none", cfg.WebhookAllow, cfg.WebhookAllowPrivate)
				}
			}, ""},
		{"bad webhook allow", []string{"--data", "/d", "--webhook-allow", "lan"}, nil, nil, "--webhook-allow"},
		{"video and storage limits", []string{"--data", "/d", "--max-media-duration", "90m", "--max-picture", "1920x1080", "--max-frame-rate", "60",
			"--video-jobs-per-account", "2", "--ffmpeg-memory", "3GiB", "--tesseract-memory", "-1", "--export-retention", "168h"}, nil,
			func(t *testing.T, cfg server.Config) {
				if cfg.MaxMediaSeconds != 5400 || cfg.MaxPicturePixels != 1920*1080 || cfg.MaxFrameRate != 60 || cfg.VideoJobsPerAccount != 2 ||
					cfg.FFmpegMemoryLimit != 3<<30 || cfg.TesseractMemoryLimit != -1 || cfg.ExportRetention != 168*time.Hour {
					t.Errorf("cfg = %+v", cfg)
				}
			}, ""},
		{"video limits default", []string{"--data", "/d"}, nil,
			func(t *testing.T, cfg server.Config) {
				if cfg.MaxMediaSeconds != 0 || cfg.MaxPicturePixels != 0 || cfg.FFmpegMemoryLimit != 0 || cfg.ExportRetention != 0 {
					t.Errorf("cfg = %+v; want the defaults (zero)", cfg)
				}
			}, ""},
		{"bad picture", []string{"--data", "/d", "--max-picture", "4k"}, nil, nil, "--max-picture"},
		{"memory too small", []string{"--data", "/d", "--ffmpeg-memory", "1MiB"}, nil, nil, "--ffmpeg-memory"},
		{"negative retention", []string{"--data", "/d", "--export-retention", "-1h"}, nil, nil, "--export-retention"},
		{"bad webhook allow private env", []string{"--data", "/d"}, map[string]string{envWebhookAllowPrivate: "yes please"}, nil, envWebhookAllowPrivate},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs := flag.NewFlagSet("test", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			build := ServerFlags(fs, func(k string) string { return tc.env[k] }, io.Discard)
			if err := fs.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			cfg, err := build()
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, cfg)
		})
	}
}
