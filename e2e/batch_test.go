package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/engine"
)

const cleanSRT = "1\n00:00:01,000 --> 00:00:03,500\nHello there.\n\n2\n00:00:04,000 --> 00:00:06,000\nBye.\n"

// TestBatchQA: several files picked at once, one of them broken and one
// not a caption file, checked with the preset chosen once; the table
// gives each file the API's verdict, the broken one its error, counts the
// skipped file, sorts by verdict, opens a row's report by keyboard and
// downloads as CSV.
func TestBatchQA(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	b := newBrowser(t, e.ts.URL)
	b.signIn()

	bodies := map[string]string{
		"harbour show.srt": problemSRT,
		"clean.srt":        cleanSRT,
		"broken.vtt":       "WEBVTT\n\nnothing here\n",
		"notes.txt":        "not captions",
	}
	var files []string
	for name, body := range bodies {
		files = append(files, fixture(t, name, body))
	}
	b.run("choose files",
		chromedp.WaitVisible(chromedp.CSS("#batch")),
		chromedp.SetValue(chromedp.CSS("#qa-preset"), "generic"),
		chromedp.SetUploadFiles(chromedp.CSS("#batch-files"), files),
	)
	// SetValue does not fire change: tell the page.
	eval[bool](b, `document.getElementById("qa-preset").dispatchEvent(new Event("change")), true`)
	b.waitJS("chosen", `document.getElementById("batch-progress").textContent === "3 caption files chosen · 1 skipped (not caption files)."`)
	b.focusPress("#batch-run", kb.Enter)
	b.waitJS("all checked", `document.querySelectorAll("#batch-body tr[data-state=done], #batch-body tr[data-state=failed]").length === 3`)
	// The run button is disabled while the files are checked: the focus waits on the progress line.
	if id := b.activeID(); id != "batch-progress" {
		t.Errorf("focus after the run on %q; want batch-progress", id)
	}
	if got := b.text("#batch-progress"); got != "3 of 3 checked · 1 failed · 1 skipped (not caption files)." {
		t.Errorf("progress = %q", got)
	}
	if got := b.text("#batch-skipped summary"); got != "Skipped 1 (not caption files)" {
		t.Errorf("skipped = %q", got)
	}

	// Each verdict is the API's for the same file and preset.
	summaries := map[string]string{}
	for _, name := range []string{"harbour show.srt", "clean.srt", "broken.vtt"} {
		ct, body := multipartForm(t, name, []byte(bodies[name]), map[string]string{"preset": "generic"})
		status, raw := e.api(t, "POST", "/api/v1/process", ct, body, "")
		row := `#batch-body tr[data-path="` + name + `"]`
		verdict := eval[string](b, `document.querySelector('`+row+`').dataset.verdict`)
		if status != 200 {
			var env apperr.Envelope
			if err := json.Unmarshal(raw, &env); err != nil {
				t.Fatalf("%s: %d %s", name, status, raw)
			}
			if got := b.text(row + " .batch-error"); verdict != "failed" || got != env.Error.Message {
				t.Errorf("%s: verdict %q, error %q; want failed with %q", name, verdict, got, env.Error.Message)
			}
			continue
		}
		var want engine.Result
		if err := json.Unmarshal(raw, &want); err != nil {
			t.Fatal(err)
		}
		summaries[name] = want.Report.Summary
		if verdict != string(want.DeliveryStatus) {
			t.Errorf("%s: verdict %q; want %q", name, verdict, want.DeliveryStatus)
		}
		cells := eval[[]string](b, `[...document.querySelector('`+row+`').cells].map(c => c.textContent.trim())`)
		if len(cells) != 6 || cells[1] != strings.ToUpper(want.Report.InputFormat) || cells[2] != strconv.Itoa(want.Report.InputCues) ||
			cells[4] != strconv.Itoa(len(want.Report.Remaining)) || cells[5] != strconv.Itoa(len(want.Suggestions)) {
			t.Errorf("%s: cells %q; want format %s, %d cues, %d errors, %d warnings", name, cells, want.Report.InputFormat, want.Report.InputCues, len(want.Report.Remaining), len(want.Suggestions))
		}
	}
	if eval[string](b, `document.querySelector('#batch-body tr[data-path="clean.srt"]').dataset.verdict`) == eval[string](b, `document.querySelector('#batch-body tr[data-path="harbour show.srt"]').dataset.verdict`) {
		t.Error("the clean and the problem file have one verdict: the table tells nothing apart")
	}

	// Worst first, then best first.
	order := `[...document.querySelectorAll("#batch-body tr")].map(r => r.dataset.path).join("|")`
	b.run("sort by verdict", click("#batch-sort-verdict"))
	if got := eval[string](b, order); got != "broken.vtt|harbour show.srt|clean.srt" {
		t.Errorf("verdict order = %s", got)
	}
	b.run("sort by verdict, best first", click("#batch-sort-verdict"))
	if got := eval[string](b, order); got != "clean.srt|harbour show.srt|broken.vtt" {
		t.Errorf("reversed verdict order = %s", got)
	}

	// A row opens its file's report by keyboard, in the page's report view.
	open := eval[string](b, `document.querySelector('#batch-body tr[data-path="harbour show.srt"] button').id`)
	b.focusPress("#"+open, kb.Enter)
	b.waitJS("report", `!!document.getElementById("result") && document.getElementById("summary").textContent.trim() === `+jsString(summaries["harbour show.srt"]))
	b.waitJS("focus on the report", `document.activeElement && document.activeElement.id === "result-heading"`)
	if got := eval[string](b, `document.querySelector('#batch-body tr[aria-current=true]').dataset.path`); got != "harbour show.srt" {
		t.Errorf("open row = %q", got)
	}
	if n := eval[int](b, `document.querySelectorAll("#result").length`); n != 1 {
		t.Errorf("%d report views; want the page's one", n)
	}
	b.shots("batch-qa")

	dl := t.TempDir()
	b.allowDownloads(dl)
	b.run("csv", click("#batch-csv"))
	p, err := waitFile(dl, "captionqa-batch.csv", 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	csv, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(csv)), "\r\n")
	if len(lines) != 4 || lines[0] != "file,format,cues,verdict,errors,warnings,standard_pass,standard_fail,error" ||
		!strings.HasPrefix(lines[1], "clean.srt,srt,2,ready,0,") || !strings.HasPrefix(lines[3], "broken.vtt,,,failed,") {
		t.Errorf("CSV (%s):\n%s", filepath.Base(p), csv)
	}
	b.checkConsole()
}

