package httpapi

import (
	"bytes"
	"errors"
	"io"
	"mime"
	"reflect"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/labstack/echo/v4"

	"github.com/captionqa/captionqa/backend/apperr"
)

// bindJSON decodes the JSON body of every JSON route into dst, a pointer
// to the route's request struct, and refuses anything a lenient parser
// would have to guess about. Unknown members are ignored (docs/api.md,
// JSON bodies);
// everything else below is 400 bad_request with details.reason:
//   - "content_type": no Content-Type, or one that is not application/json
//     or application/*+json, or a charset other than utf-8;
//   - "empty": no body;
//   - "syntax": not JSON (details.offset), invalid UTF-8 included;
//   - "duplicate_key": a member name twice in one object, at any depth
//     (details.field);
//   - "trailing_data": anything but white space after the value, a second
//     JSON value included (details.offset);
//   - "not_object": a value other than an object;
//   - "field_case": a member whose name is a known field's only when case
//     is ignored, such as "NAME" for "name" (details.field, the field, and
//     details.member, as sent): an unknown member is ignored, but one
//     that merely looks unknown would silently lose the caller's value;
//   - "wrong_type": a value of the wrong type (details.field).
//
// A body past the route's size guard is 400 payload_too_large. bindJSON
// reads the whole body before parsing it, so every JSON route is
// registered with sizeGuard(DefaultMaxJSONBytes).
//
// The syntax is checked by jsontext, which rejects duplicate names and
// invalid UTF-8 itself; the value is decoded by the same package's json,
// which matches names case-sensitively.
func bindJSON(c echo.Context, dst any) error {
	req := c.Request()
	if err := checkJSONContentType(req.Header.Get(echo.HeaderContentType)); err != nil {
		return err
	}
	body, err := io.ReadAll(req.Body)
	if err != nil {
		return asBodyError(err)
	}
	if err := checkJSONSyntax(body); err != nil {
		return err
	}
	if err := checkNameCase(jsontext.NewDecoder(bytes.NewReader(body)), reflect.TypeOf(dst), ""); err != nil {
		return err
	}
	if err := json.Unmarshal(body, dst); err != nil {
		return wrongType(err)
	}
	return nil
}

// checkJSONContentType accepts application/json and application/*+json,
// with no charset or utf-8.
func checkJSONContentType(header string) error {
	if strings.TrimSpace(header) == "" {
		return badJSON("content_type", "the request has no Content-Type; send the JSON body with Content-Type: application/json")
	}
	mt, params, err := mime.ParseMediaType(header)
	if err != nil || mt != "application/json" && !(strings.HasPrefix(mt, "application/") && strings.HasSuffix(mt, "+json")) {
		return badJSON("content_type", "the body must be JSON sent with Content-Type: application/json, not %.64q", header)
	}
	if cs, ok := params["charset"]; ok && !strings.EqualFold(cs, "utf-8") {
		return badJSON("content_type", "a JSON body must be UTF-8, not charset %.32q", cs)
	}
	return nil
}

// checkJSONSyntax checks that body is exactly one JSON object, with no
// duplicate member names at any depth.
func checkJSONSyntax(body []byte) error {
	dec := jsontext.NewDecoder(bytes.NewReader(body))
	v, err := dec.ReadValue()
	if err != nil {
		var serr *jsontext.SyntacticError
		switch {
		case err == io.EOF:
			return badJSON("empty", "the body is empty; send a JSON object")
		case errors.As(err, &serr) && serr.Err == jsontext.ErrDuplicateName:
			field, _ := fieldPath(serr.JSONPointer)
			where := "the body's object"
			if _, parent := fieldPath(serr.JSONPointer.Parent()); parent != "" {
				where = parent
			}
			return badJSON("duplicate_key", "the member %q appears twice in %s; send each member once",
				serr.JSONPointer.LastToken(), where).WithDetail("field", field).Wrap(err)
		case errors.As(err, &serr):
			return badJSON("syntax", "the body is not valid JSON: %v at byte %d", serr.Err, serr.ByteOffset).
				WithDetail("offset", serr.ByteOffset).Wrap(err)
		}
		return badJSON("syntax", "the body is not valid JSON").Wrap(err)
	}
	if k := v.Kind(); k != '{' {
		return badJSON("not_object", "the body must be a JSON object, not a JSON %s", kindName(k))
	}
	end := dec.InputOffset()
	if _, err := dec.ReadToken(); err != io.EOF {
		what := "more data"
		if err == nil {
			what = "a second JSON value"
		}
		return badJSON("trailing_data", "the body holds %s after its JSON object, at byte %d; send one JSON object and nothing after it", what, end).
			WithDetail("offset", end)
	}
	return nil
}

