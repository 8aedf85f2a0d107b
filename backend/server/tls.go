package server

import (
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"time"
)

// tlsConfig loads [Config.TLSCertFile] and [Config.TLSKeyFile]: nil when
// neither is set, an error when only one is, or when the files cannot be
// read or do not make a pair. TLS 1.2 is the oldest version offered. A
// certificate outside its validity period is logged, not refused: the
// operator may be about to replace it.
func (c *Config) tlsConfig(log *slog.Logger, now time.Time) (*tls.Config, error) {
	switch {
	case c.TLSCertFile == "" && c.TLSKeyFile == "":
		return nil, nil
	case c.TLSCertFile == "" || c.TLSKeyFile == "":
		return nil, errors.New("server: TLS needs both a certificate file and a key file")
	}
	cert, err := tls.LoadX509KeyPair(c.TLSCertFile, c.TLSKeyFile)
	if err != nil {
		return nil, fmt.Errorf("server: TLS certificate %s with key %s: %w", c.TLSCertFile, c.TLSKeyFile, err)
	}
	if leaf := cert.Leaf; leaf != nil && (now.After(leaf.NotAfter) || now.Before(leaf.NotBefore)) {
		log.Warn("the TLS certificate is not valid now; clients will refuse it",
			"file", c.TLSCertFile, "notBefore", leaf.NotBefore, "notAfter", leaf.NotAfter)
	}
	return &tls.Config{MinVersion: tls.VersionTLS12, Certificates: []tls.Certificate{cert}}, nil
}

// isLoopback reports whether addr (a listener's address) is a loopback
// address, reachable from this machine only.
func isLoopback(addr net.Addr) bool {
	tcp, ok := addr.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}
