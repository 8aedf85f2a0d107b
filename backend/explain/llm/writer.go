package llm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"

	"github.com/captionqa/captionqa/backend/explain"
)

// DefaultMaxResponseBytes bounds a response body when
// [Options.MaxResponseBytes] is 0: an answer of a few short paragraphs is
// a few KiB, so 1 MiB leaves room for a verbose server and still stops an
// endpoint that streams a page or a runaway model.
const DefaultMaxResponseBytes = 1 << 20

// Options configure a [Writer].
type Options struct {
	// Endpoint is the OpenAI-compatible API's base URL, http or https,
	// such as http://127.0.0.1:8080/v1 (llama.cpp, vLLM) or
	// http://127.0.0.1:11434/v1 (Ollama). The Writer posts to
	// {Endpoint}/chat/completions. A base without /v1 gets it added
	// (http://127.0.0.1:8080 posts to /v1/chat/completions), a trailing
	// slash is ignored, and a URL that already ends in /chat/completions
	// is used as it is.
	Endpoint string
	// Model is the model name sent with each request and reported by
	// [Writer.Model]. It is required: Ollama and vLLM pick the model by
	// it, and an explanation names the model that wrote its prose.
	Model string
	// APIKey, when set, is sent as "Authorization: Bearer APIKey".
	APIKey string
	// Client sends the requests. Nil gives the Writer a client of its
	// own (see [New]).
	Client *http.Client
	// MaxResponseBytes bounds a response body; 0 is
	// [DefaultMaxResponseBytes].
	MaxResponseBytes int64
}

// Writer rewrites an explanation's prose with a model behind an
// OpenAI-compatible endpoint. It is safe for concurrent use.
type Writer struct {
	url      string
	model    string
	apiKey   string
	client   *http.Client
	maxBytes int64
}

var _ explain.Writer = (*Writer)(nil)

// New returns a Writer for opts. It returns an error when the endpoint is
// not an absolute http or https URL with a host (or carries a user name
// or password, which belong in APIKey), when Model is empty, when APIKey
// holds a control character, or when MaxResponseBytes is negative.
//
// With a nil [Options.Client], the Writer gets its own client: a clone of
// the standard transport (dial and TLS handshake timeouts, idle
// connections kept, proxies from the environment, which never apply to
// localhost) that never follows a redirect, so that the key is not sent
// elsewhere and a wrong endpoint shows as its 3xx. It has no overall
// timeout: a local model may take many seconds before its first byte, and
// the caller's context bounds each call.
func New(opts Options) (*Writer, error) {
	u, err := chatURL(opts.Endpoint)
	if err != nil {
		return nil, err
	}
	if strings.TrimSpace(opts.Model) == "" {
		return nil, errors.New("llm: no model name (set the model the endpoint serves)")
	}
	if strings.ContainsFunc(opts.APIKey, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return nil, errors.New("llm: the API key holds a control character")
	}
	if opts.MaxResponseBytes < 0 {
		return nil, fmt.Errorf("llm: negative response size limit %d", opts.MaxResponseBytes)
	}
	w := &Writer{url: u, model: opts.Model, apiKey: opts.APIKey, client: opts.Client, maxBytes: opts.MaxResponseBytes}
	if w.client == nil {
		w.client = newClient()
	}
	if w.maxBytes == 0 {
		w.maxBytes = DefaultMaxResponseBytes
	}
	return w, nil
}

// chatURL returns the chat completions URL of the endpoint raw (see
// [Options.Endpoint]).
func chatURL(raw string) (string, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return "", fmt.Errorf("llm: endpoint: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return "", fmt.Errorf("llm: endpoint %q: want an http:// or https:// URL", raw)
	}
	if u.Host == "" {
		return "", fmt.Errorf("llm: endpoint %q: no host", raw)
	}
	if u.User != nil {
		// A URL gets logged; a key inside it would be too.
		return "", errors.New("llm: endpoint: the URL carries a user name or password (set the API key instead)")
	}
	p := strings.TrimRight(u.Path, "/")
	switch {
	case strings.HasSuffix(p, "/chat/completions"):
	case strings.HasSuffix(p, "/v1"):
		p += "/chat/completions"
	default:
		p += "/v1/chat/completions"
	}
	u.Path, u.RawPath, u.Fragment = p, "", ""
	return u.String(), nil
}

func newClient() *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 4
	return &http.Client{
		Transport: tr,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}

// Model returns the model name of [Options.Model].
func (w *Writer) Model() string { return w.model }

// Write asks the model to rewrite d's prose and returns its answer. It
// returns an error wrapping ctx's error (context.DeadlineExceeded,
// context.Canceled) when ctx ends first; a [*StatusError] when the
// endpoint answers a status other than 2xx; an error wrapping
// [ErrResponseTooLarge] when the body is over the size limit; an error
// wrapping [explain.ErrInvalidResponse] when the answer is not a chat
// completion whose first choice's content is a JSON object of
// [explain.Prose] fields (a ```json fenced block is accepted); and any
// other error when d has no explanation or the endpoint cannot be
// reached.
func (w *Writer) Write(ctx context.Context, d explain.Draft) (explain.Prose, error) {
	body, err := requestBody(w.model, d)
	if err != nil {
		return explain.Prose{}, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, w.url, bytes.NewReader(body))
	if err != nil {
		return explain.Prose{}, fmt.Errorf("llm: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if w.apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+w.apiKey)
	}
	resp, err := w.client.Do(req)
	if err != nil {
		return explain.Prose{}, fmt.Errorf("llm: %w", withCtx(ctx, err))
	}
	defer resp.Body.Close()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		quote, _ := io.ReadAll(io.LimitReader(resp.Body, maxQuote))
		return explain.Prose{}, &StatusError{StatusCode: resp.StatusCode, Body: clean(string(quote))}
	}
	// One byte over the limit tells a body at the limit from a longer one.
	raw, err := io.ReadAll(io.LimitReader(resp.Body, w.maxBytes+1))
	if err != nil {
		return explain.Prose{}, fmt.Errorf("llm: read the answer: %w", withCtx(ctx, err))
	}
	if int64(len(raw)) > w.maxBytes {
		return explain.Prose{}, fmt.Errorf("llm: %w (%d bytes)", ErrResponseTooLarge, w.maxBytes)
	}
	return decodeCompletion(raw)
}

// withCtx returns err, made to wrap ctx's error when ctx has ended: the
// transport reports a deadline met while reading the body in its own
// words, and callers tell a timeout with errors.Is.
func withCtx(ctx context.Context, err error) error {
	if cerr := ctx.Err(); cerr != nil && !errors.Is(err, cerr) {
		return fmt.Errorf("%w (%w)", cerr, err)
	}
	return err
}
