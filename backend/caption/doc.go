// Package caption holds IR v1, the one in-memory and on-the-wire model of a
// caption timeline: every reader produces a [Track], every writer consumes one,
// and rules measure [Cue.Text].
//
// The required core ([Track.Version], [Track.Cues] and each cue's ID, StartMs,
// EndMs and Text) is a public contract. Everything else is optional and only
// ever grows: spans for styling, a voice, a placement shared by all formats,
// named styles and regions, and a namespaced Ext bag for format-only details
// that must survive a same-format round trip.
//
// The package also holds what every codec shares: text decoding with
// encoding detection ([DecodeText]), line splitting, the diagnostic type and
// its codes, and the JSON form of the IR itself ([ParseJSON], [WriteJSON]).
// It imports the standard library only.
package caption
