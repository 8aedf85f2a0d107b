package cli

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/engine"
)

// JUnit XML, the report format CI systems read (Jenkins, GitLab and
// others share the shape of Ant's): a <testsuites> root holding one suite,
// one test case per file. A file that needs attention is a <failure>
// listing its remaining problems; one that could not be processed is an
// <error>. encoding/xml escapes text and attributes, and writes U+FFFD for
// a character XML cannot hold, so a file name cannot break the document.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name      string        `xml:"name,attr"`
	Classname string        `xml:"classname,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Error     *junitMessage `xml:"error,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Body    string `xml:",chardata"`
}

// writeJUnit prints the results as JUnit XML; elapsed is the run's wall
// time (files are checked in parallel, so it is less than their sum).
func writeJUnit(env Env, results []fileResult, f processFlags, elapsed time.Duration) {
	t := count(results, "")
	name := "captionqa." + f.preset
	suite := junitSuite{
		Name: name, Tests: t.Files, Failures: t.NeedsAttention, Errors: t.Failed, Time: seconds(elapsed),
		Properties: []junitProperty{{"preset", f.preset}, {"fixProfile", f.profile}},
	}
	if f.standard != "" {
		suite.Properties = append(suite.Properties, junitProperty{"standard", f.standard})
	}
	for _, r := range results {
		c := junitCase{Name: r.File, Classname: name, Time: seconds(r.elapsed)}
		switch r.Status {
		case string(engine.NeedsAttention):
			c.Failure = &junitMessage{Message: r.Summary, Type: r.Status, Body: problemLines(r.problems)}
		case statusFailed:
			c.Error = &junitMessage{Message: r.Summary, Type: r.Error, Body: r.Error + ": " + r.Summary}
		}
		suite.Cases = append(suite.Cases, c)
	}
	report := junitSuites{Name: "captionqa", Tests: t.Files, Failures: t.NeedsAttention, Errors: t.Failed, Time: suite.Time, Suites: []junitSuite{suite}}
	io.WriteString(env.Stdout, xml.Header)
	enc := xml.NewEncoder(env.Stdout)
	enc.Indent("", "  ")
	_ = enc.Encode(report)
	io.WriteString(env.Stdout, "\n")
}

// problemLines lists problems one a line, each with what a user needs to
// find and fix it: "cue 12 (line 48): reading_speed_high: reading speed
// 23.4 characters per second, above the 20 limit".
func problemLines(problems []caption.Diagnostic) string {
	var b strings.Builder
	for _, d := range problems {
		var where []string
		if d.CueIndex != nil {
			where = append(where, fmt.Sprintf("cue %d", *d.CueIndex+1))
		}
		if d.Line > 0 {
			where = append(where, fmt.Sprintf("line %d", d.Line))
		}
		switch len(where) {
		case 2:
			fmt.Fprintf(&b, "%s (%s): ", where[0], where[1])
		case 1:
			fmt.Fprintf(&b, "%s: ", where[0])
		}
		fmt.Fprintf(&b, "%s: %s\n", d.Code, d.Message)
	}
	return b.String()
}

// seconds formats d as JUnit's time attribute: seconds, three decimals.
func seconds(d time.Duration) string {
	return fmt.Sprintf("%.3f", d.Seconds())
}
