package httpapi_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"mime"
	"mime/multipart"
	"net"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/httpapi"
	"github.com/captionqa/captionqa/backend/internal/testkit"
)

// FuzzHTTP sends one request of a random method, path, headers and body,
// with one of a few credentials, to the real server (real SQLite file,
// loopback listener) and checks what every answer must hold:
//   - the server answers (no dropped connection) and nothing is logged at
//     level ERROR, no panic (the server's log and net/http's);
//   - no 500 internal_error and no 5xx but 501 and 503;
//   - a path under /api (case, doubled slashes and dot segments aside,
//     /apix too) never answers 2xx text/html: the UI page is not an API
//     answer (issue 12 point 7);
//   - every answer of status >= 400 to a path under /api (but to HEAD, and
//     the signed download's 412 and 416) is application/json with the
//     envelope {"error":{"code","message"}}, and its code is one of the
//     error table's for its status (docs/api.md, Errors);
//   - a 429, or a 503 unavailable, carries Retry-After;
//   - GET /healthz still answers 200 afterwards.
//
// The server is created once per fuzz process: a server per input would
// spend the time on migrations. Inputs change its state (keys minted and
// revoked, sign-outs, quotas spent); the credentials are renewed when an
// input used them up, and the fake clock moves a day on now and then so
// the daily caps refill.
//
// Requests go through net/http's client or, when raw is set, are written
// to a TCP connection as they are (CR and LF dropped), so odd request
// lines, Host headers and declared lengths reach the server. In the
// target, header values and body, {pro}, {few}, {revoked}, {other} and
// {victim} (a key for inputs to revoke, minted again once they have)
// stand for key ids, {key} for the pro key's secret, {origin} for the
// server's origin, {csrf} and {hcsrf} for the session's and the homepage
// converter's CSRF tokens; {project} (with a timeline, at revision
// {rev}), {empty} (none) and {artifact} (exported from {project}) for
// ids of the pro account, and {download} for the artifact's signed link
// (path and query).
func FuzzHTTP(f *testing.F) {
	// A real server's coverage is noisy (hit counts in net/http and SQLite
	// vary with timing), so inputs often look new and the fuzzer would
	// spend most of -fuzztime minimizing them, up to 60 s each by
	// default. Unless -fuzzminimizetime is given, minimizing is capped.
	minimizeSet := false
	flag.Visit(func(fl *flag.Flag) { minimizeSet = minimizeSet || fl.Name == "test.fuzzminimizetime" })
	if !minimizeSet {
		if err := flag.Set("test.fuzzminimizetime", "100x"); err != nil {
			f.Logf("capping minimization: %v", err)
		}
	}
	fz := newFuzzServer(f)
	for _, s := range fuzzSeeds() {
		f.Add(s.method, s.target, s.cred, s.h1, s.v1, s.h2, s.v2, s.ctype, s.body, s.raw)
	}
	f.Fuzz(func(t *testing.T, method, target string, cred uint8, h1, v1, h2, v2, ctype string, body []byte, raw bool) {
		fz.mu.Lock()
		defer fz.mu.Unlock()
		if problem := fz.run(fuzzInput{method, target, cred, h1, v1, h2, v2, ctype, body, raw}); problem != "" {
			t.Fatal(problem)
		}
	})
}

// fuzzInput is one request of FuzzHTTP; see there for the placeholders.
type fuzzInput struct {
	method, target string
	cred           uint8
	h1, v1, h2, v2 string
	ctype          string
	body           []byte
	raw            bool
}

// Credentials an input may send (cred modulo credCount).
const (
	credNone         = iota
	credPro          // Bearer key of a pro account, every scope
	credFew          // Bearer key with account:read and usage:read only
	credRevoked      // Bearer key, revoked
	credSession      // dashboard session cookie with its CSRF header
	credSessionNoTok // dashboard session cookie alone
	credBrowser      // homepage converter: Origin, CSRF cookie and header
	credBrowserSess  // credBrowser with the dashboard session cookie too
	credFree         // Bearer key of a free_plus account, every scope
	credExpired      // Bearer key past its expiresAt
	credUnknownKey   // a well-formed key no account has
	credBasic        // Authorization: Basic
	credCount
)

const (
	fuzzEmail     = "fuzz@example.com"
	fuzzFreeEmail = "fuzz-free@example.com"
	fuzzPassword  = "a fuzzing password"
	// fuzzDayEvery is how many inputs pass before the clock moves a day.
	fuzzDayEvery = 2000
	// fuzzWait bounds the wait for an answer.
	fuzzWait = 6 * time.Second
)

// fuzzServer is the one server of a fuzz process and the credentials on it.
type fuzzServer struct {
	mu     sync.Mutex
	ts     *testServer
	addr   string // host:port of the listener
	client *http.Client
	health *http.Client
	stdlog *lockedBuffer // net/http's own log (log package)
	inputs int

	pro, proID     string
	few, fewID     string
	revoked, revID string
	free, otherID  string
	victim, vicID  string
	expired        string
	session, csrf  string
	// The pro account's projects and artifact.
	project, empty string
	rev            int
	artifact       string
	download       string
	hcsrf          string // homepage converter token (cookie and header)
	proAcct, frAcc string // account ids
}

func newFuzzServer(f testing.TB) *fuzzServer {
	ts := newTestServer(f)
	fz := &fuzzServer{ts: ts, addr: strings.TrimPrefix(ts.URL, "http://"), stdlog: &lockedBuffer{}}
	// net/http logs a panic that escapes the handler, and a superfluous
	// WriteHeader, through the log package: keep a copy.
	prevOut := log.Writer()
	log.SetOutput(io.MultiWriter(prevOut, fz.stdlog))
	f.Cleanup(func() { log.SetOutput(prevOut) })

	// Every connection is closed with a reset, so tens of thousands of
	// raw ones leave no TIME_WAIT behind on the loopback ports.
	dial := func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		if tc, ok := c.(*net.TCPConn); ok {
			_ = tc.SetLinger(0)
		}
		return c, err
	}
	// A fuzz worker gives up on an input after 10 s without a word on
	// what it was doing: the request and the health check fail first.
	fz.client = &http.Client{Timeout: fuzzWait,
		Transport:     &http.Transport{DialContext: dial, DisableCompression: true},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	fz.health = &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{DialContext: dial}}

	ctx := context.Background()
	a := testkit.MustCreateAccount(f, ts.accounts, fuzzEmail, account.TierPro)
	fz.proAcct = a.ID
	if _, err := ts.accounts.SetPassword(ctx, fuzzEmail, fuzzPassword); err != nil {
		f.Fatal(err)
	}
	free := testkit.MustCreateAccount(f, ts.accounts, fuzzFreeEmail, account.TierFreePlus)
	fz.frAcc = free.ID
	k, s := testkit.MustCreateKey(f, ts.accounts, a.ID, account.ScopeAccountRead)
	fz.revoked, fz.revID = s, k.ID
	if _, err := ts.accounts.RevokeKey(ctx, a.ID, k.ID); err != nil {
		f.Fatal(err)
	}
	soon := ts.clock.Now().Add(time.Minute)
	if _, s, err := ts.accounts.CreateKey(ctx, a.ID, account.NewKey{Name: "expiring", Scopes: account.Scopes(), ExpiresAt: &soon}); err != nil {
		f.Fatal(err)
	} else {
		fz.expired = s
	}
	ts.clock.Advance(2 * time.Minute)
	if err := fz.renew(ctx, true); err != nil {
		f.Fatal(err)
	}
	// The homepage converter's token lives as long as the server's key.
	res, err := fz.health.Get(ts.URL + "/api/csrf")
	if err != nil {
		f.Fatal(err)
	}
	var tok struct{ Token string }
	err = json.NewDecoder(res.Body).Decode(&tok)
	res.Body.Close()
	if err != nil || tok.Token == "" {
		f.Fatalf("GET /api/csrf: %d %v", res.StatusCode, err)
	}
	fz.hcsrf = tok.Token
	return fz
}

