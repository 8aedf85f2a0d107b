package fftest

import (
	"encoding/json"
	"testing"
)

// Stream is one stream as ffprobe sees it.
type Stream struct {
	Type, Codec, Language, Title string
	Default                      bool
}

// Streams lists file's streams in order. It fails t when ffprobe cannot
// read the file.
func Streams(t testing.TB, file string) []Stream {
	t.Helper()
	Need(t)
	out, err := command("", "ffprobe", "-v", "error", "-show_streams", "-of", "json", file)
	if err != nil {
		t.Fatalf("fftest: streams: %v", err)
	}
	var j struct {
		Streams []struct {
			CodecType   string            `json:"codec_type"`
			CodecName   string            `json:"codec_name"`
			Tags        map[string]string `json:"tags"`
			Disposition map[string]int    `json:"disposition"`
		} `json:"streams"`
	}
	if err := json.Unmarshal(out, &j); err != nil {
		t.Fatalf("fftest: streams of %s: %v", file, err)
	}
	streams := make([]Stream, len(j.Streams))
	for i, s := range j.Streams {
		streams[i] = Stream{Type: s.CodecType, Codec: s.CodecName, Language: s.Tags["language"],
			Title: s.Tags["title"], Default: s.Disposition["default"] == 1}
	}
	return streams
}
