package s3blob_test

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/blob"
	"github.com/captionqa/captionqa/backend/blob/s3blob"
	"github.com/captionqa/captionqa/backend/internal/s3test"
)

// relay forwards TCP connections to the test server until it is closed:
// a store that goes away under an open Store.
type relay struct {
	l     net.Listener
	mu    sync.Mutex
	conns []net.Conn
}

func startRelay(t *testing.T, target string) *relay {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	r := &relay{l: l}
	go func() {
		for {
			in, err := l.Accept()
			if err != nil {
				return
			}
			out, err := net.Dial("tcp", target)
			if err != nil {
				in.Close()
				continue
			}
			r.mu.Lock()
			r.conns = append(r.conns, in, out)
			r.mu.Unlock()
			go func() { _, _ = io.Copy(out, in); out.Close() }()
			go func() { _, _ = io.Copy(in, out); in.Close() }()
		}
	}()
	t.Cleanup(r.close)
	return r
}

// close refuses new connections and cuts the open ones.
func (r *relay) close() {
	r.l.Close()
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, c := range r.conns {
		c.Close()
	}
}

func checkUnavailable(t *testing.T, what string, err error) {
	t.Helper()
	e, ok := apperr.As(err)
	if !ok || e.Kind != apperr.Unavailable || e.Details["retryAfterSeconds"] == nil {
		t.Errorf("%s: got %v, want unavailable with retryAfterSeconds", what, err)
	}
}

// TestUnreachable checks that a store that cannot be reached, at Open or
// later, is apperr.Unavailable on every operation, and soon.
func TestUnreachable(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	tg := s3test.Bucket(t)
	creds := s3blob.Options{AccessKey: tg.AccessKey, SecretKey: tg.SecretKey}

	// Nothing listens on a port just freed.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String()
	l.Close()
	began := time.Now()
	tgClosed := tg
	tgClosed.Endpoint = closed
	_, err = s3blob.Open(ctx, tgClosed.URL(), creds)
	checkUnavailable(t, "open", err)
	if d := time.Since(began); d > 5*time.Second {
		t.Errorf("open took %v to give up", d)
	}

	r := startRelay(t, strings.TrimPrefix(tg.Endpoint, "http://"))
	tgRelay := tg
	tgRelay.Endpoint = "http://" + r.l.Addr().String()
	s, err := s3blob.Open(ctx, tgRelay.URL(), creds)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Put(ctx, "k", strings.NewReader("x"), 1); err != nil {
		t.Fatal(err)
	}
	r.close()
	// Each operation retries before it gives up: run them at once.
	ops := map[string]func() error{
		"put": func() error { _, err := s.Put(ctx, "k", strings.NewReader("y"), 1); return err },
		"put of unknown size": func() error {
			_, err := s.Put(ctx, "k", strings.NewReader("y"), -1)
			return err
		},
		"get":               func() error { _, _, err := s.Get(ctx, "k", nil); return err },
		"get of zero bytes": func() error { _, _, err := s.Get(ctx, "k", &blob.Range{Start: 0, Length: 0}); return err },
		"delete":            func() error { return s.Delete(ctx, "k") },
		"list": func() error {
			for _, err := range s.List(ctx, "") {
				return err
			}
			return nil
		},
		"presign": func() error { _, err := s.PresignGet(ctx, "k", time.Minute, "k.srt"); return err },
	}
	var mu sync.Mutex
	errs := map[string]error{}
	var wg sync.WaitGroup
	began = time.Now()
	for name, op := range ops {
		wg.Go(func() {
			err := op()
			mu.Lock()
			errs[name] = err
			mu.Unlock()
		})
	}
	wg.Wait()
	if d := time.Since(began); d > 5*time.Second {
		t.Errorf("operations took %v to give up", d)
	}
	for name := range ops {
		checkUnavailable(t, name, errs[name])
	}
	// A canceled context stays a cancellation, not an outage.
	canceled, cancel := context.WithCancel(ctx)
	cancel()
	if _, _, err := s.Get(canceled, "k", nil); !errors.Is(err, context.Canceled) || apperr.KindOf(err) == apperr.Unavailable {
		t.Errorf("canceled get: %v", err)
	}
}
