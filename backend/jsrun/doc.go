// Package jsrun runs export templates: untrusted JavaScript, in process,
// in QuickJS (modernc.org/quickjs, pure Go, no cgo). It implements
// exporttpl.Runner and is the only package that imports the JS engine;
// esbuild is used here for syntax checking only.
//
// # The sandbox
//
// Every Compile and every Run gets a fresh VM, closed on every path: no
// state, global or prototype change survives a call. The VM has the
// ECMAScript built-ins and nothing else: no require, import(), fetch,
// timers, console, std or os, and no host function (nothing in a script
// reaches Go). A Promise's callbacks never run, since the runner does not
// drain the job queue, and exportTimeline must return synchronously.
//
// Each VM's JavaScript heap is capped (exporttpl.MemoryLimit) and so is its
// call depth ([DefaultMaxStackSlots]). Each call has a deadline: the
// engine's eval timeout, plus a watchdog that interrupts the VM at the
// deadline or when the caller's context ends, and then forces the engine
// to poll its interrupt handler every millisecond until it stops (the
// engine polls only every 10,000 poll points, which a loop of expensive
// built-in calls would stretch to minutes). That kick writes into the
// engine's memory through a small reflect/unsafe shim (kick.go); race
// builds leave it out and rely on the timeout and Interrupt alone.
// [Options.MaxConcurrent] bounds the VMs alive at once.
//
// # Templates
//
// A template is a plain script (not a module) that declares, at its top
// level, a function exportTimeline(cues, ctx): a function declaration, or
// a const/let/var/class binding holding a function. It returns the export
// as a string, or as an object {body: string, filename?: string,
// contentType?: string}:
//
//	function exportTimeline(cues, ctx) {
//	  return cues.map((c, i) =>
//	    `${i + 1}\n${ctx.srtTime(c.startMs)} --> ${ctx.srtTime(c.endMs)}\n${c.text}\n`
//	  ).join('\n');
//	}
//
// Each cue is {index, id, startMs, endMs, text, lines, spans, speaker,
// placement} (see exporttpl.Cue); ctx is {projectId, projectName,
// irRevision, language, frameRate, preset, templateName} (see
// exporttpl.Context) plus the helpers below, and is frozen.
//
// # ctx helpers
//
// The helpers are plain JavaScript, installed on ctx by a prelude the
// runner evaluates before the template. Times are milliseconds, rounded to
// the nearest millisecond; a value that is not a finite number throws a
// RangeError.
//
//	ctx.srtTime(62345)       // "00:01:02,345"  SRT time; negative times print as 0
//	ctx.vttTime(62345)       // "00:01:02.345"  WebVTT time; negative times print as 0
//	ctx.seconds(62345)       // "62.345"        seconds with 3 decimals; keeps a sign
//	ctx.timecode(62345)      // "00:01:02:08"   SMPTE HH:MM:SS:FF at ctx.frameRate, or 25
//	ctx.timecode(62345, 30)  // "00:01:02:10"
//	ctx.pad(7, 3)            // "007"           left-pads with zeros to width (default 2)
//	ctx.pad(-5, 3)           // "-05"           the sign counts in the width
//
// timecode is non-drop-frame: it counts frames at the real rate and labels
// them at the nominal one, so at 29.97 fps the label runs at 30 and falls
// behind the clock (ctx.timecode(60000, 29.97) is "00:00:59:28"); the frame
// field has three digits at more than 100 fps. Hours grow past 99 in every
// helper.
//
// # Errors
//
// A failure is an *exporttpl.ScriptError: its Phase (compile, load, run,
// result), its Kind (a JavaScript error name such as TypeError, or timeout,
// memory_limit, stack_overflow, missing_export, bad_return,
// output_too_large), the line and column in the template (1-based, the
// column in characters), and at most 10 stack frames (2 KiB) that name
// template.js and nothing else: native frames and the runtime's own are
// dropped. The engine throws null when it cannot even allocate the error
// object, at the memory limit: a thrown null is reported as memory_limit,
// including the rare script that throws null itself. Some limits are the
// engine's own RangeErrors rather than memory_limit: a string longer than
// 2^30-1 characters ('x'.repeat(2**30)) or an array longer than 2^32-1.
package jsrun
