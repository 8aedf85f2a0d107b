package analysis

import (
	"fmt"
	"math"
)

// Version is the version of the [Analysis] JSON form.
const Version = 1

// Analysis is the analysis of one programme. Times are milliseconds from
// the programme's start, as caption cues' are.
type Analysis struct {
	Version int `json:"version"`
	// DurationMs is the programme's duration.
	DurationMs int64 `json:"durationMs"`
	// Video is the picture's analysis, nil for media without a video
	// stream.
	Video *Video `json:"video"`
	// Audio is the sound's analysis, nil for media without an audio
	// stream.
	Audio *Audio `json:"audio"`
}

// Video is what the picture holds.
type Video struct {
	// FrameRate is the stream's frame rate as a fraction (24000/1001 for
	// 23.976 fps), so frame numbers and times convert exactly.
	FrameRate Rational `json:"frameRate"`
	// FrameCount is the number of frames decoded.
	FrameCount int64 `json:"frameCount"`
	// ShotChanges are the cuts, in time order: the first frame of each
	// new shot.
	ShotChanges []ShotChange `json:"shotChanges"`
}

// ShotChange is a cut: Frame is the first frame of the new shot (0-based)
// and TimeMs its presentation time; Score is the scene detector's (0 to
// 100) for the change.
type ShotChange struct {
	TimeMs int64   `json:"timeMs"`
	Frame  int64   `json:"frame"`
	Score  float64 `json:"score"`
}

// Audio is what the sound holds.
type Audio struct {
	// Speech are the segments where someone speaks, in time order and
	// apart from one another.
	Speech []Segment `json:"speech"`
	// Waveform summarises the sound for drawing it.
	Waveform Waveform `json:"waveform"`
}

// Segment is a stretch of speech, from StartMs to EndMs; Confidence (0 to
// 1) is how clearly it stands out of the noise.
type Segment struct {
	StartMs    int64   `json:"startMs"`
	EndMs      int64   `json:"endMs"`
	Confidence float64 `json:"confidence"`
}

// DurationMs returns EndMs-StartMs.
func (s Segment) DurationMs() int64 { return s.EndMs - s.StartMs }

// Waveform is the sound as peaks: Peaks[i] is the largest absolute sample
// of the i-th run of SamplesPerPeak samples at SampleRate, scaled to 0-255
// (255 is full scale). One peak covers SamplesPerPeak/SampleRate seconds
// (10 ms by default).
type Waveform struct {
	SampleRate     int     `json:"sampleRate"`
	SamplesPerPeak int     `json:"samplesPerPeak"`
	Peaks          []uint8 `json:"peaks"`
}

// PeakMs is the time one peak covers, in milliseconds.
func (w Waveform) PeakMs() float64 {
	if w.SampleRate <= 0 {
		return 0
	}
	return 1000 * float64(w.SamplesPerPeak) / float64(w.SampleRate)
}

// Rational is a frame rate as a fraction.
type Rational struct {
	Num int64 `json:"num"`
	Den int64 `json:"den"`
}

// FPS returns the rate in frames a second, 0 for a zero denominator.
func (r Rational) FPS() float64 {
	if r.Den == 0 {
		return 0
	}
	return float64(r.Num) / float64(r.Den)
}

// FrameMs is the duration of one frame in milliseconds, 0 for no rate.
func (r Rational) FrameMs() float64 {
	if r.Num <= 0 || r.Den <= 0 {
		return 0
	}
	return 1000 * float64(r.Den) / float64(r.Num)
}

// TimeOf returns the presentation time of frame n in ms, rounded.
func (r Rational) TimeOf(n int64) int64 {
	if r.Num <= 0 || r.Den <= 0 {
		return 0
	}
	return int64(math.Round(float64(n) * 1000 * float64(r.Den) / float64(r.Num)))
}

// Check reports the first inconsistency of a: a version it does not know,
// negative or reversed times, segments or shot changes out of order. The
// analysis a client hands in (captionqa process --analysis) is checked
// before any rule reads it.
func (a *Analysis) Check() error {
	if a.Version != Version {
		return fmt.Errorf("analysis: version %d, not %d", a.Version, Version)
	}
	if a.DurationMs < 0 {
		return fmt.Errorf("analysis: negative duration")
	}
	if v := a.Video; v != nil {
		if v.FrameRate.Num <= 0 || v.FrameRate.Den <= 0 {
			return fmt.Errorf("analysis: video frame rate %d/%d", v.FrameRate.Num, v.FrameRate.Den)
		}
		for i, c := range v.ShotChanges {
			if c.TimeMs < 0 || c.Frame < 0 || (i > 0 && c.Frame <= v.ShotChanges[i-1].Frame) {
				return fmt.Errorf("analysis: shot change %d out of order", i)
			}
		}
	}
	if au := a.Audio; au != nil {
		for i, s := range au.Speech {
			if s.StartMs < 0 || s.EndMs <= s.StartMs || (i > 0 && s.StartMs < au.Speech[i-1].EndMs) {
				return fmt.Errorf("analysis: speech segment %d out of order", i)
			}
		}
		if w := au.Waveform; len(w.Peaks) > 0 && (w.SampleRate <= 0 || w.SamplesPerPeak <= 0) {
			return fmt.Errorf("analysis: waveform without its rate")
		}
	}
	return nil
}
