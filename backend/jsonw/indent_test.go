package jsonw

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// TestIndenter: whatever the JSON and however it is cut into writes, the
// Indenter writes exactly what json.Indent makes of it.
func TestIndenter(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("no quote or backslash here, ", 2*flushAt/27)
	escaped := strings.Repeat("line\\nwith \\\"quotes\\\" and \\\\ back\\\\slashes\\n", flushAt/20)
	docs := []string{
		`{}`, `[]`, `"just a string"`, `42`, `null`,
		`{"a":1,"b":[1,2,{"c":null,"d":[]}],"e":{},"f":"x"}`,
		`[[],[[]],{},{"":""}]`,
		` { "spaced" : [ 1 , 2 ] , "t" : true } `,
		`{"s":"braces {[,:]} and \"quotes\" inside","u":"\u00e9\u2028\\","e":"\\"}`,
		`{"deep":[[[[[[[[[["x"]]]]]]]]]]}`,
		`{"report":{"diagnostics":[{"code":"reading_speed_high","value":23.4}],"fixes":[]},"output":"` + long + `","aided":"` + escaped + `"}`,
	}
	for _, doc := range docs {
		var want bytes.Buffer
		if err := json.Indent(&want, []byte(doc), "", "  "); err != nil {
			t.Fatalf("json.Indent(%.60s): %v", doc, err)
		}
		// json.Indent keeps what follows the value; the Indenter drops
		// whitespace between tokens.
		wantOut := strings.TrimRight(want.String(), " ")
		for _, size := range []int{1, 2, 3, 7, 64, 4096, flushAt + 1, len(doc)} {
			var got bytes.Buffer
			d := NewIndenter(&got, "  ")
			for rest := []byte(doc); len(rest) > 0; {
				n := min(size, len(rest))
				if k, err := d.Write(rest[:n]); k != n || err != nil {
					t.Fatalf("Write = %d, %v", k, err)
				}
				rest = rest[n:]
			}
			if err := d.Flush(); err != nil {
				t.Fatal(err)
			}
			if got.String() != wantOut {
				t.Errorf("writes of %d bytes of %.60s:\n got %.300q\nwant %.300q", size, doc, got.String(), wantOut)
			}
		}
	}
}

// TestIndenterEncoder: an Encoder writing through an Indenter gives the
// indented JSON of what it encodes.
func TestIndenterEncoder(t *testing.T) {
	t.Parallel()
	var got bytes.Buffer
	d := NewIndenter(&got, "\t")
	e := NewEncoder(d)
	e.Raw("{")
	e.Key("name", true)
	e.String(strings.Repeat("a \"long\"\nvalue ", flushAt/8))
	e.Key("list", false)
	e.Strings([]string{"x", "y"})
	e.Key("none", false)
	e.Strings([]string{})
	e.Raw("}")
	if err := e.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := d.Flush(); err != nil {
		t.Fatal(err)
	}
	compact := `{"name":` + string(AppendString(nil, strings.Repeat("a \"long\"\nvalue ", flushAt/8))) + `,"list":["x","y"],"none":[]}`
	var want bytes.Buffer
	if err := json.Indent(&want, []byte(compact), "", "\t"); err != nil {
		t.Fatal(err)
	}
	if got.String() != want.String() {
		t.Errorf("got %.200q\nwant %.200q", got.String(), want.String())
	}
}

// TestIndenterWriteError: the first write error is returned from then on.
func TestIndenterWriteError(t *testing.T) {
	t.Parallel()
	boom := errors.New("boom")
	d := NewIndenter(failWriter{boom}, "  ")
	doc := []byte(`{"a":"` + strings.Repeat("x", 2*flushAt) + `"}`)
	if _, err := d.Write(doc); !errors.Is(err, boom) {
		t.Errorf("Write error = %v; want %v", err, boom)
	}
	if _, err := d.Write([]byte(`[]`)); !errors.Is(err, boom) {
		t.Errorf("second Write error = %v; want %v", err, boom)
	}
	if err := d.Flush(); !errors.Is(err, boom) {
		t.Errorf("Flush error = %v; want %v", err, boom)
	}
}

type failWriter struct{ err error }

func (w failWriter) Write([]byte) (int, error) { return 0, w.err }

// FuzzIndenter: on any valid JSON, cut into writes of any size, the
// Indenter writes what json.Indent makes of it.
func FuzzIndenter(f *testing.F) {
	f.Add([]byte(`{"a":[1,{"b":"c\"}{"}],"d":{}}`), uint8(3))
	f.Add([]byte(` [ "\\", "\u2028", [], [[ ]] ] `), uint8(1))
	f.Fuzz(func(t *testing.T, doc []byte, size uint8) {
		if !json.Valid(doc) {
			return
		}
		var want bytes.Buffer
		if err := json.Indent(&want, doc, "", "  "); err != nil {
			t.Fatal(err)
		}
		var got bytes.Buffer
		d := NewIndenter(&got, "  ")
		step := int(size)%17 + 1
		for rest := doc; len(rest) > 0; {
			n := min(step, len(rest))
			if _, err := d.Write(rest[:n]); err != nil {
				t.Fatal(err)
			}
			rest = rest[n:]
		}
		if err := d.Flush(); err != nil {
			t.Fatal(err)
		}
		if w := strings.TrimRight(want.String(), " \t\r\n"); got.String() != w {
			t.Errorf("%q in writes of %d:\n got %q\nwant %q", doc, step, got.String(), w)
		}
	})
}
