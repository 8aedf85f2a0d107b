package video

import (
	"testing"
	"time"
)

// TestPixelRateCost: a burn-in's timeout and its cost in the wait estimate
// grow with the pixel rate past 1080p30 and never fall below it; a stream
// copy's follow the duration alone.
func TestPixelRateCost(t *testing.T) {
	job := func(mode string, w, h, fps float64) *Job {
		return &Job{Mode: mode, MediaSeconds: 60, PixelRate: w * h * fps}
	}
	speeds := map[string]float64{}
	burn := []*Job{
		job(ModeBurnIn, 0, 0, 0), // unknown: a reference video
		job(ModeBurnIn, 640, 360, 30),
		job(ModeBurnIn, 1920, 1080, 30),
		job(ModeBurnIn, 1920, 1080, 60),
		job(ModeBurnIn, 3840, 2160, 30),
		job(ModeBurnIn, 4096, 2304, 120),
	}
	want := []time.Duration{5 * time.Minute, 5 * time.Minute, 5 * time.Minute, 8 * time.Minute, 14 * time.Minute}
	for i, j := range burn[:len(want)] {
		if got := Timeout(j); got != want[i] {
			t.Errorf("burn-in of 60 s at %.0f px/s: timeout %v, want %v", j.PixelRate, got, want[i])
		}
	}
	for i := 1; i < len(burn); i++ {
		a, b := burn[i-1], burn[i]
		if Timeout(b) < Timeout(a) || cost(b, speeds) < cost(a, speeds) {
			t.Errorf("pixel rate %.0f to %.0f: timeout %v to %v, cost %v to %v; want neither to fall",
				a.PixelRate, b.PixelRate, Timeout(a), Timeout(b), cost(a, speeds), cost(b, speeds))
		}
	}
	if hi, ref := cost(burn[5], speeds), cost(burn[2], speeds); hi < 18*ref {
		t.Errorf("4096x2304 at 120 fps costs %v, 1080p30 %v; want about 18 times", hi, ref)
	}
	mux, muxBig := job(ModeMuxSoft, 1920, 1080, 30), job(ModeMuxSoft, 4096, 2304, 120)
	if Timeout(mux) != Timeout(muxBig) || cost(mux, speeds) != cost(muxBig, speeds) {
		t.Errorf("mux_soft: timeout %v and %v, cost %v and %v; want the pixel rate ignored", Timeout(mux), Timeout(muxBig), cost(mux, speeds), cost(muxBig, speeds))
	}
	ocr := &Job{Kind: KindExtract, Mode: ModeOCRBurned, MediaSeconds: 60, PixelRate: 3840 * 2160 * 30}
	if Timeout(ocr) != 2*time.Minute+4*30*time.Second {
		t.Errorf("ocr_burned of 60 s at 2160p30: timeout %v, want 4 times the 1080p allowance", Timeout(ocr))
	}
}
