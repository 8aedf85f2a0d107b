package media

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/captionqa/captionqa/backend/apperr"
)

// storedParts makes sess.Received the parts the blob store holds under
// the session, recording each one whose size or ETag differs from what
// was recorded. With presigned URLs the parts went from the client to the
// store: no node saw them, and a part sent again after a failed complete
// replaced the bytes under an ETag the session does not know yet, so the
// store, not the record, says what arrived. Keys under the session that
// are not one of its parts are ignored. A part of another size than its
// place in the layout is refused as [Service.PutPart] refuses it:
// [apperr.BadRequest] (details.field "parts", details.reason
// "incomplete_part", details.partNumber and details.expectedBytes). The
// listing's errors are the store's ([apperr.Unavailable]); the record's,
// [apperr.Conflict] "upload_completed" when a concurrent complete won.
func (s *Service) storedParts(ctx context.Context, sess *Session) error {
	recorded := make(map[int]Part, len(sess.Received))
	for _, p := range sess.Received {
		recorded[p.Number] = p
	}
	var found []Part
	for info, err := range s.o.Blobs.List(ctx, PartPrefix+sess.ID+"/") {
		if err != nil {
			return fmt.Errorf("media: list the parts of %s: %w", sess.ID, err)
		}
		n, ok := partNumber(sess, info.Key)
		if !ok {
			continue
		}
		if want := partBytes(sess, n); info.Size != want {
			return apperr.New(apperr.BadRequest, "part %d must have %d bytes; the store holds %d", n, want, info.Size).
				WithDetail("field", "parts").WithDetail("reason", "incomplete_part").
				WithDetail("partNumber", n).WithDetail("expectedBytes", want)
		}
		p := Part{Number: n, Bytes: info.Size, ETag: strings.Trim(info.ETag, `"`)}
		if recorded[n] != p {
			if err := s.o.Store.RecordPart(ctx, sess.ID, p); err != nil {
				return err
			}
		}
		found = append(found, p)
	}
	sess.Received = found
	return nil
}

// partNumber returns the number of the session's part stored at key, or
// false when key is not one of its parts' ([partKey]).
func partNumber(sess *Session, key string) (int, bool) {
	n, err := strconv.Atoi(key[strings.LastIndexByte(key, '/')+1:])
	if err != nil || n < 1 || n > sess.PartCount || partKey(sess.ID, n) != key {
		return 0, false
	}
	return n, true
}
