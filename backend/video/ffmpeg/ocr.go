package ffmpeg

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	ffmpeggo "github.com/u2takey/ffmpeg-go"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/video"
)

// ocr_burned reads captions burned into the picture, in three steps:
//
//  1. ffmpeg decodes the video once and sends the bottom third of every
//     frame (the caption band; upscaled twice for frames under 600
//     lines) as raw YUV 4:2:0 on a pipe, at the probed frame rate made
//     constant from time 0, so a frame's number is its time. No seeking:
//     a window decoded around each change would start at the keyframe
//     before it, often seconds away, and cost more than the one pass.
//  2. Go binarises the band (ocrmask.go: a bright fill, white or yellow,
//     ringed by a dark outline) six times a second and, where two samples
//     differ, on every frame between them, cutting the video into
//     segments with one caption each, exact to the frame (ocrseg.go).
//     A goroutine reads the pipe ahead, so decoding and binarising
//     overlap.
//  3. One tesseract process (OMP_THREAD_LIMIT=1, page segmentation 6: a
//     block of lines, so 2-line captions stay 2 lines) reads every
//     segment's majority mask, black on white and scaled to 720p text
//     size, from a list file. The texts are cleaned, repeated reads of
//     one caption merged, and the cues written as SRT (ocrtext.go).
//
// Measured on this project's 2-core machine, 30 cues over 47 s of
// testsrc2 (a busy, colourful background), white and yellow text in the
// service's burn-in style: CER 0% at 720p and 1080p, every cue time
// exact to the frame; about 11x real time at 720p (5.8 CPU-s) and 6x at
// 1080p (11 CPU-s), three quarters of it ffmpeg's decoding.
//
// Limits:
//   - only the bottom third is read: top-placed captions (\an8) are
//     missed;
//   - the fill must be white or yellow (or near) inside a dark outline;
//     boxed captions count only where the box is dark (an opaque box, or
//     a translucent one over a dark picture), shadow-only text not at all;
//   - a caption shown for less than a sampling step (a sixth of a
//     second), or a change undone within one, can be missed;
//   - fades give a few extra segments, merged when they read the same;
//   - bright outlined graphics in the band (a score bug) are read as
//     captions; lines that are mostly not letters or digits are dropped;
//   - small frames read worse: at 360p the character error rate was
//     about 5%;
//   - English only (tesseract-ocr-eng); a rotated video is read as
//     stored (no autorotate), where sideways text is not found.

// Tunables of ocr_burned.
const (
	ocrSampleRate = 6  // band samples binarised per second
	ocrPad        = 16 // white border around a mask given to tesseract
	// ocrTextH is the frame height whose captions tesseract is given as
	// they are: bands of larger frames are scaled down to it, their text
	// being larger than tesseract reads best (at 1080p, "jacket" was read
	// "Jacket").
	ocrTextH    = 720
	ocrSuper    = 4 // samples per axis and pixel when scaling a mask down
	ocrUpscaleH = 600
	ocrMaxSide  = 8192
	// ocrMergeGap is the longest flicker, in seconds, between two reads
	// of one caption that are merged.
	ocrMergeGap = 0.2
)

// ocrGeometry is the band cut from each frame.
type ocrGeometry struct {
	w, h   int // the frame, as probed
	bandH  int // the band's height in the frame
	scale  int // 1, or 2 for small frames
	bw, bh int // the band as sent: (w, bandH) × scale
}

func newOCRGeometry(w, h int) (ocrGeometry, error) {
	if w < 16 || h < 16 || w > ocrMaxSide || h > ocrMaxSide {
		return ocrGeometry{}, fmt.Errorf("ffmpeg: ocr: unsupported frame size %dx%d", w, h)
	}
	g := ocrGeometry{w: w, h: h, bandH: h / 3 &^ 1, scale: 1}
	if h < ocrUpscaleH {
		g.scale = 2
	}
	g.bw, g.bh = w*g.scale, g.bandH*g.scale
	return g, nil
}

