package account

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"
)

// Password length limits. The maximum only bounds the work one login
// attempt can cause; argon2 itself takes any length.
const (
	MinPasswordLen = 10   // characters (runes)
	MaxPasswordLen = 1024 // bytes
)

// Argon2id parameters of new password hashes: the OWASP Password Storage
// Cheat Sheet's baseline (19 MiB of memory, two passes, one lane), about
// 50 to 300 ms on a small machine. A hash records its own parameters in
// its PHC string, so raising them later leaves old hashes verifiable.
const (
	argonMemoryKiB = 19 * 1024
	argonTime      = 2
	argonThreads   = 1
	argonSaltLen   = 16
	argonKeyLen    = 32
)

// Bounds accepted when reading a stored hash, so a corrupted row cannot
// make a login allocate gigabytes.
const (
	maxArgonMemoryKiB = 1 << 20 // 1 GiB
	maxArgonTime      = 16
)

var errBadHash = errors.New("account: malformed password hash")

// hashPassword returns the PHC string of password under a fresh random
// salt: $argon2id$v=19$m=19456,t=2,p=1$<salt>$<key>, salt and key in
// unpadded standard base64 as the PHC format has it.
func hashPassword(password string) string {
	salt := make([]byte, argonSaltLen)
	_, _ = rand.Read(salt) // crypto/rand.Read never fails (Go 1.24+)
	key := argon2.IDKey([]byte(password), salt, argonTime, argonMemoryKiB, argonThreads, argonKeyLen)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemoryKiB, argonTime, argonThreads,
		base64.RawStdEncoding.EncodeToString(salt), base64.RawStdEncoding.EncodeToString(key))
}

// verifyPassword reports whether password matches the PHC string encoded,
// comparing the derived keys in constant time. A malformed hash is an
// error, never a match.
func verifyPassword(encoded, password string) (bool, error) {
	p, err := parseHash(encoded)
	if err != nil {
		return false, err
	}
	key := argon2.IDKey([]byte(password), p.salt, p.time, p.memory, p.threads, uint32(len(p.key)))
	return subtle.ConstantTimeCompare(key, p.key) == 1, nil
}

// dummyHash is verified against when the account is unknown or has no
// password, so such a login costs what a wrong password costs and timing
// does not tell which emails exist.
const dummyHash = "$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHRzb21lc2FsdA$" +
	"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"

type argonParams struct {
	memory, time uint32
	threads      uint8
	salt, key    []byte
}

func parseHash(encoded string) (*argonParams, error) {
	parts := strings.Split(encoded, "$")
	// "", "argon2id", "v=19", "m=..,t=..,p=..", salt, key
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" || parts[2] != "v="+strconv.Itoa(argon2.Version) {
		return nil, errBadHash
	}
	var p argonParams
	for _, kv := range strings.Split(parts[3], ",") {
		k, v, ok := strings.Cut(kv, "=")
		n, err := strconv.ParseUint(v, 10, 32)
		if !ok || err != nil {
			return nil, errBadHash
		}
		switch k {
		case "m":
			p.memory = uint32(n)
		case "t":
			p.time = uint32(n)
		case "p":
			if n > 255 {
				return nil, errBadHash
			}
			p.threads = uint8(n)
		default:
			return nil, errBadHash
		}
	}
	if p.memory < 8 || p.memory > maxArgonMemoryKiB || p.time < 1 || p.time > maxArgonTime || p.threads < 1 {
		return nil, errBadHash
	}
	var err error
	if p.salt, err = base64.RawStdEncoding.DecodeString(parts[4]); err != nil || len(p.salt) < 8 {
		return nil, errBadHash
	}
	if p.key, err = base64.RawStdEncoding.DecodeString(parts[5]); err != nil || len(p.key) < 16 {
		return nil, errBadHash
	}
	return &p, nil
}

// checkPassword enforces the length limits.
func checkPassword(password string) error {
	if utf8.RuneCountInString(password) < MinPasswordLen {
		return badField("password", "the password must be at least %d characters long", MinPasswordLen)
	}
	if len(password) > MaxPasswordLen {
		return badField("password", "the password must be at most %d bytes long", MaxPasswordLen)
	}
	return nil
}
