package cli

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/captionqa/captionqa/backend/engine"
)

type totals struct {
	Files          int `json:"files"`
	Ready          int `json:"ready"`
	WillAdapt      int `json:"willAdapt"`
	NeedsAttention int `json:"needsAttention"`
	Failed         int `json:"failed"`
}

func count(results []fileResult) totals {
	t := totals{Files: len(results)}
	for _, r := range results {
		switch r.Status {
		case string(engine.Ready):
			t.Ready++
		case string(engine.WillAdapt):
			t.WillAdapt++
		case string(engine.NeedsAttention):
			t.NeedsAttention++
		default:
			t.Failed++
		}
	}
	return t
}

func writeTable(env Env, results []fileResult) {
	w := tabwriter.NewWriter(env.Stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "FILE\tFORMAT\tCUES\tSTATUS\tREMAINING\tSUGGESTIONS")
	for _, r := range results {
		format := r.InputFormat
		if format == "" {
			format = "-"
		}
		fmt.Fprintf(w, "%s\t%s\t%d\t%s\t%d\t%d\n", r.File, format, r.Cues, r.Status, r.Remaining, r.Suggestions)
	}
	w.Flush()
	t := count(results)
	noun := "files"
	if t.Files == 1 {
		noun = "file"
	}
	fmt.Fprintf(env.Stdout, "\n%d %s: %d ready, %d will adapt, %d need attention, %d failed\n",
		t.Files, noun, t.Ready, t.WillAdapt, t.NeedsAttention, t.Failed)
}

func writeJSONResults(env Env, results []fileResult, f processFlags) {
	enc := json.NewEncoder(env.Stdout)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	_ = enc.Encode(struct {
		Preset     string       `json:"preset"`
		FixProfile string       `json:"fixProfile"`
		Standard   string       `json:"standard,omitempty"`
		Totals     totals       `json:"totals"`
		Files      []fileResult `json:"files"`
	}{f.preset, f.profile, f.standard, count(results), results})
}

// JUnit XML, the report format CI systems read: one test case per file,
// a failure for needs_attention, an error for a file that failed.
type junitSuite struct {
	XMLName  xml.Name    `xml:"testsuite"`
	Name     string      `xml:"name,attr"`
	Tests    int         `xml:"tests,attr"`
	Failures int         `xml:"failures,attr"`
	Errors   int         `xml:"errors,attr"`
	Cases    []junitCase `xml:"testcase"`
}

type junitCase struct {
	Class   string        `xml:"classname,attr"`
	Name    string        `xml:"name,attr"`
	Failure *junitMessage `xml:"failure,omitempty"`
	Error   *junitMessage `xml:"error,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Body    string `xml:",chardata"`
}

func writeJUnit(env Env, results []fileResult, f processFlags) {
	t := count(results)
	s := junitSuite{Name: "captionqa." + f.preset, Tests: t.Files, Failures: t.NeedsAttention, Errors: t.Failed}
	for _, r := range results {
		c := junitCase{Class: "captionqa." + f.preset, Name: r.File}
		switch r.Status {
		case string(engine.NeedsAttention):
			c.Failure = &junitMessage{Message: r.Summary, Type: r.Status, Body: r.Summary}
		case statusFailed:
			c.Error = &junitMessage{Message: r.Summary, Type: r.Error, Body: r.Summary}
		}
		s.Cases = append(s.Cases, c)
	}
	io.WriteString(env.Stdout, xml.Header)
	enc := xml.NewEncoder(env.Stdout)
	enc.Indent("", "  ")
	_ = enc.Encode(s)
	io.WriteString(env.Stdout, "\n")
}
