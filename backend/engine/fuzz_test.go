package engine

import (
	"context"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/fix"
)

// FuzzProcess runs the whole engine on arbitrary bytes under every preset,
// profile and standard the selectors pick. It must never panic; a refusal
// must be one of Process's documented errors; a result must have a valid
// status for both outputs, every change must point at a cue of its
// output or at the whole file, the aided output must be no worse than the
// delivery ([worseAided]), and its API encoding must equal
// encoding/json's.
func FuzzProcess(f *testing.F) {
	f.Add([]byte("1\n00:00:05,000 --> 00:00:06,000\nSecond <i>open\n\n2\n00:00:01,000 --> 00:00:02,000\nFirst\n"), uint8(0), uint8(3), uint8(4), "")
	f.Add([]byte("00:00:01.000 --> 00:00:02.000\n<ruby>東京<rt>とうきょう</rt></ruby>\n\n00:00:03.000 --> 00:00:04.000\n<foo> </foo>\n"), uint8(2), uint8(1), uint8(2), "en")
	f.Add([]byte("1\n00:00:01,000 --> 00:00:03,000\n<font color=\"red\">Caf\xe9</font> now\n"), uint8(7), uint8(2), uint8(0), "pt-BR")
	f.Add([]byte("[Script Info]\nScriptType: v4.00+\n\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\nDialogue: 0,0:00:01.00,0:00:02.00,Default,,0,0,0,,{\\i1}x\n"), uint8(4), uint8(3), uint8(1), "")
	f.Add([]byte("WEBVTT\n\n00:00:01.000 --> 00:00:02.000\n<v A\x1b>x <i>\x1b[1m</i>\u0085y\x7f\n"), uint8(1), uint8(2), uint8(3), "")
	eng := newTestEngine(f)
	presets := eng.Presets().IDs()
	profiles := fix.Profiles()
	standards := append([]string{""}, eng.Standards().IDs()...)
	f.Fuzz(func(t *testing.T, data []byte, preset, profile, std uint8, lang string) {
		req := Request{
			Filename: "in", Data: data,
			Preset:     presets[int(preset)%len(presets)],
			FixProfile: string(profiles[int(profile)%len(profiles)]),
			Standard:   standards[int(std)%len(standards)],
			Language:   lang,
		}
		res, err := eng.Process(context.Background(), req)
		if err != nil {
			switch apperr.KindOf(err) {
			case apperr.ProcessingFailed, apperr.InputTooLarge:
			case apperr.BadRequest:
				if lang == "" {
					t.Fatalf("bad request without a language to blame: %v", err)
				}
			default:
				t.Fatalf("unexpected error: %v", err)
			}
			return
		}
		for _, s := range []Status{res.DeliveryStatus, res.AidedStatus} {
			if s != Ready && s != WillAdapt && s != NeedsAttention {
				t.Fatalf("status %q", s)
			}
		}
		for _, rep := range []*Report{res.Report, res.AidedReport} {
			for _, c := range rep.Fixes {
				if c.CueIndex < fix.FileLevel || c.Code == "" || c.Action == "" || strings.TrimSpace(c.Message) == "" {
					t.Fatalf("change %+v", c)
				}
			}
		}
		if bad := worseAided(res); len(bad) > 0 {
			t.Fatalf("the aided output is worse: %s", strings.Join(bad, "; "))
		}
		sameAsEncodingJSON(t, res)
	})
}