// renew mints again every credential an input or the clock has used up:
// a key revoked or expired, a session signed out or expired; with
// projects, the projects, the artifact and its link too.
func (fz *fuzzServer) renew(ctx context.Context, projects bool) error {
	svc := fz.ts.accounts
	for _, k := range []struct {
		secret, id *string
		acct       string
		scopes     []string
	}{
		{&fz.pro, &fz.proID, fz.proAcct, account.Scopes()},
		{&fz.few, &fz.fewID, fz.proAcct, []string{account.ScopeAccountRead, account.ScopeUsageRead}},
		{&fz.free, &fz.otherID, fz.frAcc, account.Scopes()},
		{&fz.victim, &fz.vicID, fz.proAcct, []string{account.ScopeAccountRead}},
	} {
		if *k.secret != "" {
			if _, err := svc.Authenticate(ctx, *k.secret); err == nil {
				continue
			}
		}
		key, s, err := fz.mintKey(ctx, k.acct, k.scopes)
		if err != nil {
			return fmt.Errorf("renew key: %w", err)
		}
		*k.secret, *k.id = s, key.ID
	}
	if _, _, err := svc.SessionPrincipal(ctx, fz.session); fz.session == "" || err != nil {
		_, tok, err := svc.Login(ctx, fuzzEmail, fuzzPassword)
		if err != nil {
			return fmt.Errorf("renew session: %w", err)
		}
		_, csrf, err := svc.SessionPrincipal(ctx, tok)
		if err != nil {
			return fmt.Errorf("renew session: %w", err)
		}
		fz.session, fz.csrf = tok, csrf
	}
	if !projects {
		return nil
	}
	return fz.renewProjects()
}

// renewProjects makes sure the pro account has its two projects and an
// artifact, and signs a fresh link to it, through the API as a client
// would.
func (fz *fuzzServer) renewProjects() error {
	var p struct {
		ID         string `json:"id"`
		IRRevision int    `json:"irRevision"`
		CueCount   int    `json:"cueCount"`
	}
	if st, err := fz.call("GET", "/api/v1/projects/"+fz.project, "", &p); err != nil || st != 200 || p.CueCount == 0 {
		if err := fz.createProject(`{"name":"fuzz","ir":`+strconv.Quote(validIR)+`}`, &p); err != nil {
			return err
		}
		fz.artifact = ""
	}
	fz.project, fz.rev = p.ID, p.IRRevision
	if st, err := fz.call("GET", "/api/v1/projects/"+fz.empty, "", &p); err != nil || st != 200 || p.CueCount != 0 {
		if err := fz.createProject(`{"name":"fuzz empty"}`, &p); err != nil {
			return err
		}
		fz.empty = p.ID
	}
	var link struct{ URL string }
	if st, err := fz.call("GET", "/api/v1/artifacts/"+fz.artifact+"?ttlSeconds=86400", "", &link); err != nil || st != 200 {
		var e struct {
			Artifacts []struct {
				ArtifactID string `json:"artifactId"`
			} `json:"artifacts"`
		}
		if st, err := fz.call("POST", "/api/v1/projects/"+fz.project+"/exports", `{"presets":["lms"]}`, &e); err != nil || st != 201 || len(e.Artifacts) == 0 {
			return fmt.Errorf("exporting the project: %d %v", st, err)
		}
		fz.artifact = e.Artifacts[0].ArtifactID
		if st, err := fz.call("GET", "/api/v1/artifacts/"+fz.artifact+"?ttlSeconds=86400", "", &link); err != nil || st != 200 {
			return fmt.Errorf("signing the artifact's link: %d %v", st, err)
		}
	}
	u, err := url.Parse(link.URL)
	if err != nil {
		return err
	}
	fz.download = u.RequestURI()
	return nil
}

// createProject creates a project of the pro account; when the account
// holds as many as it may (inputs create projects too), it first deletes
// a few of them, neither of the two kept.
func (fz *fuzzServer) createProject(body string, out any) error {
	st, err := fz.call("POST", "/api/v1/projects", body, out)
	if err == nil && st == http.StatusConflict {
		var list struct{ Projects []struct{ ID string } }
		if st, err := fz.call("GET", "/api/v1/projects?limit=20", "", &list); err != nil || st != 200 {
			return fmt.Errorf("listing projects: %d %v", st, err)
		}
		for _, p := range list.Projects {
			if p.ID != fz.project && p.ID != fz.empty {
				if st, err := fz.call("DELETE", "/api/v1/projects/"+p.ID, "", nil); err != nil || st != 200 {
					return fmt.Errorf("deleting a project: %d %v", st, err)
				}
			}
		}
		st, err = fz.call("POST", "/api/v1/projects", body, out)
	}
	if err != nil || st != http.StatusCreated {
		return fmt.Errorf("creating a project: %d %v", st, err)
	}
	return nil
}

