package llm

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/captionqa/captionqa/backend/explain"
)

// ErrResponseTooLarge is returned (wrapped) by [Writer.Write] when the
// response body is over [Options.MaxResponseBytes].
var ErrResponseTooLarge = errors.New("llm: the response body is over the size limit")

// maxQuote bounds the text of a response quoted in an error.
const maxQuote = 200

// StatusError is returned by [Writer.Write] when the endpoint answers with
// a status other than 2xx: 401 for a wrong key, 404 for a wrong endpoint
// path or an unknown model, 5xx when the server fails.
type StatusError struct {
	// StatusCode is the HTTP status.
	StatusCode int
	// Body is the start of the response body, whitespace folded.
	Body string
}

func (e *StatusError) Error() string {
	s := strings.TrimSpace(fmt.Sprintf("llm: the endpoint answered %d %s", e.StatusCode, http.StatusText(e.StatusCode)))
	if e.Body != "" {
		s += ": " + e.Body
	}
	return s
}

// completion is the part of an OpenAI chat completion the Writer reads.
type completion struct {
	Choices []struct {
		Message struct {
			Content *string `json:"content"`
		} `json:"message"`
	} `json:"choices"`
}

// decodeCompletion returns the prose in the first choice of the chat
// completion raw. Every failure wraps [explain.ErrInvalidResponse].
func decodeCompletion(raw []byte) (explain.Prose, error) {
	var c completion
	if err := json.Unmarshal(raw, &c); err != nil {
		return explain.Prose{}, invalid("the response is not a chat completion (%v; it starts %q)", err, quote(string(raw)))
	}
	if len(c.Choices) == 0 {
		return explain.Prose{}, invalid("the completion has no choice")
	}
	content := c.Choices[0].Message.Content
	if content == nil || strings.TrimSpace(*content) == "" {
		return explain.Prose{}, invalid("the answer is empty")
	}
	return decodeProse(*content)
}

// decodeProse reads the model's answer: one JSON object of [explain.Prose]
// fields, with whitespace around it, or inside a Markdown code fence
// (```json ... ```), which models add even when asked not to. Fields
// other than the Prose's are ignored. Every failure wraps
// [explain.ErrInvalidResponse].
func decodeProse(content string) (explain.Prose, error) {
	text := unfence(strings.TrimSpace(content))
	// Unmarshal takes null, or an array's type error, as a struct's
	// answer; only an object is one.
	if !strings.HasPrefix(text, "{") {
		return explain.Prose{}, invalid("the answer is not a JSON object (it starts %q)", quote(text))
	}
	var p explain.Prose
	if err := json.Unmarshal([]byte(text), &p); err != nil {
		return explain.Prose{}, invalid("the answer is not the prose's JSON (%v; it starts %q)", err, quote(text))
	}
	if isZero(p) {
		// {} or an object of other fields: the model answered something
		// else, and keeping all the built-in text is not its rewrite.
		return explain.Prose{}, invalid("the answer has none of the prose's fields")
	}
	return p, nil
}

// unfence returns the text inside a Markdown code fence that makes up all
// of s (the info string, if any, must be json), or s itself.
func unfence(s string) string {
	rest, ok := strings.CutPrefix(s, "```")
	if !ok {
		return s
	}
	info, body, ok := strings.Cut(rest, "\n")
	if !ok {
		return s
	}
	if info = strings.TrimSpace(info); info != "" && !strings.EqualFold(info, "json") {
		return s
	}
	body, ok = strings.CutSuffix(strings.TrimRightFunc(body, unicode.IsSpace), "```")
	if !ok {
		return s
	}
	return strings.TrimSpace(body)
}

func isZero(p explain.Prose) bool {
	return p.Headline == "" && p.Message == "" && p.ClientSummary == "" && p.PlatformNotes == "" &&
		p.AlreadyFixedSummary == "" && p.ComparisonSummary == "" && len(p.Actions) == 0
}

func invalid(format string, args ...any) error {
	return fmt.Errorf("llm: %s: %w", fmt.Sprintf(format, args...), explain.ErrInvalidResponse)
}

// quote returns the start of s for an error message.
func quote(s string) string {
	if len(s) <= maxQuote {
		return s
	}
	cut := maxQuote
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// clean returns the start of a response body for an error message: valid
// UTF-8, each run of whitespace (newlines too) one space.
func clean(s string) string {
	s = strings.Join(strings.Fields(strings.ToValidUTF8(s, "�")), " ")
	return quote(s)
}
