package jsrun

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// preludeSource is the JavaScript every run evaluates before the template. It is
// plain JS: no host function is registered, so nothing in it reaches Go.
//
// It evaluates to the glue function prepare(cuesJSON, ctxJSON), which
// returns the function run(); the runner calls both through the Values it
// holds (the glue has no global name a template could shadow or replace),
// prepare before the template's top level runs, run after. The glue:
//   - parses the two JSON strings (before any template code has run, so a
//     failure there is the input's: too big for the heap or the time);
//   - splits cue.text into cue.lines where the runner sent "lines":0 (see
//     encodeCues);
//   - adds the helpers to ctx (not enumerable) and freezes ctx;
//   - looks exportTimeline up by name in the global scope (a function
//     declaration, or a top-level const/let/var/class binding) and calls it;
//   - checks what it returned and answers a null-prototype record the
//     runner reads field by field: k (the failure kind, "" when none),
//     m (its message), b (body), f (filename), t (contentType).
//
// The runner evaluates the prelude through an indirect eval, so that its
// frames name the file "<input>" while the template's name "<eval>": stack
// frames of the glue and the helpers are dropped by file, not guessed by
// function name. %MAXOUT% stands for the output limit (see preludeEval).
const preludeSource = `(function () {
'use strict';
var parse = JSON.parse, freeze = Object.freeze, create = Object.create,
	defineProperty = Object.defineProperty, isArray = Array.isArray,
	floor = Math.floor, round = Math.round, PromiseCtor = Promise,
	RangeErrorCtor = RangeError;
var MAX_OUT = %MAXOUT%;

function describe(v) {
	if (v === null) return 'null';
	switch (typeof v) {
	case 'undefined': return 'undefined';
	case 'string': return 'a string';
	case 'number': case 'boolean': return 'a ' + typeof v + ' (' + v + ')';
	case 'bigint': return 'a bigint (' + v + 'n)';
	case 'symbol': return 'a symbol';
	case 'function': return 'a function';
	}
	if (isArray(v)) return 'an array';
	if (v instanceof PromiseCtor) return 'a Promise (exportTimeline must not be async)';
	return 'an object';
}

function toMs(name, ms) {
	var n = +ms;
	if (n !== n || n === Infinity || n === -Infinity) {
		throw new RangeErrorCtor('ctx.' + name + ': want a finite number of milliseconds, got ' + describe(ms));
	}
	return round(n);
}

// D2 holds "00" to "99": the clock helpers are called twice a cue, and
// the engine spends about a microsecond on every concatenation or call
// they save.
var D2 = '00 01 02 03 04 05 06 07 08 09 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96 97 98 99'.split(' ');

function pad(n, width) {
	var w = width === undefined ? 2 : floor(+width);
	if (!(w >= 0)) w = 0;
	var neg = typeof n === 'number' && n < 0;
	var s = '' + (neg ? -n : n);
	if (neg) w--;
	while (s.length < w) s = '0' + s;
	return neg ? '-' + s : s;
}

function clock(name, ms, sep) {
	var t = typeof ms === 'number' && ms >= 0 && ms <= 9e15 ? round(ms) : toMs(name, ms);
	if (t < 0) t = 0;
	var f = t % 1000, s = (t - f) / 1000, h = floor(s / 3600);
	return (h < 100 ? D2[h] : '' + h) + ':' + D2[floor(s / 60) % 60] + ':' + D2[s % 60] + sep +
		(f < 10 ? '00' : f < 100 ? '0' : '') + f;
}

function srtTime(ms) { return clock('srtTime', ms, ','); }
function vttTime(ms) { return clock('vttTime', ms, '.'); }

function seconds(ms) {
	var t = toMs('seconds', ms), sign = '';
	if (t < 0) { sign = '-'; t = -t; }
	var f = t % 1000;
	return sign + (t - f) / 1000 + '.' + (f < 10 ? '00' : f < 100 ? '0' : '') + f;
}

function timecoder(defaultFps) {
	return function timecode(ms, fps) {
		var t = toMs('timecode', ms);
		if (t < 0) t = 0;
		var rate = fps === undefined || fps === null ? defaultFps : +fps;
		if (!(rate > 0) || rate === Infinity) {
			throw new RangeErrorCtor('ctx.timecode: want a positive frame rate, got ' + describe(fps));
		}
		var nominal = round(rate);
		if (nominal < 1) nominal = 1;
		var frames = floor(t * rate / 1000 + 1e-6);
		var secs = floor(frames / nominal);
		return pad(floor(secs / 3600), 2) + ':' + pad(floor(secs / 60) % 60, 2) + ':' +
			pad(secs % 60, 2) + ':' + pad(frames % nominal, nominal > 100 ? 3 : 2);
	};
}

function hidden(obj, name, value) {
	defineProperty(obj, name, { value: value, enumerable: false, writable: false, configurable: false });
}

function record(kind, message, body, filename, contentType) {
	var r = create(null);
	r.k = kind; r.m = message; r.b = body; r.f = filename; r.t = contentType;
	return r;
}

function bad(message) {
	return record('bad_return', message, '', '', '');
}

function optional(v) {
	return v === undefined || v === null || typeof v === 'string';
}

function finish(r) {
	var body, filename = '', contentType = '';
	if (typeof r === 'string') {
		body = r;
	} else if (r === null || typeof r !== 'object' || isArray(r) || r instanceof PromiseCtor) {
		return bad('exportTimeline returned ' + describe(r) +
			'; it must return a string, or an object {body: string, filename?: string, contentType?: string}');
	} else {
		body = r.body;
		var f = r.filename, t = r.contentType;
		if (typeof body !== 'string') {
			return bad('exportTimeline returned an object whose body is ' + describe(body) + '; body must be a string');
		}
		if (!optional(f)) return bad('exportTimeline returned a filename that is ' + describe(f) + '; it must be a string');
		if (!optional(t)) return bad('exportTimeline returned a contentType that is ' + describe(t) + '; it must be a string');
		if (typeof f === 'string') filename = f;
		if (typeof t === 'string') contentType = t;
	}
	// A UTF-16 code unit is at least one byte of UTF-8: longer is too large
	// for sure, and the runner checks the exact size of the rest.
	if (body.length > MAX_OUT) {
		return record('output_too_large', 'exportTimeline returned ' + body.length +
			' characters, over the limit of ' + MAX_OUT + ' bytes', '', '', '');
	}
	return record('', '', body, filename, contentType);
}

return function prepare(cuesJSON, ctxJSON) {
	var cues = parse(cuesJSON), ctx = parse(ctxJSON);
	for (var i = 0; i < cues.length; i++) {
		var c = cues[i];
		if (c.lines === 0) c.lines = c.text === '' ? [] : c.text.split('\n');
	}
	var rate = typeof ctx.frameRate === 'number' && ctx.frameRate > 0 ? ctx.frameRate : 25;
	hidden(ctx, 'srtTime', srtTime);
	hidden(ctx, 'vttTime', vttTime);
	hidden(ctx, 'timecode', timecoder(rate));
	hidden(ctx, 'seconds', seconds);
	hidden(ctx, 'pad', pad);
	freeze(ctx);
	return function run() {
		if (typeof exportTimeline !== 'function') {
			return record('missing_export', typeof exportTimeline === 'undefined'
				? 'the script defines no function exportTimeline(cues, ctx) at its top level'
				: 'exportTimeline is ' + describe(exportTimeline) + ', not a function', '', '', '');
		}
		return finish(exportTimeline(cues, ctx));
	};
};
})()`

// preludeEval returns the Go-side source that evaluates the prelude
// through an indirect eval (see preludeSource), with maxOut as the output
// limit the glue checks. The prelude is minified first: every run parses
// it, and parsing the commented source took longer than making the VM.
func preludeEval(maxOut int) string {
	src := strings.Replace(preludeSource, "%MAXOUT%", strconv.Itoa(maxOut), 1)
	min := api.Transform(src, api.TransformOptions{
		Loader:            api.LoaderJS,
		MinifyWhitespace:  true,
		MinifySyntax:      true,
		MinifyIdentifiers: true,
		LogLevel:          api.LogLevelSilent,
	})
	if len(min.Errors) > 0 {
		panic("jsrun: the prelude does not parse: " + min.Errors[0].Text)
	}
	src = strings.TrimSuffix(strings.TrimSpace(string(min.Code)), ";")
	quoted, err := json.Marshal(src) // a JSON string is a JS string literal
	if err != nil {
		panic(err) // a Go string always marshals
	}
	return "(0, eval)(" + string(quoted) + ")"
}