// call sends a request with the pro key and decodes a JSON answer into
// out (nil: none).
func (fz *fuzzServer) call(method, path, body string, out any) (int, error) {
	req, err := http.NewRequest(method, fz.ts.URL+path, strings.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Authorization", "Bearer "+fz.pro)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := fz.health.Do(req)
	if err != nil {
		return 0, err
	}
	defer res.Body.Close()
	if out != nil && res.StatusCode < 300 {
		err = json.NewDecoder(res.Body).Decode(out)
	}
	_, _ = io.Copy(io.Discard, res.Body)
	return res.StatusCode, err
}

// mintKey creates a key; when the account holds as many active keys as
// it may (inputs mint keys too), it first revokes a few of them, none of
// the credentials. Only a few: RevokeKey reads the account's whole key
// list back, revoked keys included, and a fuzz worker must finish an
// input within 10 s.
func (fz *fuzzServer) mintKey(ctx context.Context, acct string, scopes []string) (*account.Key, string, error) {
	svc := fz.ts.accounts
	k, s, err := svc.CreateKey(ctx, acct, account.NewKey{Name: "fuzz", Scopes: scopes})
	if apperr.KindOf(err) != apperr.Conflict {
		return k, s, err
	}
	keys, lerr := svc.ActiveKeys(ctx, acct)
	if lerr != nil {
		return nil, "", lerr
	}
	revoked := 0
	for _, k := range keys {
		if revoked == 10 {
			break
		}
		if k.RevokedAt == nil && k.ID != fz.proID && k.ID != fz.fewID && k.ID != fz.otherID && k.ID != fz.vicID {
			if _, err := svc.RevokeKey(ctx, acct, k.ID); err != nil {
				return nil, "", err
			}
			revoked++
		}
	}
	return svc.CreateKey(ctx, acct, account.NewKey{Name: "fuzz", Scopes: scopes})
}

// expand replaces the placeholders of s.
func (fz *fuzzServer) expand(s string) string {
	if !strings.Contains(s, "{") {
		return s
	}
	return strings.NewReplacer("{pro}", fz.proID, "{few}", fz.fewID, "{revoked}", fz.revID, "{other}", fz.otherID,
		"{victim}", fz.vicID, "{key}", fz.pro, "{origin}", fz.ts.URL, "{csrf}", fz.csrf, "{hcsrf}", fz.hcsrf,
		"{project}", fz.project, "{empty}", fz.empty, "{rev}", strconv.Itoa(fz.rev), "{artifact}", fz.artifact,
		"{download}", fz.download).Replace(s)
}

// credHeaders returns the headers of a credential.
func (fz *fuzzServer) credHeaders(cred uint8) [][2]string {
	bearer := func(s string) [][2]string { return [][2]string{{"Authorization", "Bearer " + s}} }
	sess := httpapi.SessionCookie + "=" + fz.session
	browser := [][2]string{{"Origin", fz.ts.URL}, {httpapi.CSRFHeader, fz.hcsrf}}
	switch cred % credCount {
	case credPro:
		return bearer(fz.pro)
	case credFew:
		return bearer(fz.few)
	case credRevoked:
		return bearer(fz.revoked)
	case credSession:
		return [][2]string{{"Cookie", sess}, {httpapi.CSRFHeader, fz.csrf}}
	case credSessionNoTok:
		return [][2]string{{"Cookie", sess}}
	case credBrowser:
		return append(browser, [2]string{"Cookie", httpapi.CSRFCookie + "=" + fz.hcsrf})
	case credBrowserSess:
		return append(browser, [2]string{"Cookie", httpapi.CSRFCookie + "=" + fz.hcsrf + "; " + sess})
	case credFree:
		return bearer(fz.free)
	case credExpired:
		return bearer(fz.expired)
	case credUnknownKey:
		return bearer(account.SecretTag + "0123456789ab_" + strings.Repeat("A", 43))
	case credBasic:
		return [][2]string{{"Authorization", "Basic Zm9vOmJhcg=="}}
	}
	return nil
}

// fuzzReply is what came back; fromApp is false for net/http's own
// refusals of a malformed request, which never reach the router (every
// answer of the router carries X-Request-Id).
type fuzzReply struct {
	status  int
	header  http.Header
	body    []byte
	fromApp bool
}

// run sends one input and returns what is wrong with the exchange, or "".
func (fz *fuzzServer) run(in fuzzInput) string {
	fz.inputs++
	ctx := context.Background()
	if fz.inputs%fuzzDayEvery == 0 {
		fz.ts.clock.Advance(24 * time.Hour)
		if err := fz.renew(ctx, true); err != nil {
			return err.Error()
		}
	}
	fz.drainLogs() // what earlier inputs left is theirs

	in.target = fz.expand(in.target)
	in.v1, in.v2 = fz.expand(in.v1), fz.expand(in.v2)
	if bytes.Contains(in.body, []byte("{")) {
		in.body = []byte(fz.expand(string(in.body)))
	}
	headers := fz.credHeaders(in.cred)
	for _, h := range [][2]string{{in.h1, in.v1}, {in.h2, in.v2}, {"Content-Type", in.ctype}} {
		if h[0] != "" && (h[0] != "Content-Type" || h[1] != "") {
			headers = append(headers, h)
		}
	}

	var rep *fuzzReply
	var reqTarget string
	var err error
	if in.raw {
		rep, reqTarget, err = fz.sendRaw(in, headers)
	} else {
		rep, reqTarget, err = fz.sendClient(in, headers)
		if errors.Is(err, errClientRefused) {
			return "" // net/http's client would not send it: nothing reached the server
		}
	}
	desc := fmt.Sprintf("%q %q raw=%v cred=%d headers=%q body=%.300q", in.method, reqTarget, in.raw, in.cred%credCount, headers, in.body)
	if err != nil && in.raw && strings.Contains(err.Error(), "connection reset") && fz.headRejected(in, headers) {
		// net/http answers a request line or header it cannot parse with
		// 400 and closes at once; when bytes of the request are still
		// unread, the close is a reset that may destroy the answer.
		return ""
	}
	if err != nil {
		return fmt.Sprintf("no answer to %s: %v\nserver log:\n%s", desc, err, fz.drainLogs())
	}
	if msg := fz.logProblems(); msg != "" {
		return fmt.Sprintf("the server logged a failure for %s (status %d):\n%s", desc, rep.status, msg)
	}
	if problem := checkReply(in.method, reqTarget, rep); problem != "" {
		return fmt.Sprintf("%s\nrequest: %s\nresponse: %d %q\n%.2000s", problem, desc, rep.status, rep.header, rep.body)
	}
	if err := fz.healthy(); err != nil {
		return fmt.Sprintf("after %s: GET /healthz: %v\nserver log:\n%s", desc, err, fz.drainLogs())
	}
	if rep.fromApp && rep.status < 300 && in.method != http.MethodGet && in.method != http.MethodHead {
		// It may have revoked a key, signed the session out or deleted
		// a project.
		if err := fz.renew(ctx, true); err != nil {
			return err.Error()
		}
	}
	return ""
}

// headRejected reports whether net/http itself refuses the request line
// and headers of in: sent again without body, Content-Length and
// Transfer-Encoding, they get an answer that never reached the router.
func (fz *fuzzServer) headRejected(in fuzzInput, headers [][2]string) bool {
	var kept [][2]string
	for _, h := range headers {
		switch strings.ToLower(strings.TrimSpace(h[0])) {
		case "content-length", "transfer-encoding":
		default:
			kept = append(kept, h)
		}
	}
	in.body = nil
	rep, _, err := fz.sendRaw(in, kept)
	return err == nil && !rep.fromApp && rep.status >= 400
}

// errClientRefused: net/http's client refused to build or send the request
// (an invalid method, header or URL); the server never saw it.
var errClientRefused = errors.New("refused by the client")

func (fz *fuzzServer) sendClient(in fuzzInput, headers [][2]string) (*fuzzReply, string, error) {
	target := in.target
	if !strings.HasPrefix(target, "/") {
		target = "/" + target
	}
	req, err := http.NewRequest(in.method, fz.ts.URL+target, bytes.NewReader(in.body))
	if err != nil || req.URL.Host != fz.addr {
		return nil, "", errClientRefused
	}
	if len(in.body) == 0 {
		req.Body, req.ContentLength = http.NoBody, 0
	}
	for _, h := range headers {
		if !validFieldName(h[0]) || !validFieldValue(h[1]) {
			return nil, "", errClientRefused
		}
		if strings.EqualFold(h[0], "Host") {
			req.Host = h[1]
			continue
		}
		req.Header.Add(h[0], h[1])
	}
	reqTarget := req.URL.RequestURI()
	if strings.Contains(reqTarget, " ") {
		// The client leaves spaces in a query as they are, and so writes
		// a request line the server cannot parse; raw inputs send such
		// lines on purpose.
		return nil, reqTarget, errClientRefused
	}
	res, err := fz.client.Do(req)
	if err != nil {
		if serverFault(err) {
			return nil, reqTarget, err
		}
		return nil, reqTarget, errClientRefused
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		return nil, reqTarget, fmt.Errorf("reading the body: %w", err)
	}
	return &fuzzReply{status: res.StatusCode, header: res.Header, body: body, fromApp: res.Header.Get(httpapi.HeaderRequestID) != ""}, reqTarget, nil
}

// serverFault reports whether a client error means the server dropped or
// stalled the exchange, rather than the client refusing to send.
func serverFault(err error) bool {
	var ne net.Error
	s := err.Error()
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || (errors.As(err, &ne) && ne.Timeout()) ||
		strings.Contains(s, "connection reset") || strings.Contains(s, "broken pipe") ||
		strings.Contains(s, "malformed HTTP") || strings.Contains(s, "connection refused")
}

// sendRaw writes the request to a fresh connection as it is: CR and LF
// are dropped so each header stays one line; the connection is closed
// once the first answer is read. Content-Length is the body's
// unless the input sets it or Transfer-Encoding; such a request may
// declare more than it sends, so when no answer comes within a second the
// write side is closed and the server sees the body end.
func (fz *fuzzServer) sendRaw(in fuzzInput, headers [][2]string) (*fuzzReply, string, error) {
	clean := strings.NewReplacer("\r", "", "\n", "").Replace
	target := clean(in.target)
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\n", clean(in.method), target)
	has := map[string]bool{}
	for _, h := range headers {
		name := clean(h[0])
		has[strings.ToLower(strings.TrimSpace(name))] = true
		fmt.Fprintf(&b, "%s: %s\r\n", name, clean(h[1]))
	}
	if !has["host"] {
		fmt.Fprintf(&b, "Host: %s\r\n", fz.addr)
	}
	declared := has["content-length"] || has["transfer-encoding"]
	if !declared && len(in.body) > 0 {
		fmt.Fprintf(&b, "Content-Length: %d\r\n", len(in.body))
	}
	b.WriteString("\r\n")
	b.Write(in.body)

	c, err := net.DialTimeout("tcp", fz.addr, time.Second)
	if err != nil {
		return nil, target, err
	}
	conn := c.(*net.TCPConn)
	_ = conn.SetLinger(0)
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(fuzzWait))
	if _, err := conn.Write(b.Bytes()); err != nil && !declared {
		return nil, target, fmt.Errorf("writing the request: %w", err)
	}
	br := bufio.NewReader(conn)
	if declared {
		// Wait for a first byte; if the server is still reading a body
		// that never comes, end it.
		_ = conn.SetReadDeadline(time.Now().Add(time.Second))
		if _, err := br.Peek(1); err != nil {
			var ne net.Error
			if !errors.As(err, &ne) || !ne.Timeout() {
				return nil, target, err
			}
			_ = conn.CloseWrite()
		}
		_ = conn.SetReadDeadline(time.Now().Add(fuzzWait))
	}
	method := clean(in.method)
	for range 5 {
		res, err := http.ReadResponse(br, &http.Request{Method: method})
		if err != nil {
			return nil, target, err
		}
		body, err := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode >= 100 && res.StatusCode < 200 && res.StatusCode != http.StatusSwitchingProtocols {
			continue // 100 Continue and the like: the answer follows
		}
		fromApp := res.Header.Get(httpapi.HeaderRequestID) != ""
		if err != nil && fromApp {
			return nil, target, fmt.Errorf("reading the body of %d: %w", res.StatusCode, err)
		}
		// net/http closes at once on a request it cannot parse; the
		// bytes of it still unread can make that close a reset, which
		// may cut its short answer.
		return &fuzzReply{status: res.StatusCode, header: res.Header, body: body, fromApp: fromApp}, target, nil
	}
	return nil, target, errors.New("only informational responses")
}

