package server_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/httpapi"
	"github.com/captionqa/captionqa/backend/server"
)

// testCert writes a self-signed certificate for 127.0.0.1 and its key to
// dir, and returns their paths and a pool trusting the certificate.
func testCert(t *testing.T, dir, name string) (certFile, keyFile string, pool *x509.CertPool) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "captionqa test"},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses:  []net.IP{net.IPv4(127, 0, 0, 1)},
		DNSNames:     []string{"localhost"},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	certFile, keyFile = filepath.Join(dir, name+".crt"), filepath.Join(dir, name+".key")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER}), 0o600); err != nil {
		t.Fatal(err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		t.Fatal(err)
	}
	pool = x509.NewCertPool()
	pool.AddCert(cert)
	return certFile, keyFile, pool
}

// TestTLS: with a certificate the listener serves HTTPS only, TLS 1.2 or
// later, and the session and CSRF cookies it sets are Secure; without
// one it serves HTTP and the cookies are not.
func TestTLS(t *testing.T) {
	t.Parallel()
	certFile, keyFile, pool := testCert(t, t.TempDir(), "a")
	tests := []struct {
		name       string
		tls        bool
		wantScheme string
		wantSecure bool
	}{
		{"https", true, "https://", true},
		{"http", false, "http://", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg := testConfig(t, t.TempDir())
			if tt.tls {
				cfg.TLSCertFile, cfg.TLSKeyFile = certFile, keyFile
			}
			srv := server.New(cfg)
			start(t, srv)
			if !strings.HasPrefix(srv.URL(), tt.wantScheme) {
				t.Fatalf("URL = %s, want %s…", srv.URL(), tt.wantScheme)
			}
			client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
			defer client.CloseIdleConnections()
			if _, err := srv.Accounts().SetPassword(context.Background(), cfg.OwnerEmail, "correct horse battery"); err != nil {
				t.Fatal(err)
			}
			res, err := client.Post(srv.URL()+"/api/session", "application/json",
				strings.NewReader(`{"email":"boss@example.com","password":"correct horse battery"}`))
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			if res.StatusCode != 200 {
				t.Fatalf("sign in: %d", res.StatusCode)
			}
			wantCookie(t, res, httpapi.SessionCookie, tt.wantSecure)
			res, err = client.Get(srv.URL() + "/api/csrf")
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			wantCookie(t, res, httpapi.CSRFCookie, tt.wantSecure)
			if !tt.tls {
				return
			}

			old := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MaxVersion: tls.VersionTLS11}}}
			if res, err := old.Get(srv.URL() + "/healthz"); err == nil {
				res.Body.Close()
				t.Error("a TLS 1.1 client was served")
			}
			plain := "http://" + strings.TrimPrefix(srv.URL(), "https://")
			if res, err := http.Get(plain + "/api/v1/openapi.json"); err == nil {
				res.Body.Close()
				if res.StatusCode == 200 {
					t.Error("plain HTTP was served on the TLS listener")
				}
			}
		})
	}
}

func wantCookie(t *testing.T, res *http.Response, name string, secure bool) {
	t.Helper()
	for _, c := range res.Cookies() {
		if c.Name == name {
			if c.Secure != secure {
				t.Errorf("cookie %s: Secure = %v, want %v", name, c.Secure, secure)
			}
			return
		}
	}
	t.Errorf("no %s cookie", name)
}

// TestTLSConfigErrors: a certificate without its key, an unreadable file
// or a key of another certificate stop the start with an error naming
// the problem, before the data folder is touched.
func TestTLSConfigErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	certA, keyA, _ := testCert(t, dir, "a")
	_, keyB, _ := testCert(t, dir, "b")
	tests := []struct {
		name      string
		cert, key string
		want      string
	}{
		{"certificate only", certA, "", "both a certificate file and a key file"},
		{"key only", "", keyA, "both a certificate file and a key file"},
		{"missing certificate", filepath.Join(dir, "nope.crt"), keyA, "nope.crt"},
		{"missing key", certA, filepath.Join(dir, "nope.key"), "nope.key"},
		{"key of another certificate", certA, keyB, "private key does not match public key"},
		{"certificate as key", certA, certA, "a.crt"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			data := filepath.Join(t.TempDir(), "data")
			cfg := testConfig(t, data)
			cfg.TLSCertFile, cfg.TLSKeyFile = tt.cert, tt.key
			err := server.New(cfg).Open(context.Background())
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Open: %v; want an error saying %q", err, tt.want)
			}
			if _, err := os.Stat(data); err == nil {
				t.Error("the data folder was created before the certificate was checked")
			}
		})
	}
}

// TestPlainHTTPWarning: serving plain HTTP on an address other than
// loopback logs a warning at start-up; loopback, or HTTPS, does not.
func TestPlainHTTPWarning(t *testing.T) {
	t.Parallel()
	certFile, keyFile, _ := testCert(t, t.TempDir(), "a")
	tests := []struct {
		name     string
		addr     string
		tls      bool
		wantWarn bool
	}{
		{"loopback", "127.0.0.1:0", false, false},
		{"every interface", "0.0.0.0:0", false, true},
		{"every interface over TLS", "0.0.0.0:0", true, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg := testConfig(t, t.TempDir())
			cfg.Addr = tt.addr
			if tt.tls {
				cfg.TLSCertFile, cfg.TLSKeyFile = certFile, keyFile
			}
			logs := withLog(&cfg)
			srv := server.New(cfg)
			if err := srv.Open(context.Background()); err != nil {
				t.Fatal(err)
			}
			defer srv.Close()
			if err := srv.Listen(); err != nil {
				t.Fatal(err)
			}
			if got := strings.Contains(logs.String(), "plain HTTP"); got != tt.wantWarn {
				t.Errorf("warned = %v, want %v; log:\n%s", got, tt.wantWarn, logs)
			}
		})
	}
}
