// Package contract is test support for the v1 OpenAPI contract
// (assets/openapi/openapi.yaml): it loads and validates the document with
// kin-openapi, checks recorded HTTP exchanges against it, and lists its
// operations for the route-parity test. It is imported only by tests and
// by the generator of the served JSON (tojson).
package contract

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
)

// RelPath is where the contract lives, relative to the module root.
const RelPath = "assets/openapi/openapi.yaml"

// JSONRelPath is the contract as the binary serves it, generated from
// RelPath by go generate ./assets (see [JSON]).
const JSONRelPath = "assets/openapi/openapi.json"

// StatusExtension is the vendor extension that marks an operation that is
// part of the contract but answers 501 not_implemented in this release.
const StatusExtension = "x-captionqa-status"

// Contract is a loaded, validated contract. It is safe for concurrent use.
type Contract struct {
	doc    *openapi3.T
	router routers.Router
	path   string
}

// Operation is one method and OpenAPI path template, such as
// {Method: "DELETE", Path: "/api/v1/api-keys/{keyId}"}.
type Operation struct {
	Method string
	Path   string
}

// String returns the operation as "METHOD /path".
func (o Operation) String() string { return o.Method + " " + o.Path }

var (
	loadOnce sync.Once
	loaded   *Contract
	loadErr  error
)

// Load reads the contract from the module root (found by walking up from
// the working directory to go.mod), validates it, and returns it. Any
// problem fails tb. The document is read once per test binary.
func Load(tb testing.TB) *Contract {
	tb.Helper()
	loadOnce.Do(func() { loaded, loadErr = load() })
	if loadErr != nil {
		tb.Fatalf("contract: %v", loadErr)
		return nil
	}
	return loaded
}

func load() (*Contract, error) {
	// kin-openapi decodes only some media types; the QC report
	// (getProjectReport) answers an HTML page and a PDF too. Registered
	// here, once per binary under loadOnce, as the library's own are.
	openapi3filter.RegisterBodyDecoder("text/html", openapi3filter.PlainBodyDecoder)
	openapi3filter.RegisterBodyDecoder("application/pdf", openapi3filter.FileBodyDecoder)
	root, err := ModuleRoot()
	if err != nil {
		return nil, err
	}
	p := filepath.Join(root, filepath.FromSlash(RelPath))
	loader := openapi3.NewLoader()
	loader.IsExternalRefsAllowed = false
	doc, err := loader.LoadFromFile(p)
	if err != nil {
		return nil, fmt.Errorf("load %s: %w", p, err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		return nil, fmt.Errorf("validate %s: %w", p, err)
	}
	// Route on the path alone: test servers listen on random ports, not on
	// the documented server URL. The copy shares every operation with doc.
	routed := *doc
	routed.Servers = nil
	router, err := gorillamux.NewRouter(&routed)
	if err != nil {
		return nil, fmt.Errorf("router for %s: %w", p, err)
	}
	return &Contract{doc: doc, router: router, path: p}, nil
}

// JSON converts the contract's YAML to the JSON the binary serves: the
// document as kin-openapi loads it, indented, with a final newline. It
// refuses a document that does not load or validate.
func JSON(yaml []byte) ([]byte, error) {
	loader := openapi3.NewLoader()
	loader.IsExternalRefsAllowed = false
	doc, err := loader.LoadFromData(yaml)
	if err != nil {
		return nil, fmt.Errorf("load: %w", err)
	}
	if err := doc.Validate(loader.Context); err != nil {
		return nil, fmt.Errorf("validate: %w", err)
	}
	compact, err := json.Marshal(doc)
	if err != nil {
		return nil, fmt.Errorf("to JSON: %w", err)
	}
	var out bytes.Buffer
	if err := json.Indent(&out, compact, "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// ModuleRoot walks up from the working directory to the directory holding
// go.mod.
func ModuleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("working directory: %w", err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory")
		}
		dir = parent
	}
}

// Doc returns the loaded document. Callers must not modify it.
func (c *Contract) Doc() *openapi3.T { return c.doc }

// Path returns the file the contract was read from.
func (c *Contract) Path() string { return c.path }

// Operations lists every operation, sorted by path then method.
func (c *Contract) Operations() []Operation {
	var ops []Operation
	for path, item := range c.doc.Paths.Map() {
		for method := range item.Operations() {
			ops = append(ops, Operation{Method: strings.ToUpper(method), Path: path})
		}
	}
	sortOps(ops)
	return ops
}

// NotImplemented lists the operations marked x-captionqa-status:
// not_implemented, sorted like [Contract.Operations].
func (c *Contract) NotImplemented() []Operation {
	var ops []Operation
	for path, item := range c.doc.Paths.Map() {
		for method, op := range item.Operations() {
			if op.Extensions[StatusExtension] == "not_implemented" {
				ops = append(ops, Operation{Method: strings.ToUpper(method), Path: path})
			}
		}
	}
	sortOps(ops)
	return ops
}

func sortOps(ops []Operation) {
	sort.Slice(ops, func(i, j int) bool {
		if ops[i].Path != ops[j].Path {
			return ops[i].Path < ops[j].Path
		}
		return ops[i].Method < ops[j].Method
	})
}

// EchoPath turns an OpenAPI path template into echo's route syntax:
// "/api/v1/api-keys/{keyId}" becomes "/api/v1/api-keys/:keyId".
func EchoPath(p string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(p, '{')
		if i < 0 {
			b.WriteString(p)
			return b.String()
		}
		j := strings.IndexByte(p[i:], '}')
		if j < 0 {
			b.WriteString(p)
			return b.String()
		}
		b.WriteString(p[:i])
		b.WriteByte(':')
		b.WriteString(p[i+1 : i+j])
		p = p[i+j+1:]
	}
}

