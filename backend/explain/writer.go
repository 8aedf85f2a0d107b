package explain

import (
	"context"
	"errors"
)

// Writer rewrites an explanation's prose from the built-in draft: a
// language model behind an OpenAI-compatible endpoint on the local network
// (llama.cpp's server, Ollama, vLLM). It never changes the plan: the
// [Explainer] keeps the draft's actions and takes only the prose, after
// checking that it names no cue and no action the plan does not have.
type Writer interface {
	// Write returns the rewritten prose. It returns ctx's error when the
	// deadline passes, an error wrapping [ErrInvalidResponse] when the
	// answer is not the JSON asked for, and any other error when the
	// endpoint cannot be reached or refuses.
	Write(ctx context.Context, d Draft) (Prose, error)
	// Model names the model, as [Explanation.Model] reports it.
	Model() string
}

// ErrInvalidResponse marks a model's answer that is not the JSON object of
// a [Prose].
var ErrInvalidResponse = errors.New("explain: the model's answer is not the prose asked for")

// Draft is what a [Writer] rewrites: the built-in explanation, whose prose
// it may reword and whose actions it must keep, and the facts around it.
type Draft struct {
	// Explanation is the built-in explanation, actions and prose.
	Explanation *Explanation
	// Platform is the preset's title ("YouTube"); Standard the requested
	// standard's title, empty without one.
	Platform string
	Standard string
	// CueCount is how many cues the uploaded file has: a cue a text names
	// is "cue N" with N from 1 to CueCount.
	CueCount int
}

// Prose is a [Writer]'s answer: the explanation's prose fields, and a
// title and detail for actions of the plan, by id. An empty field keeps
// the built-in text.
type Prose struct {
	Headline            string        `json:"headline"`
	Message             string        `json:"message"`
	ClientSummary       string        `json:"clientSummary"`
	PlatformNotes       string        `json:"platformNotes"`
	AlreadyFixedSummary string        `json:"alreadyFixedSummary"`
	ComparisonSummary   string        `json:"comparisonSummary"`
	Actions             []ActionProse `json:"actions"`
}

// ActionProse rewords one action of the plan.
type ActionProse struct {
	ID     string `json:"id"`
	Title  string `json:"title"`
	Detail string `json:"detail"`
}

// Reasons a configured model's text was not used, in [Explanation.Fallback].
const (
	// FallbackTimeout: the model did not answer in time.
	FallbackTimeout = "timeout"
	// FallbackUnavailable: the endpoint could not be reached or refused.
	FallbackUnavailable = "unavailable"
	// FallbackInvalid: the answer was not the JSON asked for.
	FallbackInvalid = "invalid_response"
	// FallbackInventedCues: the answer named a cue the file does not have.
	FallbackInventedCues = "invented_cues"
	// FallbackInventedActions: the answer named an action the plan does
	// not have.
	FallbackInventedActions = "invented_actions"
)