// healthy reports whether GET /healthz still answers 200.
func (fz *fuzzServer) healthy() error {
	res, err := fz.health.Get(fz.ts.URL + "/healthz")
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("status %d", res.StatusCode)
	}
	return nil
}

// drainLogs returns and forgets what both logs hold.
func (fz *fuzzServer) drainLogs() string {
	var s strings.Builder
	for _, b := range []*lockedBuffer{fz.ts.logs, fz.stdlog} {
		b.mu.Lock()
		s.Write(b.buf.Bytes())
		b.buf.Reset()
		b.mu.Unlock()
	}
	return s.String()
}

// logProblems drains the logs and returns their lines that tell of a
// failure: level ERROR (internal errors, recovered panics), or net/http's
// report of a panic or a superfluous WriteHeader.
func (fz *fuzzServer) logProblems() string {
	var bad []string
	for _, line := range strings.Split(fz.drainLogs(), "\n") {
		if strings.Contains(line, `"level":"ERROR"`) || strings.Contains(line, "panic") || strings.Contains(line, "superfluous") {
			bad = append(bad, line)
		}
	}
	return strings.Join(bad, "\n")
}

// codesByStatus are the codes of the error table by status (docs/api.md,
// Errors; 409's code is apperr's conflict).
var codesByStatus = map[int][]string{
	400: {"bad_request", "payload_too_large"},
	401: {"unauthorized", "api_key_revoked", "api_key_expired"},
	403: {"forbidden"},
	404: {"not_found"},
	405: {"method_not_allowed"}, // the served contract's extension
	409: {"conflict"},
	413: {"payload_too_large"},
	422: {"processing_failed"},
	429: {"rate_limited", "quota_exceeded"},
	501: {"not_implemented"},
	503: {"unavailable"},
}

