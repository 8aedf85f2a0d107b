package engine

import (
	"encoding/base64"
	"runtime"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/caption/format"
	"github.com/captionqa/captionqa/backend/fix"
	"github.com/captionqa/captionqa/backend/jsonw"
	"github.com/captionqa/captionqa/backend/parallel"
)

// EncodeJSON writes r as encoding/json would. A result of a long file is
// tens of megabytes (each of tens of thousands of findings is listed in
// the report, the aided report and the suggestions); this writes it
// several times faster, and streams it.
func (r *Result) EncodeJSON(e *jsonw.Encoder) {
	e.Raw("{")
	r.EncodeJSONFields(e)
	e.Raw("}")
}

// EncodeJSONFields writes r's fields without the braces around them, so a
// caller can add fields of its own (the API adds the caller's quota).
func (r *Result) EncodeJSONFields(e *jsonw.Encoder) {
	out, aided, encoding := r.wireOutputs()
	b := r.preEncode(out, aided)
	e.Key("report", true)
	r.Report.encodeJSON(e, b)
	e.Key("output", false)
	b.string(e, out)
	if encoding != "" {
		e.Key("outputEncoding", false)
		e.String(encoding)
	}
	e.Key("aidedOutput", false)
	b.string(e, aided)
	e.Key("aidedReport", false)
	r.AidedReport.encodeJSON(e, b)
	e.Key("suggestions", false)
	b.list(e, r.Suggestions)
	if len(r.Omitted) > 0 {
		e.Key("omitted", false)
		encodeOmitted(e, r.Omitted)
	}
	e.Key("aidedSameAsDelivery", false)
	e.Bool(r.AidedSameAsDelivery)
	e.Key("deliveryStatus", false)
	e.String(string(r.DeliveryStatus))
	e.Key("aidedStatus", false)
	e.String(string(r.AidedStatus))
}

// OutputBase64 is the process result's outputEncoding when output and
// aidedOutput are base64: the delivery format is binary (EBU STL), and a
// JSON string carries only text (the OpenAPI operation processCaptions).
const OutputBase64 = "base64"

// wireOutputs are the two outputs as the JSON carries them, and their
// encoding ("" for text).
func (r *Result) wireOutputs() (out, aided, encoding string) {
	if r.Report == nil || !format.Binary(r.Report.OutputFormat) {
		return r.Output, r.AidedOutput, ""
	}
	enc := base64.StdEncoding
	out = enc.EncodeToString([]byte(r.Output))
	if r.AidedOutput == r.Output {
		return out, out, OutputBase64
	}
	return out, enc.EncodeToString([]byte(r.AidedOutput)), OutputBase64
}

// Sizes from which a part of a result is encoded ahead, side by side with
// the other big parts: below them a goroutine costs more than it saves.
const (
	bigList   = 4096     // findings
	bigString = 64 << 10 // bytes
)

// blobs are the big parts of a result, encoded ahead. A result often lists
// the same findings several times (both reports list the input's; a
// warn-only result whose findings are all suggestions lists each also as a
// suggestion and as a problem remaining in the aided output), and the same
// text twice when the aided output is the delivery: equal lists and equal
// strings are encoded once however often they appear ([sameList]).
type blobs struct {
	lists   []encodedList
	strings []encodedString
}

// encodedList is a finding list and its JSON array, in consecutive parts.
type encodedList struct {
	list  []caption.Diagnostic
	parts []*chunk
}

// encodedString is a string and its JSON.
type encodedString struct {
	s    string
	json *chunk
}

// chunk is JSON being encoded ahead; bytes waits for it.
type chunk struct {
	done chan struct{}
	json []byte
}

func newChunk() *chunk { return &chunk{done: make(chan struct{})} }

// set stores the encoding and lets the waiting writer go on.
func (c *chunk) set(json []byte) {
	c.json = json
	close(c.done)
}

// bytes returns the encoding once it is made.
func (c *chunk) bytes() []byte {
	<-c.done
	return c.json
}

// partsPerWorker is how many parts a long list is cut into per processor:
// the writer sends the first while the others are still being encoded.
const partsPerWorker = 4

