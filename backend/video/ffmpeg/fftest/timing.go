package fftest

import (
	"encoding/json"
	"slices"
	"strconv"
	"testing"
)

// Timing is what ffprobe reads of a file's first video and audio
// streams: the picture's codec, size and frame rate, the presentation
// time of every video frame (in order), and when the sound starts.
type Timing struct {
	VideoCodec, AudioCodec string
	Width, Height          int
	// FrameRate is ffprobe's r_frame_rate, such as "30000/1001".
	FrameRate string
	// Frames are the video frames' presentation times in seconds,
	// sorted.
	Frames []float64
	// AudioStart is the first audio stream's start_time in seconds.
	AudioStart float64
	// Start and Duration are the file's (ffprobe's format start_time and
	// duration), in seconds.
	Start, Duration float64
}

// TimingOf probes file; it fails t when ffprobe cannot read it or it has
// no video frame.
func TimingOf(t testing.TB, file string) Timing {
	t.Helper()
	Need(t)
	out, err := command("", "ffprobe", "-v", "error", "-show_format", "-show_streams", "-show_entries", "frame=media_type,pts_time", "-of", "json", file)
	if err != nil {
		t.Fatalf("fftest: timing: %v", err)
	}
	var j struct {
		Format struct {
			StartTime string `json:"start_time"`
			Duration  string `json:"duration"`
		} `json:"format"`
		Streams []struct {
			CodecType string `json:"codec_type"`
			CodecName string `json:"codec_name"`
			Width     int    `json:"width"`
			Height    int    `json:"height"`
			Rate      string `json:"r_frame_rate"`
			StartTime string `json:"start_time"`
		} `json:"streams"`
		Frames []struct {
			MediaType string `json:"media_type"`
			PTS       string `json:"pts_time"`
		} `json:"frames"`
	}
	if err := json.Unmarshal(out, &j); err != nil {
		t.Fatalf("fftest: timing of %s: %v", file, err)
	}
	var tm Timing
	tm.Start, _ = strconv.ParseFloat(j.Format.StartTime, 64)
	tm.Duration, _ = strconv.ParseFloat(j.Format.Duration, 64)
	for _, s := range j.Streams {
		switch {
		case s.CodecType == "video" && tm.VideoCodec == "":
			tm.VideoCodec, tm.Width, tm.Height, tm.FrameRate = s.CodecName, s.Width, s.Height, s.Rate
		case s.CodecType == "audio" && tm.AudioCodec == "":
			tm.AudioCodec = s.CodecName
			tm.AudioStart, _ = strconv.ParseFloat(s.StartTime, 64)
		}
	}
	// With one video stream (as the programmes and previews have), the
	// video frames are the first video stream's.
	for _, f := range j.Frames {
		if f.MediaType != "video" {
			continue
		}
		v, err := strconv.ParseFloat(f.PTS, 64)
		if err != nil {
			t.Fatalf("fftest: timing of %s: frame time %q", file, f.PTS)
		}
		tm.Frames = append(tm.Frames, v)
	}
	if len(tm.Frames) == 0 {
		t.Fatalf("fftest: timing of %s: no video frame", file)
	}
	slices.Sort(tm.Frames)
	return tm
}
