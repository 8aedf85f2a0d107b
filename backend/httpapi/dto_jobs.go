package httpapi

import (
	"time"

	"github.com/captionqa/captionqa/backend/video"
)

// renderRequest is the body of POST /api/v1/jobs/render, with its
// optional fields (see the OpenAPI operation createRenderJob).
type renderRequest struct {
	ProjectID      string `json:"projectId"`
	Mode           string `json:"mode"`
	Preset         string `json:"preset"`
	FixProfile     string `json:"fixProfile"`
	OutputDelivery string `json:"outputDelivery"`
	MediaObjectKey string `json:"mediaObjectKey"`
	Container      string `json:"container"`
	SubtitleCodec  string `json:"subtitleCodec"`
	Language       string `json:"language"`
}

// extractRequest is the body of POST /api/v1/jobs/extract (see the
// OpenAPI operation createExtractJob).
type extractRequest struct {
	ProjectID      string `json:"projectId"`
	ExtractMode    string `json:"extractMode"`
	TrackIndex     *int   `json:"trackIndex"`
	MediaObjectKey string `json:"mediaObjectKey"`
}

// jobCreated is the 202 body of a job's creation (the contract's
// JobAccepted response).
type jobCreated struct {
	JobID                 string `json:"jobId"`
	Status                string `json:"status"`
	Kind                  string `json:"kind"`
	EstimatedWaitSeconds  int    `json:"estimatedWaitSeconds"`
	RemainingAPIRunsToday int    `json:"remainingApiRunsToday"`
}

// JobView is a job as GET and DELETE /api/v1/jobs/{jobId} show it, inside
// {"job": ...}; its fields are the served contract's (see the OpenAPI
// operation getJob).
type JobView struct {
	JobID string `json:"jobId"`
	Kind  string `json:"kind"`
	Mode  string `json:"mode"`
	// ExtractMode repeats Mode on an extract job, under the name its
	// request used (the OpenAPI operation createExtractJob).
	ExtractMode          string        `json:"extractMode,omitempty"`
	Status               string        `json:"status"`
	Progress             float64       `json:"progress"`
	ProjectID            string        `json:"projectId"`
	Preset               string        `json:"preset"`
	FixProfile           string        `json:"fixProfile"`
	OutputDelivery       string        `json:"outputDelivery"`
	MediaObjectKey       string        `json:"mediaObjectKey,omitempty"`
	Container            string        `json:"container,omitempty"`
	SubtitleCodec        string        `json:"subtitleCodec,omitempty"`
	Language             string        `json:"language,omitempty"`
	IRRevision           int           `json:"irRevision"`
	TrackIndex           *int          `json:"trackIndex,omitempty"`
	ResultRevision       *int          `json:"resultRevision,omitempty"`
	CreatedAt            time.Time     `json:"createdAt"`
	StartedAt            *time.Time    `json:"startedAt"`
	FinishedAt           *time.Time    `json:"finishedAt"`
	EstimatedWaitSeconds *int          `json:"estimatedWaitSeconds,omitempty"`
	Error                *JobErrorView `json:"error"`
	Artifacts            []JobArtifact `json:"artifacts"`
	Output               *string       `json:"output,omitempty"`
	OutputContentType    string        `json:"outputContentType,omitempty"`
}

// JobErrorView is why a job failed or that it was canceled.
type JobErrorView struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// JobArtifact is one file a job made; GET /api/v1/artifacts/{artifactId}
// gives its download URL.
type JobArtifact struct {
	ArtifactID  string `json:"artifactId"`
	Filename    string `json:"filename"`
	ContentType string `json:"contentType"`
	Bytes       int64  `json:"bytes"`
}

type jobResult struct {
	Job JobView `json:"job"`
}

type jobList struct {
	Jobs []JobView `json:"jobs"`
}

func newJobView(j *video.Job) JobView {
	v := JobView{JobID: j.ID, Kind: string(j.Kind), Mode: j.Mode, Status: string(j.Status), Progress: j.Progress,
		ProjectID: j.ProjectID, Preset: j.Preset, FixProfile: j.FixProfile, OutputDelivery: j.OutputDelivery,
		MediaObjectKey: j.MediaKey, Container: j.Container, SubtitleCodec: j.SubtitleCodec, Language: j.Language,
		IRRevision: j.IRRevision, CreatedAt: j.CreatedAt, StartedAt: timeOrNil(j.StartedAt),
		FinishedAt: timeOrNil(j.FinishedAt), Artifacts: []JobArtifact{}, OutputContentType: j.OutputType}
	if j.Kind == video.KindExtract {
		v.ExtractMode = j.Mode
	}
	if j.TrackIndex >= 0 {
		ti := j.TrackIndex
		v.TrackIndex = &ti
	}
	if j.ResultRevision > 0 {
		rr := j.ResultRevision
		v.ResultRevision = &rr
	}
	if j.Status == video.Queued {
		wait := j.EstimatedWaitSeconds
		v.EstimatedWaitSeconds = &wait
	}
	if j.Error != nil {
		v.Error = &JobErrorView{Code: j.Error.Code, Message: j.Error.Message}
	}
	for _, a := range j.Artifacts {
		v.Artifacts = append(v.Artifacts, JobArtifact{ArtifactID: a.ID, Filename: a.Filename, ContentType: a.ContentType, Bytes: a.Bytes})
	}
	if j.Status == video.Succeeded && j.OutputDelivery == video.DeliveryInline {
		out := j.Output
		v.Output = &out
	}
	return v
}
