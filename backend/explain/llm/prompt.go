package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/captionqa/captionqa/backend/explain"
)

// systemPrompt is the system message of every request. It states the
// rules the Explainer enforces afterwards (no new action, no cue outside
// the plan, "cue N" counted from 1), so that a model that follows them
// gets its text used, and names the answer's fields exactly, since
// response_format json_object asks for JSON but not for which.
// testdata/request.golden.json shows it in a request.
const systemPrompt = `You rewrite the prose of a caption QA explanation for a producer.

The user message is one JSON object about a caption file that was checked for delivery:
- "platform": where the captions go. "standard": the accessibility standard requested, when there is one.
- "cueCount": how many cues (captions) the file has.
- "status": "actions" when something needs doing, "clear" when nothing does.
- "deliveryComparison": two scores from 0 to 100, of the upload-ready delivery and of the enhanced one.
- "actions": the plan, in order, most urgent first. Each action has an "id"; a "kind"; a "priority" (1: blocks delivery, 2: fails a clause of the standard, 3: a suggestion, 4: needs a person with the video to review); "blocking"; "count", how many cues it concerns; "cues", the first of those cues by number, counted from 1; "autoFixable" and "fixProfile", when running again with that fix profile does it; "effortMinutes", an editor's time; "owner", who should act; and its built-in "title" and "detail".
- "prose": the built-in text: "headline", "message", "clientSummary", "platformNotes", "alreadyFixedSummary", "comparisonSummary".

Rewrite the built-in text so that a busy producer understands it at once: plain words, short sentences, no rule codes, no JSON field names. Write in the language of the built-in text.

Rules:
1. Keep every fact: each action, number, cue, score, the platform and the standard. Do not drop, soften or exaggerate any of them.
2. Never add an action, a step or a fix that the plan does not have, and never state a fact that the user message does not give.
3. Refer to cues as "cue N" (or "cues N and M", "cues N-M"), with N the cue's number as given in an action's "cues", counted from 1. Never name a cue that is not in the plan.
4. "headline": one line, the delivery's state for the platform. "message": a few sentences to the person who ran QA: what to do first and why. "clientSummary": plain text a producer pastes into a mail to the client: what is delivered, what was adapted and why, what remains and who should act. "platformNotes": what the platform demands that matters for this file. "alreadyFixedSummary": what the fixes already changed. "comparisonSummary": the two scores and what separates them.
5. "actions": one entry for each action of the plan, in the plan's order, with the plan's "id" and a rewritten "title" (a short imperative) and "detail". Use no other id. When the plan has no actions, "actions" is [].

Answer with one JSON object and nothing else (no Markdown, no comments), with exactly these fields, all strings except "actions":
{"headline": "...", "message": "...", "clientSummary": "...", "platformNotes": "...", "alreadyFixedSummary": "...", "comparisonSummary": "...", "actions": [{"id": "...", "title": "...", "detail": "..."}]}`

// chatRequest is the body of a chat completion request.
type chatRequest struct {
	Model string `json:"model"`
	// Temperature is 0, always sent: the same draft should get the same
	// answer, and a server's default is often higher.
	Temperature    float64        `json:"temperature"`
	Messages       []chatMessage  `json:"messages"`
	ResponseFormat responseFormat `json:"response_format"`
}

type chatMessage struct {
	Role    string `json:"role"`
	Content string `json:"content"`
}

type responseFormat struct {
	Type string `json:"type"`
}

// userMessage is the user message: the draft, as the system prompt
// describes it. Package llmtest decodes it (its draft.go mirrors these
// names), and a test here checks that the two agree.
type userMessage struct {
	Platform           string       `json:"platform"`
	Standard           string       `json:"standard,omitempty"`
	CueCount           int          `json:"cueCount"`
	Status             string       `json:"status"`
	DeliveryComparison scores       `json:"deliveryComparison"`
	Actions            []planAction `json:"actions"`
	Prose              builtinProse `json:"prose"`
}

type scores struct {
	UploadReadyScore float64 `json:"uploadReadyScore"`
	EnhancedScore    float64 `json:"enhancedScore"`
}

// planAction is an action of the plan with its cues numbered from 1, as
// the prose names them; the rule codes stay out, since the prose should
// not quote them.
type planAction struct {
	ID            string   `json:"id"`
	Priority      int      `json:"priority"`
	Blocking      bool     `json:"blocking"`
	Kind          string   `json:"kind"`
	Count         int      `json:"count"`
	Cues          []int    `json:"cues"`
	AutoFixable   bool     `json:"autoFixable"`
	FixProfile    string   `json:"fixProfile,omitempty"`
	Clauses       []string `json:"clauses,omitempty"`
	EffortMinutes int      `json:"effortMinutes"`
	Owner         string   `json:"owner"`
	Title         string   `json:"title"`
	Detail        string   `json:"detail"`
}

type builtinProse struct {
	Headline            string `json:"headline"`
	Message             string `json:"message"`
	ClientSummary       string `json:"clientSummary"`
	PlatformNotes       string `json:"platformNotes"`
	AlreadyFixedSummary string `json:"alreadyFixedSummary"`
	ComparisonSummary   string `json:"comparisonSummary"`
}

// requestBody returns the JSON body of the request that asks model to
// rewrite d. It returns an error when d has no explanation.
func requestBody(model string, d explain.Draft) ([]byte, error) {
	e := d.Explanation
	if e == nil {
		return nil, errors.New("llm: the draft has no explanation")
	}
	m := userMessage{
		Platform: d.Platform,
		Standard: d.Standard,
		CueCount: d.CueCount,
		Status:   e.Status,
		DeliveryComparison: scores{
			UploadReadyScore: e.DeliveryComparison.UploadReadyScore,
			EnhancedScore:    e.DeliveryComparison.EnhancedScore,
		},
		Actions: make([]planAction, len(e.Actions)),
		Prose: builtinProse{
			Headline:            e.Headline,
			Message:             e.Message,
			ClientSummary:       e.ClientSummary,
			PlatformNotes:       e.PlatformNotes,
			AlreadyFixedSummary: e.AlreadyFixedSummary,
			ComparisonSummary:   e.DeliveryComparison.Summary,
		},
	}
	for i, a := range e.Actions {
		cues := make([]int, len(a.CueIndexes))
		for j, c := range a.CueIndexes {
			cues[j] = c + 1
		}
		m.Actions[i] = planAction{
			ID: a.ID, Priority: a.Priority, Blocking: a.Blocking, Kind: a.Kind,
			Count: a.Count, Cues: cues, AutoFixable: a.AutoFixable, FixProfile: a.FixProfile,
			Clauses: a.Clauses, EffortMinutes: a.EffortMinutes, Owner: a.Owner,
			Title: a.Title, Detail: a.Detail,
		}
	}
	user, err := marshal(m)
	if err != nil {
		return nil, err
	}
	return marshal(chatRequest{
		Model:       model,
		Temperature: 0,
		Messages: []chatMessage{
			{Role: "system", Content: systemPrompt},
			{Role: "user", Content: string(user)},
		},
		ResponseFormat: responseFormat{Type: "json_object"},
	})
}

// marshal encodes v compactly, leaving <, > and & as they are: the user
// message is text the model reads, where \u003c would be noise.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("llm: encode the request: %w", err)
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
