package cli

import (
	"encoding/xml"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
)

// The JUnit structure CI systems (Jenkins, GitLab) read, declared here
// apart from the writer's types so the test checks the XML itself.
type junitReport struct {
	XMLName  xml.Name `xml:"testsuites"`
	Tests    *int     `xml:"tests,attr"`
	Failures *int     `xml:"failures,attr"`
	Errors   *int     `xml:"errors,attr"`
	Time     *string  `xml:"time,attr"`
	Suites   []struct {
		Name     string  `xml:"name,attr"`
		Tests    *int    `xml:"tests,attr"`
		Failures *int    `xml:"failures,attr"`
		Errors   *int    `xml:"errors,attr"`
		Skipped  *int    `xml:"skipped,attr"`
		Time     *string `xml:"time,attr"`
		Props    []struct {
			Name  string `xml:"name,attr"`
			Value string `xml:"value,attr"`
		} `xml:"properties>property"`
		Cases []struct {
			Name      string  `xml:"name,attr"`
			Classname string  `xml:"classname,attr"`
			Time      *string `xml:"time,attr"`
			Failure   *struct {
				Message string `xml:"message,attr"`
				Type    string `xml:"type,attr"`
				Body    string `xml:",chardata"`
			} `xml:"failure"`
			Error *struct {
				Message string `xml:"message,attr"`
				Type    string `xml:"type,attr"`
				Body    string `xml:",chardata"`
			} `xml:"error"`
		} `xml:"testcase"`
	} `xml:"testsuite"`
}

func TestProcessDirJUnit(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	const twoFast = "1\n00:00:01,000 --> 00:00:03,000\nHello.\n\n2\n00:00:04,000 --> 00:00:04,500\nThis line is far too long to be read in half a second.\n"
	for name, content := range map[string]string{
		"a/clean.srt":               plainSRT,
		"b/字幕 & <notes> \"v2\".srt": twoFast, // escaped in attributes and text
		"c/broken.vtt":              "WEBVTT\n\nnothing here\n",
	} {
		writeAt(t, filepath.Join(dir, filepath.FromSlash(name)), content)
	}
	code, out, errOut := run(t, "", "process", dir, "--format", "junit", "--preset", "generic", "--standard", "dcmp")
	if code != ExitEmpty {
		t.Fatalf("exit = %d; want %d\n%s", code, ExitEmpty, errOut)
	}
	if !strings.HasPrefix(out, xml.Header) {
		t.Errorf("no XML declaration:\n%s", out)
	}
	var r junitReport
	if err := xml.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("not a <testsuites> report: %v\n%s", err, out)
	}
	isTime := func(s *string) bool {
		if s == nil {
			return false
		}
		f, err := strconv.ParseFloat(*s, 64)
		return err == nil && f >= 0
	}
	is := func(p *int, want int) bool { return p != nil && *p == want }
	if !is(r.Tests, 3) || !is(r.Failures, 1) || !is(r.Errors, 1) || !isTime(r.Time) || len(r.Suites) != 1 {
		t.Fatalf("root counts or suites wrong:\n%s", out)
	}
	s := r.Suites[0]
	if s.Name == "" || !is(s.Tests, 3) || !is(s.Failures, 1) || !is(s.Errors, 1) || !is(s.Skipped, 0) || !isTime(s.Time) || len(s.Cases) != 3 {
		t.Fatalf("suite attributes wrong:\n%s", out)
	}
	props := map[string]string{}
	for _, p := range s.Props {
		props[p.Name] = p.Value
	}
	if props["preset"] != "generic" || props["standard"] != "dcmp" {
		t.Errorf("properties = %v; want the preset and standard", props)
	}
	for _, c := range s.Cases {
		if c.Name == "" || c.Classname == "" || !isTime(c.Time) {
			t.Errorf("test case lacks name, classname or time: %+v", c)
		}
	}
	clean, fast, broken := s.Cases[0], s.Cases[1], s.Cases[2]
	if clean.Name != "a/clean.srt" || clean.Failure != nil || clean.Error != nil {
		t.Errorf("clean file: %+v", clean)
	}
	if fast.Name != `b/字幕 & <notes> "v2".srt` || fast.Failure == nil || fast.Error != nil {
		t.Fatalf("file that needs attention: %+v", fast)
	}
	if fast.Failure.Type != "needs_attention" || !strings.HasPrefix(fast.Failure.Message, "Needs attention") {
		t.Errorf("failure type %q, message %q", fast.Failure.Type, fast.Failure.Message)
	}
	// One line per remaining problem: cue, source line, code, message.
	line := regexp.MustCompile(`^cue \d+ \(line \d+\): [a-z_]+: \S.*$`)
	problems := strings.Split(strings.TrimSpace(fast.Failure.Body), "\n")
	if len(problems) != 2 {
		t.Errorf("failure body has %d lines; want the 2 remaining problems:\n%s", len(problems), fast.Failure.Body)
	}
	for _, p := range problems {
		if !line.MatchString(p) {
			t.Errorf("failure line %q is not `cue N (line L): code: message`", p)
		}
	}
	if want := "cue 2 (line 5): reading_speed_high: reading speed 108.0 characters per second, above the 20 limit"; !strings.Contains(fast.Failure.Body, want) {
		t.Errorf("failure body lacks %q:\n%s", want, fast.Failure.Body)
	}
	if broken.Error == nil || broken.Failure != nil {
		t.Fatalf("a file that could not be processed must be an <error>: %+v", broken)
	}
	if broken.Error.Type != "processing_failed" || broken.Error.Message == "" || !strings.Contains(broken.Error.Body, broken.Error.Message) {
		t.Errorf("error: %+v", broken.Error)
	}
}

func TestProblemLines(t *testing.T) {
	t.Parallel()
	cue := func(i int) *int { return &i }
	got := problemLines([]caption.Diagnostic{
		{Code: "reading_speed_high", Line: 48, CueIndex: cue(11), Message: "reading speed 23.4 characters per second, above the 20 limit"},
		{Code: "overlapping_cues", CueIndex: cue(2), Message: "overlaps the next cue"},
		{Code: "content_not_displayed", Line: 7, Message: "a paragraph no player shows"},
		{Code: "missing_language", Message: "the file declares no language"},
	})
	want := "cue 12 (line 48): reading_speed_high: reading speed 23.4 characters per second, above the 20 limit\n" +
		"cue 3: overlapping_cues: overlaps the next cue\n" +
		"line 7: content_not_displayed: a paragraph no player shows\n" +
		"missing_language: the file declares no language\n"
	if got != want {
		t.Errorf("problemLines =\n%s\nwant:\n%s", got, want)
	}
}
