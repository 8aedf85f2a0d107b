// Package format picks a caption codec by name or by content and runs it:
// [Detect] recognises a file from its first bytes (the file name is only a
// hint), [Parse] and [Write] dispatch to the codec packages. It is the one
// place that knows every codec, as miniflux's reader/parser is for feeds.
package format
