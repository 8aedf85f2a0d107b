package media

import (
	"context"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/captionqa/captionqa/backend/apperr"
)

// PutInput is one signed PUT as it arrived.
type PutInput struct {
	UploadID, Part string
	Expires, Sig   string
	Body           io.Reader
	ContentLength  int64 // -1 when not declared (chunked)
}

// PutPart streams a part's bytes into the blob store (nothing is held in
// memory but a copy buffer) and records it; a part sent again before
// complete replaces the earlier one. It returns the part with its ETag
// (see [Part]). Errors: [apperr.Forbidden]
// (details.reason "invalid_signature" or "expired"); [apperr.NotFound]
// for an unknown session or part number; [apperr.Conflict]
// (details.reason "upload_completed") once the session is not pending;
// [apperr.RequestTooLarge] (details.limitBytes) for more bytes than the
// part holds, declared or sent; [apperr.BadRequest] (details.reason
// "incomplete_part") for fewer, or for a body that stopped arriving
// (the client hung up), which is the client's doing, not a 500.
func (s *Service) PutPart(ctx context.Context, in PutInput) (*Part, error) {
	n, err := strconv.Atoi(in.Part)
	if err != nil || n < 1 || n > MaxParts || strconv.Itoa(n) != in.Part {
		return nil, apperr.New(apperr.NotFound, "no part %q", in.Part)
	}
	id := strings.ToLower(in.UploadID)
	if err := s.sign.verify(id, n, in.Expires, in.Sig, s.now()); err != nil {
		return nil, err
	}
	sess, err := s.o.Store.UploadByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if sess.Status != Pending {
		return nil, completedErr()
	}
	if n > sess.PartCount {
		return nil, apperr.New(apperr.NotFound, "the upload has %d parts, not %d", sess.PartCount, n)
	}
	want := partBytes(sess, n)
	if in.ContentLength > want {
		return nil, tooMany(want)
	}
	body := &capped{r: in.Body, left: want}
	info, err := s.o.Blobs.Put(ctx, partKey(id, n), body, want)
	switch {
	case body.over:
		return nil, tooMany(want)
	case apperr.KindOf(err) == apperr.BadRequest:
		return nil, apperr.New(apperr.BadRequest, "part %d must have %d bytes; fewer arrived", n, want).
			WithDetail("reason", "incomplete_part").WithDetail("expectedBytes", want).Wrap(err)
	case err != nil && body.broken != nil:
		// The client's doing, not the server's: a part it may send again.
		return nil, apperr.New(apperr.BadRequest, "part %d stopped arriving before its %d bytes: send it again", n, want).
			WithDetail("reason", "incomplete_part").WithDetail("expectedBytes", want).Wrap(err)
	case err != nil:
		return nil, err
	}
	p := Part{Number: n, Bytes: info.Size, ETag: strings.Trim(info.ETag, `"`)}
	if err := s.o.Store.RecordPart(ctx, id, p); err != nil {
		// Completed meanwhile: the bytes are nobody's.
		_ = s.o.Blobs.Delete(context.WithoutCancel(ctx), partKey(id, n))
		return nil, err
	}
	return &p, nil
}

func tooMany(want int64) error {
	return apperr.New(apperr.RequestTooLarge, "this part holds %d bytes; more were sent", want).
		WithDetail("limitBytes", want)
}

func completedErr() error {
	return apperr.New(apperr.Conflict, "the upload session is no longer open for parts").
		WithDetail("reason", "upload_completed")
}

// errOver stops a put whose body runs past its part.
var errOver = errors.New("media: more bytes than the part holds")

// capped reads at most left bytes of r and fails, setting over, when r
// has more: a client that declared nothing (chunked) or too little is
// cut off as soon as it passes the part's size.
type capped struct {
	r    io.Reader
	left int64
	over bool
	// broken is the error that ended the body before its bytes did (the
	// client hung up, or its connection timed out), nil otherwise.
	broken error
}

func (c *capped) Read(p []byte) (int, error) {
	if c.left <= 0 {
		var one [1]byte
		n, err := c.r.Read(one[:])
		if n > 0 {
			c.over = true
			return 0, errOver
		}
		return 0, err
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	if err != nil && err != io.EOF && c.broken == nil {
		c.broken = err
	}
	return n, err
}
