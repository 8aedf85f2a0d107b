// Package drift compares two caption timelines, the current one of a
// project and a candidate, and says cue by cue what changed: the drift
// diff of POST /api/v1/projects/{id}/diff (docs/api.md, Drift). It is a pure
// use case: it imports the standard library and [caption] only, does no
// I/O and keeps no state, so the project service calls [Diff] and adds
// the revision it compared against.
//
// # How cues are matched
//
// The diff describes an edit the way a caption editor thinks of it, cue
// by cue, rather than as the shortest edit script:
//
//   - A retimed cue is one changed item (fields start and/or end), and a
//     reworded cue is one changed item (field text), both in place.
//   - One inserted cue is one added item and one deleted cue one removed
//     item; the cues after it are not changed, even when the source
//     renumbers them, because cue IDs (an SRT counter) are not compared.
//   - A timeline shifted as a whole by a constant amount is reported as
//     [Result.OffsetMs], not as a change to every cue. Times are then
//     compared net of the shift, so a cue retimed on top of the shift, or
//     reworded, is still one changed item. The shift is the move, at both
//     ends, of more than half of the anchor cues (below), and of at least
//     two of them: one cue moving is a retime, not a shift.
//   - A split cue is one changed item (the first part, which keeps the
//     cue's start; field end and text) plus one added item per further
//     part. A merge is the mirror: one changed item (the first cue, now
//     holding the merged text) plus one removed item per further cue.
//   - A cue moved past its neighbours keeps its identity when its text
//     appears once in each timeline: it is one changed item (start, end),
//     listed where it was in the current timeline.
//   - A text that repeats ("♪", "[MUSIC]", "Yes.") does not identify a
//     cue on its own; such cues are matched by time, so deleting one of
//     three "♪" cues removes that one and leaves the other two alone.
//
// # The algorithm
//
// Texts that appear exactly once in each timeline are anchors, as in
// patience diff: the longest run of anchors in the same order in both
// timelines (a longest increasing subsequence, O(k log k)) pins the
// timelines together, and the shift is voted among those anchors. Each
// anchor pair is compared field by field. Between two consecutive anchors
// lies a gap, usually empty or one or two cues wide; its cues are paired
// where they overlap in time (net of the shift) by at least half of the
// shorter cue, or where the same text overlaps at all, or where their
// texts share at least half of the longer one at their start and end. A
// gap of at most 4,096 candidate pairs is paired optimally by
// dynamic programming over those scores, preferring identical cues, then
// the same text, then the same start; a wider gap, which only timelines
// with few unique texts produce, is paired greedily in time order. Every
// step is linear or O(n log n) in the number of cues, plus the length of
// the texts, so two 40,000-cue timelines compare faster than they parse.
//
// Track-level fields (language, styles, regions, ext) are not compared:
// the diff is about cues. Field names in [Item.Fields] are listed in
// [FieldStart] and the constants after it.
package drift
