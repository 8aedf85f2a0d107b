package e2e

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/captionqa/captionqa/backend/httpapi"
	"github.com/captionqa/captionqa/backend/server"
)

const projectSRT = `1
00:00:01,000 --> 00:00:03,000
Welcome back to the harbour show.

2
00:00:04,000 --> 00:00:06,000
Tonight: the tide tables.

3
00:00:07,000 --> 00:00:09,000
The ferry leaves at six.
`

// candidateSRT rewords cue 2 and inserts one cue after it: one changed,
// one added, and cue 3 stays matched.
const candidateSRT = `1
00:00:01,000 --> 00:00:03,000
Welcome back to the harbour show.

2
00:00:04,000 --> 00:00:06,000
Tonight: the night ferries.

3
00:00:06,200 --> 00:00:06,900
[HORN]

4
00:00:07,000 --> 00:00:09,000
The ferry leaves at six.
`

func TestProjectsCreateOpenDiffExport(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	b := newBrowser(t, e.ts.URL)
	b.signIn()

	// The nav has Projects as a page, no longer "soon".
	if got := eval[string](b, `[...document.querySelectorAll("#nav .later")].map(l => l.textContent).join("|")`); strings.Contains(got, "Projects") {
		t.Errorf("Projects is still listed as coming later: %q", got)
	}
	b.run("projects page", click("#nav-projects"), chromedp.WaitVisible(chromedp.CSS("#project-create-form")))
	b.waitJS("empty list", `!document.getElementById("projects-empty").hidden`)

	// Create from a file: the name comes from the file.
	file := fixture(t, "harbour show.srt", projectSRT)
	b.run("choose file", chromedp.SetUploadFiles(chromedp.CSS("#project-file"), []string{file}))
	b.waitJS("name from file", `document.getElementById("project-name").value === "harbour show"`)
	b.run("create", click("#project-create"), chromedp.WaitVisible(chromedp.CSS("#project-title")))
	if got := b.text("#project-title"); got != "harbour show" {
		t.Errorf("project title = %q", got)
	}
	if got := b.text("#project-cues"); got != "3" {
		t.Errorf("cue count = %q, want 3", got)
	}
	if n := eval[int](b, `document.querySelectorAll("#timeline rect.cue").length`); n != 3 {
		t.Errorf("timeline cues = %d, want 3", n)
	}
	if got := eval[[]string](b, `[...document.querySelectorAll("#cue-body tr td:last-child")].map(td => td.textContent)`); len(got) != 3 || got[1] != "Tonight: the tide tables." {
		t.Errorf("cue table = %q", got)
	}
	if n := eval[int](b, `document.querySelectorAll("#revisions-table tr[data-revision]").length`); n != 1 {
		t.Errorf("revisions = %d, want 1", n)
	}
	// A cue row selects its cue on the timeline.
	b.run("select cue", click(`#cue-body tr[data-cue="2"]`))
	if got := eval[string](b, `document.querySelector("#timeline rect.cue.selected").dataset.cue`); got != "2" {
		t.Errorf("selected timeline cue = %q", got)
	}
	b.shots("20-project")

	// Drift: drop a candidate, see one added and one changed side by side.
	cand := fixture(t, "harbour show v2.srt", candidateSRT)
	b.run("candidate", chromedp.SetUploadFiles(chromedp.CSS("#drift-file"), []string{cand}), chromedp.WaitVisible(chromedp.CSS("#drift-result")))
	sum := eval[map[string]string](b, `({...document.getElementById("drift-summary").dataset})`)
	if sum["added"] != "1" || sum["changed"] != "1" || sum["removed"] != "0" {
		t.Errorf("drift summary = %v", sum)
	}
	if got := eval[[]string](b, `[...document.querySelectorAll("#drift-body tr")].map(r => r.dataset.kind)`); strings.Join(got, ",") != "changed,added" {
		t.Errorf("drift rows = %v, want changed,added", got)
	}
	changed := b.text(`#drift-body tr[data-kind="changed"]`)
	if !strings.Contains(changed, "tide tables") || !strings.Contains(changed, "night ferries") {
		t.Errorf("changed row does not show before and after: %q", changed)
	}
	// The temporary project the candidate was read through is gone.
	status, raw := e.api(t, "GET", "/api/v1/projects", "", nil, "")
	var list struct { // httpapi's projectList is unexported: the member read
		Projects []httpapi.ProjectView `json:"projects"`
	}
	if status != 200 || json.Unmarshal(raw, &list) != nil || len(list.Projects) != 1 {
		t.Errorf("projects after the diff: %d %s", status, raw)
	}
	b.shots("21-project-drift")

	// Export to two presets and download each artifact by its link.
	b.run("presets", click("#export-preset-html5"))
	b.run("export", click("#export-run"), chromedp.WaitVisible(chromedp.CSS("#export-result")))
	names := eval[[]string](b, `[...document.querySelectorAll("#export-artifacts .artifact-download")].map(x => x.dataset.filename)`)
	if len(names) != 2 {
		t.Fatalf("artifacts = %v, want 2", names)
	}
	// Each file shows its verdict, and the headline says whether any
	// needs attention.
	verdicts := eval[[]string](b, `[...document.querySelectorAll("#export-artifacts li")].map(li => li.dataset.status + " | " + li.querySelector(".artifact-verdict").textContent)`)
	attention := 0
	for _, v := range verdicts {
		status, text, _ := strings.Cut(v, " | ")
		if status == "" || !strings.Contains(text, "problem") || !strings.Contains(text, "suggestion") {
			t.Errorf("artifact verdict %q", v)
		}
		if status == "needs_attention" {
			attention++
		}
	}
	if head := b.text("#export-verdict"); (attention == 0) != strings.HasPrefix(head, "Export ready.") {
		t.Errorf("headline %q over verdicts %q", head, verdicts)
	}
	b.shots("22-project-export-verdict")
	dl := t.TempDir()
	b.allowDownloads(dl)
	for i, name := range names {
		b.run("download "+name, click(`#export-artifacts li:nth-child(`+string(rune('1'+i))+`) .artifact-download`))
		p, err := waitFile(dl, name, 10*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(p)
		if !strings.Contains(string(got), "harbour show") {
			t.Errorf("%s does not hold the captions: %q", name, got)
		}
	}
	b.shots("22-project-export")

	// Saving the candidate makes revision 2.
	b.run("save candidate", chromedp.SetUploadFiles(chromedp.CSS("#drift-file"), []string{cand}), chromedp.WaitVisible(chromedp.CSS("#drift-save")))
	b.run("save", click("#drift-save"))
	b.waitJS("revision 2", `(document.getElementById("project-revision")||{}).textContent === "2"`)
	if n := eval[int](b, `document.querySelectorAll("#revisions-table tr[data-revision]").length`); n != 2 {
		t.Errorf("revisions after save = %d, want 2", n)
	}

	// Back to the list: the project is there.
	b.run("list", click("#projects-back"), chromedp.WaitVisible(chromedp.CSS("#projects-table")))
	b.waitJS("row", `document.querySelectorAll("#projects-body tr[data-project-id]").length === 1`)
	b.shots("23-projects-list")
}

func TestProjectsEmptyAndPaging(t *testing.T) {
	t.Parallel()
	// 22 creations in a row pass the default burst of 20.
	e := newEnvWith(t, false, func(c *server.Config) { c.Burst = 30 })
	// 22 projects: the first page shows 20 and offers more.
	for i := 0; i < 22; i++ {
		status, raw := e.api(t, "POST", "/api/v1/projects", "application/json", strings.NewReader(`{"name":"Episode `+string(rune('A'+i))+`"}`), "")
		if status != 201 {
			t.Fatalf("create: %d %s", status, raw)
		}
	}
	b := newBrowser(t, e.ts.URL)
	b.signIn()
	b.open("/#/projects")
	b.waitJS("first page", `document.querySelectorAll("#projects-body tr").length === 20`)
	b.run("more", click("#projects-more"))
	b.waitJS("second page", `document.querySelectorAll("#projects-body tr").length === 22 && document.getElementById("projects-more").hidden`)

	// An empty project (no file) takes its first timeline from a file.
	b.run("empty project",
		chromedp.SendKeys(chromedp.CSS("#project-name"), "Blank"),
		click("#project-create"),
		chromedp.WaitVisible(chromedp.CSS("#project-no-timeline")),
	)
	if got := eval[string](b, `document.querySelector("#project-detail .badge").dataset.status`); got != "empty" {
		t.Errorf("status = %q, want empty", got)
	}
	file := fixture(t, "harbour show.srt", projectSRT)
	b.run("first timeline", chromedp.SetUploadFiles(chromedp.CSS("#drift-file"), []string{file}))
	b.waitJS("timeline", `document.querySelectorAll("#timeline rect.cue").length === 3`)
	if got := b.text("#project-revision"); got != "1" {
		t.Errorf("revision = %q, want 1", got)
	}
}
