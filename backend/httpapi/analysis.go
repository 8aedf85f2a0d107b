package httpapi

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"github.com/captionqa/captionqa/backend/analysis"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/media"
	"github.com/captionqa/captionqa/backend/video"
)

// analyzeRequest is the body of POST /api/v1/jobs/analyze (the OpenAPI
// operation createAnalyzeJob).
type analyzeRequest struct {
	ProjectID      string `json:"projectId"`
	MediaObjectKey string `json:"mediaObjectKey"`
}

// createAnalyze serves POST /api/v1/jobs/analyze: 202 with the queued
// job (docs/media.md, Analysis).
func (h *handler) createAnalyze(c echo.Context) error {
	var in analyzeRequest
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	j, err := h.videos.Analyze(c.Request().Context(), exportAccount(c), video.AnalyzeInput{ProjectID: in.ProjectID,
		MediaKey: in.MediaObjectKey})
	if err != nil {
		return err
	}
	return accepted(c, j)
}

// AnalysisView is the analysis of an uploaded media (the contract's
// MediaAnalysis).
type AnalysisView struct {
	UploadID       string             `json:"uploadId"`
	MediaObjectKey string             `json:"mediaObjectKey"`
	JobID          string             `json:"jobId"`
	CreatedAt      time.Time          `json:"createdAt"`
	Analysis       *analysis.Analysis `json:"analysis"`
}

// getAnalysis serves GET /api/v1/media/upload/{uploadId}/analysis: the
// media's newest analysis; 404 not_found (details.reason "not_analyzed")
// before an analyze job succeeded.
func (h *handler) getAnalysis(c echo.Context) error {
	a, err := h.media.Analysis(c.Request().Context(), principalOf(c).Account.ID, media.MediaPrefix+c.Param("uploadId"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, AnalysisView{UploadID: a.UploadID, MediaObjectKey: a.ObjectKey, JobID: a.JobID,
		CreatedAt: a.CreatedAt.UTC(), Analysis: a.Analysis})
}

// attachMedia sets the form's request Media from the analysis its fields
// name: mediaObjectKey's (of projectId's project when both are given), or
// projectId's newest. A form naming neither checks blind. It returns
// [apperr.BadRequest] for the fields where accountID is "" (the homepage
// converter) or they disagree, [apperr.Unavailable] when media is off,
// and [apperr.NotFound] (details.reason "not_analyzed") for media or a
// project without an analysis.
func (h *handler) attachMedia(ctx context.Context, accountID string, f *processForm) error {
	if f.projectID == "" && f.mediaKey == "" {
		return nil
	}
	field := "mediaObjectKey"
	if f.mediaKey == "" {
		field = "projectId"
	}
	switch {
	case accountID == "":
		return apperr.New(apperr.BadRequest, "%s: the homepage converter checks no media; use POST /api/v1/process", field).
			WithDetail("field", field)
	case h.media == nil:
		return apperr.New(apperr.Unavailable, "media uploads and video jobs are off on this deployment (ffmpeg is not available)").
			WithDetail("reason", "video_off")
	}
	var a *media.Analyzed
	var err error
	if f.mediaKey != "" {
		a, err = h.media.Analysis(ctx, accountID, f.mediaKey)
	} else {
		a, err = h.media.ProjectAnalysis(ctx, accountID, strings.ToLower(f.projectID))
		if err == nil && a == nil {
			err = apperr.New(apperr.NotFound, "no media of project %s has been analysed: run POST /api/v1/jobs/analyze", f.projectID).
				WithDetail("reason", "not_analyzed")
		}
	}
	if err != nil {
		return err
	}
	if f.projectID != "" && f.mediaKey != "" {
		if s, err := h.media.Get(ctx, accountID, a.UploadID); err != nil || !strings.EqualFold(s.ProjectID, f.projectID) {
			return apperr.New(apperr.BadRequest, "the media %q was uploaded to another project", f.mediaKey).
				WithDetail("field", "mediaObjectKey").WithDetail("reason", "other_project")
		}
	}
	f.req.Media = a.Analysis
	return nil
}
