package video

import (
	"bytes"
	"context"
	"fmt"

	"github.com/captionqa/captionqa/backend/analysis"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/caption/format"
	"github.com/captionqa/captionqa/backend/caption/vtt"
	"github.com/captionqa/captionqa/backend/engine"
)

// produced is what a run made: a caption body (sidecar) or a rendered
// video file.
type produced struct {
	name string // the project's name, for download names
	// body, bodyFormat: the sidecar's delivery.
	body       string
	bodyFormat string
	video      Output
	// track is an extract's captions.
	track *caption.Track
	// analysis is an analyze job's result.
	analysis *analysis.Analysis
}

func (p *produced) close() {
	if p.video != nil {
		_ = p.video.Close() // a leftover folder is swept at the next start
	}
}

// produce runs the engine on the job's revision with its preset, then
// ffmpeg for a video mode; a preview runs ffmpeg alone. Errors carry the
// job error code in details.jobError where it is not the error's own
// code.
func (s *Service) produce(ctx context.Context, j *Job, progress func(float64)) (*produced, error) {
	d, err := s.o.Timelines.ProjectIR(ctx, j.AccountID, j.ProjectID)
	if err != nil {
		return nil, jobErr(err, ErrCodeRevisionGone, "the project was deleted")
	}
	if j.Mode == ModePreview {
		return s.producePreview(ctx, j, d.Name, progress)
	}
	ir := d.IR
	if d.IRRevision != j.IRRevision {
		if ir, err = s.o.Timelines.RevisionIR(ctx, j.AccountID, j.ProjectID, j.IRRevision); err != nil {
			return nil, jobErr(err, ErrCodeRevisionGone, fmt.Sprintf("revision %d of the project is no longer kept", j.IRRevision))
		}
	}
	req := engine.Request{Filename: "timeline.json", From: format.JSON, Data: []byte(ir), Preset: j.Preset, FixProfile: j.FixProfile}
	// An account's own preset is resolved as it is when the job runs: one
	// deleted since the job was accepted fails it as an unknown preset.
	if err := s.resolvePreset(ctx, j.AccountID, &req); err != nil {
		return nil, err
	}
	res, err := s.o.Engine.Process(ctx, req)
	if err != nil {
		return nil, err
	}
	out := &produced{name: d.Name, body: res.Output, bodyFormat: res.Report.OutputFormat}
	if j.Mode == ModeSidecar {
		progress(1)
		return out, nil
	}
	m, err := s.o.Media.Media(ctx, j.AccountID, j.MediaKey)
	if err != nil {
		return nil, jobErr(err, ErrCodeMediaExpired, "")
	}
	_, track, _, err := format.Read("delivery", res.Report.OutputFormat, []byte(res.Output))
	if err != nil {
		return nil, err
	}
	spec := RenderSpec{Mode: j.Mode, MediaKey: j.MediaKey, Container: j.Container, SubtitleCodec: j.SubtitleCodec,
		Language: j.Language, DurationSeconds: m.Probe.DurationSeconds}
	if spec.Language == "" {
		spec.Language = "und"
	}
	switch {
	case j.Mode == ModeBurnIn:
		v := m.Probe.Video()
		if v == nil {
			return nil, apperr.New(apperr.ProcessingFailed, "the media has no video stream").WithDetail("jobError", ErrCodeNoVideo)
		}
		spec.Subtitles, spec.SubtitleFormat = writeASS(track, v.Width, v.Height), "ass"
	case j.SubtitleCodec == "ass":
		spec.Subtitles, spec.SubtitleFormat = writeASS(track, 0, 0), "ass"
	case j.SubtitleCodec == "webvtt":
		// ffmpeg reads no cue of a WebVTT file after a REGION or STYLE
		// block, and a TTML or WebVTT delivery may have them.
		var b bytes.Buffer
		if err := vtt.WriteCuesOnly(&b, track); err != nil {
			return nil, fmt.Errorf("video: write vtt: %w", err)
		}
		spec.Subtitles, spec.SubtitleFormat = b.Bytes(), format.VTT
	default:
		spec.SubtitleFormat = format.SRT
		if spec.Subtitles, err = write(spec.SubtitleFormat, track); err != nil {
			return nil, err
		}
	}
	if out.video, err = s.o.Runner.Render(ctx, spec, progress); err != nil {
		return nil, err
	}
	return out, nil
}

// producePreview makes the proxy of the job's media (docs/media.md,
// Playing the media); name is the project's, for its download name.
func (s *Service) producePreview(ctx context.Context, j *Job, name string, progress func(float64)) (*produced, error) {
	m, err := s.o.Media.Media(ctx, j.AccountID, j.MediaKey)
	if err != nil {
		return nil, jobErr(err, ErrCodeMediaExpired, "")
	}
	spec := RenderSpec{Mode: ModePreview, MediaKey: j.MediaKey, Container: PreviewContainer, DurationSeconds: m.Probe.DurationSeconds}
	out := &produced{name: name}
	if out.video, err = s.o.Runner.Render(ctx, spec, progress); err != nil {
		return nil, err
	}
	return out, nil
}

func write(f string, t *caption.Track) ([]byte, error) {
	var b bytes.Buffer
	if err := format.Write(f, &b, t); err != nil {
		return nil, fmt.Errorf("video: write %s: %w", f, err)
	}
	return b.Bytes(), nil
}

// jobErr gives a NotFound or Conflict err the job error code, and msg
// when not empty.
func jobErr(err error, code, msg string) error {
	ae, ok := apperr.As(err)
	if !ok || (ae.Kind != apperr.NotFound && ae.Kind != apperr.Conflict) {
		return err
	}
	if msg == "" {
		msg = ae.Message
	}
	return apperr.New(ae.Kind, "%s", msg).WithDetail("jobError", code).Wrap(err)
}
