package server

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/captionqa/captionqa/backend/engine"
	"github.com/captionqa/captionqa/backend/media"
	"github.com/captionqa/captionqa/backend/project"
	"github.com/captionqa/captionqa/backend/store/jobs"
	"github.com/captionqa/captionqa/backend/video"
	"github.com/captionqa/captionqa/backend/video/ffmpeg"
)

// mediaSweepEvery is the period of the media sweeper.
const mediaSweepEvery = 10 * time.Minute

// videoStaleAfter is Config.VideoStaleAfter or its default.
func videoStaleAfter(cfg *Config) time.Duration {
	if cfg.VideoStaleAfter > 0 {
		return cfg.VideoStaleAfter
	}
	return video.StaleAfter
}

// videoParts are the media and video services with the ffmpeg runner.
// The queue's worker and tasks are registered before the queue exists,
// and the services need the queue's store, so they are set once both are
// built; runner is nil when video is off.
type videoParts struct {
	runner *ffmpeg.Runner
	media  *media.Service
	videos *video.Service
}

// tempRoot is the folder the server keeps its files in: the data folder,
// or the temporary one of a server given an open database.
func (s *Server) tempRoot() string {
	if s.cfg.DataDir != "" {
		return s.cfg.DataDir
	}
	return s.tempDir
}

// videoWorkers is the heavy lane's size: half the cores (ffmpeg's own
// threads use the rest), at least one.
func videoWorkers(cfg *Config) int {
	if cfg.VideoWorkers > 0 {
		return cfg.VideoWorkers
	}
	return max(runtime.NumCPU()/2, 1)
}

// openRunner starts the ffmpeg runner when video is on and ffmpeg works;
// otherwise it logs why video is off and leaves v.runner nil. Run folders
// a dead process left are removed.
func (v *videoParts) openRunner(ctx context.Context, s *Server) error {
	if s.cfg.VideoOff {
		s.log.Info("media uploads and video jobs are off (--video off)")
		return nil
	}
	work := filepath.Join(s.tempRoot(), "work")
	if err := os.MkdirAll(work, 0o700); err != nil {
		return fmt.Errorf("server: video work folder: %w", err)
	}
	r, err := ffmpeg.New(ffmpeg.Options{FFmpeg: s.cfg.FFmpegPath, FFprobe: s.cfg.FFprobePath, WorkDir: work,
		Blobs: s.blobs, Logger: s.log.With("component", "ffmpeg"),
		MemoryLimit: s.cfg.FFmpegMemoryLimit, OCRMemoryLimit: s.cfg.TesseractMemoryLimit})
	if err == nil {
		err = r.Check(ctx)
	}
	if err != nil {
		s.log.Warn("media uploads and video jobs are off: ffmpeg is not usable; install ffmpeg (make deps does)", "err", err)
		return nil
	}
	if err := r.CheckOCR(ctx); err != nil {
		s.log.Warn("extract jobs in ocr_burned mode will fail: tesseract is not usable; install tesseract-ocr and tesseract-ocr-eng (make deps does)", "err", err)
	}
	if n, err := r.SweepWorkDir(); err != nil {
		s.log.Warn("could not remove the run folders a stopped process left", "err", err)
	} else if n > 0 {
		s.log.Info("removed run folders a stopped process left", "folders", n)
	}
	v.runner = r
	return nil
}

// register adds the video job's worker to ws, each run bounded by the
// timeout its arguments carry.
func (v *videoParts) register(ws *jobs.Workers) {
	if v.runner == nil {
		return
	}
	jobs.HandleTimed(ws, func(a video.WorkArgs) time.Duration { return time.Duration(a.TimeoutSeconds) * time.Second },
		func(ctx context.Context, a video.WorkArgs) error {
			err := v.videos.Work(ctx, a)
			if w, ok := errors.AsType[*video.WaitError](err); ok {
				return jobs.Snooze(w.After)
			}
			return err
		})
}

// lanes are the video queues and their sizes.
func (v *videoParts) lanes(cfg *Config) map[string]int {
	if v.runner == nil {
		return nil
	}
	return map[string]int{string(video.LaneHeavy): videoWorkers(cfg), string(video.LaneLight): 1}
}

// tasks are the media sweeper and the video job rescuer, which looks for
// the jobs a dead process left at half their stale time, so that one runs
// again within 1.5 times it (45 s by default).
func (v *videoParts) tasks(cfg *Config) []jobs.Task {
	if v.runner == nil {
		return nil
	}
	return []jobs.Task{
		{Name: "media_sweep", Every: mediaSweepEvery, Run: func(ctx context.Context) error {
			_, err := v.media.Sweep(ctx)
			return err
		}},
		{Name: "video_rescue", Every: videoStaleAfter(cfg) / 2, Run: func(ctx context.Context) error {
			_, err := v.videos.Rescue(ctx)
			return err
		}},
	}
}

// build makes the services once the queue exists.
func (v *videoParts) build(s *Server, eng *engine.Engine, presets engine.PresetResolver, keys secrets, pool project.Pool, limiter project.Limiter) {
	if v.runner == nil {
		return
	}
	v.media = media.NewService(media.Options{Store: s.db.Uploads(), Blobs: s.blobs, Prober: v.runner, Projects: s.projects,
		SignKey: keys.uploadKey, MaxBytes: s.cfg.MaxMediaBytes,
		MaxSeconds: s.cfg.MaxMediaSeconds, MaxPixels: s.cfg.MaxPicturePixels, MaxFrameRate: s.cfg.MaxFrameRate, Presigner: s.presigner, Now: s.cfg.Now})
	v.videos = video.NewService(video.Options{Store: s.queue.Videos(), Media: v.media, Timelines: s.db.Projects(), Revisions: s.projects,
		Engine: eng, Presets: presets, Blobs: s.blobs, Runner: v.runner, Pool: pool, Limiter: limiter,
		HeavyWorkers: videoWorkers(&s.cfg), LightWorkers: 1, PerAccount: s.cfg.VideoJobsPerAccount, StaleAfter: videoStaleAfter(&s.cfg), Now: s.cfg.Now, Logger: s.log.With("component", "video")})
}

// analyses is where the exporter finds a project's analysed media: the
// media service, or none (a nil interface) when video is off.
func (v *videoParts) analyses() project.Analyses {
	if v.media == nil {
		return nil
	}
	return v.media
}
