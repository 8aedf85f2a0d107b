package cli

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/captionqa/captionqa/backend/name"
	"github.com/captionqa/captionqa/backend/webhook"
)

// maxWebhookBody caps a delivery's body. A receipt names one project and
// a few files, a kilobyte or two; the cap keeps a stray client from
// filling memory.
const maxWebhookBody = 1 << 20

// webhookShutdown is how long a stopped listener waits for deliveries
// being answered.
const webhookShutdown = 5 * time.Second

// runWebhookListen receives deliveries until ctx is done: it answers 204
// to a body whose signature holds ([webhook.Verify]) and 401 to
// any other, and prints a line for each, so that an integrator can try a
// webhook, or check a secret, before writing a receiver.
func runWebhookListen(ctx context.Context, args []string, env Env) int {
	fs := newFlagSet("webhook listen", webhookListenUsage, env)
	secret := fs.String("secret", "", "the webhook's secret as it was shown, whsec_ included (env "+envWebhookSecret+", which keeps it out of shell history and ps)")
	addr := fs.String("addr", "127.0.0.1:9000", "listen address HOST:PORT; port 0 picks a free port")
	certFile := fs.String("tls-cert", "", "serve HTTPS with this PEM certificate (chain); needs --tls-key")
	keyFile := fs.String("tls-key", "", "PEM private key of --tls-cert")
	jsonOut := fs.Bool("json", false, "print each verified body as one JSON line instead of a summary")
	if code, ok := parseNoArgs(fs, args, env); !ok {
		return code
	}
	// Not the flag's default: --help would print it.
	if *secret == "" {
		*secret = os.Getenv(envWebhookSecret)
	}
	if *secret == "" {
		fs.Usage()
		return usageError(env, "webhook listen needs --secret or %s", envWebhookSecret)
	}
	if (*certFile == "") != (*keyFile == "") {
		return usageError(env, "--tls-cert and --tls-key go together")
	}

	srv := &http.Server{
		Handler:           &receiver{secret: *secret, jsonOut: *jsonOut, env: env},
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       time.Minute,
		// TLS handshake failures (a sender that does not trust the
		// certificate) are worth seeing, on this command's stderr.
		ErrorLog: log.New(env.Stderr, "captionqa: webhook listen: ", 0),
	}
	if *certFile != "" {
		cert, err := tls.LoadX509KeyPair(*certFile, *keyFile)
		if err != nil {
			return failed(env, fmt.Errorf("webhook listen: TLS certificate %s with key %s: %w", *certFile, *keyFile, err))
		}
		srv.TLSConfig = &tls.Config{MinVersion: tls.VersionTLS12, Certificates: []tls.Certificate{cert}}
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", *addr)
	if err != nil {
		return failed(env, fmt.Errorf("webhook listen: %w", err))
	}
	scheme, serve := "http", func() error { return srv.Serve(ln) }
	if srv.TLSConfig != nil {
		scheme, serve = "https", func() error { return srv.ServeTLS(ln, "", "") }
	}
	fmt.Fprintf(env.Stderr, "listening on %s://%s\n", scheme, ln.Addr())

	served := make(chan error, 1)
	go func() { served <- serve() }()
	select {
	case err := <-served:
		return failed(env, fmt.Errorf("webhook listen: %w", err))
	case <-ctx.Done():
	}
	stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), webhookShutdown)
	defer cancel()
	if err := srv.Shutdown(stopCtx); err != nil {
		srv.Close()
	}
	<-served
	return ExitOK
}

// receiver answers deliveries and prints them.
type receiver struct {
	secret  string
	jsonOut bool
	env     Env
	// mu keeps the lines of concurrent deliveries whole.
	mu sync.Mutex
}

func (rc *receiver) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		http.Error(w, "deliveries are POST requests", http.StatusMethodNotAllowed)
		return
	}
	at := time.Now().UTC().Format(time.RFC3339)
	h := r.Header
	// Headers are not signed: they name the delivery on every line, but
	// a verified line takes the event from the body.
	head := fmt.Sprintf("delivery=%s attempt=%s", word(h.Get(webhook.HeaderDelivery)), word(h.Get(webhook.HeaderAttempt)))
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxWebhookBody))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		rc.println(rc.env.Stderr, fmt.Sprintf("captionqa: %s %s refused: the body is over %d bytes", at, head, maxWebhookBody))
		http.Error(w, "body too large", http.StatusRequestEntityTooLarge)
		return
	case err != nil:
		// The sender went away or stalled past ReadTimeout; answer
		// anyway, so that no answer can pass for a 200.
		http.Error(w, "could not read the body", http.StatusBadRequest)
		return
	}
	// The line is printed before the answer, so whoever has the answer
	// finds the line.
	// The contract's header, or for a sender of an earlier release the
	// product's.
	sig := h.Get(webhook.HeaderSignature)
	if sig == "" {
		sig = h.Get(webhook.HeaderProductSignature)
	}
	if !webhook.Verify(rc.secret, body, sig) {
		out := rc.env.Stdout
		if rc.jsonOut {
			out = rc.env.Stderr // standard output holds verified bodies only
		}
		rc.println(out, fmt.Sprintf("%s BAD SIGNATURE %s %s", at, word(h.Get(webhook.HeaderEvent)), head))
		http.Error(w, "invalid signature", http.StatusUnauthorized)
		return
	}
	if !rc.jsonOut {
		rc.println(rc.env.Stdout, fmt.Sprintf("%s OK %s", at, summary(body, h, head)))
	} else if line, err := compactJSON(body); err != nil {
		rc.println(rc.env.Stderr, fmt.Sprintf("captionqa: %s OK %s %s: the body is not JSON, not printed", at, word(h.Get(webhook.HeaderEvent)), head))
	} else {
		rc.println(rc.env.Stdout, line)
	}
	w.WriteHeader(http.StatusNoContent)
}

func (rc *receiver) println(w io.Writer, line string) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	_, _ = io.WriteString(w, line+"\n")
}

// summary describes a verified delivery after its head (delivery id and
// attempt): the event, and an export_complete's project, revision (with
// the project, the idempotency key) and files, all from the signed body.
func summary(body []byte, h http.Header, head string) string {
	var p webhook.Payload
	if err := json.Unmarshal(body, &p); err != nil {
		return fmt.Sprintf("%s %s (the body is not a delivery's JSON)", word(h.Get(webhook.HeaderEvent)), head)
	}
	if p.Event != webhook.EventExportComplete {
		return word(p.Event) + " " + head
	}
	files := "-"
	for i, a := range p.Receipt.Artifacts {
		if i == 0 {
			files = word(a.Filename)
		} else {
			files += "," + word(a.Filename)
		}
	}
	return fmt.Sprintf("%s %s project=%s irRevision=%d files=%s", p.Event, head,
		word(p.Receipt.ProjectID), p.Receipt.IRRevision, files)
}

// compactJSON returns body on one line, with the characters a terminal
// would obey escaped ([jsonSafe]).
func compactJSON(body []byte) (string, error) {
	var line bytes.Buffer
	if err := json.Compact(&line, body); err != nil {
		return "", err
	}
	return string(jsonSafe(line.Bytes())), nil
}

// word returns v as one word of a line: "-" when empty, quoted in Go
// syntax when it holds a space, comma or quote, and with control and
// bidirectional characters escaped either way, since the sender chose
// them and the terminal must show them, not obey them.
func word(v string) string {
	switch {
	case v == "":
		return "-"
	case strings.ContainsAny(v, " ,\""):
		return strconv.Quote(v)
	}
	return name.Escape(v)
}
