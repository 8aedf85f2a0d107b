package ffmpeg

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/captionqa/captionqa/backend/media"
)

// probeJSON is what -show_format -show_streams -of json prints.
type probeJSON struct {
	Format struct {
		FormatName string `json:"format_name"`
		Duration   string `json:"duration"`
	} `json:"format"`
	Streams []streamJSON `json:"streams"`
}

type streamJSON struct {
	Index        int               `json:"index"`
	CodecType    string            `json:"codec_type"`
	CodecName    string            `json:"codec_name"`
	Width        int               `json:"width"`
	Height       int               `json:"height"`
	AvgFrameRate string            `json:"avg_frame_rate"`
	RFrameRate   string            `json:"r_frame_rate"`
	Channels     int               `json:"channels"`
	Duration     string            `json:"duration"`
	Disposition  map[string]int    `json:"disposition"`
	Tags         map[string]string `json:"tags"`
}

// textCodecs are the subtitle codecs an extract can read as text.
// Read-only.
var textCodecs = map[string]bool{"subrip": true, "ass": true, "ssa": true, "webvtt": true, "mov_text": true, "text": true}

// webmCodecs are the codecs WebM allows: the matroska demuxer names both
// formats "matroska,webm" and does not report the DocType, so a file
// whose every stream is one of these is called WebM. Read-only.
var webmCodecs = map[string]bool{"vp8": true, "vp9": true, "av1": true, "vorbis": true, "opus": true, "webvtt": true}

// decodeProbe reads ffprobe's JSON. Errors: unreadable when it finds
// neither video nor audio; an error for JSON it cannot decode.
func decodeProbe(data []byte) (*media.Probe, error) {
	var j probeJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return nil, fmt.Errorf("ffmpeg: decode ffprobe output: %w", err)
	}
	p := &media.Probe{FormatName: j.Format.FormatName, Streams: make([]media.Stream, 0, len(j.Streams))}
	p.DurationSeconds, _ = strconv.ParseFloat(j.Format.Duration, 64)
	// Some muxers leave format.duration out: take the longest stream's.
	streamSeconds := 0.0
	subtitles, webm, av := 0, true, false
	for _, s := range j.Streams {
		st := media.Stream{
			Index:    s.Index,
			Type:     s.CodecType,
			Codec:    s.CodecName,
			Language: tag(s.Tags, "language"),
			Title:    tag(s.Tags, "title"),
			Default:  s.Disposition["default"] == 1,
			Forced:   s.Disposition["forced"] == 1,
		}
		switch s.CodecType {
		case "video":
			// Cover art is a one-frame "video"; renders map V:0, which
			// skips it, and so does Probe.Video.
			if s.Disposition["attached_pic"] == 1 {
				st.Type = "data"
				break
			}
			st.Width, st.Height = s.Width, s.Height
			st.FrameRate = frameRate(s.AvgFrameRate)
			if st.FrameRate == 0 {
				st.FrameRate = frameRate(s.RFrameRate)
			}
			av = true
		case "audio":
			st.Channels = s.Channels
			av = true
		case "subtitle":
			st.SubtitleIndex = subtitles
			subtitles++
			st.Text = textCodecs[s.CodecName]
			if s.CodecName == "eia_608" {
				p.ClosedCaptions = true
			}
		default:
			st.Type = "data"
		}
		if d, err := strconv.ParseFloat(s.Duration, 64); err == nil {
			streamSeconds = max(streamSeconds, d)
		}
		webm = webm && webmCodecs[s.CodecName]
		p.Streams = append(p.Streams, st)
	}
	if !av {
		return nil, unreadable("no audio or video stream")
	}
	if p.DurationSeconds == 0 {
		p.DurationSeconds = streamSeconds
	}
	p.Container = container(j.Format.FormatName, webm)
	return p, nil
}

// container names ffprobe's format_name as media.Probe does.
func container(formatName string, webmCodecsOnly bool) string {
	switch {
	case strings.HasPrefix(formatName, "mov,"):
		return "mp4"
	case formatName == "matroska,webm" && webmCodecsOnly:
		return "webm"
	case formatName == "matroska,webm":
		return "matroska"
	}
	return formatName
}

// tag returns a stream tag, whatever its case (Matroska files written by
// other tools say LANGUAGE or Title); "und" means untagged.
func tag(tags map[string]string, key string) string {
	for k, v := range tags {
		if strings.EqualFold(k, key) {
			if key == "language" && v == "und" {
				return ""
			}
			return v
		}
	}
	return ""
}

// frameRate parses ffprobe's "30000/1001"; "0/0" and junk give 0.
func frameRate(s string) float64 {
	num, den, ok := strings.Cut(s, "/")
	if !ok {
		return 0
	}
	n, err1 := strconv.ParseFloat(num, 64)
	d, err2 := strconv.ParseFloat(den, 64)
	if err1 != nil || err2 != nil || d == 0 {
		return 0
	}
	return n / d
}

// a53 is the side data type of CEA-608/708 captions carried in the video
// (ATSC A/53 Part 4): ffprobe's closed_captions field misses them, the
// frames' side data does not.
const a53 = "ATSC A53 Part 4 Closed Captions"

// hasA53 reports whether ffprobe's -show_entries frame_side_data output
// lists A/53 captions. Errors: JSON it cannot decode.
func hasA53(data []byte) (bool, error) {
	var j struct {
		Frames []struct {
			SideData []struct {
				Type string `json:"side_data_type"`
			} `json:"side_data_list"`
		} `json:"frames"`
	}
	if err := json.Unmarshal(data, &j); err != nil {
		return false, fmt.Errorf("ffmpeg: decode ffprobe frames: %w", err)
	}
	for _, f := range j.Frames {
		for _, sd := range f.SideData {
			if sd.Type == a53 {
				return true, nil
			}
		}
	}
	return false, nil
}
