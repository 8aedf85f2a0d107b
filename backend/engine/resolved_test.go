package engine

import (
	"context"
	"testing"
)

// TestResolvedPreset: a request carrying an already-resolved preset (an
// account's own) is checked by its rules and reported under its id; the
// name in Preset is not looked up.
func TestResolvedPreset(t *testing.T) {
	t.Parallel()
	eng := newTestEngine(t)
	in := []byte("1\n00:00:01,000 --> 00:00:04,000\nA line of text that runs past thirty characters\n")
	strict, err := eng.Presets().ParseAndDerive("studio-a", []byte(`{"base":"youtube","rules":{"line_too_long":{"level":"enforced","limit":30}}}`))
	if err != nil {
		t.Fatal(err)
	}
	plain, err := eng.Process(context.Background(), Request{Data: in, Preset: "youtube"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := eng.Process(context.Background(), Request{Data: in, Preset: "not-looked-up", Resolved: strict})
	if err != nil {
		t.Fatal(err)
	}
	if plain.DeliveryStatus != Ready || res.DeliveryStatus == Ready {
		t.Errorf("status youtube %s, studio-a %s; want the enforced line limit to block only studio-a", plain.DeliveryStatus, res.DeliveryStatus)
	}
	if res.Report.Preset != "studio-a" {
		t.Errorf("report preset %q; want studio-a", res.Report.Preset)
	}
	if err := eng.Validate(Request{Preset: "not-looked-up", Resolved: strict}); err != nil {
		t.Errorf("Validate with a resolved preset: %v", err)
	}
}