// ocrArgs returns ffmpeg's arguments for the band of g at fps from the
// media at inputURL, its demuxer forced when known. The filters: a
// constant frame rate from time 0 (so frame n is at n/fps), the probed
// size (a resolution change mid-stream keeps the band's size), the
// bottom band, the upscale (lanczos: sharper outlines than bicubic, which
// lost a third of the text at 360p), 8-bit 4:2:0. The decoder keeps
// ffmpeg's automatic thread count (one per core and one more): on two
// cores, next to the binariser, it ran faster than one or two threads.
func ocrArgs(g ocrGeometry, fps ocrRate, inputURL, demuxer string) ([]string, error) {
	vf := fmt.Sprintf("fps=fps=%s:start_time=0,scale=%d:%d,crop=%d:%d:0:%d", fps, g.w, g.h, g.w, g.bandH, g.h-g.bandH)
	if g.scale != 1 {
		vf += fmt.Sprintf(",scale=%d:%d:flags=lanczos", g.bw, g.bh)
	}
	vf += ",format=yuv420p"
	return buildArgs(func() *ffmpeggo.Stream {
		kw := ffmpeggo.KwArgs{
			"format_whitelist":   formatWhitelist,
			"protocol_whitelist": protocolWhitelist,
			"noautorotate":       "",
		}
		if demuxer != "" {
			kw["f"] = demuxer
		}
		in := ffmpeggo.Input(inputURL, kw)
		return ffmpeggo.Output([]*ffmpeggo.Stream{in.Get("V:0")}, "pipe:1", ffmpeggo.KwArgs{
			"vf": vf, "an": "", "sn": "", "dn": "", "f": "rawvideo",
		}).GlobalArgs("-nostdin", "-hide_banner", "-nostats", "-loglevel", "error")
	})
}

// tesseractArgs are tesseract's arguments after the binary: the list
// file, text to stdout, a block of lines (psm 6: keeps 2-line captions
// whole), English, no retry of unreadable lines as inverted text (masks
// are always black on white).
func tesseractArgs(list string) []string {
	return []string{list, "stdout", "--psm", "6", "-l", "eng", "-c", "tessedit_do_invert=0"}
}

// CheckOCR runs tesseract once and checks that it reads English, as
// ocr_burned needs; call it at startup next to [Runner.Check]. Errors:
// one naming what is missing, or ctx's error.
func (r *Runner) CheckOCR(ctx context.Context) error {
	tesseract, err := lookPath("", "tesseract")
	if err != nil {
		return fmt.Errorf("ffmpeg: check: %w (install tesseract-ocr and tesseract-ocr-eng)", err)
	}
	out, err := r.capture(ctx, r.workDir, tesseract, 0, "--list-langs")
	if err != nil {
		return fmt.Errorf("ffmpeg: check: tesseract does not run: %w", err)
	}
	if !listed(out, 0, "eng") {
		return fmt.Errorf("ffmpeg: check: %s has no English data (install tesseract-ocr-eng)", tesseract)
	}
	return nil
}

// noCaptions is the error of media where OCR found nothing.
func noCaptions() error {
	return apperr.New(apperr.ProcessingFailed, "no burned-in captions were found in the bottom third of the picture").
		WithDetail("jobError", "no_captions_detected")
}

