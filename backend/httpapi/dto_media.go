package httpapi

import (
	"time"

	"github.com/captionqa/captionqa/backend/media"
)

// uploadRequest is the body of POST /api/v1/media/upload (the OpenAPI
// operation createMediaUpload).
type uploadRequest struct {
	ProjectID     string `json:"projectId"`
	Filename      string `json:"filename"`
	ContentType   string `json:"contentType"`
	Bytes         int64  `json:"bytes"`
	URLTTLSeconds int    `json:"urlTtlSeconds"`
}

// MaxCompleteBodyBytes bounds the body of a complete: 1,000 parts of
// about 100 bytes each, and room.
const MaxCompleteBodyBytes = 256 << 10

// completeRequest is the body of POST /api/v1/media/upload/{id}/complete.
type completeRequest struct {
	ProjectID string        `json:"projectId"`
	ObjectKey string        `json:"objectKey"`
	Multipart bool          `json:"multipart"`
	Parts     []partRequest `json:"parts"`
}

type partRequest struct {
	PartNumber int    `json:"partNumber"`
	ETag       string `json:"etag"`
}

// UploadView is an upload session as the API shows it (the contract's
// UploadSession schema).
type UploadView struct {
	UploadID       string        `json:"uploadId"`
	ProjectID      string        `json:"projectId"`
	ObjectKey      string        `json:"objectKey"`
	Filename       string        `json:"filename"`
	ContentType    string        `json:"contentType"`
	Bytes          int64         `json:"bytes"`
	Status         string        `json:"status"`
	CreatedAt      time.Time     `json:"createdAt"`
	ExpiresAt      time.Time     `json:"expiresAt"`
	Multipart      bool          `json:"multipart"`
	URL            string        `json:"url,omitempty"`
	PartSize       int64         `json:"partSize,omitempty"`
	Parts          []PartURLView `json:"parts,omitempty"`
	ReceivedParts  []PartView    `json:"receivedParts"`
	CompletedAt    *time.Time    `json:"completedAt,omitempty"`
	MediaExpiresAt *time.Time    `json:"mediaExpiresAt,omitempty"`
	RejectReason   string        `json:"rejectReason,omitempty"`
	Probe          *ProbeView    `json:"probe,omitempty"`
}

// PartURLView is one signed PUT of a multipart session.
type PartURLView struct {
	PartNumber int    `json:"partNumber"`
	URL        string `json:"url"`
	Bytes      int64  `json:"bytes"`
}

// PartView is one stored part, and the answer of a part's PUT.
type PartView struct {
	PartNumber int    `json:"partNumber"`
	ETag       string `json:"etag"`
	Bytes      int64  `json:"bytes"`
}

// ProbeView is what ffprobe found in completed media.
type ProbeView struct {
	Container       string       `json:"container"`
	FormatName      string       `json:"formatName"`
	DurationSeconds float64      `json:"durationSeconds"`
	ClosedCaptions  bool         `json:"closedCaptions"`
	Streams         []StreamView `json:"streams"`
}

// StreamView is one stream of probed media.
type StreamView struct {
	Index         int     `json:"index"`
	Type          string  `json:"type"`
	Codec         string  `json:"codec"`
	Language      string  `json:"language,omitempty"`
	Title         string  `json:"title,omitempty"`
	Width         int     `json:"width,omitempty"`
	Height        int     `json:"height,omitempty"`
	FrameRate     float64 `json:"frameRate,omitempty"`
	Channels      int     `json:"channels,omitempty"`
	SubtitleIndex *int    `json:"subtitleIndex,omitempty"`
	Text          bool    `json:"text,omitempty"`
	Default       bool    `json:"default,omitempty"`
	Forced        bool    `json:"forced,omitempty"`
}

type uploadList struct {
	Media []UploadView `json:"media"`
}

// newUploadView shows s; origin (scheme://host) prefixes the node's
// signed URLs of a pending session (the store's presigned ones are
// absolute).
func newUploadView(s *media.Session, urls []media.PartURL, origin string) UploadView {
	v := UploadView{UploadID: s.ID, ProjectID: s.ProjectID, ObjectKey: s.ObjectKey, Filename: s.Filename,
		ContentType: s.ContentType, Bytes: s.Bytes, Status: string(s.Status), CreatedAt: s.CreatedAt,
		ExpiresAt: s.ExpiresAt, Multipart: s.Multipart, CompletedAt: timeOrNil(s.CompletedAt),
		MediaExpiresAt: timeOrNil(s.MediaExpiresAt), RejectReason: s.RejectReason, ReceivedParts: []PartView{}}
	if s.Multipart {
		v.PartSize = s.PartSize
		for _, u := range urls {
			v.Parts = append(v.Parts, PartURLView{PartNumber: u.Number, URL: u.On(origin), Bytes: u.Bytes})
		}
	} else if len(urls) == 1 {
		v.URL = urls[0].On(origin)
	}
	for _, p := range s.Received {
		v.ReceivedParts = append(v.ReceivedParts, PartView{PartNumber: p.Number, ETag: p.ETag, Bytes: p.Bytes})
	}
	if p := s.Probe; p != nil {
		pv := &ProbeView{Container: p.Container, FormatName: p.FormatName, DurationSeconds: p.DurationSeconds,
			ClosedCaptions: p.ClosedCaptions, Streams: []StreamView{}}
		for _, st := range p.Streams {
			sv := StreamView{Index: st.Index, Type: st.Type, Codec: st.Codec, Language: st.Language, Title: st.Title,
				Width: st.Width, Height: st.Height, FrameRate: st.FrameRate, Channels: st.Channels, Text: st.Text,
				Default: st.Default, Forced: st.Forced}
			if st.Type == "subtitle" {
				sv.SubtitleIndex = &st.SubtitleIndex
			}
			pv.Streams = append(pv.Streams, sv)
		}
		v.Probe = pv
	}
	return v
}
