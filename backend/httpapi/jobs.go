package httpapi

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/video"
)

// withVideos answers 503 unavailable when video jobs are off on this
// deployment ([Options.Videos] nil), before the body is read.
func (h *handler) withVideos(next echo.HandlerFunc) echo.HandlerFunc {
	if h.videos != nil {
		return next
	}
	return func(echo.Context) error {
		return apperr.New(apperr.Unavailable, "video jobs are off on this deployment (ffmpeg is not available)").
			WithDetail("reason", "video_off")
	}
}

// createRender serves POST /api/v1/jobs/render: 202 with the queued job.
func (h *handler) createRender(c echo.Context) error {
	var in renderRequest
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	j, err := h.videos.Render(c.Request().Context(), exportAccount(c), video.RenderInput{ProjectID: in.ProjectID,
		Mode: in.Mode, Preset: in.Preset, FixProfile: in.FixProfile, OutputDelivery: in.OutputDelivery,
		MediaKey: in.MediaObjectKey, Container: in.Container, SubtitleCodec: in.SubtitleCodec, Language: in.Language})
	if err != nil {
		return err
	}
	return accepted(c, j)
}

// createExtract serves POST /api/v1/jobs/extract: 202 with the queued job.
func (h *handler) createExtract(c echo.Context) error {
	var in extractRequest
	if err := bindJSON(c, &in); err != nil {
		return err
	}
	j, err := h.videos.Extract(c.Request().Context(), exportAccount(c), video.ExtractInput{ProjectID: in.ProjectID,
		Mode: in.ExtractMode, TrackIndex: in.TrackIndex, MediaKey: in.MediaObjectKey})
	if err != nil {
		return err
	}
	return accepted(c, j)
}

// accepted answers 202 with a queued job and where to poll it.
func accepted(c echo.Context, j *video.Job) error {
	c.Response().Header().Set(echo.HeaderLocation, V1Prefix+"/jobs/"+j.ID)
	return c.JSON(http.StatusAccepted, jobCreated{JobID: j.ID, Status: string(j.Status), Kind: string(j.Kind),
		EstimatedWaitSeconds: j.EstimatedWaitSeconds, RemainingAPIRunsToday: j.RemainingRuns})
}

// getJob serves GET /api/v1/jobs/{jobId}.
func (h *handler) getJob(c echo.Context) error {
	j, err := h.videos.Get(c.Request().Context(), principalOf(c).Account.ID, c.Param("jobId"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, jobResult{Job: newJobView(j)})
}

// cancelJob serves DELETE /api/v1/jobs/{jobId}: 200 with the canceled
// job; 409 conflict (details.reason "job_finished") once it ended.
func (h *handler) cancelJob(c echo.Context) error {
	j, err := h.videos.Cancel(c.Request().Context(), principalOf(c).Account.ID, c.Param("jobId"))
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, jobResult{Job: newJobView(j)})
}

// listJobs serves GET /api/v1/jobs?projectId=&mode=: the project's latest
// jobs (of one mode, when given), newest first.
func (h *handler) listJobs(c echo.Context) error {
	list, err := h.videos.List(c.Request().Context(), principalOf(c).Account.ID, c.QueryParam("projectId"), c.QueryParam("mode"))
	if err != nil {
		return err
	}
	out := jobList{Jobs: make([]JobView, 0, len(list))}
	for i := range list {
		out.Jobs = append(out.Jobs, newJobView(&list[i]))
	}
	return c.JSON(http.StatusOK, out)
}
