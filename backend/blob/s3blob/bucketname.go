package s3blob

import (
	"errors"
	"strings"
)

// checkBucket applies S3's rules for the name of a new bucket: 3 to 63
// lowercase letters, digits, dots and hyphens, starting and ending with a
// letter or digit, no two dots in a row nor a dot beside a hyphen, and not
// an IP address. A name outside them cannot be reached by a host name, so
// it is refused before any request.
func checkBucket(name string) error {
	switch {
	case len(name) < 3:
		return errors.New("bucket name cannot be shorter than 3 characters")
	case len(name) > 63:
		return errors.New("bucket name cannot be longer than 63 characters")
	case isIPv4(name):
		return errors.New("bucket name cannot be an IP address")
	case strings.Contains(name, ".."), strings.Contains(name, ".-"), strings.Contains(name, "-."):
		return errors.New("bucket name contains invalid characters")
	}
	for i := range len(name) {
		c := name[i]
		inner := c == '.' || c == '-'
		ok := 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || inner && i > 0 && i < len(name)-1
		if !ok {
			return errors.New("bucket name contains invalid characters")
		}
	}
	return nil
}

// isIPv4 reports whether name is four dot-separated runs of digits, the
// form S3 refuses as a bucket name.
func isIPv4(name string) bool {
	parts := strings.Split(name, ".")
	if len(parts) != 4 {
		return false
	}
	for _, p := range parts {
		if p == "" || strings.Trim(p, "0123456789") != "" {
			return false
		}
	}
	return true
}
