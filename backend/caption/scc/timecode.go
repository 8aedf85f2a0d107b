package scc

import (
	"fmt"
	"strconv"
)

// SCC timing. Every SCC file is for 29.97 fps (30000/1001) video. A
// timecode names a frame of that video; frame n starts n×1001/30 ms after
// the first, whichever way the timecode counts:
//
//   - Drop-frame ("HH:MM:SS;FF", or "." before the frames) skips the labels
//     ;00 and ;01 at the start of every minute except each tenth, so that
//     its labels stay within a frame of the clock. 00:01:00;02 is frame
//     1800.
//   - Non-drop-frame ("HH:MM:SS:FF") labels every frame, 30 to a
//     timecode second, so it runs 0.1% slow against the clock: 01:00:00:00
//     is frame 108000, 3603.6 s into the video, not 3600 s.
//
// Both are read as frame counts at the real rate, so a cue lands on the
// frame the timecode names, as broadcast equipment plays it. Reading a
// non-drop timecode as 30 fps clock time instead (as ffmpeg does, frames
// as ff×33 ms) drifts 3.6 s an hour from the video.

// frameToMs returns the start of frame n in milliseconds, rounded to the
// nearest millisecond.
func frameToMs(n int64) int64 {
	if n <= 0 {
		return 0
	}
	return (n*1001 + 15) / 30
}

// maxMs is the latest time SCC writes: 99 hours, as timecodes have two
// digits of hours (the reader takes three, for captions pushed past it).
const maxMs = 99 * 3600 * 1000

// msToFrame returns the frame whose start is nearest to ms.
func msToFrame(ms int64) int64 {
	if ms <= 0 {
		return 0
	}
	ms = min(ms, 2*maxMs)
	return (ms*60 + 1001) / 2002
}

// Drop-frame counting: 30 labels a second, of which 2 are skipped at the
// start of each minute but every tenth.
const (
	framesPerMinuteDF   = 60*30 - 2
	framesPer10MinuteDF = 10*60*30 - 9*2
)

// timecode is one parsed SCC timecode.
type timecode struct {
	h, m, s, f int64
	drop       bool
}

// frame returns the frame the timecode names.
func (tc timecode) frame() int64 {
	n := ((tc.h*60+tc.m)*60+tc.s)*30 + tc.f
	if tc.drop {
		minutes := tc.h*60 + tc.m
		n -= 2 * (minutes - minutes/10)
	}
	return n
}

// parseTimecode reads "HH:MM:SS:FF", or drop-frame with ";" or "." before
// the frames (some files use ";" throughout). Fields have one or two
// digits, hours up to three. ok is false when s is not a timecode. Fields out of range
// (minutes or seconds over 59, frames over 29, a drop-frame label that
// does not exist) are read anyway, as a count of frames, and described in
// problem.
func parseTimecode(s string) (tc timecode, problem string, ok bool) {
	var fields [4]int64
	var last byte
	i := 0
	for n := range fields {
		if n > 0 {
			if i == len(s) || s[i] != ':' && s[i] != ';' && s[i] != '.' {
				return tc, "", false
			}
			last = s[i]
			i++
		}
		start, most := i, 2
		if n == 0 {
			most = 3
		}
		for i < len(s) && i-start <= most && s[i] >= '0' && s[i] <= '9' {
			fields[n] = fields[n]*10 + int64(s[i]-'0')
			i++
		}
		if i == start || i-start > most {
			return tc, "", false
		}
	}
	if i != len(s) {
		return tc, "", false
	}
	tc = timecode{h: fields[0], m: fields[1], s: fields[2], f: fields[3], drop: last != ':'}
	switch {
	case tc.m > 59 || tc.s > 59 || tc.f > 29:
		problem = fmt.Sprintf("timecode %s has a field out of range (minutes and seconds 0-59, frames 0-29); it was read as a count of frames", s)
	case tc.drop && tc.s == 0 && tc.f < 2 && tc.m%10 != 0:
		problem = fmt.Sprintf("drop-frame timecode %s names a frame that drop-frame counting skips; it was read as %02d:%02d:00;02", s, tc.h, tc.m)
		tc.f = 2
	}
	return tc, problem, true
}

// formatTimecode returns frame n as a drop-frame ("HH:MM:SS;FF") or
// non-drop-frame ("HH:MM:SS:FF") timecode.
func formatTimecode(n int64, drop bool) string { return string(appendTimecode(nil, n, drop)) }

// appendTimecode appends frame n as formatTimecode writes it.
func appendTimecode(b []byte, n int64, drop bool) []byte {
	sep := byte(':')
	if drop {
		sep = ';'
		d, r := n/framesPer10MinuteDF, n%framesPer10MinuteDF
		n += 18 * d
		if r >= 2 {
			n += 2 * ((r - 2) / framesPerMinuteDF)
		}
	}
	f, s, m, h := n%30, n/30%60, n/1800%60, n/108000
	b = appendTwo(b, h)
	b = append(b, ':')
	b = appendTwo(b, m)
	b = append(b, ':')
	b = appendTwo(b, s)
	b = append(b, sep)
	return appendTwo(b, f)
}

func appendTwo(b []byte, v int64) []byte {
	if v < 10 {
		b = append(b, '0')
	}
	return strconv.AppendInt(b, v, 10)
}
