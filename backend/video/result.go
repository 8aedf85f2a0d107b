package video

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"strings"

	"github.com/google/uuid"

	"github.com/captionqa/captionqa/backend/project"
)

// store keeps what a run made: the artifact's bytes first, then, in one
// transaction, the job's success with its export and artifact rows. A
// crash in between leaves bytes no row names, which the orphan sweeper
// deletes; a job canceled meanwhile keeps nothing.
func (s *Service) store(ctx context.Context, j *Job, out *produced) error {
	now := s.now()
	j.FinishedAt = now
	var e *project.Export
	if j.Mode == ModeSidecar && j.OutputDelivery == DeliveryInline {
		_, ctype := project.FileType(out.bodyFormat)
		j.Output, j.OutputType = out.body, ctype
	} else {
		e = &project.Export{ID: uuid.NewString(), AccountID: j.AccountID, ProjectID: j.ProjectID, IRRevision: j.IRRevision, CreatedAt: now}
		a, err := s.putArtifact(ctx, j, e, out)
		if err != nil {
			return err
		}
		e.Artifacts = []project.Artifact{*a}
		j.ExportID, j.Artifacts = e.ID, e.Artifacts
	}
	return s.succeed(ctx, j, e)
}

// succeed records the job's success with e (its artifacts, already in the
// blob store; nil for none) in one transaction. When the run is no longer
// current (canceled meanwhile) or the write fails, the artifacts' bytes
// are deleted (else the orphan sweeper does).
func (s *Service) succeed(ctx context.Context, j *Job, e *project.Export) error {
	ok, err := s.o.Store.Succeed(ctx, j, e)
	if (err != nil || !ok) && e != nil {
		for _, a := range e.Artifacts {
			_ = s.o.Blobs.Delete(context.WithoutCancel(ctx), a.BlobKey)
		}
	}
	return err
}

// putArtifact stores the run's file and returns its artifact.
func (s *Service) putArtifact(ctx context.Context, j *Job, e *project.Export, out *produced) (*project.Artifact, error) {
	base := project.FileBase(out.name)
	if j.Preset != "" {
		base += "-" + j.Preset
	}
	a := &project.Artifact{ID: uuid.NewString(), ExportID: e.ID, AccountID: j.AccountID, Preset: j.Preset, CreatedAt: e.CreatedAt}
	var r io.Reader
	if j.Mode == ModeSidecar {
		ext, ctype := project.FileType(out.bodyFormat)
		a.Filename, a.ContentType, a.Bytes = base+"."+ext, ctype, int64(len(out.body))
		r = strings.NewReader(out.body)
	} else {
		suffix := map[string]string{ModeMuxSoft: "-subtitled.", ModeBurnIn: "-burned-in.", ModePreview: "-preview."}[j.Mode]
		a.Filename, a.ContentType, a.Bytes = base+suffix+j.Container, out.video.ContentType(), out.video.Size()
		f, err := out.video.Open()
		if err != nil {
			return nil, fmt.Errorf("video: job %s: open output: %w", j.ID, err)
		}
		defer f.Close()
		r = f
	}
	a.BlobKey = project.ArtifactPrefix + e.ID + "/" + j.Mode + "." + a.Filename[strings.LastIndexByte(a.Filename, '.')+1:]
	h := sha256.New()
	if _, err := s.o.Blobs.Put(ctx, a.BlobKey, io.TeeReader(r, h), a.Bytes); err != nil {
		return nil, fmt.Errorf("video: job %s: store artifact: %w", j.ID, err)
	}
	a.SHA256 = hex.EncodeToString(h.Sum(nil))
	return a, nil
}
