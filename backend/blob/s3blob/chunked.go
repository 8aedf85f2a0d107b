package s3blob

import (
	"context"
	"encoding/base64"
	"hash/crc32"
	"io"
	"strconv"
	"strings"

	v4 "github.com/aws/aws-sdk-go-v2/aws/signer/v4"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

// A streamed put's body is aws-chunked: the content as one chunk, then a
// trailer with its CRC-32 (x-amz-checksum-crc32), as the SDK sends a body
// over HTTPS when it computes a checksum. A store that receives it cut
// short lacks the end of the chunk and the trailer, and stores nothing;
// a plain body cut short (the client's connection lost, or r failing) is
// stored as far as it went by some stores (versitygw does), replacing
// the old object with a truncated one. The payload goes unsigned
// (STREAMING-UNSIGNED-PAYLOAD-TRAILER): the signature covers the headers
// and the CRC the content, and the SDK never needs the body twice.
const (
	checksumTrailer = "x-amz-checksum-crc32"
	// base64 of the 4 bytes of a CRC-32
	checksumLength = 8
	chunkEnd       = "\r\n0\r\n"
)

// chunked returns r's size bytes (size > 0) encoded as aws-chunked, and
// the encoding's length, which is known before any byte is read.
func chunked(r io.Reader, size int64) (io.Reader, int64) {
	head := strconv.FormatInt(size, 16) + "\r\n"
	crc := crc32.NewIEEE()
	tail := &lazyReader{make: func() string {
		return chunkEnd + checksumTrailer + ":" + base64.StdEncoding.EncodeToString(crc.Sum(nil)) + "\r\n\r\n"
	}}
	n := int64(len(head)) + size + int64(len(chunkEnd)+len(checksumTrailer)+1+checksumLength+4)
	return io.MultiReader(strings.NewReader(head), io.TeeReader(r, crc), tail), n
}

// lazyReader reads the string make returns, made at the first Read: the
// trailer, once the content has gone by.
type lazyReader struct {
	make func() string
	r    *strings.Reader
}

func (l *lazyReader) Read(p []byte) (int, error) {
	if l.r == nil {
		l.r = strings.NewReader(l.make())
	}
	return l.r.Read(p)
}

// chunkedHeaders are the API options of a PUT whose body is chunked's, of
// size bytes once decoded: the headers aws-chunked needs, and the payload
// hash that says the body is unsigned with a trailer.
func chunkedHeaders(size int64) []func(*middleware.Stack) error {
	return []func(*middleware.Stack) error{
		smithyhttp.SetHeaderValue("X-Amz-Trailer", checksumTrailer),
		smithyhttp.SetHeaderValue("X-Amz-Decoded-Content-Length", strconv.FormatInt(size, 10)),
		func(stack *middleware.Stack) error {
			return stack.Finalize.Insert(middleware.FinalizeMiddlewareFunc("s3blob.UnsignedTrailer", func(
				ctx context.Context, in middleware.FinalizeInput, next middleware.FinalizeHandler,
			) (middleware.FinalizeOutput, middleware.Metadata, error) {
				return next.HandleFinalize(v4.SetPayloadHash(ctx, "STREAMING-UNSIGNED-PAYLOAD-TRAILER"), in)
			}), "ComputePayloadHash", middleware.Before)
		},
	}
}
