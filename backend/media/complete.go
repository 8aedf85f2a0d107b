package media

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/captionqa/captionqa/backend/apperr"
)

// CompleteInput is what [Service.Complete] is asked (see the OpenAPI
// operation completeMediaUpload).
type CompleteInput struct {
	ProjectID string
	ObjectKey string
	Multipart bool
	// Parts lists every part with the ETag its PUT answered, in order;
	// it may be empty for a single-URL upload.
	Parts []Part
}

// Complete checks the parts, assembles them into the session's media,
// probes it and starts its retention ([Retention]). It returns the
// completed session, or:
//   - [apperr.NotFound] for an unknown session or another account's;
//   - [apperr.BadRequest] naming the field ("projectId", "objectKey" or
//     "multipart" when they do not match the session; "parts" with
//     details.reason "missing_part", "etag_mismatch" or "out_of_order",
//     and details.partNumber; or "incomplete_part", with
//     details.expectedBytes, for a part the store holds with another size);
//   - [apperr.Conflict] (details.reason "upload_completed") when the
//     session is not pending, or "upload_expired" when its URLs ended
//     more than [CompleteGrace] ago;
//   - [apperr.ProcessingFailed] (details.reason "unreadable_media",
//     "media_too_long", "picture_too_large", "frame_rate_too_high" or
//     "no_streams") when ffmpeg cannot or may not use the media:
//     the session is then rejected and its bytes deleted;
//   - [apperr.Unavailable] (details.retryAfterSeconds) when the blob store
//     cannot be reached.
//
// With a [Options.Presigner] the parts went from the client to the store
// and no node recorded them: they are first recorded as the store holds
// them (see [Service.storedParts]).
func (s *Service) Complete(ctx context.Context, accountID, uploadID string, in CompleteInput) (*Session, error) {
	sess, err := s.Get(ctx, accountID, uploadID)
	if err != nil {
		return nil, err
	}
	if err := s.checkSession(sess, in); err != nil {
		return nil, err
	}
	if s.o.Presigner != nil {
		if err := s.storedParts(ctx, sess); err != nil {
			return nil, err
		}
	}
	if err := checkParts(sess, in); err != nil {
		return nil, err
	}
	if _, err := s.o.Blobs.Put(ctx, sess.ObjectKey, &partsReader{ctx: ctx, s: s, sess: sess}, sess.Bytes); err != nil {
		if ae, ok := apperr.As(err); ok && ae.Details["reason"] == "etag_mismatch" {
			return nil, err
		}
		return nil, fmt.Errorf("media: assemble %s: %w", sess.ID, err)
	}
	probe, err := s.o.Prober.Probe(ctx, sess.ObjectKey)
	if err == nil {
		err = s.usable(probe)
	}
	now := s.now()
	if apperr.KindOf(err) == apperr.ProcessingFailed {
		reason, _ := apperr.As(err)
		sess.Status, sess.CompletedAt = Rejected, now
		sess.RejectReason = fmt.Sprint(reason.Details["reason"])
		if ferr := s.o.Store.FinishUpload(ctx, sess); ferr != nil {
			return nil, errors.Join(err, ferr)
		}
		_ = s.deleteBytes(ctx, sess) // what is left, the sweeper deletes
		return nil, err
	}
	if err != nil {
		return nil, err
	}
	sess.Status, sess.Probe, sess.CompletedAt, sess.MediaExpiresAt = Completed, probe, now, now.Add(Retention)
	if err := s.o.Store.FinishUpload(ctx, sess); err != nil {
		return nil, err
	}
	sess.Received = nil
	_ = s.deleteParts(ctx, sess) // what is left, the sweeper deletes at expiry
	return sess, nil
}

// badField is the [apperr.BadRequest] of a complete naming the field.
func badField(field, msg string, args ...any) *apperr.Error {
	return apperr.New(apperr.BadRequest, msg, args...).WithDetail("field", field)
}

// checkSession checks that the session may be completed as asked.
func (s *Service) checkSession(sess *Session, in CompleteInput) error {
	switch {
	case sess.Status != Pending:
		return completedErr()
	case !s.now().Before(sess.ExpiresAt.Add(CompleteGrace)):
		return apperr.New(apperr.Conflict, "the upload session expired; start a new upload").WithDetail("reason", "upload_expired")
	case !strings.EqualFold(in.ProjectID, sess.ProjectID):
		return badField("projectId", "projectId is not the project this upload was opened for")
	case in.ObjectKey != sess.ObjectKey:
		return badField("objectKey", "objectKey is not this upload's (%s)", sess.ObjectKey)
	case in.Multipart != sess.Multipart:
		return badField("multipart", "multipart must be %t for this upload", sess.Multipart)
	}
	return nil
}

