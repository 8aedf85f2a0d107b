package jsrun

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/internal/race"

	"github.com/captionqa/captionqa/backend/exporttpl"
	"modernc.org/quickjs"
)

// within asserts a limited run stopped within 5 times its limit (plus a
// little for a loaded machine): the limits are checked, their precision is
// not.
func within(t testing.TB, what string, took, limit time.Duration) {
	t.Helper()
	// Generous: a loaded CI machine under -race must not fail a correct
	// build; a broken limit overruns by minutes (a loop of heavy built-ins
	// without the kick ran 1 min 40 s against 300 ms).
	if took > 10*limit+5*time.Second {
		t.Errorf("%s took %v, limit %v", what, took, limit)
	}
}

// heapAfterGC returns the live Go heap after a full collection.
func heapAfterGC() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// checkHeapBack asserts the Go heap came back near before: the engine's
// memory is not on it, and what the runner allocated is garbage.
func checkHeapBack(t testing.TB, before uint64) {
	t.Helper()
	const slack = 16 << 20
	if after := heapAfterGC(); after > before+slack {
		t.Errorf("Go heap %d MiB after, %d MiB before", after>>20, before>>20)
	}
}

// TestNoHostAccess: the script finds no module system, network, timers,
// console, std/os or other host objects; what exists of them fails.
func TestNoHostAccess(t *testing.T) {
	r := newRunner()
	src := `function exportTimeline() {
  const names = ['require', 'module', 'exports', 'process', 'fetch', 'XMLHttpRequest', 'WebSocket',
    'setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask', 'console', 'print', 'std', 'os',
    'bjson', 'scriptArgs', 'gc', 'Deno', 'Bun', 'WebAssembly', 'importScripts', 'load', 'read', 'readFile'];
  const defined = names.filter(n => typeof globalThis[n] !== 'undefined');
  const out = ['defined:' + defined.join(',')];
  try { require('fs'); out.push('require ran'); } catch (e) { out.push('require: ' + e.name); }
  try { console.log('x'); out.push('console ran'); } catch (e) { out.push('console: ' + e.name); }
  try { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10); out.push('wait ran'); } catch (e) { out.push('wait: ' + e.name); }
  const p = import('/etc/passwd');
  out.push('import: ' + (p instanceof Promise));
  out.push('globals: ' + Object.getOwnPropertyNames(globalThis).join(','));
  return out.join('\n');
}`
	got := runBody(t, r, src, oneCue())
	lines := strings.Split(got, "\n")
	for _, want := range []string{"defined:", "require: ReferenceError", "console: ReferenceError", "wait: TypeError", "import: true"} {
		if !slices.Contains(lines, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	// Every global is an ECMAScript built-in (or the template's own).
	builtins := strings.Fields(`Object Function Array Number parseFloat parseInt Infinity NaN undefined
		Boolean String Symbol Date Promise RegExp Error AggregateError EvalError RangeError ReferenceError
		SyntaxError TypeError URIError InternalError globalThis JSON Math Intl ArrayBuffer SharedArrayBuffer
		Atomics Uint8Array Int8Array Uint16Array Int16Array Uint32Array Int32Array Float16Array Float32Array
		Float64Array Uint8ClampedArray BigUint64Array BigInt64Array DataView Map BigInt Set WeakMap WeakSet
		WeakRef FinalizationRegistry Proxy Reflect decodeURI decodeURIComponent encodeURI encodeURIComponent
		escape unescape eval isFinite isNaN Iterator exportTimeline`)
	for _, g := range strings.Split(strings.TrimPrefix(lines[len(lines)-1], "globals: "), ",") {
		if !slices.Contains(builtins, g) {
			t.Errorf("unexpected global %q", g)
		}
	}
}

// TestImportRejects: the dynamic import() a script can write has no
// module loader behind it; even with the job queue drained (the runner
// never drains it) it rejects without reading the file.
func TestImportRejects(t *testing.T) {
	r := newRunner()
	s := r.open(context.Background(), time.Now().Add(5*time.Second))
	defer s.close()
	if _, err := s.vm.Eval(`var out = 'pending'; import('/etc/hostname').then(m => { out = 'loaded' }, e => { out = 'rejected: ' + e.message })`, quickjs.EvalGlobal); err != nil {
		t.Fatal(err)
	}
	if _, err := s.vm.ExecutePendingJobs(); err != nil {
		t.Fatal(err)
	}
	got, err := s.vm.Eval("out", quickjs.EvalGlobal)
	if err != nil {
		t.Fatal(err)
	}
	if s, _ := got.(string); !strings.HasPrefix(s, "rejected") {
		t.Errorf("import() = %v, want a rejection", got)
	}
}

// limitCase is a template that must stop at a limit.
type limitCase struct {
	name, src string
	kind      string
	// needsKick marks a case that polls the interrupt handler so rarely
	// that it overruns its time limit by minutes without the watchdog's
	// kick (race builds).
	needsKick bool
}

// loops must stop at the time limit.
func loops() []limitCase {
	return []limitCase{
		{"infinite loop", "function exportTimeline() { while (true) {} }", exporttpl.KindTimeout, false},
		{"loop in try/finally", "function exportTimeline() { for (;;) { try { for (;;) {} } catch (e) {} finally { continue } } }", exporttpl.KindTimeout, false},
		{"catastrophic regex", "function exportTimeline() { return String(/^(a+)+(?!x)b/.test('a'.repeat(40))) }", exporttpl.KindTimeout, false},
		// Every stack overflow builds a backtrace thousands of frames deep.
		{"endless recursion with catch", "function exportTimeline() { function f() { try { f() } catch (e) { f() } } f() }", exporttpl.KindTimeout, true},
	}
}

func TestTimeLimit(t *testing.T) {
	r := newRunner()
	for _, tt := range loops() {
		t.Run(tt.name, func(t *testing.T) {
			if tt.needsKick {
				race.Skip(t, "the watchdog's kick is left out")
			}
			c := compile(t, r, tt.src)
			start := time.Now()
			_, err := r.Run(context.Background(), c, oneCue(), testTimeout)
			within(t, tt.name, time.Since(start), testTimeout)
			se := scriptErr(t, err, exporttpl.PhaseRun, tt.kind)
			checkFrames(t, se)
		})
	}
	// A top level that never ends: a load timeout, at Compile too.
	start := time.Now()
	_, err := r.Compile(context.Background(), "for (;;) {}\nfunction exportTimeline() {}")
	within(t, "Compile of an endless top level", time.Since(start), exporttpl.CompileTimeout)
	scriptErr(t, err, exporttpl.PhaseLoad, exporttpl.KindTimeout)
	_, err = r.Run(context.Background(), &exporttpl.Compiled{JS: "for (;;) {}"}, oneCue(), testTimeout)
	scriptErr(t, err, exporttpl.PhaseLoad, exporttpl.KindTimeout)
}

// TestHeavyBuiltins: a loop whose body is one expensive built-in call
// polls the interrupt handler rarely; the watchdog's kick stops it at the
// deadline anyway. Without the kick this loop runs for minutes.
func TestHeavyBuiltins(t *testing.T) {
	race.Skip(t, "the watchdog's kick is left out")
	r := newRunner()
	for _, src := range []string{
		"function exportTimeline() { let s = 'ab'.repeat(1 << 16); for (;;) s = s.split('').reverse().join('') }",
		"function exportTimeline() { const a = Array.from({length: 1 << 16}, (_, i) => 'k' + (i * 7919 % 65536)); for (;;) a.slice().sort() }",
	} {
		c := compile(t, r, src)
		start := time.Now()
		_, err := r.Run(context.Background(), c, oneCue(), testTimeout)
		within(t, "heavy built-ins", time.Since(start), testTimeout)
		scriptErr(t, err, exporttpl.PhaseRun, exporttpl.KindTimeout)
	}
}

func TestKickerFindsTheEngine(t *testing.T) {
	race.Skip(t, "the watchdog's kick is left out")
	vm, err := quickjs.NewVM()
	if err != nil {
		t.Fatal(err)
	}
	defer vm.Close()
	if newKicker(vm) == nil {
		t.Fatal("newKicker found no JSContext: the engine's layout changed, the watchdog can no longer kick")
	}
}

func TestStackLimit(t *testing.T) {
	r := newRunner()
	for _, src := range []string{
		"function exportTimeline() { function f() { return f() + 1 } return f() }",
		"function exportTimeline() { const g = n => [n].map(x => g(x + 1)); return g(0) }",
		"function exportTimeline() { return JSON.parse('['.repeat(1e6)) }",
		"function exportTimeline() { return eval('('.repeat(1e5) + ')'.repeat(1e5)) }",
		"function exportTimeline() { let p = {}; for (let i = 0; i < 1e5; i++) p = new Proxy(p, {}); return p.x }",
	} {
		c := compile(t, r, src)
		// The kind proves it stopped at the stack cap, not at the 20 s
		// timeout, and that the process survived it.
		_, err := r.Run(context.Background(), c, oneCue(), 20*time.Second)
		se := scriptErr(t, err, exporttpl.PhaseRun, exporttpl.KindStackOverflow)
		checkFrames(t, se)
	}
	// A reasonable depth is fine.
	if got := runBody(t, r, "function exportTimeline() { const f = n => n ? 1 + f(n - 1) : 0; return String(f(1000)) }", oneCue()); got != "1000" {
		t.Errorf("recursion 1000 deep = %q", got)
	}
}

// bombs must stop at the memory limit. Under the race detector the engine
// runs many times slower, so these get their own small limit there.
func bombs() []limitCase {
	return []limitCase{
		{"Array fill", "function exportTimeline() { return new Array(2**31).fill(0) }", exporttpl.KindMemoryLimit, false},
		{"growing strings", "function exportTimeline() { const a = []; for (;;) a.push('x'.repeat(1 << 20) + a.length) }", exporttpl.KindMemoryLimit, false},
		{"small objects", "function exportTimeline() { const a = []; for (let i = 0; ; i++) a.push({i}) }", exporttpl.KindMemoryLimit, false},
		{"repeat 2**28", "function exportTimeline() { return 'x'.repeat(2**28) }", exporttpl.KindMemoryLimit, false},
		{"ArrayBuffer", "function exportTimeline() { return String(new ArrayBuffer(2**33).byteLength) }", "RangeError", false},
		// The engine's own string length limit (2^30-1) comes first.
		{"repeat 2**30", "function exportTimeline() { return 'x'.repeat(2**30) }", "RangeError", false},
		{"nested", "function exportTimeline() { let o = {}; for (;;) o = {o}; }", exporttpl.KindMemoryLimit, false},
	}
}

func bombRunner() (*Runner, int) {
	mem := exporttpl.MemoryLimit
	if race.Enabled {
		mem = 8 << 20
	}
	return New(Options{MaxConcurrent: 4, MemoryLimit: mem}), mem
}

func TestMemoryLimit(t *testing.T) {
	r, mem := bombRunner()
	for _, tt := range bombs() {
		t.Run(tt.name, func(t *testing.T) {
			c := compile(t, r, tt.src)
			before := heapAfterGC()
			_, err := r.Run(context.Background(), c, oneCue(), time.Minute)
			scriptErr(t, err, exporttpl.PhaseRun, tt.kind)
			checkHeapBack(t, before)
		})
	}
	// After a bomb, the next run has its whole heap.
	size := mem / 2
	src := fmt.Sprintf("function exportTimeline() { return String('x'.repeat(%d).length) }", size)
	if got := runBody(t, r, src, oneCue()); got != fmt.Sprint(size) {
		t.Errorf("half the heap after the bombs: %q", got)
	}
}

// TestManyAtOnce: 20 runaway templates at once, more than the runner's
// slots, all stop with their kind, and the Go heap comes back.
func TestManyAtOnce(t *testing.T) {
	r, _ := bombRunner()
	var cases []limitCase
	for _, tt := range loops() {
		if !race.Enabled || !tt.needsKick {
			cases = append(cases, tt)
		}
	}
	cases = append(cases, bombs()[:4]...)
	cases = append(cases, limitCase{"stack", "function exportTimeline() { function f() { return f() + 1 } return f() }", exporttpl.KindStackOverflow, false})
	compiled := make([]*exporttpl.Compiled, len(cases))
	for i, tt := range cases {
		compiled[i] = compile(t, r, tt.src)
	}
	before := heapAfterGC()
	var wg sync.WaitGroup
	errs := make([]error, 20)
	start := time.Now()
	for i := range errs {
		wg.Go(func() {
			timeout := testTimeout
			if cases[i%len(cases)].kind != exporttpl.KindTimeout {
				timeout = time.Minute // bombs stop at the memory limit
			}
			_, errs[i] = r.Run(context.Background(), compiled[i%len(cases)], oneCue(), timeout)
		})
	}
	wg.Wait()
	t.Logf("20 runaway runs on %d slots took %v", cap(r.sem), time.Since(start))
	for i, err := range errs {
		var se *exporttpl.ScriptError
		if tt := cases[i%len(cases)]; !errors.As(err, &se) || se.Kind != tt.kind {
			t.Errorf("run %d (%s): err %v, want kind %s", i, tt.name, err, tt.kind)
		}
	}
	checkHeapBack(t, before)
}

// TestInputTooBig: cues that do not fit in the heap fail before the
// template runs, and the message says it is the input.
func TestInputTooBig(t *testing.T) {
	r := New(Options{MemoryLimit: 2 << 20})
	_, err := run(t, r, srtTemplate, benchInput(20000), time.Minute)
	se := scriptErr(t, err, exporttpl.PhaseRun, exporttpl.KindMemoryLimit)
	if !strings.Contains(se.Message, "the input (20000 cues") || se.Line != 0 || len(se.Stack) != 0 {
		t.Errorf("error %+v", se)
	}
}