// preEncode starts encoding the big parts of r (long or repeated finding
// lists, long outputs) on as many goroutines as there are processors, in
// the order the result lists them, and returns without waiting: each part
// is written as soon as it is ready, while later ones are encoded. A long
// list is cut into several parts per processor.
func (r *Result) preEncode(out, aided string) *blobs {
	b := &blobs{}
	var all [][]caption.Diagnostic
	for _, rep := range []*Report{r.Report, r.AidedReport} {
		if rep != nil {
			all = append(all, rep.Diagnostics, rep.Remaining)
		}
	}
	all = append(all, r.Suggestions)
	for i, a := range all {
		if len(a) == 0 || b.findList(a) != nil {
			continue
		}
		shared := false
		for _, o := range all[i+1:] {
			shared = shared || sameList(a, o)
		}
		if shared || len(a) >= bigList {
			b.lists = append(b.lists, encodedList{list: a})
		}
	}
	for _, s := range []string{out, aided} {
		// A short output is encoded ahead too when it is written twice.
		if (len(s) >= bigString || out == aided) && b.findString(s) == nil {
			b.strings = append(b.strings, encodedString{s: s})
		}
	}
	var tasks []func()
	workers := runtime.GOMAXPROCS(0)
	for i := range b.lists {
		l := &b.lists[i]
		n := 1
		if len(l.list) >= bigList {
			n = min(workers*partsPerWorker, len(l.list)/(bigList/4))
		}
		l.parts = make([]*chunk, n)
		for k := range n {
			c, lo, hi := newChunk(), k*len(l.list)/n, (k+1)*len(l.list)/n
			l.parts[k] = c
			tasks = append(tasks, func() { c.set(encodeFindings(l.list, lo, hi)) })
		}
	}
	for i := range b.strings {
		st := &b.strings[i]
		c := newChunk()
		st.json = c
		tasks = append(tasks, func() { c.set(quote(st.s)) })
	}
	// The tasks only read r, which the caller does not change while it
	// writes; each fills its own chunk.
	go parallel.Run(tasks, workers)
	return b
}

// quote returns s as a JSON string.
func quote(s string) []byte {
	return jsonw.AppendString(make([]byte, 0, len(s)+len(s)/8+2), s)
}

// encodeFindings encodes ds[lo:hi] as part of the JSON array of ds: the
// first part opens it, the last closes it.
func encodeFindings(ds []caption.Diagnostic, lo, hi int) []byte {
	// A finding is about 200 bytes of JSON.
	b := make([]byte, 0, (hi-lo+1)*224)
	if lo == 0 {
		b = append(b, '[')
	}
	for i := lo; i < hi; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		b = ds[i].AppendJSON(b)
	}
	if hi == len(ds) {
		b = append(b, ']')
	}
	return b
}

// sameList reports whether a and b list the same findings, so that the
// encoder writes a list once however often a result holds it, whether the
// engine handed one slice to several places or built equal ones: one
// backing array is recognised at once, equal lengths are then compared
// finding by finding (lists that differ, differ early).
func sameList(a, b []caption.Diagnostic) bool {
	if len(a) == 0 || len(a) != len(b) {
		return false
	}
	if &a[0] == &b[0] {
		return true
	}
	for i := range a {
		if !a[i].Equal(&b[i]) {
			return false
		}
	}
	return true
}

func (b *blobs) findList(ds []caption.Diagnostic) *encodedList {
	for i := range b.lists {
		if sameList(b.lists[i].list, ds) {
			return &b.lists[i]
		}
	}
	return nil
}

func (b *blobs) findString(s string) *encodedString {
	for i := range b.strings {
		// Equal strings are one encoding; comparing the same string is
		// immediate, different ones rarely get far.
		if b.strings[i].s == s {
			return &b.strings[i]
		}
	}
	return nil
}

// list writes ds, from its encoding when it was encoded ahead.
func (b *blobs) list(e *jsonw.Encoder, ds []caption.Diagnostic) {
	l := b.findList(ds)
	if l == nil {
		caption.EncodeDiagnostics(e, ds)
		return
	}
	for _, p := range l.parts {
		e.RawBytes(p.bytes())
	}
}

// string writes s, from its encoding when it was encoded ahead.
func (b *blobs) string(e *jsonw.Encoder, s string) {
	if st := b.findString(s); st != nil {
		e.RawBytes(st.json.bytes())
		return
	}
	e.String(s)
}

func (rep *Report) encodeJSON(e *jsonw.Encoder, b *blobs) {
	if rep == nil {
		e.Raw("null")
		return
	}
	e.Raw("{")
	e.Key("summary", true)
	e.String(rep.Summary)
	e.Key("preset", false)
	e.String(rep.Preset)
	e.Key("fixProfile", false)
	e.String(rep.FixProfile)
	e.Key("inputFormat", false)
	e.String(rep.InputFormat)
	e.Key("outputFormat", false)
	e.String(rep.OutputFormat)
	e.Key("encoding", false)
	e.String(rep.Encoding)
	e.Key("inputCues", false)
	e.Int(int64(rep.InputCues))
	e.Key("outputCues", false)
	e.Int(int64(rep.OutputCues))
	e.Key("diagnostics", false)
	b.list(e, rep.Diagnostics)
	e.Key("fixes", false)
	fix.EncodeChanges(e, rep.Fixes)
	e.Key("remaining", false)
	b.list(e, rep.Remaining)
	if len(rep.Omitted) > 0 {
		e.Key("omitted", false)
		encodeOmitted(e, rep.Omitted)
	}
	e.Key("counting", false)
	e.String(rep.Counting)
	if len(rep.PlatformNotes) > 0 {
		e.Key("platformNotes", false)
		e.Strings(rep.PlatformNotes)
	}
	if rep.Standard != nil {
		e.Key("standard", false)
		rep.Standard.EncodeJSON(e)
	}
	e.Raw("}")
}
