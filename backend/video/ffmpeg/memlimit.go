package ffmpeg

import (
	"strconv"
	"strings"
)

// Defaults of [Options.MemoryLimit] and [Options.OCRMemoryLimit]: the
// address space ffmpeg or ffprobe, and tesseract, may map (docs/security.md,
// Limits). 2 GiB holds a 4096x2304 burn-in with its encoder's lookahead;
// tesseract reads small caption images.
const (
	DefaultMemoryLimit    = 2 << 30
	DefaultOCRMemoryLimit = 1 << 30
)

// limitArgv puts argv under an address-space limit (RLIMIT_AS) of mem
// bytes, rounded down to KiB; mem <= 0 leaves argv as is.
//
// The limit is set by /bin/sh's ulimit -v in the child itself, which then
// execs argv: rlimits carry across execve, so the limit holds from the
// first instruction of nice and of ffmpeg, and whatever they start
// inherits it. Go's exec has no rlimit hook, and prlimit(2) on the pid
// after Start races with the child: the limit would land at a moment that
// varies (during the loader, or after the first frames), so the same job
// would fail in different ways. argv goes to the shell as its positional
// parameters ("$@"), never inside the script, so nothing in it is parsed
// by the shell.
func limitArgv(mem int64, argv []string) []string {
	kib := mem >> 10
	if kib <= 0 {
		return argv
	}
	return append([]string{"/bin/sh", "-c", `ulimit -v ` + strconv.FormatInt(kib, 10) + ` && exec "$@"`, "captionqa-limit"}, argv...)
}

// outOfMemoryWords are what a process under RLIMIT_AS writes when a
// mapping fails: the loader (a library that no longer fits), strerror's
// ENOMEM (FFmpeg's AVERROR(ENOMEM)), x264's and libc++'s own wording.
// A read-only table.
var outOfMemoryWords = []string{
	"failed to map segment from shared object",
	"cannot allocate memory",
	"out of memory",
	"malloc of size",
	"std::bad_alloc",
}

// outOfMemory reports whether a failed process's standard error shows that
// an allocation failed.
func outOfMemory(stderr string) bool {
	low := strings.ToLower(stderr)
	for _, w := range outOfMemoryWords {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}
