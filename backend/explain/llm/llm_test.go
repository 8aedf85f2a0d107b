package llm

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/explain"
	"github.com/captionqa/captionqa/backend/explain/llm/llmtest"
)

func TestNew(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		opts     Options
		wantURL  string
		wantErr  bool
		wantMax  int64
		wantName string
	}{
		{name: "base with /v1", opts: Options{Endpoint: "http://127.0.0.1:8080/v1", Model: "m"}, wantURL: "http://127.0.0.1:8080/v1/chat/completions"},
		{name: "base with /v1/", opts: Options{Endpoint: "http://127.0.0.1:8080/v1/", Model: "m"}, wantURL: "http://127.0.0.1:8080/v1/chat/completions"},
		{name: "base without /v1", opts: Options{Endpoint: "http://llm.lan:11434", Model: "m"}, wantURL: "http://llm.lan:11434/v1/chat/completions"},
		{name: "base without /v1, slash", opts: Options{Endpoint: "http://llm.lan:11434/", Model: "m"}, wantURL: "http://llm.lan:11434/v1/chat/completions"},
		{name: "prefix path", opts: Options{Endpoint: " https://gw.lan/openai/v1 ", Model: "m"}, wantURL: "https://gw.lan/openai/v1/chat/completions"},
		{name: "full URL", opts: Options{Endpoint: "https://gw.lan/v1/chat/completions", Model: "m"}, wantURL: "https://gw.lan/v1/chat/completions"},
		{name: "query kept", opts: Options{Endpoint: "https://gw.lan/v1?api-version=1", Model: "m"}, wantURL: "https://gw.lan/v1/chat/completions?api-version=1"},
		{name: "size limit kept", opts: Options{Endpoint: "http://h/v1", Model: "m", MaxResponseBytes: 10}, wantURL: "http://h/v1/chat/completions", wantMax: 10},
		{name: "empty", opts: Options{Model: "m"}, wantErr: true},
		{name: "no scheme", opts: Options{Endpoint: "localhost:8080/v1", Model: "m"}, wantErr: true},
		{name: "ftp", opts: Options{Endpoint: "ftp://h/v1", Model: "m"}, wantErr: true},
		{name: "no host", opts: Options{Endpoint: "http:///v1", Model: "m"}, wantErr: true},
		{name: "unparsable", opts: Options{Endpoint: "http://h:port/v1", Model: "m"}, wantErr: true},
		{name: "credentials", opts: Options{Endpoint: "http://u:secret@h/v1", Model: "m"}, wantErr: true},
		{name: "no model", opts: Options{Endpoint: "http://h/v1", Model: " "}, wantErr: true},
		{name: "key with newline", opts: Options{Endpoint: "http://h/v1", Model: "m", APIKey: "k\nX-Evil: 1"}, wantErr: true},
		{name: "negative limit", opts: Options{Endpoint: "http://h/v1", Model: "m", MaxResponseBytes: -1}, wantErr: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			w, err := New(tt.opts)
			if tt.wantErr {
				if err == nil {
					t.Fatalf("New(%+v) = %+v, want an error", tt.opts, w)
				}
				return
			}
			if err != nil {
				t.Fatalf("New(%+v): %v", tt.opts, err)
			}
			if got, want := w.url, tt.wantURL; got != want {
				t.Errorf("url = %q, want %q", got, want)
			}
			wantMax := tt.wantMax
			if wantMax == 0 {
				wantMax = DefaultMaxResponseBytes
			}
			if got := w.maxBytes; got != wantMax {
				t.Errorf("maxBytes = %d, want %d", got, wantMax)
			}
			if got, want := w.Model(), tt.opts.Model; got != want {
				t.Errorf("Model() = %q, want %q", got, want)
			}
			if w.client == nil || w.client == http.DefaultClient {
				t.Errorf("client = %p, want a client of its own", w.client)
			}
		})
	}
}

