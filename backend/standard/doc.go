// Package standard grades a caption delivery against a regulatory standard
// or guideline, clause by clause: wcag-2.1-aa, en-301-549, fcc-79.1 and
// dcmp (docs/cli.md, Presets and standards).
//
// Each standard is a clause catalogue: data in assets/standards/*.json that
// [Load] reads from an fs.FS and validates. A clause names a kind of check:
// "checks" runs rules of the rules package with the standard's own
// thresholds on the delivery track; "manual" is a clause that needs the
// audio, the video or the player and is never settled from a file; the
// other kinds are small graders written in Go, one file each.
//
// Every clause ends in one [Status]. A clause is [StatusFail] when a
// machine-checkable part of it fails, [StatusPass] only when every part of
// it could be checked and held, and [StatusNotEvaluated] otherwise, always
// with a reason. Clauses that mix checkable and uncheckable parts are split
// into sub-clauses in the catalogues (1.2.2-structure, 1.2.2-equivalence),
// so results stay deterministic. FCC accuracy needs the audio and is
// never passed.
package standard
