package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"os"
	"path/filepath"
	"strings"

	"github.com/captionqa/captionqa/backend/analysis"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/blob"
	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/video"
	"github.com/captionqa/captionqa/backend/video/ffmpeg"
)

const analyzeUsage = "VIDEO [--json] [--ffmpeg PATH]"

// runAnalyze analyses a local programme as an analyze job does
// (docs/cli.md, analyze): its shot changes, speech and waveform; --json
// prints the analysis for process --analysis.
func runAnalyze(ctx context.Context, args []string, env Env) int {
	fs := newFlagSet("analyze", analyzeUsage, env)
	asJSON := fs.Bool("json", false, "print the analysis as JSON (the API's analysis object), for process --analysis")
	bin := fs.String("ffmpeg", envOr(envFFmpeg, ""), "the ffmpeg binary; ffprobe is looked up beside it (env "+envFFmpeg+"; default: ffmpeg on the PATH)")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return usageFailed(err)
	}
	if len(pos) != 1 {
		fs.Usage()
		return usageError(env, "analyze takes exactly one VIDEO")
	}
	a, err := analyzeLocal(ctx, pos[0], *bin)
	if err != nil {
		return printError(env, err)
	}
	if *asJSON {
		return printed(env, printJSON(env.Stdout, a))
	}
	return printed(env, printAnalysis(env.Stdout, a))
}

// printAnalysis prints what the analysis found, in a few lines.
func printAnalysis(w io.Writer, a *analysis.Analysis) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Duration:      %s\n", caption.FormatClock(a.DurationMs))
	if v := a.Video; v != nil {
		fmt.Fprintf(&b, "Frame rate:    %.3f fps (%d/%d), %d frames\n", v.FrameRate.FPS(), v.FrameRate.Num, v.FrameRate.Den, v.FrameCount)
		fmt.Fprintf(&b, "Shot changes:  %d\n", len(v.ShotChanges))
		for i, c := range v.ShotChanges {
			if i == 10 {
				fmt.Fprintf(&b, "  ... and %d more (--json lists them all)\n", len(v.ShotChanges)-i)
				break
			}
			fmt.Fprintf(&b, "  %s  frame %d\n", caption.FormatClock(c.TimeMs), c.Frame)
		}
	} else {
		b.WriteString("Picture:       none\n")
	}
	if au := a.Audio; au != nil {
		var total int64
		for _, s := range au.Speech {
			total += s.DurationMs()
		}
		fmt.Fprintf(&b, "Speech:        %d segments, %s in all\n", len(au.Speech), caption.FormatClock(total))
	} else {
		b.WriteString("Sound:         none\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// analyzeLocal probes and analyses the file at path with ffmpeg (bin, or
// the one on the PATH), reading it in place.
func analyzeLocal(ctx context.Context, path, bin string) (*analysis.Analysis, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	if st, err := os.Stat(abs); err != nil || !st.Mode().IsRegular() {
		return nil, apperr.New(apperr.BadRequest, "%s is not a readable file", path).WithDetail("field", "video")
	}
	work, err := os.MkdirTemp("", "captionqa-analyze-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(work)
	o := ffmpeg.Options{WorkDir: work, Blobs: oneFile{path: abs}}
	if bin != "" {
		o.FFmpeg, o.FFprobe = bin, filepath.Join(filepath.Dir(bin), "ffprobe")
	}
	r, err := ffmpeg.New(o)
	if err != nil {
		return nil, err
	}
	p, err := r.Probe(ctx, oneFileKey)
	if err != nil {
		return nil, err
	}
	return r.Analyze(ctx, video.AnalyzeSpecOf(oneFileKey, p), func(float64) {})
}

// readAnalysis reads an analysis a previous analyze --json printed.
func readAnalysis(path string) (*analysis.Analysis, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, apperr.New(apperr.BadRequest, "--analysis: %v", err).WithDetail("field", "analysis")
	}
	var a analysis.Analysis
	if err := json.Unmarshal(b, &a); err != nil {
		return nil, apperr.New(apperr.BadRequest, "--analysis: %s is not an analysis (captionqa analyze --json): %v", path, err).WithDetail("field", "analysis")
	}
	if err := a.Check(); err != nil {
		return nil, apperr.New(apperr.BadRequest, "--analysis: %v", err).WithDetail("field", "analysis")
	}
	return &a, nil
}

// oneFileKey is the key under which [oneFile] holds its file.
const oneFileKey = "media/local"

// oneFile is a read-only blob store of one local file, which ffmpeg then
// reads in place ([blob.Local]) instead of a copy.
type oneFile struct{ path string }

var (
	_ blob.Store = oneFile{}
	_ blob.Local = oneFile{}
)

func (f oneFile) LocalFile(_ context.Context, key string) (string, int64, error) {
	if key != oneFileKey {
		return "", 0, apperr.New(apperr.NotFound, "blob not found")
	}
	return f.path, 0, nil
}

func (f oneFile) Get(_ context.Context, key string, rng *blob.Range) (io.ReadCloser, blob.Info, error) {
	if key != oneFileKey || rng != nil {
		return nil, blob.Info{}, apperr.New(apperr.NotFound, "blob not found")
	}
	file, err := os.Open(f.path)
	if err != nil {
		return nil, blob.Info{}, err
	}
	st, err := file.Stat()
	if err != nil {
		file.Close()
		return nil, blob.Info{}, err
	}
	return file, blob.Info{Key: key, Size: st.Size(), ModTime: st.ModTime()}, nil
}

func (oneFile) Put(context.Context, string, io.Reader, int64) (blob.Info, error) {
	return blob.Info{}, fmt.Errorf("cli: the analysed file is read-only")
}

func (oneFile) Delete(context.Context, string) error {
	return fmt.Errorf("cli: the analysed file is read-only")
}

func (oneFile) List(context.Context, string) iter.Seq2[blob.Info, error] {
	return func(func(blob.Info, error) bool) {}
}
