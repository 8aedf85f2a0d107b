package video

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/caption/format"
	"github.com/captionqa/captionqa/backend/media"
	"github.com/captionqa/captionqa/backend/project"
)

// noCaptions is a read-only table: the job error of an extraction that
// found nothing, by mode.
var noCaptions = map[string]string{ModeSoftTrack: ErrCodeNoCaptions, ModeBroadcastCC: ErrCodeNoCC, ModeOCRBurned: ErrCodeNoOCR}

// produceExtract reads the job's captions from its media into a track.
func (s *Service) produceExtract(ctx context.Context, j *Job, progress func(float64)) (*produced, error) {
	m, err := s.o.Media.Media(ctx, j.AccountID, j.MediaKey)
	if err != nil {
		return nil, jobErr(err, ErrCodeMediaExpired, "")
	}
	spec := ExtractSpec{Mode: j.Mode, MediaKey: j.MediaKey, Container: m.Probe.Container, TrackIndex: j.TrackIndex,
		DurationSeconds: m.Probe.DurationSeconds}
	if v := m.Probe.Video(); v != nil {
		spec.Width, spec.Height, spec.FrameRate = v.Width, v.Height, v.FrameRate
	}
	x, err := s.o.Runner.Extract(ctx, spec, progress)
	if err != nil {
		return nil, err
	}
	_, track, _, err := format.Read("extracted."+x.Format, x.Format, x.Data)
	if err != nil {
		return nil, err
	}
	if len(track.Cues) == 0 {
		return nil, apperr.New(apperr.ProcessingFailed, "no captions were found in the media (%s)", j.Mode).
			WithDetail("jobError", noCaptions[j.Mode])
	}
	if track.Language == "" {
		track.Language = trackLanguage(m.Probe.Streams, j.TrackIndex)
	}
	d, err := s.o.Timelines.ProjectIR(ctx, j.AccountID, j.ProjectID)
	if err != nil {
		return nil, jobErr(err, ErrCodeRevisionGone, "the project was deleted")
	}
	return &produced{name: d.Name, track: track}, nil
}

// trackLanguage is the BCP 47 tag of the subtitle stream's ISO 639-2
// language, "" when it has none.
func trackLanguage(streams []media.Stream, index int) string {
	for _, st := range streams {
		if st.Type == "subtitle" && st.SubtitleIndex == index && st.Language != "" {
			return bcp47(st.Language)
		}
	}
	return ""
}

// storeExtract stores the track as the project's next revision, then its
// artifacts (IR and SRT), then the job's success. The revision comes
// first: it is what the job is for, and an edit stored meanwhile only
// moves it one revision on.
func (s *Service) storeExtract(ctx context.Context, j *Job, out *produced) error {
	var ir bytes.Buffer
	if err := caption.WriteJSON(&ir, out.track); err != nil {
		return fmt.Errorf("video: job %s: write IR: %w", j.ID, err)
	}
	rev, err := s.putRevision(ctx, j, ir.String())
	if err != nil {
		return err
	}
	srt, err := write(format.SRT, out.track)
	if err != nil {
		return err
	}
	j.ResultRevision, j.FinishedAt = rev, s.now()
	e := &project.Export{ID: uuid.NewString(), AccountID: j.AccountID, ProjectID: j.ProjectID, IRRevision: rev, CreatedAt: j.FinishedAt}
	base := project.FileBase(out.name) + "-" + j.Mode
	for _, f := range []struct {
		ext, ctype string
		body       []byte
	}{{"json", "application/json", ir.Bytes()}, {"srt", "application/x-subrip; charset=utf-8", srt}} {
		sum := sha256.Sum256(f.body)
		a := project.Artifact{ID: uuid.NewString(), ExportID: e.ID, AccountID: j.AccountID, Preset: "extract:" + f.ext,
			BlobKey: project.ArtifactPrefix + e.ID + "/" + j.Mode + "." + f.ext, Filename: base + "." + f.ext,
			ContentType: f.ctype, Bytes: int64(len(f.body)), SHA256: hex.EncodeToString(sum[:]), CreatedAt: e.CreatedAt}
		if _, err := s.o.Blobs.Put(ctx, a.BlobKey, bytes.NewReader(f.body), a.Bytes); err != nil {
			return fmt.Errorf("video: job %s: store artifact: %w", j.ID, err)
		}
		e.Artifacts = append(e.Artifacts, a)
	}
	j.ExportID, j.Artifacts = e.ID, e.Artifacts
	return s.succeed(ctx, j, e)
}

// putRevision stores ir on top of the project's current revision,
// whatever it is when the run ends, and returns the new revision's
// number.
func (s *Service) putRevision(ctx context.Context, j *Job, ir string) (int, error) {
	for range 5 {
		d, err := s.o.Timelines.ProjectIR(ctx, j.AccountID, j.ProjectID)
		if err != nil {
			return 0, jobErr(err, ErrCodeRevisionGone, "the project was deleted")
		}
		p, err := s.o.Revisions.PutIR(ctx, j.AccountID, j.ProjectID, ir, d.IRRevision)
		if ae, ok := apperr.As(err); ok && ae.Details["reason"] == "stale_revision" {
			continue // another revision landed between the read and the write
		}
		if err != nil {
			return 0, err
		}
		return p.IRRevision, nil
	}
	return 0, errors.New("video: the project kept changing; the captions were not stored")
}