func TestWrite(t *testing.T) {
	t.Parallel()
	want := rewritten()
	js, err := json.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		b      llmtest.Behaviour
		apiKey string
		// maxBytes is Options.MaxResponseBytes.
		maxBytes int64
		// wantErr is the error the answer wraps; nil for success.
		wantErr error
		// wantStatus is the StatusError's status, 0 for none.
		wantStatus int
	}{
		{name: "prose", b: llmtest.Behaviour{Prose: &want}},
		{name: "prose with key", b: llmtest.Behaviour{Prose: &want}, apiKey: "sk-local-1"},
		{name: "fenced", b: llmtest.Behaviour{Content: "\n ```json\n" + string(js) + "\n```\n "}},
		{name: "fenced without language", b: llmtest.Behaviour{Content: "```\n" + string(js) + "```"}},
		{name: "surrounding whitespace", b: llmtest.Behaviour{Content: "\n\t" + string(js) + "\n\n"}},
		{name: "extra fields ignored", b: llmtest.Behaviour{Content: strings.Replace(string(js), "{", `{"notes":"x",`, 1)}},
		{name: "body within the limit", b: llmtest.Behaviour{Prose: &want}, maxBytes: 4096},
		{name: "garbage content", b: llmtest.Behaviour{Content: "Sure! Here is a better text: the file is fine."}, wantErr: explain.ErrInvalidResponse},
		{name: "garbage body", b: llmtest.Behaviour{Body: "<html>It works!</html>"}, wantErr: explain.ErrInvalidResponse},
		{name: "no choices", b: llmtest.Behaviour{Body: `{"choices":[]}`}, wantErr: explain.ErrInvalidResponse},
		{name: "error object with 200", b: llmtest.Behaviour{Body: `{"error":{"message":"model not loaded"}}`}, wantErr: explain.ErrInvalidResponse},
		{name: "null content", b: llmtest.Behaviour{Body: `{"choices":[{"message":{"role":"assistant","content":null}}]}`}, wantErr: explain.ErrInvalidResponse},
		{name: "blank content", b: llmtest.Behaviour{Content: " \n "}, wantErr: explain.ErrInvalidResponse},
		{name: "JSON array", b: llmtest.Behaviour{Content: `[{"headline":"x"}]`}, wantErr: explain.ErrInvalidResponse},
		{name: "JSON null", b: llmtest.Behaviour{Content: `null`}, wantErr: explain.ErrInvalidResponse},
		{name: "JSON string", b: llmtest.Behaviour{Content: `"headline"`}, wantErr: explain.ErrInvalidResponse},
		{name: "wrong field type", b: llmtest.Behaviour{Content: `{"headline":3}`}, wantErr: explain.ErrInvalidResponse},
		{name: "wrong actions type", b: llmtest.Behaviour{Content: `{"headline":"h","actions":{"id":"a1"}}`}, wantErr: explain.ErrInvalidResponse},
		{name: "no prose field", b: llmtest.Behaviour{Content: `{"text":"all good"}`}, wantErr: explain.ErrInvalidResponse},
		{name: "two objects", b: llmtest.Behaviour{Content: string(js) + string(js)}, wantErr: explain.ErrInvalidResponse},
		{name: "truncated", b: llmtest.Behaviour{Content: string(js[:len(js)/2])}, wantErr: explain.ErrInvalidResponse},
		{name: "text around a fence", b: llmtest.Behaviour{Content: "Here it is:\n```json\n" + string(js) + "\n```"}, wantErr: explain.ErrInvalidResponse},
		{name: "500", b: llmtest.Behaviour{Status: http.StatusInternalServerError}, wantStatus: 500},
		{name: "401 with body", b: llmtest.Behaviour{Status: http.StatusUnauthorized, Body: "bad key\n\nbye"}, wantStatus: 401},
		{name: "oversize body", b: llmtest.Behaviour{Content: strings.Repeat("x", 2048)}, maxBytes: 1024, wantErr: ErrResponseTooLarge},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fake, w := newFake(t, tt.b, func(o *Options) { o.APIKey, o.MaxResponseBytes = tt.apiKey, tt.maxBytes })
			got, err := w.Write(t.Context(), testDraft())
			if fake.Count() != 1 {
				t.Errorf("the endpoint got %d requests, want 1", fake.Count())
			}
			var se *StatusError
			switch {
			case tt.wantStatus != 0:
				if !errors.As(err, &se) || se.StatusCode != tt.wantStatus {
					t.Fatalf("Write: %v, want a StatusError %d", err, tt.wantStatus)
				}
				if errors.Is(err, explain.ErrInvalidResponse) {
					t.Errorf("Write: %v wraps ErrInvalidResponse; a refusal is not an invalid answer", err)
				}
				if strings.ContainsAny(se.Body, "\n\t") {
					t.Errorf("StatusError.Body = %q, want whitespace folded", se.Body)
				}
				return
			case tt.wantErr != nil:
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("Write: %v, want an error wrapping %v", err, tt.wantErr)
				}
				if errors.As(err, &se) {
					t.Errorf("Write: %v is a StatusError", err)
				}
				return
			case err != nil:
				t.Fatalf("Write: %v", err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Write = %+v, want %+v", got, want)
			}
			checkRequest(t, fake.Last(), tt.apiKey)
		})
	}
}

