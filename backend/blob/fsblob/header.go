package fsblob

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
)

// Every object file starts with this header: magic then the SHA-256 of
// the content that follows. Keeping the checksum in the file itself makes
// the rename publish bytes and ETag at once.
const (
	magic      = "CQBLOB1\n"
	headerSize = len(magic) + sha256.Size
)

var errBadHeader = errors.New("fsblob: not an object file (bad header)")

// header returns the header of content whose SHA-256 is sum.
func header(sum []byte) []byte {
	h := make([]byte, 0, headerSize)
	return append(append(h, magic...), sum...)
}

// readHeader reads the header at the start of r and returns the quoted
// ETag it records.
func readHeader(r io.ReaderAt) (string, error) {
	var h [headerSize]byte
	if _, err := r.ReadAt(h[:], 0); err != nil {
		if errors.Is(err, io.EOF) {
			return "", errBadHeader
		}
		return "", err
	}
	if !bytes.Equal(h[:len(magic)], []byte(magic)) {
		return "", errBadHeader
	}
	return etag(h[len(magic):]), nil
}

// etag quotes the hex of a SHA-256, as an HTTP ETag is written.
func etag(sum []byte) string { return `"` + hex.EncodeToString(sum) + `"` }