// checkReply returns what is wrong with the answer to method and target
// (the request-target as sent), or "".
func checkReply(method, target string, r *fuzzReply) string {
	if !r.fromApp {
		// net/http refused the request line or headers itself, or
		// answered OPTIONS * (the whole server's options) on its own.
		if r.status < 400 && (method != http.MethodOptions || target != "*") {
			return fmt.Sprintf("status %d without %s: the router did not answer", r.status, httpapi.HeaderRequestID)
		}
		return ""
	}
	if r.status == http.StatusInternalServerError {
		return "500: an input made the server fail"
	}
	if r.status >= 500 && r.status != 501 && r.status != 503 {
		return fmt.Sprintf("status %d is none of the error table's (docs/api.md)", r.status)
	}
	api := underAPI(target)
	mt, _, _ := mime.ParseMediaType(r.header.Get("Content-Type"))
	if api && r.status >= 200 && r.status < 300 && mt == "text/html" {
		return "a path under /api answered the UI page (issue 12 point 7: it must be a 404 not_found envelope)"
	}
	if r.status < 400 {
		return ""
	}
	if (r.status == http.StatusPreconditionFailed || r.status == http.StatusRequestedRangeNotSatisfiable) &&
		strings.HasPrefix(target, "/api/artifacts/") {
		// The signed download serves a file with HTTP's own conditional
		// and range semantics (If-Match, Range): 412 and 416 are answers a
		// download client and a cache understand, not API errors.
		return ""
	}
	code := ""
	if method != http.MethodHead && api {
		if mt != "application/json" {
			return fmt.Sprintf("error of a path under /api with Content-Type %q; want application/json", r.header.Get("Content-Type"))
		}
		var env struct {
			Error *struct {
				Code    *string `json:"code"`
				Message *string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(r.body, &env); err != nil || env.Error == nil || env.Error.Code == nil || env.Error.Message == nil || *env.Error.Message == "" {
			return fmt.Sprintf("error body is not the envelope {\"error\":{\"code\",\"message\"}} (%v)", err)
		}
		code = *env.Error.Code
		ok := false
		for _, c := range codesByStatus[r.status] {
			ok = ok || c == code
		}
		if !ok {
			return fmt.Sprintf("code %q with status %d is not in the error table (docs/api.md)", code, r.status)
		}
	}
	if r.status == http.StatusTooManyRequests || code == "unavailable" {
		ra := r.header.Get("Retry-After")
		n, err := strconv.Atoi(ra)
		_, derr := http.ParseTime(ra)
		if (err != nil || n < 1) && derr != nil {
			return fmt.Sprintf("status %d %s without a valid Retry-After (%q)", r.status, code, ra)
		}
	}
	return ""
}

// underAPI reports whether the request-target names a path under /api:
// decoded, in any case, with doubled slashes and dot segments resolved,
// and with anything right after "/api" (as /apix, which issue 12 names).
func underAPI(target string) bool {
	u, err := url.ParseRequestURI(target)
	if err != nil {
		return false
	}
	return strings.HasPrefix(path.Clean("/"+strings.ToLower(u.Path)), "/api")
}

// validFieldName and validFieldValue are what net/http's client accepts
// in a header (RFC 9110 token; no control character but tab).
func validFieldName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`"(),/:;<=>?@[\]{}`, c) >= 0 {
			return false
		}
	}
	return true
}

func validFieldValue(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < ' ' && c != '\t') || c == 0x7f {
			return false
		}
	}
	return true
}

// fuzzSeed is one seed of FuzzHTTP.
type fuzzSeed struct {
	method, target string
	cred           uint8
	h1, v1, h2, v2 string
	ctype          string
	body           []byte
	raw            bool
}

const fuzzBoundary = "fuzzboundary0123456789"

// fuzzForm is a multipart form: fields as name, value pairs (a name may
// repeat), then the files.
func fuzzForm(fields []string, files ...string) []byte {
	var b bytes.Buffer
	w := multipart.NewWriter(&b)
	_ = w.SetBoundary(fuzzBoundary)
	for i := 0; i+1 < len(fields); i += 2 {
		_ = w.WriteField(fields[i], fields[i+1])
	}
	for _, f := range files {
		fw, _ := w.CreateFormFile("file", "in.srt")
		_, _ = io.WriteString(fw, f)
	}
	_ = w.Close()
	return b.Bytes()
}

