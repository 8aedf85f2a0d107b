package jsrun

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/internal/race"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/exporttpl"
)

// testTimeout is the run limit of the tests of the limit itself: short,
// and never asserted tightly (see within).
const testTimeout = 300 * time.Millisecond

// okTimeout is the run limit of scripts expected to end on their own:
// generous, since under -race on a loaded machine starting QuickJS alone
// was seen to take over 300 ms.
const okTimeout = 20 * time.Second

func newRunner() *Runner { return New(Options{MaxConcurrent: 4}) }

// compile compiles src and fails the test on an error.
func compile(t testing.TB, r *Runner, src string) *exporttpl.Compiled {
	t.Helper()
	c, err := r.Compile(context.Background(), src)
	if err != nil {
		t.Fatalf("Compile: %v", err)
	}
	return c
}

// run compiles src and runs it on in within timeout.
func run(t testing.TB, r *Runner, src string, in *exporttpl.Input, timeout time.Duration) (*exporttpl.Output, error) {
	t.Helper()
	return r.Run(context.Background(), compile(t, r, src), in, timeout)
}

// runBody runs src and returns the body, failing the test on an error.
func runBody(t testing.TB, r *Runner, src string, in *exporttpl.Input) string {
	t.Helper()
	out, err := run(t, r, src, in, 5*time.Second)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return out.Body
}

// scriptErr asserts err is a *ScriptError of phase and kind.
func scriptErr(t testing.TB, err error, phase, kind string) *exporttpl.ScriptError {
	t.Helper()
	var se *exporttpl.ScriptError
	if !errors.As(err, &se) {
		t.Fatalf("err = %v (%T), want a *ScriptError %s/%s", err, err, phase, kind)
	}
	if se.Phase != phase || se.Kind != kind {
		t.Fatalf("err = %s/%s %q, want %s/%s", se.Phase, se.Kind, se.Message, phase, kind)
	}
	return se
}

// checkFrames asserts every stack frame names template.js and nothing of
// the runtime.
func checkFrames(t testing.TB, se *exporttpl.ScriptError) {
	t.Helper()
	size := 0
	for _, f := range se.Stack {
		size += len(f)
		if !strings.Contains(f, "(template.js:") && !strings.HasPrefix(f, "at template.js:") {
			t.Errorf("frame %q does not name template.js", f)
		}
		for _, bad := range []string{"<eval>", "<input>", "native", "quickjs", ".go"} {
			if strings.Contains(f, bad) {
				t.Errorf("frame %q shows %q", f, bad)
			}
		}
	}
	if len(se.Stack) > maxFrames || size > maxStackBytes {
		t.Errorf("stack has %d frames, %d bytes; want at most %d, %d", len(se.Stack), size, maxFrames, maxStackBytes)
	}
}

func oneCue() *exporttpl.Input {
	return &exporttpl.Input{Cues: []exporttpl.Cue{{Index: 0, ID: "1", StartMs: 1000, EndMs: 2500, Text: "Hello\nworld", Lines: []string{"Hello", "world"}}}}
}

func TestRunString(t *testing.T) {
	r := newRunner()
	src := `function exportTimeline(cues, ctx) {
  return cues.map((c, i) => (i + 1) + '\n' + ctx.srtTime(c.startMs) + ' --> ' + ctx.srtTime(c.endMs) + '\n' + c.text + '\n').join('\n');
}`
	out, err := run(t, r, src, oneCue(), okTimeout)
	if err != nil {
		t.Fatal(err)
	}
	want := "1\n00:00:01,000 --> 00:00:02,500\nHello\nworld\n"
	if *out != (exporttpl.Output{Body: want}) {
		t.Errorf("out = %+v, want body %q and no filename or content type", out, want)
	}
}

