package engine

import (
	"context"
	"fmt"
	"slices"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/fix"
	"github.com/captionqa/captionqa/backend/preset"
)

// actionKeepDelivery is the aided output's change for a cue, or the whole
// file, kept as the delivery has it ([Engine.keepDelivery]).
const actionKeepDelivery = "keep_delivery"

// maxKeepRounds bounds how often [Engine.keepDelivery] makes the aided
// output again: a kept cue can clash with an aided neighbour (an overlap,
// a gap), which the next round keeps too.
const maxKeepRounds = 3

// keepDelivery holds the aided output a to what the delivery d meets
// (docs/cli.md, How the status is decided): the aided output aims at the
// preset's suggestions too, and where that gives a cue a problem the
// delivery's cue has not, it must not be offered as the better file.
// So the cues made from a source cue that has such a problem in a
// ([newProblems]) are replaced by the delivery's cues of that source, each
// with a keep_delivery change saying so, and the aided output is written
// and checked again, for at most [maxKeepRounds] rounds. When problems are
// still new after them (or only on cues already kept), or a problem of the
// whole file is (a missing language, no cue with text), the aided output
// is the delivery, with one keep_delivery change of the file. a is returned when nothing is new.
// The error is ctx's.
func (e *Engine) keepDelivery(ctx context.Context, in *input, d, a *produced) (*produced, error) {
	n := len(in.source.Cues)
	keep := map[int]problem{}
	cur := a
	for round := 0; ; round++ {
		cues, file := newProblems(in.opts.preset, n, d, cur)
		if len(cues) == 0 && file == "" {
			return cur, nil
		}
		if file != "" || round == maxKeepRounds {
			if file == "" {
				file = firstCode(cues)
			}
			return asDelivery(d, file), nil
		}
		grew := false
		for s, why := range cues {
			if _, kept := keep[s]; !kept {
				keep[s], grew = why, true
			}
		}
		// A problem left on kept cues only comes from their aided
		// neighbours, which another round would not change.
		if !grew {
			return asDelivery(d, firstCode(cues)), nil
		}
		sh, ok := mergeKept(d, a, keep)
		if !ok {
			return asDelivery(d, firstCode(cues)), nil
		}
		var err error
		if cur, err = e.finish(ctx, in, sh, false); err != nil {
			return nil, err
		}
	}
}

// asDelivery is the delivery d offered as the aided output, with a change
// saying why: the aided fixes gave the file a problem of code the
// delivery has not.
func asDelivery(d *produced, code string) *produced {
	out := *d
	out.changes = append(slices.Clip(d.changes), fix.Change{Code: code, CueIndex: fix.FileLevel, Action: actionKeepDelivery,
		Message: fmt.Sprintf("the aided output is the delivery: its own fixes gave it %s, which the delivery has not", code)})
	return &out
}

// firstCode is the code of the first source cue of cues, for a message.
func firstCode(cues map[int]problem) string {
	return cues[sortedKeys(cues)[0]].code
}

// problem is why [newProblems] finds a source cue worse in the aided
// output: a finding of code its delivery's cues have none of, or, with
// more, more of them.
type problem struct {
	code string
	more bool
}

// newProblems compares the findings on the aided output a with those on
// the delivery d, source cue by source cue (n in all): it returns each
// source cue on whose cues a has a finding of a code that d's cues of the
// same source have none of, or more findings of an enforced rule's code
// (severity error, what blocks delivery) than they have, with that code;
// and a code of which a has more findings on no cue (or one no source
// names) than d, "" when none. An aided cue split in two pieces that both
// read too fast, as the delivery's one cue does, has no new problem of a
// suggestion: it is the same problem.
func newProblems(p *preset.Preset, n int, d, a *produced) (map[int]problem, string) {
	// Each source cue's codes are a bit mask: the catalogue has 18 rules,
	// and a code past the 32 a mask holds is compared as the file's.
	bits := map[string]uint{}
	for i, c := range p.RuleCodes() {
		if i < 32 {
			bits[c] = uint(i)
		}
	}
	// on gives the source cue and code bit of a finding; ok is false for
	// one of the whole file.
	on := func(sh *shaped, f *caption.Diagnostic) (s int, bit uint, ok bool) {
		bit, known := bits[f.Code]
		if !known || f.CueIndex == nil || *f.CueIndex < 0 || *f.CueIndex >= len(sh.track.Cues) {
			return 0, 0, false
		}
		s = sh.sourceOf(*f.CueIndex)
		return s, bit, s >= 0 && s < n
	}
	has := make([]uint32, n)
	file, blocking := map[string]int{}, map[string]int{}
	for i := range d.after {
		f := &d.after[i]
		s, bit, ok := on(&d.shaped, f)
		switch {
		case !ok:
			file[f.Code]++
			continue
		case f.Severity == caption.SeverityError:
			blocking[f.Code]++
		}
		has[s] |= 1 << bit
	}
	var cues map[int]problem
	mark := func(s int, why problem) {
		if cues == nil {
			cues = map[int]problem{}
		}
		if _, seen := cues[s]; !seen {
			cues[s] = why
		}
	}
	aFile, aBlocking := map[string]int{}, map[string]int{}
	for i := range a.after {
		f := &a.after[i]
		s, bit, ok := on(&a.shaped, f)
		if !ok {
			aFile[f.Code]++
			continue
		}
		if f.Severity == caption.SeverityError {
			aBlocking[f.Code]++
		}
		if has[s]&(1<<bit) == 0 {
			mark(s, problem{code: f.Code})
		}
	}
	fileCode := ""
	for _, c := range sortedCodes(aFile) {
		if aFile[c] > file[c] {
			fileCode = c
			break
		}
	}
	// Where a has more blocking findings of a code in all, the source
	// cues with more of them than d's are new problems too.
	for _, c := range sortedCodes(aBlocking) {
		if aBlocking[c] <= blocking[c] {
			continue
		}
		count := func(pr *produced) map[int]int {
			m := map[int]int{}
			for i := range pr.after {
				if f := &pr.after[i]; f.Code == c {
					if s, _, ok := on(&pr.shaped, f); ok {
						m[s]++
					}
				}
			}
			return m
		}
		dn := count(d)
		for s, k := range count(a) {
			if k > dn[s] {
				mark(s, problem{code: c, more: true})
			}
		}
	}
	return cues, fileCode
}

