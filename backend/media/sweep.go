package media

import (
	"context"
	"errors"
	"fmt"
)

// sweepBatch bounds the sessions one sweep round handles.
const sweepBatch = 100

// Sweep deletes the bytes of sessions past retention (completed media
// after [Retention], pending sessions [CompleteGrace] after their URLs
// ended, rejected ones) and marks them expired. It is driven by the rows
// alone, so a sweep cut off by a crash is finished by the next one: a
// session is marked expired only after its bytes are gone. It returns how
// many sessions it expired.
func (s *Service) Sweep(ctx context.Context) (int, error) {
	done := 0
	for {
		due, err := s.o.Store.DueUploads(ctx, s.now(), CompleteGrace, sweepBatch)
		if err != nil {
			return done, fmt.Errorf("media: sweep: %w", err)
		}
		for i := range due {
			if err := s.deleteBytes(ctx, &due[i]); err != nil {
				return done, fmt.Errorf("media: sweep %s: %w", due[i].ID, err)
			}
			if err := s.o.Store.ExpireUpload(ctx, due[i].ID); err != nil {
				return done, fmt.Errorf("media: sweep %s: %w", due[i].ID, err)
			}
			done++
		}
		if len(due) < sweepBatch {
			return done, nil
		}
	}
}

// deleteBytes deletes a session's media and parts.
func (s *Service) deleteBytes(ctx context.Context, sess *Session) error {
	return errors.Join(s.o.Blobs.Delete(ctx, sess.ObjectKey), s.deleteParts(ctx, sess))
}

// deleteParts deletes every part stored under the session, recorded or
// not (a PUT racing complete may have left one).
func (s *Service) deleteParts(ctx context.Context, sess *Session) error {
	var errs []error
	for info, err := range s.o.Blobs.List(ctx, PartPrefix+sess.ID+"/") {
		if err != nil {
			return errors.Join(append(errs, err)...)
		}
		errs = append(errs, s.o.Blobs.Delete(ctx, info.Key))
	}
	return errors.Join(errs...)
}
