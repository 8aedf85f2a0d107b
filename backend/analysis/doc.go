// Package analysis is what CaptionQA knows of a programme's picture and
// sound: its shot changes, its speech activity and a waveform summary
// ([Analysis], the JSON form docs/media.md, Analysis, documents), and the
// signal processing that computes and uses them without a network or a
// model: a voice-activity detector over 16 kHz mono PCM, the waveform's
// peaks, the filtering of a scene detector's raw changes, and the
// estimation of a caption file's offset and frame-rate drift against the
// speech by cross-correlation.
//
// It knows nothing of ffmpeg, HTTP or SQL: the video adapter feeds it
// samples and scene scores, the rules read an [Analysis]. Speech detection
// is not speech recognition: it says when someone speaks, not what.
package analysis
