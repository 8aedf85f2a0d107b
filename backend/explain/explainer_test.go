package explain

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"
	"time"
)

// writerFunc is a model for the explainer's tests: the one kind of fake the
// project allows, since no language model runs here. The llm package
// tests the real client against an OpenAI-compatible server.
type writerFunc func(ctx context.Context, d Draft) (Prose, error)

func (f writerFunc) Write(ctx context.Context, d Draft) (Prose, error) { return f(ctx, d) }
func (f writerFunc) Model() string                                     { return "fake-model" }

// TestExplainerWriter: the model's prose replaces the built-in text only
// when it passes; the plan is always the built-in one.
func TestExplainerWriter(t *testing.T) {
	presets := loadPresets(t)
	r := engineCases(t)["youtube-overlapping-cues-warn-only"]
	if r == nil {
		t.Fatal("the engine's youtube-overlapping-cues-warn-only case is missing")
	}
	in := r.input()
	builtin, err := New(Options{Presets: presets}).Explain(context.Background(), &in)
	if err != nil {
		t.Fatal(err)
	}
	good := func(_ context.Context, d Draft) (Prose, error) {
		return Prose{Headline: "Model headline", ClientSummary: "cue 2 overlaps cue 1",
			Actions: []ActionProse{{ID: d.Explanation.Actions[0].ID, Title: "Model title"}}}, nil
	}
	tests := []struct {
		name         string
		w            writerFunc
		wantBy       string
		wantFallback string
	}{
		{name: "model", w: good, wantBy: WrittenByModel},
		{name: "timeout", w: func(ctx context.Context, _ Draft) (Prose, error) {
			<-ctx.Done()
			return Prose{}, fmt.Errorf("waiting: %w", ctx.Err())
		}, wantBy: WrittenByBuiltin, wantFallback: FallbackTimeout},
		{name: "garbage", w: func(context.Context, Draft) (Prose, error) {
			return Prose{}, fmt.Errorf("parse: %w", ErrInvalidResponse)
		}, wantBy: WrittenByBuiltin, wantFallback: FallbackInvalid},
		{name: "refused", w: func(context.Context, Draft) (Prose, error) {
			return Prose{}, errors.New("connection refused")
		}, wantBy: WrittenByBuiltin, wantFallback: FallbackUnavailable},
		{name: "invented cue", w: func(context.Context, Draft) (Prose, error) {
			return Prose{Headline: "cue 40 is wrong"}, nil
		}, wantBy: WrittenByBuiltin, wantFallback: FallbackInventedCues},
		{name: "invented action", w: func(context.Context, Draft) (Prose, error) {
			return Prose{Actions: []ActionProse{{ID: "a9", Title: "Dub it"}}}, nil
		}, wantBy: WrittenByBuiltin, wantFallback: FallbackInventedActions},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			x := New(Options{Presets: presets, Writer: tt.w, Timeout: 50 * time.Millisecond})
			got, err := x.Explain(context.Background(), &in)
			if err != nil {
				t.Fatal(err)
			}
			if got.WrittenBy != tt.wantBy || got.Fallback != tt.wantFallback {
				t.Errorf("writtenBy %q fallback %q; want %q %q", got.WrittenBy, got.Fallback, tt.wantBy, tt.wantFallback)
			}
			gotPlan, _ := json.Marshal(planOnly(got))
			wantPlan, _ := json.Marshal(planOnly(builtin))
			if string(gotPlan) != string(wantPlan) {
				t.Errorf("the plan changed:\n%s\nwant\n%s", gotPlan, wantPlan)
			}
			if tt.wantBy == WrittenByModel {
				if got.Headline != "Model headline" || got.Actions[0].Title != "Model title" || got.Model != "fake-model" {
					t.Errorf("the model's prose was not used: %+v", got)
				}
				if got.Message != builtin.Message {
					t.Error("a field the model left empty lost the built-in text")
				}
			} else if got.Headline != builtin.Headline || got.Model != "" {
				t.Errorf("fallback headline %q model %q; want the built-in text", got.Headline, got.Model)
			}
		})
	}
}

// planOnly is an explanation's plan without its words.
func planOnly(e *Explanation) []Action {
	out := make([]Action, len(e.Actions))
	for i, a := range e.Actions {
		a.Title, a.Detail = "", ""
		out[i] = a
	}
	return out
}

// TestExplainerCanceled: a request that ends while the model writes ends
// the explanation with its error, not a fallback.
func TestExplainerCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	x := New(Options{Presets: loadPresets(t), Writer: writerFunc(func(wctx context.Context, _ Draft) (Prose, error) {
		cancel()
		<-wctx.Done()
		return Prose{}, wctx.Err()
	})})
	in := engineCases(t)["dcmp-clean-srt"].input()
	if _, err := x.Explain(ctx, &in); !errors.Is(err, context.Canceled) {
		t.Errorf("Explain = %v; want context.Canceled", err)
	}
}