func TestRunObject(t *testing.T) {
	r := newRunner()
	for _, tt := range []struct {
		ret  string
		want exporttpl.Output
	}{
		{`{body: 'b', filename: 'out.csv', contentType: 'text/csv'}`, exporttpl.Output{Body: "b", Filename: "out.csv", ContentType: "text/csv"}},
		{`{body: 'b', filename: 'x.txt'}`, exporttpl.Output{Body: "b", Filename: "x.txt"}},
		{`{body: '', filename: null, contentType: undefined}`, exporttpl.Output{}},
		{`{body: 'é😀', contentType: 'text/plain; charset=utf-8'}`, exporttpl.Output{Body: "é😀", ContentType: "text/plain; charset=utf-8"}},
		{`'\ud800x'`, exporttpl.Output{Body: "\uFFFDx"}}, // a lone surrogate
	} {
		out, err := run(t, r, "function exportTimeline() { return "+tt.ret+" }", oneCue(), okTimeout)
		if err != nil {
			t.Errorf("%s: %v", tt.ret, err)
			continue
		}
		if *out != tt.want {
			t.Errorf("%s: out = %+v, want %+v", tt.ret, *out, tt.want)
		}
	}
}

func TestBadReturn(t *testing.T) {
	r := newRunner()
	for _, tt := range []struct {
		fn, want string
	}{
		{`function exportTimeline() { return 42 }`, "a number (42)"},
		{`function exportTimeline() { }`, "returned undefined"},
		{`function exportTimeline() { return null }`, "returned null"},
		{`function exportTimeline() { return ['a'] }`, "an array"},
		{`function exportTimeline() { return {filename: 'a'} }`, "body is undefined"},
		{`function exportTimeline() { return {body: 7} }`, "body is a number (7)"},
		{`function exportTimeline() { return {body: 'x', filename: 3} }`, "filename that is a number"},
		{`function exportTimeline() { return {body: 'x', contentType: {}} }`, "contentType that is an object"},
		{`async function exportTimeline() { return 'x' }`, "a Promise"},
		{`function exportTimeline() { return () => 'x' }`, "a function"},
	} {
		_, err := run(t, r, tt.fn, oneCue(), okTimeout)
		se := scriptErr(t, err, exporttpl.PhaseResult, exporttpl.KindBadReturn)
		if !strings.Contains(se.Message, tt.want) {
			t.Errorf("%s: message %q does not say %q", tt.fn, se.Message, tt.want)
		}
	}
}

func TestOutputTooLarge(t *testing.T) {
	r := newRunner()
	// Over the limit in characters: the glue rejects it before copying.
	_, err := run(t, r, `function exportTimeline() { return 'x'.repeat(16 * 1024 * 1024 + 1) }`, oneCue(), 10*time.Second)
	scriptErr(t, err, exporttpl.PhaseResult, exporttpl.KindOutputTooLarge)
	// Under it in characters, over it in UTF-8 bytes: Go's check.
	_, err = run(t, r, `function exportTimeline() { return {body: 'é'.repeat(8 * 1024 * 1024 + 1)} }`, oneCue(), 10*time.Second)
	scriptErr(t, err, exporttpl.PhaseResult, exporttpl.KindOutputTooLarge)
	if race.Enabled {
		return // the engine copies 16 MiB slowly under the race detector
	}
	// At the limit exactly: fine.
	out, err := run(t, r, `function exportTimeline() { return 'x'.repeat(16 * 1024 * 1024) }`, oneCue(), 10*time.Second)
	if err != nil || len(out.Body) != exporttpl.MaxOutputBytes {
		t.Errorf("a body of exactly MaxOutputBytes: err %v", err)
	}
}

