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
	// reuse the connection after a short answer and to quote it in the
	// operator's log; a huge body is not read.
	maxResponseRead = 64 << 10
	// maxErrorQuote bounds the response text quoted in the operator's log.
	maxErrorQuote = 200
	userAgent     = "CaptionQA-Webhook/1"
)

// The reasons a delivery's lastError gives, one per class of failure
// (docs/webhooks.md, Destinations): the tenant names the URL, so what
// it reads back must not tell a closed port from an open one or a
// refused address, nor echo what the receiver sent. The details go to
// the operator's log.
const (
	ReasonTimeout = "timed out: no answer within the response timeout"
	// ReasonConnect covers a connection that failed and an address the
	// destination policy refuses alike.
	ReasonConnect = "connection failed: the receiver could not be reached, or the server's destination policy refuses its address"
	ReasonTLS     = "TLS failed: the receiver's certificate was not accepted or the TLS handshake failed"
	reasonInvalid = "invalid webhook URL"
	// reasonRedirect follows "HTTP 3xx Status".
	reasonRedirect = ": redirects are not followed; point the webhook at the final URL"
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
// after timeout (0 is [DefaultTimeout]). Every connection is checked
// against policy on the address it is about to dial, after name
// resolution. It returns an error when extraCAs is not empty but holds
// no certificate.
func NewClient(extraCAs []byte, timeout time.Duration, policy Policy) (*http.Client, error) {
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
	tr.DialContext = (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second, Control: policy.control}).DialContext
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
	err        string // why it failed, for the delivery log: one of the reasons
	detail     string // why it failed in full, for the operator's log
}

// send makes one attempt of d to cfg's URL, signed with cfg's secret.
func send(ctx context.Context, client Doer, cfg *Config, d *Delivery, attempt int, now time.Time) outcome {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, cfg.URL, bytes.NewReader(d.Body))
	if err != nil {
		return outcome{err: reasonInvalid, detail: err.Error()}
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
		return outcome{err: classify(err), detail: detailOf(err)}
	}
	defer res.Body.Close()
	head, _ := io.ReadAll(io.LimitReader(res.Body, maxResponseRead))
	if res.StatusCode >= 200 && res.StatusCode <= 299 {
		return outcome{ok: true, statusCode: res.StatusCode}
	}
	// The status line's text is the receiver's: lastError says the
	// code's standard text instead.
	msg := "HTTP " + strconv.Itoa(res.StatusCode)
	if t := http.StatusText(res.StatusCode); t != "" {
		msg += " " + t
	}
	detail := "HTTP " + quote(res.Status)
	if res.StatusCode >= 300 && res.StatusCode <= 399 {
		msg += reasonRedirect
		if loc := res.Header.Get("Location"); loc != "" {
			detail += ", Location " + quote(loc)
		}
	} else if q := quote(string(head)); q != "" {
		detail += ": " + q
	}
	return outcome{statusCode: res.StatusCode, err: msg, detail: detail}
}

// classify returns the reason lastError gives for a transport failure.
func classify(err error) string {
	var cert *tls.CertificateVerificationError
	var unknown x509.UnknownAuthorityError
	var hostname x509.HostnameError
	var invalid x509.CertificateInvalidError
	var recHeader tls.RecordHeaderError
	var alert tls.AlertError
	var netErr net.Error
	switch {
	case errors.As(err, &cert) || errors.As(err, &unknown) || errors.As(err, &hostname) ||
		errors.As(err, &invalid) || errors.As(err, &recHeader) || errors.As(err, &alert):
		return ReasonTLS
	case errors.Is(err, context.DeadlineExceeded) || errors.As(err, &netErr) && netErr.Timeout():
		return ReasonTimeout
	}
	return ReasonConnect
}

// detailOf words a transport failure for the operator's log.
func detailOf(err error) string {
	var unknown x509.UnknownAuthorityError
	var cert *tls.CertificateVerificationError
	if errors.As(err, &unknown) || errors.As(err, &cert) && errors.As(cert.Err, &unknown) {
		return "TLS: the receiver's certificate is signed by an unknown authority; add its CA with --webhook-ca"
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
