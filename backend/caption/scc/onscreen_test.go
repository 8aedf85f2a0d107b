package scc

import (
	"fmt"
	"strconv"

	"github.com/captionqa/captionqa/backend/caption"
)

// refCue is a cue of a reference reading, in frames. open marks an end
// nothing in the file makes, which is not checked.
type refCue struct {
	start, end int64
	open       bool
	text       string
}

// onScreen counts the parts of the reference cues' text (split makes
// them: words, lines), and those the read cues show throughout their
// cue's time: a part of a reference cue is shown when read cues that hold
// it (as often) follow each other from the cue's first frame to its last,
// each time within tol frames (from its first only, when its end is
// open). missed describes the parts that are not.
func onScreen(ref []refCue, got []caption.Cue, split func(string) []string, tol int64) (total, shown int, missed []string) {
	type span struct {
		start, end int64
		count      map[string]int
	}
	read := make([]span, len(got))
	for i := range got {
		s := span{start: msToFrame(got[i].StartMs), end: msToFrame(got[i].EndMs), count: map[string]int{}}
		for _, p := range split(got[i].Text) {
			s.count[p]++
		}
		read[i] = s
	}
	near := func(a, b int64) bool { return a-b <= tol && b-a <= tol }
	var covers func(p string, n int, from int64, r *refCue) bool
	covers = func(p string, n int, from int64, r *refCue) bool {
		for i := range read {
			s := &read[i]
			if !near(s.start, from) || s.count[p] < n || s.end <= from || !r.open && s.end > r.end+tol {
				continue
			}
			if r.open || near(s.end, r.end) || covers(p, n, s.end, r) {
				return true
			}
		}
		return false
	}
	for i := range ref {
		r := &ref[i]
		parts := split(r.text)
		count := map[string]int{}
		for _, p := range parts {
			count[p]++
		}
		total += len(parts)
		for _, p := range parts {
			n := count[p]
			if n == 0 {
				continue // counted with its first
			}
			count[p] = 0
			// As many of its n times as the read cues show throughout.
			k := n
			for k > 0 && !covers(p, k, r.start, r) {
				k--
			}
			shown += k
			if k < n {
				end := strconv.FormatInt(r.end, 10)
				if r.open {
					end = "open"
				}
				missed = append(missed, fmt.Sprintf("%q (%d of %d, frames %d-%s)", p, n-k, n, r.start, end))
			}
		}
	}
	return total, shown, missed
}
