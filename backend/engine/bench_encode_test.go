package engine

import (
	"context"
	stdjson "encoding/json"
	"io"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"

	"github.com/captionqa/captionqa/backend/caption/synth"
	"github.com/captionqa/captionqa/backend/gctune"
	"github.com/captionqa/captionqa/backend/jsonw"
)

// BenchmarkEncodeResult encodes the process result of the 4 MiB,
// 40,000-cue file (every finding listed, as the API's ?all=true asks)
// three ways: with jsonw (Result.EncodeJSON, what the API and the CLI
// use), with go-json-experiment/json and with encoding/json, from the
// result's struct tags. It is the measurement behind package jsonw's
// reason to exist (see its package doc).
func BenchmarkEncodeResult(b *testing.B) {
	gctune.Apply()
	eng := newTestEngine(b)
	res, err := eng.Process(context.Background(), Request{
		Filename: "big.srt", Data: synth.SRT(40_000), Preset: "generic", FixProfile: "auto-split-cps", Standard: "dcmp",
		AllDiagnostics: true,
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("jsonw", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			e := jsonw.NewEncoder(io.Discard)
			res.EncodeJSON(e)
			if err := e.Flush(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("go-json-experiment", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := jsonv2.MarshalWrite(io.Discard, res); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if err := stdjson.NewEncoder(io.Discard).Encode(res); err != nil {
				b.Fatal(err)
			}
		}
	})
}
