package fftest

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BurnedOptions shape a clip with captions burned into the picture:
// testsrc2 video (busy, colourful, with moving parts) and a 440 Hz tone,
// the captions rendered by libass (the ass filter) in the look of the
// service's own burn-in: DejaVu Sans at 5.5% of the frame height, a black
// outline of height/360 pixels, no box, bottom centre, line breaks kept.
type BurnedOptions struct {
	// Width and Height default to 1280×720, FPS to 30; Seconds defaults
	// to one second after the last cue's end.
	Width, Height, FPS int
	Seconds            float64
	// Colour is the captions' fill: "white" (the default), "yellow", or
	// "mixed" (even cues white, odd cues yellow).
	Colour string
	// Alignment is the ASS numpad position of every cue: 2 (bottom
	// centre, the default), 8 for top centre.
	Alignment int
	// Cues are the captions; their times should fall on frame
	// boundaries (see [BurnedCues]) for the truth to be exact.
	Cues []Cue
}

// Burned returns the path of an MP4 (H.264 ultrafast crf 28 yuv420p, AAC)
// of shape o, made once and cached (see the package comment). Cue times are
// written floored to the centisecond ASS keeps, so a cue starting on
// frame n's time shows from frame n on. It fails t when ffmpeg is missing
// or fails.
func Burned(t testing.TB, o BurnedOptions) string {
	t.Helper()
	if o.Width == 0 {
		o.Width, o.Height = 1280, 720
	}
	if o.FPS == 0 {
		o.FPS = 30
	}
	if o.Colour == "" {
		o.Colour = "white"
	}
	if o.Alignment == 0 {
		o.Alignment = 2
	}
	if o.Seconds == 0 && len(o.Cues) > 0 {
		o.Seconds = o.Cues[len(o.Cues)-1].End.Seconds() + 1
	}
	if o.Seconds == 0 {
		o.Seconds = 5
	}
	switch o.Colour {
	case "white", "yellow", "mixed":
	default:
		t.Fatalf("fftest: burned: unknown colour %q", o.Colour)
	}
	return cached(t, fmt.Sprintf("%s %+v", burnedRecipe, o), "mp4", func(out string) error { return makeBurned(o, out) })
}

// burnedRecipe versions Burned's recipe (within the package's): bump it
// when makeBurned or BurnedASS changes.
const burnedRecipe = "burned-1"

func makeBurned(o BurnedOptions, out string) error {
	dir := filepath.Dir(out)
	if err := os.WriteFile(filepath.Join(dir, "burned.ass"), BurnedASS(o), 0o600); err != nil {
		return err
	}
	secs := strconv.FormatFloat(o.Seconds, 'f', -1, 64)
	_, err := ffmpeg(dir,
		"-f", "lavfi", "-i", fmt.Sprintf("testsrc2=size=%dx%d:rate=%d:duration=%s", o.Width, o.Height, o.FPS, secs),
		"-f", "lavfi", "-i", "sine=frequency=440:sample_rate=48000:duration="+secs,
		"-map", "0:v", "-map", "1:a", "-vf", "ass=burned.ass",
		"-c:v", "libx264", "-preset", "ultrafast", "-crf", "28", "-pix_fmt", "yuv420p", "-c:a", "aac", out)
	return err
}

// ASS colours (&HAABBGGRR) of the fills.
const (
	assWhite  = "&H00FFFFFF"
	assYellow = "&H0000FFFF"
)

// BurnedASS returns the ASS script Burned renders for o (o's defaults
// already applied): a canvas of the video's size, the service's caption
// style, one Dialogue per cue.
func BurnedASS(o BurnedOptions) []byte {
	w, h := o.Width, o.Height
	fill := assWhite
	if o.Colour == "yellow" {
		fill = assYellow
	}
	var b strings.Builder
	fmt.Fprintf(&b, "[Script Info]\nScriptType: v4.00+\nPlayResX: %d\nPlayResY: %d\nWrapStyle: 2\nScaledBorderAndShadow: yes\n\n", w, h)
	b.WriteString("[V4+ Styles]\nFormat: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, " +
		"Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, " +
		"MarginL, MarginR, MarginV, Encoding\n")
	fmt.Fprintf(&b, "Style: Default,DejaVu Sans,%d,%s,&H000000FF,&H00000000,&H80000000,0,0,0,0,100,100,0,0,1,%.1f,0,%d,%d,%d,%d,1\n\n",
		max(h*55/1000, 12), fill, max(float64(h)/360, 1.5), o.Alignment, w/10, w/10, h*6/100)
	b.WriteString("[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n")
	for i, c := range o.Cues {
		override := ""
		if o.Colour == "mixed" && i%2 == 1 {
			override = `{\c` + assYellow[2:] + `&}`
		}
		fmt.Fprintf(&b, "Dialogue: 0,%s,%s,Default,,0,0,0,,%s%s\n", assFloor(c.Start), assFloor(c.End), override,
			strings.ReplaceAll(c.Text, "\n", `\N`))
	}
	return []byte(b.String())
}

