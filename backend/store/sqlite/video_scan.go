package sqlite

import (
	"database/sql"
	"fmt"
	"slices"
	"time"

	"github.com/captionqa/captionqa/backend/video"
)

func scanJob(row scanner) (*video.Job, error) {
	var j video.Job
	var kind, status, created, poolDay string
	var started, finished, heartbeat, errCode, errMsg, output, outputType, exportID sql.NullString
	var result sql.NullInt64
	err := row.Scan(&j.ID, &j.AccountID, &j.ProjectID, &kind, &j.Mode, &j.Preset, &j.FixProfile, &j.OutputDelivery,
		&j.MediaKey, &j.Container, &j.SubtitleCodec, &j.Language, &j.IRRevision, &j.MediaSeconds, &status, &j.Progress,
		&j.Run, &created, &started, &finished, &heartbeat, &errCode, &errMsg, &output, &outputType, &exportID, &j.Pool, &poolDay,
		&j.TrackIndex, &result)
	if err != nil {
		return nil, fmt.Errorf("sqlite: scan job: %w", err)
	}
	j.Kind, j.Status = video.Kind(kind), video.Status(status)
	j.Output, j.OutputType, j.ExportID = output.String, outputType.String, exportID.String
	j.ResultRevision = int(result.Int64)
	if errCode.Valid {
		j.Error = &video.JobError{Code: errCode.String, Message: errMsg.String}
	}
	if j.CreatedAt, err = parseTime(created); err != nil {
		return nil, err
	}
	if j.PoolDay, err = time.Parse(dayLayout, poolDay); err != nil {
		return nil, fmt.Errorf("sqlite: job %s: pool day: %w", j.ID, err)
	}
	for _, t := range []struct {
		s   sql.NullString
		dst *time.Time
	}{{started, &j.StartedAt}, {finished, &j.FinishedAt}, {heartbeat, &j.HeartbeatAt}} {
		p, err := parseNullTime(t.s)
		if err != nil {
			return nil, err
		}
		if p != nil {
			*t.dst = *p
		}
	}
	return &j, nil
}

func median(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