func TestSyntaxError(t *testing.T) {
	r := newRunner()
	for _, tt := range []struct {
		name, src  string
		line, col  int
		msgHas     string
		compileMsg bool
	}{
		// esbuild's message; the column counts characters, not bytes.
		{"esbuild", "function exportTimeline(cues, ctx) {\n  return 'é😀' +;\n}", 2, 16, `Unexpected ";"`, true},
		{"redeclared", "let a = 1;\nlet a = 2;\nfunction exportTimeline() { return '' }", 2, 5, `"a" has already been declared`, true},
		{"typescript", "function exportTimeline(cues: number) { return '' }", 1, 29, `Expected ")" but found ":"`, true},
		// Accepted by esbuild, rejected by the engine: module syntax and a
		// top-level return.
		{"export", "\nexport function exportTimeline() { return '' }", 2, 1, "without import or export", false},
		{"import", "import x from 'y';\nfunction exportTimeline() { return '' }", 1, 8, "without import or export", false},
		{"return", "function exportTimeline() { return '' }\nreturn 1", 2, 1, "return", false},
	} {
		_, err := r.Compile(context.Background(), tt.src)
		se := scriptErr(t, err, exporttpl.PhaseCompile, "SyntaxError")
		if se.Line != tt.line || se.Column != tt.col {
			t.Errorf("%s: at %d:%d, want %d:%d (%s)", tt.name, se.Line, se.Column, tt.line, tt.col, se.Message)
		}
		if !strings.Contains(se.Message, tt.msgHas) {
			t.Errorf("%s: message %q does not say %q", tt.name, se.Message, tt.msgHas)
		}
		checkFrames(t, se)
	}
}

// TestDeepNesting: a source nested past the stack limit is rejected at
// once, by the engine's bounded parser, before esbuild's recursive one
// spends seconds on it.
func TestDeepNesting(t *testing.T) {
	r := newRunner()
	src := strings.Repeat("(", 120000) + "1" + strings.Repeat(")", 120000) + ";function exportTimeline(){return ''}"
	start := time.Now()
	_, err := r.Compile(context.Background(), src)
	scriptErr(t, err, exporttpl.PhaseCompile, exporttpl.KindStackOverflow)
	// The bounded parser answers in milliseconds; esbuild's recursive one
	// took tens of seconds on this input. The bound only tells the two
	// apart: a loaded CI machine may take a second or two.
	if d := time.Since(start); d > 5*exporttpl.CompileTimeout {
		t.Errorf("rejecting a deep nesting took %v", d)
	}
}

func TestMissingExport(t *testing.T) {
	r := newRunner()
	for _, tt := range []struct{ src, want string }{
		{"function exporttimeline() { return '' }", "defines no function exportTimeline"},
		{"var exportTimeline = 42", "exportTimeline is a number"},
		{"", "defines no function exportTimeline"},
		{"(function () { function exportTimeline() { return '' } })()", "defines no function exportTimeline"},
	} {
		_, err := r.Compile(context.Background(), tt.src)
		se := scriptErr(t, err, exporttpl.PhaseCompile, exporttpl.KindMissingExport)
		if !strings.Contains(se.Message, tt.want) {
			t.Errorf("%q: message %q does not say %q", tt.src, se.Message, tt.want)
		}
	}
	// Every top-level binding form works.
	for _, src := range []string{
		"function exportTimeline() { return 'ok' }",
		"const exportTimeline = () => 'ok'",
		"let exportTimeline = function () { return 'ok' }",
		"var exportTimeline = () => 'ok'",
		"globalThis.exportTimeline = () => 'ok'",
	} {
		if got := runBody(t, r, src, oneCue()); got != "ok" {
			t.Errorf("%q: body %q", src, got)
		}
	}
	// A Compiled that is not one (stored before a change, say) fails the
	// run cleanly.
	_, err := r.Run(context.Background(), &exporttpl.Compiled{JS: "var x = 1"}, oneCue(), okTimeout)
	scriptErr(t, err, exporttpl.PhaseLoad, exporttpl.KindMissingExport)
}

func TestLoadError(t *testing.T) {
	r := newRunner()
	src := "function exportTimeline() { return '' }\nconst table = null;\nconst first = table.rows[0];\n"
	_, err := r.Compile(context.Background(), src)
	se := scriptErr(t, err, exporttpl.PhaseLoad, "TypeError")
	// The engine's column is the property access's dot.
	if se.Line != 3 || se.Column != 20 {
		t.Errorf("at %d:%d, want 3:20", se.Line, se.Column)
	}
	if len(se.Stack) != 1 || se.Stack[0] != "at template.js:3:20" {
		t.Errorf("stack %q, want the top level at 3:20", se.Stack)
	}
	checkFrames(t, se)

	// A top level that throws at run time only.
	c := &exporttpl.Compiled{JS: "throw new RangeError('late')"}
	_, err = r.Run(context.Background(), c, oneCue(), okTimeout)
	scriptErr(t, err, exporttpl.PhaseLoad, "RangeError")
}