// checkRequest checks what a request carried: the path, the key, the
// model, temperature 0 (sent, not left out), the JSON response format and
// the two messages.
func checkRequest(t *testing.T, r llmtest.Request, apiKey string) {
	t.Helper()
	if r.Method != http.MethodPost || r.Path != llmtest.Path {
		t.Errorf("request = %s %s, want POST %s", r.Method, r.Path, llmtest.Path)
	}
	wantAuth := ""
	if apiKey != "" {
		wantAuth = "Bearer " + apiKey
	}
	if r.Authorization != wantAuth {
		t.Errorf("Authorization = %q, want %q", r.Authorization, wantAuth)
	}
	var body struct {
		Model       string   `json:"model"`
		Temperature *float64 `json:"temperature"`
		Messages    []struct {
			Role, Content string
		} `json:"messages"`
		ResponseFormat struct {
			Type string `json:"type"`
		} `json:"response_format"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil {
		t.Fatalf("request body: %v\n%s", err, r.Body)
	}
	if body.Model != testModel {
		t.Errorf("model = %q, want %q", body.Model, testModel)
	}
	if body.Temperature == nil || *body.Temperature != 0 {
		t.Errorf("temperature = %v, want 0, sent", body.Temperature)
	}
	if body.ResponseFormat.Type != "json_object" {
		t.Errorf("response_format.type = %q, want json_object", body.ResponseFormat.Type)
	}
	if len(body.Messages) != 2 || body.Messages[0].Role != "system" || body.Messages[1].Role != "user" {
		t.Errorf("messages = %+v, want a system and a user message", body.Messages)
	}
}

func TestWriteEndpointForms(t *testing.T) {
	t.Parallel()
	for _, suffix := range []string{"", "/", "/v1/", "/v1/chat/completions"} {
		t.Run(suffix, func(t *testing.T) {
			t.Parallel()
			fake, w := newFake(t, llmtest.Behaviour{}, func(o *Options) {
				o.Endpoint = strings.TrimSuffix(o.Endpoint, "/v1") + suffix
			})
			if _, err := w.Write(t.Context(), testDraft()); err != nil {
				t.Fatalf("Write: %v", err)
			}
			if got := fake.Last().Path; got != llmtest.Path {
				t.Errorf("path = %q, want %q", got, llmtest.Path)
			}
		})
	}
}

func TestWriteTimeout(t *testing.T) {
	t.Parallel()
	// The fake's handler gives up when the client goes away or the test
	// ends, so the long delay never holds the test.
	_, w := newFake(t, llmtest.Behaviour{Delay: time.Minute}, nil)
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := w.Write(ctx, testDraft())
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Write: %v, want an error wrapping context.DeadlineExceeded", err)
	}
	if errors.Is(err, explain.ErrInvalidResponse) {
		t.Errorf("Write: %v wraps ErrInvalidResponse", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Write took %v after a 100 ms deadline", d)
	}
}

func TestWriteCanceled(t *testing.T) {
	t.Parallel()
	_, w := newFake(t, llmtest.Behaviour{}, nil)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	if _, err := w.Write(ctx, testDraft()); !errors.Is(err, context.Canceled) {
		t.Fatalf("Write: %v, want an error wrapping context.Canceled", err)
	}
}

func TestWriteUnreachable(t *testing.T) {
	t.Parallel()
	// A fake that has been closed: nothing listens on its port.
	var closed string
	t.Run("start and close", func(t *testing.T) { closed = llmtest.New(t, llmtest.Behaviour{}).URL })
	w, err := New(Options{Endpoint: closed, Model: testModel})
	if err != nil {
		t.Fatal(err)
	}
	_, err = w.Write(t.Context(), testDraft())
	if err == nil {
		t.Fatal("Write to a closed endpoint succeeded")
	}
	var se *StatusError
	if errors.Is(err, explain.ErrInvalidResponse) || errors.Is(err, context.DeadlineExceeded) || errors.As(err, &se) {
		t.Errorf("Write: %v, want a plain transport error", err)
	}
}

func TestWriteNoExplanation(t *testing.T) {
	t.Parallel()
	fake, w := newFake(t, llmtest.Behaviour{}, nil)
	if _, err := w.Write(t.Context(), explain.Draft{CueCount: 3}); err == nil || errors.Is(err, explain.ErrInvalidResponse) {
		t.Errorf("Write without an explanation: %v, want an error that is not ErrInvalidResponse", err)
	}
	if fake.Count() != 0 {
		t.Errorf("the endpoint got %d requests, want none", fake.Count())
	}
}