// checkParts checks the listed parts against the recorded ones: all of
// them, in order, each of its size and with the ETag its PUT answered.
func checkParts(sess *Session, in CompleteInput) error {
	got := map[int]Part{}
	for _, p := range sess.Received {
		got[p.Number] = p
	}
	if len(in.Parts) == 0 && !sess.Multipart {
		in.Parts = []Part{{Number: 1, ETag: got[1].ETag}}
	}
	partErr := func(n int, reason, msg string, args ...any) error {
		return badField("parts", msg, args...).WithDetail("reason", reason).WithDetail("partNumber", n)
	}
	if len(in.Parts) != sess.PartCount {
		return badField("parts", "parts must list all %d parts of the upload, not %d", sess.PartCount, len(in.Parts)).
			WithDetail("reason", "missing_part")
	}
	for i, p := range in.Parts {
		if p.Number != i+1 {
			return partErr(p.Number, "out_of_order", "parts must be listed by partNumber from 1 to %d", sess.PartCount)
		}
		r, ok := got[p.Number]
		switch {
		case !ok:
			return partErr(p.Number, "missing_part", "part %d has not been uploaded", p.Number)
		case r.Bytes != partBytes(sess, p.Number):
			return partErr(p.Number, "missing_part", "part %d has %d bytes, not %d", p.Number, r.Bytes, partBytes(sess, p.Number))
		case !strings.EqualFold(strings.Trim(p.ETag, `"`), r.ETag):
			return partErr(p.Number, "etag_mismatch", "the etag of part %d is not the one its upload answered", p.Number)
		}
	}
	return nil
}

// usable refuses media no job could use.
func (s *Service) usable(p *Probe) error {
	fail := func(reason, msg string, args ...any) error {
		return apperr.New(apperr.ProcessingFailed, msg, args...).WithDetail("reason", reason)
	}
	var av bool
	for _, st := range p.Streams {
		av = av || st.Type == "video" || st.Type == "audio"
	}
	switch {
	case !av:
		return fail("no_streams", "the file has no video or audio stream")
	case p.DurationSeconds > s.o.MaxSeconds:
		return fail("media_too_long", "the media lasts %.0f s; the longest accepted is %.0f s", p.DurationSeconds, s.o.MaxSeconds)
	}
	for _, st := range p.Streams {
		if st.Type != "video" {
			continue
		}
		if st.Width*st.Height > s.o.MaxPixels {
			return fail("picture_too_large", "the video is %dx%d, %d pixels a frame; the largest accepted is %d (4096x2304)",
				st.Width, st.Height, st.Width*st.Height, s.o.MaxPixels)
		}
		if st.FrameRate > s.o.MaxFrameRate {
			return fail("frame_rate_too_high", "the video runs at %.0f frames a second; the fastest accepted is %.0f", st.FrameRate, s.o.MaxFrameRate)
		}
	}
	return nil
}

// partsReader reads a session's parts in order, each checked against the
// ETag recorded for it: a part replaced while complete runs cannot slip a
// different content into the media.
type partsReader struct {
	ctx  context.Context
	s    *Service
	sess *Session
	next int // index into sess.Received of the part to open next
	cur  io.ReadCloser
}

func (r *partsReader) Read(p []byte) (int, error) {
	for {
		if r.cur == nil {
			if r.next >= len(r.sess.Received) {
				return 0, io.EOF
			}
			part := r.sess.Received[r.next]
			rc, info, err := r.s.o.Blobs.Get(r.ctx, partKey(r.sess.ID, part.Number), nil)
			if err != nil {
				return 0, err
			}
			if !strings.EqualFold(strings.Trim(info.ETag, `"`), part.ETag) {
				rc.Close()
				return 0, apperr.New(apperr.BadRequest, "part %d changed while the upload was being completed; complete again", part.Number).
					WithDetail("field", "parts").WithDetail("reason", "etag_mismatch").WithDetail("partNumber", part.Number)
			}
			r.cur, r.next = rc, r.next+1
		}
		n, err := r.cur.Read(p)
		if errors.Is(err, io.EOF) {
			r.cur.Close()
			r.cur = nil
			if n > 0 {
				return n, nil
			}
			continue
		}
		return n, err
	}
}
