package webhook

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode"
)

// Defaults of a delivery attempt.
const (
	// DefaultTimeout bounds one attempt, from connecting to the end of
	// the response's headers: a receiver answers quickly (docs/webhooks.md,
	// What to do with a delivery) and
	// does its work after.
	DefaultTimeout = 10 * time.Second
	// maxResponseRead is how much of a response body is read: enough to
	// reuse the connection after a short answer and to quote an error;
	// a huge body is not read.
	maxResponseRead = 64 << 10
	// maxErrorQuote bounds the response text kept as a delivery's error.
	maxErrorQuote = 200
	userAgent     = "CaptionQA-Webhook/1"
)

// Doer sends one HTTP request: *http.Client, as [NewClient] makes it.
type Doer interface {
	Do(*http.Request) (*http.Response, error)
}

// NewClient returns the client deliveries go through: it trusts the
// system's roots plus the PEM certificates in extraCAs (none when empty;
// on-prem receivers often have a private CA's certificate), checks every
// certificate, speaks TLS 1.2 or later, never follows a redirect (the
// 3xx is the attempt's answer, a failure), and gives up on an attempt
// after timeout (0 is [DefaultTimeout]). It returns an error when
// extraCAs is not empty but holds no certificate.
func NewClient(extraCAs []byte, timeout time.Duration) (*http.Client, error) {
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	roots, err := x509.SystemCertPool()
	if err != nil {
		roots = x509.NewCertPool()
	}
	if len(extraCAs) > 0 && !roots.AppendCertsFromPEM(extraCAs) {
		return nil, errors.New("webhook: the CA file holds no PEM certificate")
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.TLSClientConfig = &tls.Config{RootCAs: roots, MinVersion: tls.VersionTLS12}
	tr.ResponseHeaderTimeout = timeout
	tr.MaxIdleConnsPerHost = 8
	return &http.Client{
		Transport: tr,
		Timeout:   timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}, nil
}

// outcome is what one attempt got.
type outcome struct {
	ok         bool
	statusCode int    // 0 without an HTTP answer
	err        string // why it failed, for the delivery log
}

// send makes one attempt of d to cfg's URL, signed with cfg's secret.
func send(ctx context.Context, client Doer, cfg *Config, d *Delivery, attempt int, now time.Time) outcome {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, cfg.URL, bytes.NewReader(d.Body))
	if err != nil {
		return outcome{err: "invalid webhook URL: " + err.Error()}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", userAgent)
	sig := Sign(cfg.Secret, d.Body)
	req.Header.Set(HeaderSignature, sig)
	req.Header.Set(HeaderProductSignature, sig)
	req.Header.Set(HeaderDelivery, d.ID)
	req.Header.Set(HeaderTimestamp, strconv.FormatInt(now.Unix(), 10))
	req.Header.Set(HeaderEvent, d.Event)
	req.Header.Set(HeaderAttempt, strconv.Itoa(attempt))
	res, err := client.Do(req)
	if err != nil {
		return outcome{err: describe(err)}
	}
	defer res.Body.Close()
	head, _ := io.ReadAll(io.LimitReader(res.Body, maxResponseRead))
	if res.StatusCode >= 200 && res.StatusCode <= 299 {
		return outcome{ok: true, statusCode: res.StatusCode}
	}
	msg := "HTTP " + res.Status
	if res.StatusCode >= 300 && res.StatusCode <= 399 {
		msg += ": redirects are not followed; point the webhook at the final URL"
		if loc := res.Header.Get("Location"); loc != "" {
			msg += " (" + quote(loc) + ")"
		}
	} else if q := quote(string(head)); q != "" {
		msg += ": " + q
	}
	return outcome{statusCode: res.StatusCode, err: msg}
}

// describe words a transport failure for the delivery log.
func describe(err error) string {
	var cert *tls.CertificateVerificationError
	var unknown x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var netErr net.Error
	switch {
	case errors.As(err, &unknown) || errors.As(err, &cert) && errors.As(cert.Err, &unknown):
		return "TLS: the receiver's certificate is signed by an unknown authority; add its CA with --webhook-ca"
	case errors.As(err, &hostname):
		return "TLS: " + hostname.Error()
	case errors.Is(err, context.DeadlineExceeded) || errors.As(err, &netErr) && netErr.Timeout():
		return "timed out: no answer within the response timeout"
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // not "Post <url>:", which the log shows already
	}
	return quote(err.Error())
}

// quote returns the first maxErrorQuote characters of s on one line,
// without control characters: it comes from the receiver.
func quote(s string) string {
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) {
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > maxErrorQuote {
		s = string(r[:maxErrorQuote]) + "…"
	}
	return s
}
