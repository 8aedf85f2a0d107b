package postgres

import (
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/captionqa/captionqa/backend/video"
)

// scanJob reads the jobColumns of one row (a [pgx.RowToFunc]).
func scanJob(row pgx.CollectableRow) (video.Job, error) {
	var j video.Job
	var kind, status string
	var started, finished, heartbeat *time.Time
	var errCode, errMsg, output, outputType, exportID *string
	var result *int
	err := row.Scan(&j.ID, &j.AccountID, &j.ProjectID, &kind, &j.Mode, &j.Preset, &j.FixProfile, &j.OutputDelivery,
		&j.MediaKey, &j.Container, &j.SubtitleCodec, &j.Language, &j.IRRevision, &j.MediaSeconds, &status, &j.Progress,
		&j.Run, &j.CreatedAt, &started, &finished, &heartbeat, &errCode, &errMsg, &output, &outputType, &exportID, &j.Pool,
		&j.PoolDay, &j.TrackIndex, &result)
	if err != nil {
		return video.Job{}, fmt.Errorf("postgres: scan job: %w", err)
	}
	j.Kind, j.Status = video.Kind(kind), video.Status(status)
	j.Output, j.OutputType, j.ExportID = deref(output), deref(outputType), deref(exportID)
	j.ResultRevision = deref(result)
	if errCode != nil {
		j.Error = &video.JobError{Code: *errCode, Message: deref(errMsg)}
	}
	j.CreatedAt, j.PoolDay = j.CreatedAt.UTC(), j.PoolDay.UTC()
	j.StartedAt, j.FinishedAt, j.HeartbeatAt = utcOrZero(started), utcOrZero(finished), utcOrZero(heartbeat)
	return j, nil
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