// ocr reads the captions burned into the video at spec.MediaKey (see the
// comment at the top of this file) and returns them as SRT, reporting
// progress as the fraction of the frames decoded. The run folder is
// removed before it returns.
//
// Errors: apperr.ProcessingFailed with details.jobError
// "no_captions_detected" when no caption is found; an error for a frame
// size it cannot take or when tesseract is not installed; the store's
// errors (apperr.NotFound when the media is gone); ctx's error (wrapped,
// for errors.Is) when ctx ended, ffmpeg and tesseract stopped; a
// *[video.RunError] (wrapped) when ffmpeg or tesseract failed.
func (r *Runner) ocr(ctx context.Context, spec video.ExtractSpec, report func(float64)) (*video.Extracted, error) {
	g, err := newOCRGeometry(spec.Width, spec.Height)
	if err != nil {
		return nil, err
	}
	fps := ocrFrameRate(spec.FrameRate)
	tesseract, err := lookPath("", "tesseract")
	if err != nil {
		return nil, fmt.Errorf("ffmpeg: ocr: %w (install tesseract-ocr and tesseract-ocr-eng)", err)
	}
	env, err := lookPath("", "env")
	if err != nil {
		return nil, fmt.Errorf("ffmpeg: ocr: %w", err)
	}
	src, err := r.locate(ctx, spec.MediaKey)
	if err != nil {
		return nil, err
	}
	args, err := ocrArgs(g, fps, src.url(), demuxers[spec.Container])
	if err != nil {
		return nil, err
	}
	dir, done, err := r.stagedRun(ctx, src)
	if err != nil {
		return nil, err
	}
	defer done()
	start := time.Now()
	step := max(1, int(float64(fps.num)/float64(fps.den)/ocrSampleRate+0.5))
	sg := newSegmenter(g.bw, g.bh, g.h*g.scale, g.scale > 1, step)
	// Each caption's image goes to disk as soon as its segment closes,
	// so memory stays flat however long the video.
	pages := &ocrPages{dir: dir, scale: min(1, float64(ocrTextH)/float64(g.h*g.scale))}
	p := newFrameProgress(ctx, spec.DurationSeconds*float64(fps.num)/float64(fps.den), report)
	frames, analysed := analyseBand(sg, bandSize(g.bw, g.bh), pages)
	read := false
	err = r.run(ctx, dir, r.ffmpegBin, r.mem, args, func(rd io.Reader) { read = true; readBand(rd, frames, p) })
	if !read { // ffmpeg did not start
		close(frames.full)
	}
	<-analysed
	if err == nil {
		sg.finish()
		err = pages.store(sg)
	}
	if err != nil {
		r.log.Warn("ffmpeg: ocr decode failed", "key", spec.MediaKey, "elapsed", time.Since(start), "err", err)
		return nil, err
	}
	p.done()
	decoded := time.Since(start)

	cues, err := r.readPages(ctx, dir, env, tesseract, pages)
	if err != nil {
		r.log.Warn("ffmpeg: ocr failed", "key", spec.MediaKey, "elapsed", time.Since(start), "err", err)
		return nil, err
	}
	cues = mergeCues(cues, int(ocrMergeGap*float64(fps.num)/float64(fps.den)))
	r.log.Info("ffmpeg: ocr", "key", spec.MediaKey, "frames", sg.n, "segments", len(sg.segments), "images", len(pages.segments), "cues", len(cues),
		"decode", decoded, "elapsed", time.Since(start))
	if len(cues) == 0 {
		return nil, noCaptions()
	}
	return &video.Extracted{Data: writeSRT(cues, fps), Format: "srt"}, nil
}

// ocrQueue is how many frames the reader may be ahead of the segmenter.
const ocrQueue = 4

// bandFrames connects readBand, which fills buffers from ffmpeg's
// output, to the segmenter, which returns them when done.
type bandFrames struct {
	free, full chan []byte
}

// analyseBand starts a goroutine pushing the frames sent on the returned
// bandFrames' full channel into sg, and storing the images of the
// segments it closes in pages, until the channel is closed; then the
// returned channel is closed (a failure to store is pages.err).
// Decoding (ffmpeg) and binarising (Go) so overlap instead of taking
// turns through a pipe smaller than a frame.
func analyseBand(sg *segmenter, size int, pages *ocrPages) (bandFrames, <-chan struct{}) {
	n := sg.step + ocrQueue
	f := bandFrames{free: make(chan []byte, n), full: make(chan []byte, n)}
	for range n {
		f.free <- make([]byte, size)
	}
	analysed := make(chan struct{})
	go func() {
		defer close(analysed)
		for buf := range f.full {
			for _, b := range sg.push(buf) {
				f.free <- b
			}
			if pages != nil && pages.err == nil {
				pages.err = pages.store(sg)
			}
		}
	}()
	return f, analysed
}

// readBand reads frames from rd into free buffers and passes them on
// until rd ends, then closes f.full; a partial last frame (a killed
// ffmpeg) is dropped.
func readBand(rd io.Reader, f bandFrames, p *frameProgress) {
	defer close(f.full)
	for {
		buf := <-f.free
		if _, err := io.ReadFull(rd, buf); err != nil {
			return
		}
		f.full <- buf
		p.frame()
	}
}

// ocrPages are the caption images tesseract will read, files in the run
// folder: one per segment with ink, in order.
type ocrPages struct {
	dir   string
	scale float64 // of the images (see inkImage.pgm)
	// segments holds the segments written, images dropped; stored is
	// how many of the segmenter's segments were looked at.
	segments []ocrSegment
	stored   int
	err      error
}

// name is the file of the i-th page.
func (p *ocrPages) name(i int) string { return fmt.Sprintf("ocr-%05d.pgm", i) }

