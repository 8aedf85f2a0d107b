package media

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/captionqa/captionqa/backend/analysis"
	"github.com/captionqa/captionqa/backend/apperr"
)

// StoredAnalysis is the analysis of an uploaded media as the store keeps
// it (an analyze job made it: docs/media.md, Analysis).
type StoredAnalysis struct {
	UploadID  string
	ProjectID string
	JobID     string
	// JSON is the [analysis.Analysis] in its JSON form.
	JSON      string
	CreatedAt time.Time
}

// Analyzed is an analysis with the media it is of.
type Analyzed struct {
	UploadID  string
	ObjectKey string
	JobID     string
	CreatedAt time.Time
	Analysis  *analysis.Analysis
}

// Analysis returns the analysis of the account's media objectKey. It
// returns [apperr.BadRequest] (details.field "mediaObjectKey") for a key
// that is not a media key, and [apperr.NotFound] (details.reason
// "not_analyzed" when the media exists but has not been analysed).
func (s *Service) Analysis(ctx context.Context, accountID, objectKey string) (*Analyzed, error) {
	id, ok := strings.CutPrefix(objectKey, MediaPrefix)
	if !ok || checkUploadID(id) != nil {
		return nil, apperr.New(apperr.BadRequest, "mediaObjectKey must be a media object key such as media/7d444840-9dc0-11d1-b245-5ffdce74fad2").
			WithDetail("field", "mediaObjectKey")
	}
	st, err := s.o.Store.Analysis(ctx, accountID, id)
	if apperr.KindOf(err) == apperr.NotFound {
		if _, gerr := s.Get(ctx, accountID, id); gerr != nil {
			return nil, gerr
		}
		return nil, apperr.New(apperr.NotFound, "the media %s has not been analysed: run POST /api/v1/jobs/analyze", objectKey).
			WithDetail("reason", "not_analyzed").Wrap(err)
	}
	if err != nil {
		return nil, err
	}
	return decodeAnalysis(st)
}

// ProjectAnalysis returns the newest analysis of the media uploaded to
// the account's project, or nil when none was analysed.
func (s *Service) ProjectAnalysis(ctx context.Context, accountID, projectID string) (*Analyzed, error) {
	st, err := s.o.Store.ProjectAnalysis(ctx, accountID, projectID)
	if apperr.KindOf(err) == apperr.NotFound {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return decodeAnalysis(st)
}

func decodeAnalysis(st *StoredAnalysis) (*Analyzed, error) {
	var a analysis.Analysis
	if err := json.Unmarshal([]byte(st.JSON), &a); err != nil {
		return nil, fmt.Errorf("media: analysis of %s: %w", st.UploadID, err)
	}
	return &Analyzed{UploadID: st.UploadID, ObjectKey: MediaPrefix + st.UploadID, JobID: st.JobID, CreatedAt: st.CreatedAt, Analysis: &a}, nil
}

// ProjectMediaAnalysis returns the newest analysis of the media uploaded
// to the account's project, nil when none was analysed (the exporter's
// [project.Analyses]).
func (s *Service) ProjectMediaAnalysis(ctx context.Context, accountID, projectID string) (*analysis.Analysis, error) {
	a, err := s.ProjectAnalysis(ctx, accountID, projectID)
	if err != nil || a == nil {
		return nil, err
	}
	return a.Analysis, nil
}