func sortedCodes(m map[string]int) []string {
	codes := make([]string, 0, len(m))
	for c := range m {
		codes = append(codes, c)
	}
	slices.Sort(codes)
	return codes
}

// mergeKept is the aided output a with the cues of each source cue in
// keep replaced by the delivery d's cues of it, ready to be written
// ([Engine.finish]): each kept cue's fix changes are the delivery's, plus
// a keep_delivery change naming the code that kept it. ok is false when
// the delivery's cues of a kept source are not next to each other, which
// no fix profile makes.
func mergeKept(d, a *produced, keep map[int]problem) (shaped, bool) {
	dc, ac := d.shaped.track.Cues, a.shaped.track.Cues
	type span struct{ lo, hi int }
	from := map[int]span{} // the delivery's cues of each kept source
	for j := range dc {
		s := d.shaped.sourceOf(j)
		if _, ok := keep[s]; !ok {
			continue
		}
		r, seen := from[s]
		switch {
		case !seen:
			r = span{j, j + 1}
		case r.hi == j:
			r.hi++
		default:
			return shaped{}, false
		}
		from[s] = r
	}
	cues := make([]caption.Cue, 0, len(ac)+len(dc)/8)
	sources := make([]int, 0, cap(cues))
	aAt := make([]int, len(ac)) // the merged index of each aided cue, -1 if replaced
	dAt := map[int]int{}        // the merged index of each delivery cue taken
	done := map[int]bool{}
	for k := range ac {
		s := a.shaped.sourceOf(k)
		if _, ok := keep[s]; !ok {
			aAt[k] = len(cues)
			cues, sources = append(cues, ac[k]), append(sources, s)
			continue
		}
		aAt[k] = -1
		if done[s] {
			continue
		}
		done[s] = true
		r := from[s]
		for j := r.lo; j < r.hi; j++ {
			dAt[j] = len(cues)
			cues, sources = append(cues, dc[j]), append(sources, s)
		}
	}
	var fixes []fix.Change
	for _, c := range a.shaped.fixes {
		if _, ok := keep[c.CueIndex]; !ok {
			fixes = append(fixes, c)
		}
	}
	for _, c := range d.shaped.fixes {
		if _, ok := keep[c.CueIndex]; ok {
			fixes = append(fixes, c)
		}
	}
	for _, s := range sortedKeys(keep) {
		why := keep[s]
		m := fmt.Sprintf("kept as the delivery has it: the aided fixes gave this cue %s, which the delivery's has not", why.code)
		if why.more {
			m = fmt.Sprintf("kept as the delivery has it: the aided fixes gave this cue more %s findings than the delivery's", why.code)
		}
		fixes = append(fixes, fix.Change{Code: why.code, CueIndex: s, Action: actionKeepDelivery, Message: m})
	}
	slices.SortStableFunc(fixes, func(x, y fix.Change) int { return x.CueIndex - y.CueIndex })
	var normalised []fix.Change
	for _, c := range a.shaped.normalised {
		if c.CueIndex < 0 || aAt[c.CueIndex] >= 0 {
			if c.CueIndex >= 0 {
				c.CueIndex = aAt[c.CueIndex]
			}
			normalised = append(normalised, c)
		}
	}
	for _, c := range d.shaped.normalised {
		if m, ok := dAt[c.CueIndex]; ok {
			c.CueIndex = m
			normalised = append(normalised, c)
		}
	}
	slices.SortStableFunc(normalised, func(x, y fix.Change) int { return x.CueIndex - y.CueIndex })
	t := *a.shaped.track
	t.Cues = cues
	return shaped{track: &t, sources: sources, fixes: fixes, normalised: normalised}, true
}

func sortedKeys(m map[int]problem) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
