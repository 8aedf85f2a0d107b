package engine

import (
	"bytes"
	"runtime"
	"sync"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/fix"
	"github.com/captionqa/captionqa/backend/jsonw"
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
	lists := r.sharedLists()
	e.Key("report", true)
	r.Report.encodeJSON(e, lists)
	e.Key("output", false)
	e.String(r.Output)
	e.Key("aidedOutput", false)
	e.String(r.AidedOutput)
	e.Key("aidedReport", false)
	r.AidedReport.encodeJSON(e, lists)
	e.Key("suggestions", false)
	lists.encode(e, r.Suggestions)
	e.Key("aidedSameAsDelivery", false)
	e.Bool(r.AidedSameAsDelivery)
	e.Key("deliveryStatus", false)
	e.String(string(r.DeliveryStatus))
	e.Key("aidedStatus", false)
	e.String(string(r.AidedStatus))
}

// sharedLists returns the encoder of r's finding lists. Process shares one
// slice among lists that hold the same findings (a warn-only result lists
// every finding as a diagnostic of both reports, a suggestion and, for
// the aided output, a remaining problem); such a list is encoded once.
func (r *Result) sharedLists() *findingLists {
	var all [][]caption.Diagnostic
	for _, rep := range []*Report{r.Report, r.AidedReport} {
		if rep != nil {
			all = append(all, rep.Diagnostics, rep.Remaining)
		}
	}
	all = append(all, r.Suggestions)
	l := &findingLists{}
	for i, a := range all {
		for _, b := range all[i+1:] {
			if len(a) > 0 && len(a) == len(b) && &a[0] == &b[0] && l.find(a) == nil {
				l.lists = append(l.lists, encodedList{list: a})
			}
		}
	}
	return l
}

// findingLists writes finding lists, each shared one encoded only once.
type findingLists struct {
	lists []encodedList
}

// encodedList is a list shared by several fields and its JSON, once made.
type encodedList struct {
	list []caption.Diagnostic
	json [][]byte
}

func (l *findingLists) find(ds []caption.Diagnostic) *encodedList {
	for i := range l.lists {
		if s := l.lists[i].list; len(s) == len(ds) && len(ds) > 0 && &s[0] == &ds[0] {
			return &l.lists[i]
		}
	}
	return nil
}

// encode writes ds, from the encoding kept for it when it is shared. A
// long list is encoded in parts side by side, one per processor: at tens
// of thousands of findings, encoding is most of a request's time.
func (l *findingLists) encode(e *jsonw.Encoder, ds []caption.Diagnostic) {
	s := l.find(ds)
	if s == nil && len(ds) < parallelEncode {
		caption.EncodeDiagnostics(e, ds)
		return
	}
	var parts [][]byte
	if s != nil && s.json != nil {
		parts = s.json
	} else {
		parts = encodeParts(ds)
		if s != nil {
			s.json = parts
		}
	}
	for _, p := range parts {
		e.RawBytes(p)
	}
}

// parallelEncode is the list length from which encodeParts splits the
// work; below it a goroutine costs more than it saves.
const parallelEncode = 4096

// encodeParts returns the JSON array of ds in consecutive parts, encoded
// side by side when ds is long.
func encodeParts(ds []caption.Diagnostic) [][]byte {
	n := 1
	if len(ds) >= parallelEncode {
		n = runtime.GOMAXPROCS(0)
	}
	parts := make([][]byte, n)
	var wg sync.WaitGroup
	for k := range n {
		lo, hi := k*len(ds)/n, (k+1)*len(ds)/n
		wg.Go(func() {
			var buf bytes.Buffer
			e := jsonw.NewEncoder(&buf)
			if k == 0 {
				e.Raw("[")
			}
			for i := lo; i < hi; i++ {
				if i > 0 {
					e.Raw(",")
				}
				ds[i].EncodeJSON(e)
				e.Checkpoint()
			}
			if k == n-1 {
				e.Raw("]")
			}
			_ = e.Flush() // a bytes.Buffer does not fail
			parts[k] = buf.Bytes()
		})
	}
	wg.Wait()
	return parts
}

func (rep *Report) encodeJSON(e *jsonw.Encoder, lists *findingLists) {
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
	lists.encode(e, rep.Diagnostics)
	e.Key("fixes", false)
	fix.EncodeChanges(e, rep.Fixes)
	e.Key("remaining", false)
	lists.encode(e, rep.Remaining)
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
