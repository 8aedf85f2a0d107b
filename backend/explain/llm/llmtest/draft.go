package llmtest

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/captionqa/captionqa/backend/explain"
)

// chatRequest is the part of a chat completion request the fake reads.
type chatRequest struct {
	Model    string `json:"model"`
	Messages []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"messages"`
}

// userMessage mirrors the user message package llm writes (its
// prompt.go); llm's tests check that a draft survives the trip.
type userMessage struct {
	Platform           string             `json:"platform"`
	Standard           string             `json:"standard"`
	CueCount           int                `json:"cueCount"`
	Status             string             `json:"status"`
	DeliveryComparison explain.Comparison `json:"deliveryComparison"`
	Actions            []action           `json:"actions"`
	// Prose is the built-in prose; its Actions stay empty.
	Prose explain.Prose `json:"prose"`
}

// action is a plan action as sent: the explain.Action fields by their
// names, but the cues numbered from 1.
type action struct {
	explain.Action
	Cues []int `json:"cues"`
}

// decodeRequest returns the model and the draft of a chat completion
// request's body.
func decodeRequest(body []byte) (string, explain.Draft, error) {
	var req chatRequest
	if err := json.Unmarshal(body, &req); err != nil {
		return "", explain.Draft{}, fmt.Errorf("llmtest: the request is not a chat completion request: %w", err)
	}
	var user *string
	for i, m := range req.Messages {
		if m.Role == "user" {
			user = &req.Messages[i].Content
		}
	}
	if user == nil {
		return req.Model, explain.Draft{}, errors.New("llmtest: the request has no user message")
	}
	var m userMessage
	if err := json.Unmarshal([]byte(*user), &m); err != nil {
		return req.Model, explain.Draft{}, fmt.Errorf("llmtest: the user message is not a draft: %w", err)
	}
	e := &explain.Explanation{
		Status:              m.Status,
		Actions:             make([]explain.Action, len(m.Actions)),
		Headline:            m.Prose.Headline,
		Message:             m.Prose.Message,
		ClientSummary:       m.Prose.ClientSummary,
		PlatformNotes:       m.Prose.PlatformNotes,
		AlreadyFixedSummary: m.Prose.AlreadyFixedSummary,
		DeliveryComparison: explain.Comparison{
			UploadReadyScore: m.DeliveryComparison.UploadReadyScore,
			EnhancedScore:    m.DeliveryComparison.EnhancedScore,
			Summary:          m.Prose.ComparisonSummary,
		},
	}
	for i, a := range m.Actions {
		e.Actions[i] = a.Action
		e.Actions[i].CueIndexes = make([]int, len(a.Cues))
		for j, c := range a.Cues {
			e.Actions[i].CueIndexes[j] = c - 1
		}
	}
	return req.Model, explain.Draft{Explanation: e, Platform: m.Platform, Standard: m.Standard, CueCount: m.CueCount}, nil
}
