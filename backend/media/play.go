package media

import (
	"context"
	"time"

	"github.com/captionqa/captionqa/backend/blob"
)

// Play returns the account's completed upload id, which a player may be
// given a signed link to. Errors are [Service.Get]'s and
// [Service.Media]'s.
func (s *Service) Play(ctx context.Context, accountID, id string) (*Session, error) {
	sess, err := s.Get(ctx, accountID, id)
	if err != nil {
		return nil, err
	}
	return s.Media(ctx, accountID, sess.ObjectKey)
}

// OpenPlay opens the bytes of upload id for a signed play link, whoever
// owns it (the caller has checked the link): the session and a ranged
// reader to close. [apperr.NotFound] for an unknown upload, and
// [Service.Media]'s conflicts when it is not playable (pending, expired).
func (s *Service) OpenPlay(ctx context.Context, id string) (*Session, *blob.Reader, error) {
	if err := checkUploadID(id); err != nil {
		return nil, nil, err
	}
	sess, err := s.o.Store.UploadByID(ctx, id)
	if err != nil {
		return nil, nil, err
	}
	if sess, err = s.Media(ctx, sess.AccountID, sess.ObjectKey); err != nil {
		return nil, nil, err
	}
	return sess, blob.NewReader(ctx, s.o.Blobs, sess.ObjectKey, sess.Bytes), nil
}

// PresignPlay returns the blob store's own URL of the media, valid for
// ttl, or "" when the store is not reachable by clients (no Presigner:
// the node serves the bytes).
func (s *Service) PresignPlay(ctx context.Context, sess *Session, ttl time.Duration) (string, error) {
	if s.o.Presigner == nil {
		return "", nil
	}
	return s.o.Presigner.PresignGet(ctx, sess.ObjectKey, ttl, sess.Filename)
}