// assFloor formats d as H:MM:SS.cc, floored to the centisecond. libass
// shows an event on a frame when start <= floor(pts in ms) < end; a
// frame lasts more than 10 ms, so the floored time of frame n's pts lies
// after frame n-1 and at or before frame n.
func assFloor(d time.Duration) string {
	cs := d.Milliseconds() / 10
	return fmt.Sprintf("%d:%02d:%02d.%02d", cs/360000, cs/6000%60, cs/100%60, cs%100)
}

// burnedLines are the captions BurnedCues draws from: everyday dialogue
// with digits and punctuation, some in two lines, each line short enough
// for a 720p frame at the service's caption size. Read-only.
var burnedLines = []string{
	"It's 7:45 already, and the train\nleaves at 8 o'clock sharp!",
	"Where did you put the keys?",
	"I left them on the kitchen table,\nnext to the blue notebook.",
	"No, that's not what I meant.",
	"Call me back at 555-0142 tonight.",
	"We need 3 boxes, maybe 4.",
	"Honestly? I think it's going to rain.",
	"The meeting moved to Room 12B\non the second floor.",
	"Quick, turn left here!",
	"She said: \"Don't wait up for me.\"",
	"That costs $24.99 plus tax.",
	"Look at the sky over the hills.",
	"Wait... did you hear that noise?",
	"My flight lands on June 3rd,\naround half past nine.",
	"Thanks for everything, really.",
	"Please keep your voice down;\nthe baby is finally asleep.",
	"Who wrote this report?",
	"Version 2.0 ships next Friday.",
	"Turn the volume up a little.",
	"I've never seen anything like it.",
	"Run! The bridge is collapsing!",
	"We walked 15 miles yesterday,\nand my feet still hurt.",
	"Is this seat taken?",
	"Add two eggs, then stir slowly.",
	"The score was 3-1 at half time.",
	"Good morning, Doctor Patel.",
	"Sorry, I missed your call.",
	"Bring a jacket; it gets cold\nafter sunset in October.",
	"Nobody knows the answer yet.",
	"Let's meet at the station at noon.",
	"Can you spell that for me?",
	"The password is long & tricky.",
	"Shh, the movie is starting.",
	"Check page 42, paragraph (b).",
	"Happy birthday, Grandma!",
	"We're out of milk again.",
}

// BurnedCues returns n cues (n at most len of the sentence list, 36) for
// a clip at fps, every time on a frame boundary: the first starts at
// frame 0, durations run from 0.9 to 1.8 s, and the gaps between cues
// vary from none (the next caption replaces the last on the same frame)
// through one or a few frames to 0.6 s. 30 cues last about 47 s.
func BurnedCues(fps, n int) []Cue {
	durations := []int{30, 42, 27, 51, 36, 33, 45, 54, 39, 48} // in 1/30 s
	gaps := []int{0, 6, 2, 12, 0, 18, 3, 1, 9, 4, 15}          // in 1/30 s
	frame := func(thirtieths int) int { return (thirtieths*fps + 15) / 30 }
	at := func(f int) time.Duration { return time.Duration(f) * time.Second / time.Duration(fps) }
	n = min(n, len(burnedLines))
	cues := make([]Cue, 0, n)
	f := 0
	for i := range n {
		if i > 0 {
			f += frame(gaps[i%len(gaps)])
		}
		end := f + max(frame(durations[i%len(durations)]), 1)
		cues = append(cues, Cue{Start: at(f), End: at(end), Text: burnedLines[i]})
		f = end
	}
	return cues
}
