package cli

import (
	"fmt"
	"io"
	"strings"
	"sync"
)

// progress draws a bar on a terminal; elsewhere it stays silent, so logs
// and pipes get only the report. Each file redraws one line, kept within
// the terminal's width so it never wraps and scrolls.
type progress struct {
	w     io.Writer
	on    bool
	total int
	cols  func() int // the terminal's width now: it may be resized mid-run
	n     int
	mu    sync.Mutex
}

func newProgress(w io.Writer, total int) *progress {
	return &progress{w: w, on: isTerminal(w), total: total, cols: func() int { return terminalWidth(w) }}
}

func (p *progress) done(name string) {
	if !p.on {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n++
	fmt.Fprintf(p.w, "\r\033[K%s", progressLine(p.n, p.total, name, p.cols()))
}

func (p *progress) finish() {
	if p.on {
		fmt.Fprint(p.w, "\r\033[K")
	}
}

// progressLine is the bar after n of total files, the last one name, in
// fewer than cols columns: a terminal may wrap a line that fills its last
// column. The bar takes at most 30 columns and half the room left by the
// count; the name, cut at its start, the rest.
func progressLine(n, total int, name string, cols int) string {
	count := fmt.Sprintf(" %d/%d", n, total)
	room := cols - 1 - len("[]") - len(count)
	if room < 4 {
		return cutEnd(strings.TrimSpace(count), cols-1)
	}
	bar := min(30, room/2)
	filled := bar * n / max(1, total)
	line := "[" + strings.Repeat("#", filled) + strings.Repeat(".", bar-filled) + "]" + count
	if nameRoom := room - bar - 1; nameRoom > 0 && name != "" {
		line += " " + cutStart(visible(name), nameRoom)
	}
	return line
}