// options are shared by request and response validation: authentication
// is the server's business, and string formats the contract uses are
// checked strictly (uuid, email) on top of kin-openapi's defaults.
func options() *openapi3filter.Options {
	return &openapi3filter.Options{
		AuthenticationFunc:    openapi3filter.NoopAuthenticationFunc,
		IncludeResponseStatus: true,
		MultiError:            true,
		SchemaValidationOptions: []openapi3.SchemaValidationOption{
			openapi3.WithStringFormatValidator("uuid", openapi3.NewRegexpFormatValidator(openapi3.FormatOfStringForUUIDOfRFC9562)),
			openapi3.WithStringFormatValidator("email", openapi3.NewRegexpFormatValidator(openapi3.FormatOfStringForEmail)),
		},
	}
}

// route finds the operation for req and builds the request half of a
// validation input.
func (c *Contract) route(req *http.Request) (*openapi3filter.RequestValidationInput, error) {
	route, params, err := c.router.FindRoute(req)
	if err != nil {
		return nil, fmt.Errorf("no operation in the contract for %s %s: %w", req.Method, req.URL.Path, err)
	}
	opts := options()
	// Multipart and other non-JSON request bodies are not re-validated when
	// checking a response: the body has usually been consumed already.
	opts.ExcludeRequestBody = true
	return &openapi3filter.RequestValidationInput{Request: req, PathParams: params, Route: route, Options: opts}, nil
}

// ValidateResponse checks one exchange: that req matches an operation of
// the contract, that status is documented for it, and that header
// (Content-Type, documented headers) and body satisfy the response's
// schema. Any problem is reported with tb.Errorf, naming the operation,
// the status and the body. req may be the client's request or the
// server's; only its method and URL are used.
func (c *Contract) ValidateResponse(tb testing.TB, req *http.Request, status int, header http.Header, body []byte) {
	tb.Helper()
	if err := c.CheckResponse(req, status, header, body); err != nil {
		tb.Errorf("contract: %v", err)
	}
}

// ValidateExchange is [Contract.ValidateResponse] and, when the server
// took the request (a 2xx status), a check of the request itself, sent
// being its body: a request the server accepts and the contract refuses
// is drift between the two, which an integrator coding against the
// contract would trip over. (A request the contract refuses is often
// what a test means to send, so a refused one is not checked.)
func (c *Contract) ValidateExchange(tb testing.TB, req *http.Request, sent []byte, status int, header http.Header, body []byte) {
	tb.Helper()
	c.ValidateResponse(tb, req, status, header, body)
	if status/100 != 2 {
		return
	}
	if err := c.CheckRequest(req, sent); err != nil {
		tb.Errorf("contract: the server answered %d to a request the contract refuses: %v\nrequest body: %s", status, err, snippet(sent))
	}
}

// CheckResponse is [Contract.ValidateResponse] returning the problem
// instead of reporting it.
func (c *Contract) CheckResponse(req *http.Request, status int, header http.Header, body []byte) error {
	in, err := c.route(req)
	if err != nil {
		return err
	}
	if header == nil {
		header = http.Header{}
	}
	rvi := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in,
		Status:                 status,
		Header:                 header,
		Options:                in.Options,
	}
	rvi.SetBodyBytes(body)
	if err := openapi3filter.ValidateResponse(context.Background(), rvi); err != nil {
		return fmt.Errorf("%s %s (operation %s) answered %d, which breaks the contract:\n%v\nbody: %s",
			req.Method, req.URL.Path, in.Route.Operation.OperationID, status, err, snippet(body))
	}
	return nil
}

// ValidateRequest checks a request against the contract: route, path and
// query parameters, and the body (JSON or multipart) against its schema.
// body is the request body; req.Body is not read. Problems are reported
// with tb.Errorf.
func (c *Contract) ValidateRequest(tb testing.TB, req *http.Request, body []byte) {
	tb.Helper()
	if err := c.CheckRequest(req, body); err != nil {
		tb.Errorf("contract: %v", err)
	}
}

// CheckRequest is [Contract.ValidateRequest] returning the problem
// instead of reporting it.
func (c *Contract) CheckRequest(req *http.Request, body []byte) error {
	in, err := c.route(req)
	if err != nil {
		return err
	}
	in.Options.ExcludeRequestBody = false
	r := req.Clone(req.Context())
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	in.Request = r
	if err := openapi3filter.ValidateRequest(context.Background(), in); err != nil {
		return fmt.Errorf("%s %s (operation %s) request breaks the contract:\n%v",
			req.Method, req.URL.Path, in.Route.Operation.OperationID, err)
	}
	return nil
}

func snippet(body []byte) string {
	const max = 2000
	if len(body) > max {
		return string(body[:max]) + "…"
	}
	return string(body)
}