func TestRunError(t *testing.T) {
	r := newRunner()
	src := `function label(c) {
  return c.speaker.toUpperCase();
}
function exportTimeline(cues, ctx) {
  return cues.map(label).join('\n');
}`
	_, err := run(t, r, src, oneCue(), okTimeout)
	se := scriptErr(t, err, exporttpl.PhaseRun, "TypeError")
	// The dot of the access, and the call's parenthesis.
	if se.Line != 2 || se.Column != 19 {
		t.Errorf("at %d:%d, want 2:19 (%s)", se.Line, se.Column, se.Message)
	}
	want := []string{"at label (template.js:2:19)", "at exportTimeline (template.js:5:18)"}
	if strings.Join(se.Stack, "|") != strings.Join(want, "|") {
		t.Errorf("stack %q, want %q", se.Stack, want)
	}
	if !strings.Contains(se.Message, "cannot read property 'toUpperCase' of null") {
		t.Errorf("message %q", se.Message)
	}
	checkFrames(t, se)

	// Thrown values that are not errors, and custom errors.
	for _, tt := range []struct{ throw, kind, msg string }{
		{`'boom'`, "Error", "uncaught exception: boom"},
		{`42`, "Error", "uncaught exception: 42"},
		{`new (class MyError extends Error { constructor(m) { super(m); this.name = 'MyError' } })('mine')`, "MyError", "mine"},
		{`Object.assign(new Error('x'), {name: 'not a name!'})`, "Error", "x"},
		{`new Error('y'.repeat(5000))`, "Error", "yyy"},
	} {
		_, err := run(t, r, "function exportTimeline() { throw "+tt.throw+" }", oneCue(), okTimeout)
		se := scriptErr(t, err, exporttpl.PhaseRun, tt.kind)
		if !strings.HasPrefix(se.Message, tt.msg) || len(se.Message) > maxMessageBytes {
			t.Errorf("throw %.40s: message %.80q", tt.throw, se.Message)
		}
	}

	// A helper's error points at the template's call, not at the prelude.
	src = "function exportTimeline(cues, ctx) {\n  return ctx.srtTime('soon');\n}"
	_, err = run(t, r, src, oneCue(), okTimeout)
	se = scriptErr(t, err, exporttpl.PhaseRun, "RangeError")
	if se.Line != 2 || len(se.Stack) != 1 || !strings.Contains(se.Message, "ctx.srtTime") {
		t.Errorf("helper error %+v", se)
	}
	checkFrames(t, se)
}

