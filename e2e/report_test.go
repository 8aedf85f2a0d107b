package e2e

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestProjectQCReport: the project page's QC report card saves the
// report of the shown revision, as PDF and CSV, under the server's file
// names, with the preset and standard chosen on the card.
func TestProjectQCReport(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	p := irProject(t, e, "Harbour QC", []string{
		`{"id":"1","startMs":1000,"endMs":1400,"text":"This line is far too long to read in the short time it is shown on screen."}`,
		`{"id":"2","startMs":3000,"endMs":5000,"text":"Goodnight."}`,
	})
	b := newBrowser(t, e.ts.URL)
	b.signIn()
	b.open("/#/projects/" + p.ID)
	b.run("report card", chromedp.WaitVisible(chromedp.CSS("#report-section")))
	b.run("standard", chromedp.SetValue(chromedp.CSS("#report-standard"), "fcc-79.1"))
	b.shots("24-project-qc-report")
	dl := t.TempDir()
	b.allowDownloads(dl)
	for _, f := range []struct{ button, name, head string }{
		{"#report-pdf", "Harbour-QC-qc-report-r1.pdf", "%PDF-"},
		{"#report-csv", "Harbour-QC-qc-report-r1.csv", "section,cue,start,end,kind,code,message,text"},
	} {
		b.run("download "+f.name, click(f.button))
		path, err := waitFile(dl, f.name, 15*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(path)
		if !strings.HasPrefix(string(got), f.head) {
			t.Errorf("%s starts %.60q; want %q", f.name, got, f.head)
		}
		if f.button == "#report-csv" && !strings.Contains(string(got), "reading_speed_high") {
			t.Errorf("the CSV does not list cue 1's reading speed:\n%s", got)
		}
	}
	if b.text("#report-error") != "" {
		t.Errorf("report error shown: %q", b.text("#report-error"))
	}
}
