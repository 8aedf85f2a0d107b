// Package llmtest is a fake OpenAI-compatible chat completions endpoint for
// tests of code that talks to a language model through package llm: no
// model runs in tests, so this fake answers in the model's place, as a
// [Behaviour] says, and records the requests it gets. It is for _test
// files only; production code must not import it.
//
//	fake := llmtest.New(t, llmtest.Behaviour{Reply: func(d explain.Draft) explain.Prose { … }})
//	w, err := llm.New(llm.Options{Endpoint: fake.URL, Model: "m"})
package llmtest

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/explain"
)

// Path is the one path the fake answers; others get 404, as a wrong
// endpoint would.
const Path = "/v1/chat/completions"

// Behaviour says how the fake answers. The first of these that is set
// decides: Status (other than 200), Body, Content, Reply, Prose; with
// none, the fake answers the draft's own built-in prose (see [Echo]).
// Delay comes before any of them.
type Behaviour struct {
	// Status, when neither 0 nor 200, is the answer's status, with Body
	// (or an OpenAI-style error object) as its body.
	Status int
	// Body, when set, is the whole response body, verbatim: garbage, a
	// completion without choices, an oversize page.
	Body string
	// Content, when set, is the first choice's message content,
	// verbatim: text that is not JSON, a fenced block, wrong types.
	Content string
	// Reply, when set, computes the answer from the draft the request
	// carried, so that a test can echo the plan's ids or invent a cue.
	Reply func(explain.Draft) explain.Prose
	// Prose, when set, is the answer.
	Prose *explain.Prose
	// Delay holds every answer back this long. A waiting handler gives
	// up when the client goes away or the test ends, so that closing the
	// server never waits for it.
	Delay time.Duration
}

// Request is a request the fake got.
type Request struct {
	Method, Path string
	// Authorization is the Authorization header, "" without one.
	Authorization string
	// Body is the request body as sent.
	Body []byte
}

// Draft decodes the draft that r's user message carries. It returns an
// error when r is not a chat completion request with a user message
// shaped as package llm writes it.
func (r Request) Draft() (explain.Draft, error) {
	_, d, err := decodeRequest(r.Body)
	return d, err
}

// Server is a running fake endpoint.
type Server struct {
	// URL is the endpoint's base URL, ending in /v1: the value for
	// llm.Options.Endpoint.
	URL string

	b    Behaviour
	done chan struct{}

	mu   sync.Mutex
	reqs []Request
}

// New starts a fake endpoint that answers as b says. It is closed when
// the test ends.
func New(t testing.TB, b Behaviour) *Server {
	t.Helper()
	s := &Server{b: b, done: make(chan struct{})}
	hs := httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = hs.URL + "/v1"
	t.Cleanup(func() {
		// Close waits for every handler; release the waiting ones first.
		close(s.done)
		hs.Close()
	})
	return s
}

// Count returns how many requests the fake got, on any path.
func (s *Server) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.reqs)
}

// Last returns the last request the fake got; the zero Request if none.
func (s *Server) Last() Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.reqs) == 0 {
		return Request{}
	}
	return s.reqs[len(s.reqs)-1]
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.reqs = append(s.reqs, Request{Method: r.Method, Path: r.URL.Path, Authorization: r.Header.Get("Authorization"), Body: body})
	s.mu.Unlock()

	if r.Method != http.MethodPost || r.URL.Path != Path {
		writeError(w, http.StatusNotFound, "llmtest: no such endpoint: "+r.Method+" "+r.URL.Path)
		return
	}
	if s.b.Delay > 0 {
		timer := time.NewTimer(s.b.Delay)
		defer timer.Stop()
		select {
		case <-timer.C:
		case <-r.Context().Done():
			return
		case <-s.done:
			writeError(w, http.StatusServiceUnavailable, "llmtest: the test ended")
			return
		}
	}
	b := s.b
	switch {
	case b.Status != 0 && b.Status != http.StatusOK:
		if b.Body != "" {
			w.WriteHeader(b.Status)
			io.WriteString(w, b.Body)
			return
		}
		writeError(w, b.Status, "llmtest: status "+http.StatusText(b.Status))
		return
	case b.Body != "":
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, b.Body)
		return
	}
	model, d, err := decodeRequest(body)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	content := b.Content
	if content == "" {
		p := Echo(d)
		switch {
		case b.Reply != nil:
			p = b.Reply(d)
		case b.Prose != nil:
			p = *b.Prose
		}
		js, err := json.Marshal(p)
		if err != nil {
			writeError(w, http.StatusInternalServerError, "llmtest: encode the prose: "+err.Error())
			return
		}
		content = string(js)
	}
	writeJSON(w, http.StatusOK, completion(model, content))
}

// Echo returns d's built-in prose and its actions' titles and details: the
// answer of a model that changes nothing.
func Echo(d explain.Draft) explain.Prose {
	e := d.Explanation
	p := explain.Prose{
		Headline: e.Headline, Message: e.Message, ClientSummary: e.ClientSummary,
		PlatformNotes: e.PlatformNotes, AlreadyFixedSummary: e.AlreadyFixedSummary,
		ComparisonSummary: e.DeliveryComparison.Summary,
		Actions:           make([]explain.ActionProse, len(e.Actions)),
	}
	for i, a := range e.Actions {
		p.Actions[i] = explain.ActionProse{ID: a.ID, Title: a.Title, Detail: a.Detail}
	}
	return p
}

// completion returns an OpenAI chat completion response whose one choice
// has content as its message.
func completion(model, content string) any {
	type message struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	}
	type choice struct {
		Index        int     `json:"index"`
		Message      message `json:"message"`
		FinishReason string  `json:"finish_reason"`
	}
	return struct {
		ID      string   `json:"id"`
		Object  string   `json:"object"`
		Created int64    `json:"created"`
		Model   string   `json:"model"`
		Choices []choice `json:"choices"`
	}{"chatcmpl-llmtest", "chat.completion", 0, model,
		[]choice{{Message: message{Role: "assistant", Content: content}, FinishReason: "stop"}}}
}

func writeError(w http.ResponseWriter, status int, msg string) {
	type apiError struct {
		Message string `json:"message"`
		Type    string `json:"type"`
	}
	writeJSON(w, status, struct {
		Error apiError `json:"error"`
	}{apiError{msg, "llmtest_error"}})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}