func TestHelpers(t *testing.T) {
	r := newRunner()
	src := `function exportTimeline(cues, ctx) {
  return JSON.stringify([
    ctx.srtTime(62345), ctx.srtTime(0), ctx.srtTime(-5), ctx.srtTime(3723004.4), ctx.srtTime(360000000),
    ctx.vttTime(62345), ctx.vttTime(59999.5),
    ctx.seconds(62345), ctx.seconds(5), ctx.seconds(-1500), ctx.seconds(0),
    ctx.timecode(62345), ctx.timecode(62345, 30), ctx.timecode(60000, 29.97), ctx.timecode(3600000, 24),
    ctx.timecode(1000, 120), ctx.timecode(999, 25),
    ctx.pad(7, 3), ctx.pad(7), ctx.pad(1234, 2), ctx.pad(-5, 3), ctx.pad('ab', 4),
    Object.isFrozen(ctx), Object.keys(ctx).join(','), ctx.frameRate,
  ]);
}`
	var got []any
	if err := json.Unmarshal([]byte(runBody(t, r, src, oneCue())), &got); err != nil {
		t.Fatal(err)
	}
	want := []any{
		"00:01:02,345", "00:00:00,000", "00:00:00,000", "01:02:03,004", "100:00:00,000",
		"00:01:02.345", "00:01:00.000",
		"62.345", "0.005", "-1.500", "0.000",
		"00:01:02:08", "00:01:02:10", "00:00:59:28", "01:00:00:00",
		"00:00:01:000", "00:00:00:24",
		"007", "07", "1234", "-05", "00ab",
		true, "projectId,projectName,irRevision,language,frameRate,preset,templateName", 0.0,
	}
	if len(got) != len(want) {
		t.Fatalf("got %d values, want %d: %v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("value %d = %#v, want %#v", i, got[i], want[i])
		}
	}

	// timecode's default rate is ctx.frameRate when the timeline has one.
	in := oneCue()
	in.Ctx.FrameRate = 30
	if got := runBody(t, r, "function exportTimeline(c, ctx) { return ctx.timecode(62345) }", in); got != "00:01:02:10" {
		t.Errorf("timecode at ctx.frameRate 30 = %q", got)
	}
	// ctx is frozen: a strict-mode write throws.
	_, err := run(t, r, "'use strict'; function exportTimeline(c, ctx) { ctx.language = 'x'; return '' }", oneCue(), okTimeout)
	scriptErr(t, err, exporttpl.PhaseRun, "TypeError")
	// Bad arguments throw RangeErrors naming the helper.
	for _, call := range []string{"ctx.srtTime(NaN)", "ctx.vttTime(undefined)", "ctx.seconds(Infinity)", "ctx.timecode(1, 0)", "ctx.timecode(1, -24)"} {
		_, err := run(t, r, "function exportTimeline(c, ctx) { return "+call+" }", oneCue(), okTimeout)
		se := scriptErr(t, err, exporttpl.PhaseRun, "RangeError")
		if !strings.Contains(se.Message, "ctx.") {
			t.Errorf("%s: message %q", call, se.Message)
		}
	}
}

func TestInputHandover(t *testing.T) {
	r := newRunner()
	speaker := "ANNA"
	line := 80.0
	in := &exporttpl.Input{
		Cues: []exporttpl.Cue{
			{Index: 0, ID: "a", StartMs: 0, EndMs: 1000, Text: "Ünïcödé 😀 \"quoted\" </script>\u2028", Speaker: &speaker,
				Spans: []caption.Span{{Start: 0, End: 3, Italic: true}}, Placement: &caption.Placement{Area: "top", Line: &line}},
			{Index: 1, ID: "b", StartMs: 1000, EndMs: 2000, Text: "two\nlines"}, // Lines and Spans nil
			{Index: 2, StartMs: 2000, EndMs: 3000},
		},
		Ctx: exporttpl.Context{ProjectID: "p1", ProjectName: "Project", IRRevision: 7, Language: "de", FrameRate: 23.976, Preset: "youtube", TemplateName: "t"},
	}
	src := `function exportTimeline(cues, ctx) {
  return JSON.stringify({cues: cues, ctx: ctx});
}`
	var got struct {
		Cues []map[string]any
		Ctx  map[string]any
	}
	if err := json.Unmarshal([]byte(runBody(t, r, src, in)), &got); err != nil {
		t.Fatal(err)
	}
	c0 := got.Cues[0]
	if c0["text"] != in.Cues[0].Text || c0["speaker"] != "ANNA" || c0["id"] != "a" {
		t.Errorf("cue 0 = %v", c0)
	}
	if p := c0["placement"].(map[string]any); p["area"] != "top" || p["line"] != 80.0 {
		t.Errorf("placement = %v", p)
	}
	if s := c0["spans"].([]any); len(s) != 1 || s[0].(map[string]any)["italic"] != true {
		t.Errorf("spans = %v", s)
	}
	c1 := got.Cues[1]
	if l, ok := c1["lines"].([]any); !ok || len(l) != 2 || l[1] != "lines" {
		t.Errorf("nil Lines became %v, want the text's lines", c1["lines"])
	}
	if s, ok := c1["spans"].([]any); !ok || len(s) != 0 {
		t.Errorf("nil Spans became %v, want []", c1["spans"])
	}
	if l, ok := got.Cues[2]["lines"].([]any); !ok || len(l) != 0 || got.Cues[2]["speaker"] != nil {
		t.Errorf("empty cue = %v", got.Cues[2])
	}
	wantCtx := map[string]any{"projectId": "p1", "projectName": "Project", "irRevision": 7.0, "language": "de",
		"frameRate": 23.976, "preset": "youtube", "templateName": "t"}
	for k, v := range wantCtx {
		if got.Ctx[k] != v {
			t.Errorf("ctx.%s = %v, want %v", k, got.Ctx[k], v)
		}
	}
	if len(got.Ctx) != len(wantCtx) {
		t.Errorf("ctx has %d fields, want %d (helpers are not enumerable): %v", len(got.Ctx), len(wantCtx), got.Ctx)
	}
	// No cues at all is an empty array, not null.
	if got := runBody(t, r, "function exportTimeline(cues) { return String(cues.length) }", &exporttpl.Input{}); got != "0" {
		t.Errorf("nil cues: length %q", got)
	}
}