// jsString is s as a JavaScript string literal.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// TestBatchQAFolder: a folder chosen with the folder picker is checked
// file by file under its own paths, its subfolders too; a file that is
// not captions is skipped and one over the size limit fails in its row
// while the others are checked.
func TestBatchQAFolder(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	b := newBrowser(t, e.ts.URL)
	b.signIn()

	dir := filepath.Join(t.TempDir(), "season")
	huge := strings.Repeat("1\n00:00:01,000 --> 00:00:02,000\nA caption line of some length.\n\n", 4_456_448/60)
	for name, body := range map[string]string{
		"ep1/main.srt":     cleanSRT,
		"ep2/main.srt":     problemSRT,
		"ep2/notes.txt":    "not captions",
		"ep3/huge.srt":     huge,
		"ep3/poster.png":   "not captions either",
		"ep3/Extras/x.VTT": "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHi.\n",
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b.run("choose folder", chromedp.WaitVisible(chromedp.CSS("#batch")), chromedp.SetUploadFiles(chromedp.CSS("#batch-folder"), []string{dir}))
	b.waitJS("chosen", `document.getElementById("batch-progress").textContent === "4 caption files chosen · 2 skipped (not caption files)."`)
	b.run("run", click("#batch-run"))
	b.waitJS("all checked", `document.querySelectorAll("#batch-body tr[data-state=done], #batch-body tr[data-state=failed]").length === 4`)
	rows := eval[string](b, `[...document.querySelectorAll("#batch-body tr")].map(r => r.dataset.path + "=" + r.dataset.verdict).join("|")`)
	if want := "season/ep1/main.srt=ready|season/ep2/main.srt=needs_attention|season/ep3/Extras/x.VTT=ready|season/ep3/huge.srt=failed"; rows != want {
		t.Errorf("rows = %s; want %s", rows, want)
	}
	if got := b.text(`#batch-body tr[data-path="season/ep3/huge.srt"] .batch-error`); !strings.Contains(got, "the limit is about 4.25 MiB") {
		t.Errorf("huge.srt error = %q", got)
	}
	if got := eval[string](b, `[...document.querySelectorAll("#batch-skipped li")].map(l => l.textContent).join("|")`); got != "season/ep2/notes.txt|season/ep3/poster.png" {
		t.Errorf("skipped = %s", got)
	}
	b.run("open", click(`#batch-body tr[data-path="season/ep3/Extras/x.VTT"] button`))
	b.waitJS("report", `(document.getElementById("result-heading") || {}).textContent === "Result for season/ep3/Extras/x.VTT"`)
	b.checkConsole()
}

// TestBatchQAQuota: when the day's runs are used up part way, the files
// after that fail with the quota's message in their rows, and the ones
// before keep their verdicts.
func TestBatchQAQuota(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	daily := 2
	if _, err := e.srv.Accounts().UpdateAccount(context.Background(), ownerEmail, account.AccountUpdate{DailyCap: &daily}); err != nil {
		t.Fatal(err)
	}
	b := newBrowser(t, e.ts.URL)
	b.signIn()
	var files []string
	for _, name := range []string{"1.srt", "2.srt", "3.srt"} {
		files = append(files, fixture(t, name, cleanSRT))
	}
	b.run("choose files", chromedp.WaitVisible(chromedp.CSS("#batch")), chromedp.SetUploadFiles(chromedp.CSS("#batch-files"), files))
	b.run("run", click("#batch-run"))
	b.waitJS("all checked", `document.querySelectorAll("#batch-body tr[data-state=done], #batch-body tr[data-state=failed]").length === 3`)
	// Two in flight at once, both within the cap: the third starts after one of them is counted.
	if got := eval[string](b, `[...document.querySelectorAll("#batch-body tr")].map(r => r.dataset.verdict).join("|")`); got != "ready|ready|failed" {
		t.Errorf("verdicts = %s; want ready|ready|failed", got)
	}
	ct, body := multipartForm(t, "4.srt", []byte(cleanSRT), nil)
	status, raw := e.api(t, "POST", "/api/v1/process", ct, body, "")
	var env apperr.Envelope
	if err := json.Unmarshal(raw, &env); err != nil || status != 429 || env.Error.Code != "quota_exceeded" {
		t.Fatalf("API after the batch: %d %s", status, raw)
	}
	if got := b.text(`#batch-body tr[data-path="3.srt"] .batch-error`); got != env.Error.Message {
		t.Errorf("3.srt error = %q; want the quota's %q", got, env.Error.Message)
	}
	if got := b.text("#batch-progress"); got != "3 of 3 checked · 1 failed." {
		t.Errorf("progress = %q", got)
	}
	b.checkConsole()
}

// TestBatchQADropFolder: a folder dropped on the batch's drop zone is
// walked through its entries, subfolders too, each file under its path.
func TestBatchQADropFolder(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	b := newBrowser(t, e.ts.URL)
	b.signIn()
	dir := filepath.Join(t.TempDir(), "drop")
	for name, body := range map[string]string{"a.srt": cleanSRT, "deep/er/b.vtt": "WEBVTT\n\n00:00:01.000 --> 00:00:02.000\nHi.\n", "deep/readme.md": "x"} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b.run("drop zone", chromedp.WaitVisible(chromedp.CSS("#batch-drop")), chromedp.ScrollIntoView(chromedp.CSS("#batch-drop")))
	at := eval[[]float64](b, `(r => [r.x + r.width / 2, r.y + r.height / 2])(document.getElementById("batch-drop").getBoundingClientRect())`)
	data := &input.DragData{Files: []string{dir}, DragOperationsMask: 1}
	ctx, cancel := context.WithTimeout(b.ctx, 10*time.Second)
	defer cancel()
	for _, typ := range []input.DispatchDragEventType{input.DispatchDragEventTypeDragEnter, input.DispatchDragEventTypeDragOver, input.DispatchDragEventTypeDrop} {
		if _, err := chromedp.Call(ctx, input.DispatchDragEvent, input.DispatchDragEventParams{Type: typ, X: at[0], Y: at[1], Data: data}); err != nil {
			t.Fatalf("%s: %v", typ, err)
		}
	}
	b.waitJS("chosen", `document.getElementById("batch-progress").textContent === "2 caption files chosen · 1 skipped (not caption files)."`)
	if got := eval[string](b, `[...document.querySelectorAll("#batch-body tr")].map(r => r.dataset.path).join("|")`); got != "drop/a.srt|drop/deep/er/b.vtt" {
		t.Errorf("rows = %s", got)
	}
	b.checkConsole()
}