// fuzzSeeds are realistic requests of every route of routes.go, and
// slightly broken ones.
func fuzzSeeds() []fuzzSeed {
	const (
		mp   = "multipart/form-data; boundary=" + fuzzBoundary
		js   = "application/json"
		uuid = "0f8fad5b-d9cb-469f-a165-70867728950e"
	)
	var s []fuzzSeed
	add := func(method, target string, cred uint8, ctype string, body []byte, hv ...string) {
		hv = append(hv, "", "", "", "")
		s = append(s, fuzzSeed{method: method, target: target, cred: cred, h1: hv[0], v1: hv[1], h2: hv[2], v2: hv[3], ctype: ctype, body: body})
	}
	raw := func(method, target string, cred uint8, ctype string, body []byte, hv ...string) {
		add(method, target, cred, ctype, body, hv...)
		s[len(s)-1].raw = true
	}
	ready := fuzzForm(nil, readySRT)

	// POST /api/v1/process.
	for _, c := range []uint8{credNone, credPro, credFew, credRevoked, credSession, credSessionNoTok, credFree, credExpired, credUnknownKey, credBasic} {
		add("POST", "/api/v1/process", c, mp, ready)
	}
	add("POST", "/api/v1/process", credPro, mp, fuzzForm([]string{"preset", "html5", "standard", "wcag-2.1-aa", "fixProfile", "auto-split-cps"}, styledSRT))
	add("POST", "/api/v1/process", credPro, mp, fuzzForm([]string{"preset", "lms", "language", "en-GB", "includeExplain", "true", "allDiagnostics", "true"}, readySRT))
	add("POST", "/api/v1/process", credPro, mp, fuzzForm([]string{"preset", "developer-json"}, noCuesVTT))
	add("POST", "/api/v1/process", credPro, mp, fuzzForm([]string{"preset", "youtube", "preset", "tiktok"}, readySRT)) // repeated field
	add("POST", "/api/v1/process", credPro, mp, fuzzForm(nil, readySRT, styledSRT))                                    // two files
	add("POST", "/api/v1/process", credPro, mp, fuzzForm([]string{"preset", "myspace", "includeExplain", "maybe"}))    // no file
	add("POST", "/api/v1/process", credPro, mp, fuzzForm([]string{"fixProfile", "magic", "language", "en_GB"}, "WEBVTT\n\n00:01.000 --> 00:00.000\n\x1b[31mred\u202e\n"))
	add("POST", "/api/v1/process", credPro, mp, ready[:len(ready)/2]) // truncated form
	add("POST", "/api/v1/process", credPro, "multipart/form-data", ready)
	add("POST", "/api/v1/process", credPro, js, []byte(`{"file":"x"}`))
	add("POST", "/api/v1/process", credPro, "", ready)
	raw("POST", "/api/v1/process", credPro, mp, ready, "Content-Length", "99999999")
	raw("POST", "/api/v1/process", credPro, mp, ready, "Content-Length", strconv.Itoa(len(ready)+100))
	raw("POST", "/api/v1/process", credPro, mp, []byte(fmt.Sprintf("%x\r\n%s\r\n0\r\n\r\n", len(ready), ready)), "Transfer-Encoding", "chunked")
	raw("POST", "/api/v1/process", credPro, mp, ready, "Expect", "100-continue")
	add("POST", "/api/v1/process?allDiagnostics=true", credPro, mp, fuzzForm([]string{"allDiagnostics", "yes"}, readySRT))

	// Homepage converter, CSRF token, sessions.
	for _, c := range []uint8{credNone, credBrowser, credBrowserSess, credSession, credPro} {
		add("POST", "/api/process", c, mp, ready)
	}
	add("POST", "/api/process", credNone, mp, ready, "Origin", "{origin}", "X-CSRF-Token", "{hcsrf}")
	add("POST", "/api/process", credBrowser, mp, ready, "Origin", "https://evil.example")
	add("POST", "/api/process", credNone, mp, ready, "Sec-Fetch-Site", "same-origin", "Cookie", httpapi.CSRFCookie+"={hcsrf}")
	add("POST", "/api/process", credBrowser, mp, fuzzForm([]string{"preset", "vimeo", "preset", "zoom"}, readySRT))
	add("GET", "/api/csrf", credNone, "", nil)
	add("POST", "/api/session", credNone, js, []byte(`{"email":"`+fuzzEmail+`","password":"`+fuzzPassword+`"}`), "Origin", "{origin}")
	add("POST", "/api/session", credNone, js, []byte(`{"email":"`+fuzzEmail+`","password":"wrong"}`))
	add("POST", "/api/session", credNone, js, []byte(`{"email":"x","password":"y"}{"email":"z"}`), "Origin", "https://evil.example")
	add("POST", "/api/session", credNone, "application/x-www-form-urlencoded", []byte("email=a&password=b"))
	add("POST", "/api/session/link", credNone, js, []byte(`{"token":"`+strings.Repeat("A", 43)+`","password":"`+fuzzPassword+`"}`), "Origin", "{origin}")
	add("POST", "/api/session/link", credNone, js, []byte(`{"token":"x","password":"short"}`))
	add("POST", "/api/session/link", credNone, js, []byte(`{"token":"x","token":"y"}`), "Origin", "https://evil.example")
	add("GET", "/api/session", credSessionNoTok, "", nil)
	add("GET", "/api/session", credNone, "", nil, "Cookie", httpapi.SessionCookie+"="+strings.Repeat("A", 200))
	add("DELETE", "/api/session", credSession, "", nil)
	add("DELETE", "/api/session", credSessionNoTok, "", nil)

	// The rest of v1.
	for _, c := range []uint8{credNone, credPro, credFew, credRevoked, credSessionNoTok, credFree, credExpired} {
		add("GET", "/api/v1/me", c, "", nil)
	}
	add("GET", "/api/v1/usage", credPro, "", nil)
	add("GET", "/api/v1/usage", credFree, "", nil, "X-Request-Id", "fuzz-1")
	add("GET", "/api/v1/api-keys", credPro, "", nil)
	add("GET", "/api/v1/api-keys", credFew, "", nil)
	add("POST", "/api/v1/explain", credPro, js, []byte(`{"report":{},"aidedReport":{},"aidedSameAsDelivery":true,"aidedOutput":"","cues":[]}`))
	for _, b := range []string{
		`{"name":"fuzz key","scopes":["keys:read","process:write"]}`,
		`{"name":"late","scopes":["keys:read"],"expiresAt":"9999-12-31T00:00:00Z"}`,
		`{"name":"x","scopes":["keys:read"]} trailing`,
		`{"name":"x","scopes":["keys:read"]}{"name":"y"}`,
		`{"name":"x","name":"y","scopes":["keys:read"]}`,
		`{"NAME":"x","Scopes":["keys:read"]}`,
		`{"name":"nul\u0000esc\u001b bidi\u202e","scopes":["keys:read"]}`,
		`{"name":"x","scopes":["nope"]}`,
		`{"name":`,
		`[]`,
	} {
		add("POST", "/api/v1/api-keys", credPro, js, []byte(b))
	}
	add("POST", "/api/v1/api-keys", credPro, "", []byte(`{"name":"no type","scopes":["keys:read"]}`))
	add("POST", "/api/v1/api-keys", credPro, "text/plain", []byte(`{"name":"text","scopes":["keys:read"]}`))
	add("POST", "/api/v1/api-keys", credSession, js, []byte(`{"name":"from the UI","scopes":["keys:read"]}`))
	add("POST", "/api/v1/api-keys", credSessionNoTok, js, []byte(`{"name":"no csrf","scopes":["keys:read"]}`))
	raw("POST", "/api/v1/api-keys", credPro, js, []byte(`{"name":"big"}`), "Content-Length", "70000")
	for _, id := range []string{"{victim}", "{other}", "{revoked}", "{few}", "not-a-uuid", uuid, "%2e%2e", "{victim}/x"} {
		add("DELETE", "/api/v1/api-keys/"+id, credPro, "", nil)
	}
	add("DELETE", "/api/v1/api-keys/{victim}", credSession, "", nil)
	add("DELETE", "/api/v1/api-keys/{victim}", credFew, "", nil)
	add("GET", "/api/v1/webhook", credPro, "", nil)
	add("PUT", "/api/v1/webhook", credPro, js, []byte(`{"url":"https://example.com/hook","enabled":true,"rotateSecret":false}`))
	add("PUT", "/api/v1/webhook", credPro, js, []byte(`{"url":"http://user:pw@example.com/#x","enabled":null}`))
	add("PUT", "/api/v1/webhook", credSession, js, []byte(`{"rotateSecret":true}`))
	add("GET", "/api/v1/webhook/deliveries?limit=101", credPro, "", nil)
	add("POST", "/api/v1/webhook/deliveries/"+uuid+"/redeliver", credPro, "", nil)
	add("POST", "/api/v1/webhook/test", credFew, "", nil)
	// Projects, exports and artifacts.
	irJSON := strconv.Quote(validIR)
	projectForm := func(fields []string, file string) []byte {
		var b bytes.Buffer
		w := multipart.NewWriter(&b)
		_ = w.SetBoundary(fuzzBoundary)
		for i := 0; i+1 < len(fields); i += 2 {
			_ = w.WriteField(fields[i], fields[i+1])
		}
		fw, _ := w.CreateFormFile("file", "in.vtt")
		_, _ = io.WriteString(fw, file)
		_ = w.Close()
		return b.Bytes()
	}
	add("GET", "/api/v1/projects", credPro, "", nil)
	add("GET", "/api/v1/projects?limit=1&cursor=x", credSessionNoTok, "", nil)
	add("GET", "/api/v1/projects?limit=-5", credPro, "", nil)
	add("POST", "/api/v1/projects", credPro, js, []byte(`{"name":"p","ir":`+irJSON+`}`))
	add("POST", "/api/v1/projects", credPro, js, []byte(`{"name":"a\u001b[2Jb"}`))
	add("POST", "/api/v1/projects", credPro, js, []byte(`{"name":"x","ir":`+validIR+`}`))
	add("POST", "/api/v1/projects", credSession, mp, projectForm([]string{"name", "from a file"}, "WEBVTT\n\n00:01.000 --> 00:02.000\nHi.\n"))
	add("POST", "/api/v1/projects", credPro, mp, projectForm([]string{"name", "a", "name", "b"}, readySRT))
	add("GET", "/api/v1/projects/{project}", credPro, "", nil)
	add("GET", "/api/v1/projects/{empty}", credFew, "", nil)
	add("GET", "/api/v1/projects/not-a-uuid", credPro, "", nil)
	add("GET", "/api/v1/projects/{project}/revisions", credPro, "", nil)
	add("PUT", "/api/v1/projects/{project}/ir", credPro, js, []byte(`{"ir":`+irJSON+`,"baseRevision":{rev}}`))
	add("PUT", "/api/v1/projects/{project}/ir", credPro, js, []byte(`{"ir":"{}","ir":"{}","baseRevision":{rev}}`))
	add("PUT", "/api/v1/projects/{empty}/ir", credPro, js, []byte(`{"ir":`+irJSON+`,"baseRevision":"0"}`))
	add("PUT", "/api/v1/projects/{project}/ir", credSession, mp, projectForm([]string{"baseRevision", "{rev}"}, readySRT))
	add("PUT", "/api/v1/projects/{project}/ir", credPro, mp, projectForm([]string{"baseRevision", "x"}, styledSRT))
	add("POST", "/api/v1/projects/{project}/diff", credPro, js, []byte(`{"ir":`+irJSON+`,"baseIrRevision":{rev}}`))
	add("POST", "/api/v1/projects/{project}/diff", credPro, js, []byte(`{"afterIr":"{\"version\":1,\"cues\":[]}"}`))
	add("POST", "/api/v1/projects/{project}/diff", credPro, mp, projectForm([]string{"baseIrRevision", "-1"}, styledSRT))
	add("POST", "/api/v1/projects/{empty}/diff", credPro, js, []byte(`{"ir":"{}"}`))
	add("POST", "/api/v1/projects/"+uuid+"/diff", credFree, js, []byte(`{"ir":"{}"}`))
	add("POST", "/api/v1/projects/{project}/exports", credPro, js, []byte(`{"presets":["lms","youtube"],"fixProfile":"auto-split-cps","standard":"dcmp"}`))
	add("POST", "/api/v1/projects/{project}/exports", credPro, js, []byte(`{"presets":["lms","lms"]}`))
	add("POST", "/api/v1/projects/{empty}/exports", credPro, js, []byte(`{"presets":["lms"]}`))
	add("POST", "/api/v1/projects/{project}/exports", credFree, js, []byte(`{"presets":["vimeo"]}`))
	add("DELETE", "/api/v1/projects/{empty}", credPro, "", nil)
	add("DELETE", "/api/v1/projects/{empty}", credSessionNoTok, "", nil)
	add("GET", "/api/v1/artifacts/{artifact}", credPro, "", nil)
	add("GET", "/api/v1/artifacts/{artifact}?ttlSeconds=59", credPro, "", nil)
	add("GET", "/api/v1/artifacts/{artifact}?ttlSeconds=86400&ttlSeconds=60", credFree, "", nil)
	add("GET", "{download}", credNone, "", nil)
	add("HEAD", "{download}", credNone, "", nil)
	add("GET", "{download}", credNone, "", nil, "Range", "bytes=0-9")
	add("GET", "{download}", credNone, "", nil, "Range", "bytes=0-2,5-")
	add("GET", "{download}", credNone, "", nil, "If-None-Match", "*")
	add("GET", "{download}", credNone, "", nil, "If-Match", "*")
	add("GET", "{download}", credNone, "", nil, "Range", "bytes=999999-")
	add("GET", "{download}", credNone, "", nil, "If-Match", `"nope"`)
	add("GET", "{download}x", credNone, "", nil)
	add("GET", "/api/artifacts/{artifact}?expires=1&sig=x", credNone, "", nil)
	add("GET", "/api/artifacts/{artifact}", credPro, "", nil)
	add("GET", "/api/artifacts/"+uuid+"?expires=99999999999&sig=", credNone, "", nil)
	add("POST", "/api/v1/media/upload", credPro, js, []byte(`{"projectId":"`+uuid+`","filename":"a.mp4","contentType":"video/mp4","bytes":10,"urlTtlSeconds":60}`))
	add("POST", "/api/v1/media/upload/u1/complete", credPro, js, []byte(`{"projectId":"`+uuid+`","objectKey":"k","multipart":false,"parts":[]}`))
	add("GET", "/api/v1/export-templates", credPro, "", nil)
	add("POST", "/api/v1/export-templates", credPro, js, []byte(`{"name":"t","scriptSource":"function exportTimeline(cues, ctx) { return '' }"}`))
	add("GET", "/api/v1/export-templates/t1", credPro, "", nil)
	add("PUT", "/api/v1/export-templates/t1", credPro, js, []byte(`{"name":"t","scriptSource":"","revision":1}`))
	add("DELETE", "/api/v1/export-templates/t1", credPro, "", nil)
	add("POST", "/api/v1/export-templates/validate", credPro, js, []byte(`{"scriptSource":"x","mode":"both","projectId":"`+uuid+`"}`))
	add("POST", "/api/v1/export-templates/t1/test", credPro, js, []byte(`{"projectId":"`+uuid+`","mode":"test"}`))
	add("POST", "/api/v1/export-templates/validate", credPro, js, []byte(`{"scriptSource":"function exportTimeline(cues, ctx) { return cues.map(c => ctx.srtTime(c.startMs)).join() }","mode":"both","projectId":"{project}"}`))
	add("POST", "/api/v1/projects/{project}/exports", credPro, js, []byte(`{"templateIds":["`+uuid+`"],"presets":["lms"]}`))
	add("POST", "/api/v1/jobs/extract", credPro, js, []byte(`{"projectId":"`+uuid+`","extractMode":"soft_track","trackIndex":0,"mediaObjectKey":"k"}`))
	add("POST", "/api/v1/jobs/render", credPro, js, []byte(`{"projectId":"`+uuid+`","mode":"sidecar","preset":"youtube","outputDelivery":"inline","mediaObjectKey":"k"}`))
	add("GET", "/api/v1/jobs/"+uuid, credPro, "", nil)
	add("DELETE", "/api/v1/jobs/"+uuid, credPro, "", nil)
	add("GET", "/api/v1/artifacts/"+uuid+"?ttlSeconds=60", credPro, "", nil)
	add("GET", "/api/v1/openapi.json", credNone, "", nil)

	// Health and the UI.
	for _, p := range []string{"/healthz", "/readyz", "/", "/index.html", "/projects/42", "/assets/../index.html"} {
		add("GET", p, credNone, "", nil)
	}
	add("HEAD", "/", credNone, "", nil)

	// Odd paths (issue 12 point 7), methods and query strings.
	for _, p := range []string{"//api/v1/usage", "/API/V1/ME", "/apix/v1/me", "/api", "/api/", "/api/v2/me", "/api/v1", "/api/v1/",
		"/api/v1/me/", "/api/v1//me", "/api/./v1/me", "/api/v1/../v1/me", "/%61pi/v1/me", "/api%2fv1%2fme", "/Api/csrf", "/api/v1/me%00",
		"/api/v1/openapi.json/", "/api/healthz"} {
		add("GET", p, credPro, "", nil)
	}
	for _, p := range []string{"/api/v1/me?api_key={key}", "/api/v1/me?x=cqa_abc", "/?token=x", "/api/v1/me?%zz=1&q=%5", "/api/v1/usage?a=1&a=2&KEY=v",
		"/api/v1/me?x=CQA%5Fabc", "/api/v1/process?preset=tiktok&preset=html5"} {
		add("GET", p, credPro, "", nil)
	}
	for _, m := range []string{"PATCH", "OPTIONS", "TRACE", "HEAD", "get", "BREW", "PUT"} {
		add(m, "/api/v1/me", credPro, "", nil)
	}
	add("HEAD", "/api/v1/nope", credNone, "", nil)
	add("HEAD", "/API/V1/ME", credNone, "", nil)
	add("POST", "/api/v1/nope", credPro, js, []byte(`{}`))
	add("GET", "/api/v1/me", credPro, "", nil, "X-Request-Id", strings.Repeat("r", 200), "Accept-Encoding", "gzip")
	add("GET", "/api/v1/me", credNone, "", nil, "Authorization", "Bearer ")
	add("GET", "/api/v1/me", credNone, "", nil, "Authorization", "bearer   {key}  ")
	add("GET", "/api/v1/me", credPro, "", nil, "Authorization", "Bearer other")
	add("GET", "/api/v1/me", credSession, "", nil, "Cookie", httpapi.SessionCookie+"=x")
	add("GET", "/assets/app.js", credNone, "", nil, "Range", "bytes=999999-")
	raw("GET", "/api/v1/me", credPro, "", nil, "Host", "evil.example")
	raw("GET", "/api/v1/me", credPro, "", nil, "Host", "localhost.")
	raw("GET", "/api/v1/me", credPro, "", nil, "Host", "[::1]:80")
	raw("GET", "http://127.0.0.1/api/v1/me", credPro, "", nil)
	raw("GET", "http://evil.example//API/v1/usage", credPro, "", nil)
	raw("OPTIONS", "*", credNone, "", nil)
	raw("CONNECT", "127.0.0.1:80", credNone, "", nil)
	raw("GET", "api/v1/me", credPro, "", nil)
	raw("GET", "/api/v1/me HTTP/1.0", credPro, "", nil)
	raw("GET", "//api/v1/usage", credPro, "", nil)
	raw("GET", "/api/v1/me", credPro, "", []byte("GET /api/v1/me HTTP/1.1\r\n\r\n"))
	raw("POST", "/api/v1/api-keys", credPro, js, []byte(`{"name":"x","scopes":["keys:read"]}`), "Transfer-Encoding", "gzip, chunked")
	raw("POST", "/api/session", credNone, js, []byte("5\r\n{\"a\":\r\n"), "Transfer-Encoding", "chunked")
	return s
}