// TestTamperingInvisible: whatever one run changes in its VM, the next
// run does not see it, and the glue does not depend on what a template
// can replace.
func TestTamperingInvisible(t *testing.T) {
	r := newRunner()
	tamper := `
Array.prototype.join = function () { return 'pwned' };
Object.prototype.injected = 'yes';
String.prototype.padStart = function () { return 'pwned' };
JSON.parse = function () { return 'pwned' };
Object.freeze = function (o) { return o };
Object.defineProperty = function () { throw new Error('pwned') };
globalThis.leaked = 1;
var counter = (globalThis.counter || 0) + 1;
function exportTimeline(cues, ctx) {
  return [cues.length, ctx.srtTime(1000), Object.isFrozen(ctx), counter].map(String).reduce((a, b) => a + ' ' + b);
}`
	if got := runBody(t, r, tamper, oneCue()); got != "1 00:00:01,000 true 1" {
		t.Errorf("the tampering run's own glue: %q", got)
	}
	check := `function exportTimeline(cues, ctx) {
  return [[1, 2].join(','), typeof ({}).injected, typeof leaked, typeof counter, 'a'.padStart(2, '-')].join(' ');
}`
	for range 3 {
		runBody(t, r, tamper, oneCue())
		if got := runBody(t, r, check, oneCue()); got != "1,2 undefined undefined undefined -a" {
			t.Fatalf("the next run saw the tampering: %q", got)
		}
	}
}

func TestContextCancel(t *testing.T) {
	r := newRunner()
	c := compile(t, r, "function exportTimeline() { for (;;) {} }")

	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(50 * time.Millisecond); cancel() }()
	start := time.Now()
	_, err := r.Run(ctx, c, oneCue(), time.Minute)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("cancel took %v", d)
	}

	ctx, cancel = context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err = r.Run(ctx, c, oneCue(), time.Minute)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want context.DeadlineExceeded", err)
	}

	// An ended context does not start anything.
	_, err = r.Run(ctx, c, oneCue(), time.Minute)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want context.DeadlineExceeded", err)
	}
	if _, err := r.Compile(ctx, "function exportTimeline() {}"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Compile err = %v, want context.DeadlineExceeded", err)
	}
}

// TestSemaphore: with one slot, a second call waits, and gives up with its
// context.
func TestSemaphore(t *testing.T) {
	r := New(Options{MaxConcurrent: 1})
	c := compile(t, r, "function exportTimeline() { for (;;) {} }")
	started := make(chan struct{})
	done := make(chan error)
	go func() {
		close(started)
		_, err := r.Run(context.Background(), c, oneCue(), 2*time.Second)
		done <- err
	}()
	<-started
	time.Sleep(100 * time.Millisecond) // let the first run take the slot
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	_, err := r.Run(ctx, c, oneCue(), time.Second)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("waiting run: err = %v, want context.DeadlineExceeded", err)
	}
	scriptErr(t, <-done, exporttpl.PhaseRun, exporttpl.KindTimeout)
}

func TestNilArguments(t *testing.T) {
	r := newRunner()
	if _, err := r.Run(context.Background(), nil, oneCue(), 0); err == nil {
		t.Error("nil Compiled: no error")
	}
	if _, err := r.Run(context.Background(), &exporttpl.Compiled{JS: ""}, nil, 0); err == nil {
		t.Error("nil Input: no error")
	}
}
