package server

import (
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// installSecretLen is the size of the per-install secret.
const installSecretLen = 32

// Labels of the keys derived from the per-install secret: each use gets
// its own key, so that one never reveals another.
const (
	labelAnonSalt = "captionqa anonymous pool salt v1"
	labelCSRFKey  = "captionqa homepage csrf key v1"
	// labelLinkKey signs artifact download links: derived from the
	// install secret, links survive a restart and die with a new secret.
	labelLinkKey = "captionqa artifact link key v1"
	// labelUploadKey signs the presigned media upload URLs.
	labelUploadKey = "captionqa media upload key v1"
)

// secrets are the keys the HTTP API needs, derived from the per-install
// secret.
type secrets struct {
	anonSalt, csrfKey, linkKey, uploadKey []byte
}

// deriveSecrets derives the API's keys from secret (HKDF-SHA256, one
// label each).
func deriveSecrets(secret []byte) (secrets, error) {
	var s secrets
	var err error
	if s.anonSalt, err = hkdf.Key(sha256.New, secret, nil, labelAnonSalt, 32); err != nil {
		return s, fmt.Errorf("server: derive keys: %w", err)
	}
	if s.csrfKey, err = hkdf.Key(sha256.New, secret, nil, labelCSRFKey, 32); err != nil {
		return s, fmt.Errorf("server: derive keys: %w", err)
	}
	if s.linkKey, err = hkdf.Key(sha256.New, secret, nil, labelLinkKey, 32); err != nil {
		return s, fmt.Errorf("server: derive keys: %w", err)
	}
	if s.uploadKey, err = hkdf.Key(sha256.New, secret, nil, labelUploadKey, 32); err != nil {
		return s, fmt.Errorf("server: derive keys: %w", err)
	}
	return s, nil
}

// randomSecret draws a secret that lives as long as the process (tests,
// and a server given an open database).
func randomSecret() []byte {
	b := make([]byte, installSecretLen)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return b
}

// installSecret returns the per-install secret kept in dir/install.key,
// creating it (32 random bytes, mode 0600) on the first start.
//
// It is a file rather than a row of the database so that a copy of the
// database (a backup, a file attached to a bug report) does not carry it,
// and so that deleting the file rotates it (anonymous clients' daily pools
// and the homepage's CSRF tokens start afresh). The file appears whole or
// not at all: it is written under a temporary name and linked into place,
// so two processes starting at once agree on one secret.
func installSecret(dir string) ([]byte, error) {
	path := filepath.Join(dir, InstallKeyFile)
	b, err := os.ReadFile(path)
	switch {
	case err == nil:
		if len(b) != installSecretLen {
			return nil, fmt.Errorf("server: %s holds %d bytes, not %d: delete it to make a new one (anonymous daily counts and homepage CSRF tokens start afresh)",
				path, len(b), installSecretLen)
		}
		return b, nil
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("server: per-install secret: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".install.key-*") // mode 0600
	if err != nil {
		return nil, fmt.Errorf("server: per-install secret: %w", err)
	}
	defer os.Remove(tmp.Name())
	secret := randomSecret()
	_, err = tmp.Write(secret)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("server: per-install secret: %w", err)
	}
	if err := os.Link(tmp.Name(), path); err != nil {
		if errors.Is(err, fs.ErrExist) {
			// Another process won the race: use its secret.
			return installSecret(dir)
		}
		return nil, fmt.Errorf("server: per-install secret: %w", err)
	}
	return secret, nil
}