// store writes the images of the segments sg closed since the last call
// and lets go of them.
func (p *ocrPages) store(sg *segmenter) error {
	for ; p.stored < len(sg.segments); p.stored++ {
		s := &sg.segments[p.stored]
		if s.img == nil {
			continue
		}
		if err := os.WriteFile(filepath.Join(p.dir, p.name(len(p.segments))), s.img.pgm(p.scale, ocrPad), 0o600); err != nil {
			return fmt.Errorf("ffmpeg: ocr: %w", err)
		}
		s.img = nil
		p.segments = append(p.segments, *s)
	}
	return p.err
}

// readPages has tesseract read the pages, in one process, and returns
// their cleaned texts as cues (empty ones dropped).
func (r *Runner) readPages(ctx context.Context, dir, env, tesseract string, pages *ocrPages) ([]ocrCue, error) {
	if len(pages.segments) == 0 {
		return nil, nil
	}
	var list strings.Builder
	for i := range pages.segments {
		list.WriteString(pages.name(i) + "\n")
	}
	if err := os.WriteFile(filepath.Join(dir, "ocr-list.txt"), []byte(list.String()), 0o600); err != nil {
		return nil, fmt.Errorf("ffmpeg: ocr: %w", err)
	}
	// run puts nice before the command, env sets the variable: the
	// supervisor passes its own environment on.
	args := append([]string{"OMP_THREAD_LIMIT=1", tesseract}, tesseractArgs("ocr-list.txt")...)
	out, err := r.capture(ctx, dir, env, r.ocrMem, args...)
	if err != nil {
		return nil, fmt.Errorf("ffmpeg: tesseract: %w", err)
	}
	texts, err := splitPages(out, len(pages.segments))
	if err != nil {
		return nil, err
	}
	var cues []ocrCue
	for i, s := range pages.segments {
		if text := cleanText(texts[i]); text != "" {
			cues = append(cues, ocrCue{start: s.start, end: s.end, text: text})
		}
	}
	return cues, nil
}

// pgm encodes m as a binary PGM, ink black on white, scaled by scale
// (at most 1; a scaled image is grey where a pixel covers ink in part),
// with pad pixels of white around it.
func (m *inkImage) pgm(scale float64, pad int) []byte {
	if scale > 1 || scale <= 0 {
		scale = 1
	}
	iw, ih := int(float64(m.w)*scale+0.999), int(float64(m.h)*scale+0.999)
	w, h := iw+2*pad, ih+2*pad
	header := "P5\n" + strconv.Itoa(w) + " " + strconv.Itoa(h) + "\n255\n"
	out := make([]byte, len(header)+w*h)
	copy(out, header)
	pix := out[len(header):]
	for i := range pix {
		pix[i] = 255
	}
	// Each output pixel averages ocrSuper×ocrSuper points of the mask.
	const n = ocrSuper * ocrSuper
	for y := range ih {
		row := pix[(y+pad)*w+pad:]
		for x := range iw {
			ink := 0
			for sy := range ocrSuper {
				my := int((float64(y) + (float64(sy)+0.5)/ocrSuper) / scale)
				if my >= m.h {
					continue
				}
				for sx := range ocrSuper {
					mx := int((float64(x) + (float64(sx)+0.5)/ocrSuper) / scale)
					if mx < m.w {
						ink += int(m.pix[my*m.w+mx])
					}
				}
			}
			row[x] = byte(255 - 255*ink/n)
		}
	}
	return out
}

// frameProgress reports the fraction of the expected frames read, at most
// once per progressInterval and not after ctx ended.
type frameProgress struct {
	ctx    context.Context
	total  float64
	report func(float64)
	n      int
	sent   float64
	sentAt time.Time
}

func newFrameProgress(ctx context.Context, totalFrames float64, report func(float64)) *frameProgress {
	return &frameProgress{ctx: ctx, total: totalFrames, report: report}
}

// frame counts one frame read.
func (p *frameProgress) frame() {
	p.n++
	if p.report == nil || p.total <= 0 || p.ctx.Err() != nil {
		return
	}
	f := min(float64(p.n)/p.total, 1)
	if f > p.sent && time.Since(p.sentAt) >= progressInterval {
		p.sent, p.sentAt = f, time.Now()
		p.report(f)
	}
}

// done reports the final fraction, unless ctx ended.
func (p *frameProgress) done() {
	if p.report == nil || p.total <= 0 || p.ctx.Err() != nil {
		return
	}
	if f := min(float64(p.n)/p.total, 1); f > p.sent {
		p.sent = f
		p.report(f)
	}
}