// TestFuzzHTTPChecks: checkReply and underAPI tell good answers from bad.
func TestFuzzHTTPChecks(t *testing.T) {
	t.Parallel()
	jsonHdr := http.Header{"Content-Type": {"application/json"}, "X-Request-Id": {"x"}}
	html := http.Header{"Content-Type": {"text/html; charset=UTF-8"}, "X-Request-Id": {"x"}}
	env := func(code string) []byte { return []byte(`{"error":{"code":"` + code + `","message":"m"}}`) }
	for _, c := range []struct {
		name, method, target string
		r                    fuzzReply
		bad                  bool
	}{
		{"ok", "GET", "/api/v1/me", fuzzReply{status: 200, header: jsonHdr, body: []byte(`{}`), fromApp: true}, false},
		{"ui under /api", "GET", "//api/v1/usage", fuzzReply{status: 200, header: html, fromApp: true}, true},
		{"ui under /API", "GET", "/API/V1/ME", fuzzReply{status: 200, header: html, fromApp: true}, true},
		{"ui under /apix", "GET", "/apix/v1/me", fuzzReply{status: 200, header: html, fromApp: true}, true},
		{"ui elsewhere", "GET", "/projects", fuzzReply{status: 200, header: html, fromApp: true}, false},
		{"404 envelope", "GET", "/api/nope", fuzzReply{status: 404, header: jsonHdr, body: env("not_found"), fromApp: true}, false},
		{"404 html", "GET", "/api/nope", fuzzReply{status: 404, header: html, body: []byte("<p>"), fromApp: true}, true},
		{"wrong code", "GET", "/api/nope", fuzzReply{status: 404, header: jsonHdr, body: env("forbidden"), fromApp: true}, true},
		{"no message", "GET", "/api/nope", fuzzReply{status: 400, header: jsonHdr, body: []byte(`{"error":{"code":"bad_request"}}`), fromApp: true}, true},
		{"500", "GET", "/", fuzzReply{status: 500, header: jsonHdr, body: env("internal_error"), fromApp: true}, true},
		{"429 without Retry-After", "POST", "/api/v1/process", fuzzReply{status: 429, header: jsonHdr, body: env("rate_limited"), fromApp: true}, true},
		{"429 with Retry-After", "POST", "/api/v1/process", fuzzReply{status: 429,
			header: http.Header{"Content-Type": {"application/json"}, "Retry-After": {"3"}}, body: env("quota_exceeded"), fromApp: true}, false},
		{"503 without Retry-After", "GET", "/api/v1/openapi.json", fuzzReply{status: 503, header: jsonHdr, body: env("unavailable"), fromApp: true}, true},
		{"HEAD error has no body", "HEAD", "/api/nope", fuzzReply{status: 404, header: http.Header{}, fromApp: true}, false},
		{"net/http's own 400", "GET", "/api", fuzzReply{status: 400, header: http.Header{}, body: []byte("400 Bad Request")}, false},
		{"download's 416", "GET", "/api/artifacts/x?sig=y", fuzzReply{status: 416, header: http.Header{"Content-Type": {"text/plain"}}, fromApp: true}, false},
		{"416 elsewhere", "GET", "/api/v1/artifacts/x", fuzzReply{status: 416, header: http.Header{"Content-Type": {"text/plain"}}, fromApp: true}, true},
		{"200 not from the router", "GET", "/api", fuzzReply{status: 200, header: http.Header{}}, true},
	} {
		if got := checkReply(c.method, c.target, &c.r); (got != "") != c.bad {
			t.Errorf("%s: checkReply = %q; want a problem: %v", c.name, got, c.bad)
		}
	}
	for p, want := range map[string]bool{"/api": true, "/api/v1/me": true, "//api/v1/usage": true, "/API/V1/ME": true, "/apix/v1/me": true,
		"/%61pi/v1/me": true, "/./api": true, "/": false, "/projects/api": false, "/index.html": false, "/api/../index.html": false} {
		if got := underAPI(p); got != want {
			t.Errorf("underAPI(%q) = %v; want %v", p, got, want)
		}
	}
}