// checkNameCase reads one value from dec, which holds JSON already
// checked, and refuses an object member that matches a field of t (the Go
// type it decodes into) only case-insensitively, at any depth the type
// describes. path is the pointer of the value.
func checkNameCase(dec *jsontext.Decoder, t reflect.Type, path jsontext.Pointer) error {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == nil:
		return dec.SkipValue()
	case dec.PeekKind() == '{' && (t.Kind() == reflect.Struct || t.Kind() == reflect.Map):
		if _, err := dec.ReadToken(); err != nil {
			return err
		}
		fields := jsonFields(t)
		for dec.PeekKind() != '}' {
			tok, err := dec.ReadToken()
			if err != nil {
				return err
			}
			member := tok.String()
			var ft reflect.Type
			if t.Kind() == reflect.Map {
				ft = t.Elem()
			} else if ft = fields[member]; ft == nil {
				if known := foldedField(fields, member); known != "" {
					field, _ := fieldPath(path.AppendToken(known))
					return badJSON("field_case", "the member %q must be spelled %q: names are case-sensitive", member, known).
						WithDetail("field", field).WithDetail("member", member)
				}
			}
			if err := checkNameCase(dec, ft, path.AppendToken(member)); err != nil {
				return err
			}
		}
		_, err := dec.ReadToken()
		return err
	case dec.PeekKind() == '[' && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array):
		if _, err := dec.ReadToken(); err != nil {
			return err
		}
		for i := 0; dec.PeekKind() != ']'; i++ {
			if err := checkNameCase(dec, t.Elem(), path.AppendToken(strconv.Itoa(i))); err != nil {
				return err
			}
		}
		_, err := dec.ReadToken()
		return err
	}
	return dec.SkipValue()
}

// jsonFields maps the JSON names of struct t's fields to their types, as
// json names them: the tag's name, else the Go name; "-" and unexported
// fields are left out, and the fields of an embedded struct without a
// name are promoted.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	if t.Kind() != reflect.Struct {
		return out
	}
	for f := range t.Fields() {
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		ft := f.Type
		for ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		switch {
		case tag == "-":
		case f.Anonymous && tag == "" && ft.Kind() == reflect.Struct:
			for n, typ := range jsonFields(ft) {
				if _, ok := out[n]; !ok {
					out[n] = typ
				}
			}
		case !f.IsExported():
		case tag != "":
			out[tag] = f.Type
		default:
			out[f.Name] = f.Type
		}
	}
	return out
}

// foldedField returns the field whose name equals member when case is
// ignored, or "".
func foldedField(fields map[string]reflect.Type, member string) string {
	for n := range fields {
		if strings.EqualFold(n, member) {
			return n
		}
	}
	return ""
}

// wrongType names the field of a value of the wrong type, in the
// caller's words rather than Go's.
func wrongType(err error) error {
	var serr *json.SemanticError
	if !errors.As(err, &serr) || len(serr.JSONPointer) == 0 {
		return badJSON("wrong_type", "the body does not have the expected shape: %v", err).Wrap(err)
	}
	field, shown := fieldPath(serr.JSONPointer)
	want := "another type"
	if serr.GoType != nil {
		want = jsonKind(serr.GoType.Kind())
	}
	got := "a JSON " + kindName(serr.JSONKind)
	if serr.JSONKind == '0' && len(serr.JSONValue) > 0 {
		got = "the JSON number " + string(serr.JSONValue)
	}
	return apperr.New(apperr.BadRequest, "%s: expected %s, got %s", shown, want, got).
		WithDetail("field", field).WithDetail("reason", "wrong_type").Wrap(err)
}

// fieldPath returns the field a JSON pointer names, as details.field
// gives it ("scopes", "a.b": array indices left out), and as a message
// shows it ("scopes[0]").
func fieldPath(p jsontext.Pointer) (field, shown string) {
	var f, s strings.Builder
	for tok := range p.Tokens() {
		if _, err := strconv.Atoi(tok); err == nil && s.Len() > 0 {
			s.WriteString("[" + tok + "]")
			continue
		}
		if f.Len() > 0 {
			f.WriteByte('.')
			s.WriteByte('.')
		}
		f.WriteString(tok)
		s.WriteString(tok)
	}
	return f.String(), s.String()
}

// kindName names a JSON kind for a message.
func kindName(k jsontext.Kind) string {
	switch k {
	case '"':
		return "string"
	case '0':
		return "number"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	case '[':
		return "array"
	case '{':
		return "object"
	}
	return "value"
}

// jsonKind names what a Go kind is in JSON.
func jsonKind(k reflect.Kind) string {
	switch k {
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Bool:
		return "true or false"
	case reflect.Struct, reflect.Map, reflect.Pointer:
		return "an object"
	case reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "a whole number"
}

func badJSON(reason, format string, args ...any) *apperr.Error {
	return apperr.New(apperr.BadRequest, format, args...).WithDetail("reason", reason)
}
