package sqlstore

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"time"

	"github.com/captionqa/captionqa/backend/video"
)

// scanJob reads the jobColumns of one row.
func scanJob(r scanner) (video.Job, error) {
	var j video.Job
	var kind, status string
	var errCode, errMsg, output, outputType, exportID sql.NullString
	var result sql.NullInt64
	err := r.Scan(&j.ID, &j.AccountID, &j.ProjectID, &kind, &j.Mode, &j.Preset, &j.FixProfile, &j.OutputDelivery,
		&j.MediaKey, &j.Container, &j.SubtitleCodec, &j.Language, &j.IRRevision, &j.MediaSeconds, &status, &j.Progress,
		&j.Run, at(&j.CreatedAt), atOrZero(&j.StartedAt), atOrZero(&j.FinishedAt), atOrZero(&j.HeartbeatAt), &errCode, &errMsg,
		&output, &outputType, &exportID, &j.Pool, at(&j.PoolDay), &j.TrackIndex, &result)
	if err != nil {
		return video.Job{}, fmt.Errorf("store: scan job: %w", err)
	}
	j.Kind, j.Status = video.Kind(kind), video.Status(status)
	j.Output, j.OutputType, j.ExportID = output.String, outputType.String, exportID.String
	j.ResultRevision = int(result.Int64)
	if errCode.Valid {
		j.Error = &video.JobError{Code: errCode.String, Message: errMsg.String}
	}
	return j, nil
}

// Speeds returns, per mode, the median media seconds per wall second of
// the last 20 succeeded jobs with media.
func (s *VideoStore) Speeds(ctx context.Context) (map[string]float64, error) {
	type sample struct {
		mode      string
		perSecond float64
	}
	all, err := collect(ctx, s.q.db.read, func(r scanner) (sample, error) {
		var mode string
		var secs float64
		var started, finished time.Time
		if err := r.Scan(&mode, &secs, at(&started), at(&finished)); err != nil {
			return sample{}, fmt.Errorf("store: job speeds: %w", err)
		}
		// Times are whole seconds: a run under a second counts as one.
		return sample{mode, secs / max(finished.Sub(started).Seconds(), 1)}, nil
	}, `SELECT mode, media_seconds, started_at, finished_at FROM video_jobs
		WHERE status = 'succeeded' AND media_seconds > 0 AND started_at IS NOT NULL AND finished_at IS NOT NULL
		ORDER BY finished_at DESC LIMIT 200`)
	if err != nil {
		return nil, err
	}
	samples := map[string][]float64{}
	for _, x := range all {
		if len(samples[x.mode]) < 20 {
			samples[x.mode] = append(samples[x.mode], x.perSecond)
		}
	}
	speeds := map[string]float64{}
	for mode, v := range samples {
		speeds[mode] = median(v)
	}
	return speeds, nil
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
