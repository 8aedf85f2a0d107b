package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/httpapi"
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

// projectCandidate rewords cue 2 and inserts a cue after it.
const projectCandidate = `1
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

func writeTemp(t *testing.T, name, body string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestProjectCommands(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if code, _, stderr := admin(t, dir, "account", "create", "--email", "ed@example.com", "--tier", "pro"); code != 0 {
		t.Fatalf("account create: %d %s", code, stderr)
	}
	file := writeTemp(t, "harbour show.srt", projectSRT)

	// create from a file, named after it; --json is the API's body.
	code, out, stderr := admin(t, dir, "project", "create", file, "--json")
	if code != 0 {
		t.Fatalf("create: %d %s", code, stderr)
	}
	p := decode[httpapi.ProjectView](t, out)
	if p.Name != "harbour show" || p.Status != "ready" || p.IRRevision != 1 || p.CueCount != 3 || len(p.ID) != 36 {
		t.Errorf("created %+v", p)
	}
	// an empty project, and the text output.
	code, out, stderr = admin(t, dir, "project", "create", "--name", "Episode 2", "--account", "ed@example.com")
	if code != 0 || !strings.Contains(out, "empty") || !strings.Contains(out, "Episode 2") {
		t.Errorf("create empty: %d %q %s", code, out, stderr)
	}
	// a file without cues is refused with the envelope on stdout.
	code, out, _ = admin(t, dir, "project", "create", writeTemp(t, "x.srt", "nothing here\n"), "--json")
	if code != 1 || !strings.Contains(out, `"processing_failed"`) {
		t.Errorf("create without cues: %d %s", code, out)
	}

	// list: newest first, paginated.
	// The list is an anonymous struct in project.go (httpapi's
	// projectList is unexported): its members.
	type list struct {
		Projects   []httpapi.ProjectView `json:"projects"`
		NextCursor *string               `json:"nextCursor"`
	}
	code, out, _ = admin(t, dir, "project", "list", "--json", "--limit", "1")
	l := decode[list](t, out)
	if code != 0 || len(l.Projects) != 1 || l.NextCursor == nil {
		t.Fatalf("list page 1: %d %s", code, out)
	}
	_, out, _ = admin(t, dir, "project", "list", "--json", "--limit", "1", "--cursor", *l.NextCursor)
	// Both were made in the same second: the order between them is the
	// store's tie-break, so only the union is checked.
	l2 := decode[list](t, out)
	if len(l2.Projects) != 1 || l2.NextCursor != nil || l2.Projects[0].ID == l.Projects[0].ID ||
		(l.Projects[0].ID != p.ID && l2.Projects[0].ID != p.ID) {
		t.Errorf("list page 2: %s", out)
	}
	_, out, _ = admin(t, dir, "project", "list", "--all", "--limit", "1")
	if !strings.Contains(out, "harbour show") || !strings.Contains(out, "Episode 2") || strings.Contains(out, "More:") {
		t.Errorf("list --all table: %s", out)
	}

	// diff: one changed, one added, nothing else.
	cand := writeTemp(t, "candidate.srt", projectCandidate)
	code, out, stderr = admin(t, dir, "project", "diff", p.ID, cand, "--json")
	if code != 0 {
		t.Fatalf("diff: %d %s", code, stderr)
	}
	d := decode[projectDiff](t, out)
	if d.Summary.Added != 1 || d.Summary.Changed != 1 || d.Summary.Removed != 0 || d.CurrentIRRevision != 1 || len(d.Preview) != 2 {
		t.Errorf("diff = %s", out)
	}
	code, out, _ = admin(t, dir, "project", "diff", p.ID, cand, "--exit-code")
	if code != ExitDrift || !strings.Contains(out, "1 added, 0 removed, 1 changed") || !strings.Contains(out, "night ferries") {
		t.Errorf("diff --exit-code: %d %s", code, out)
	}
	code, out, _ = admin(t, dir, "project", "diff", p.ID, file, "--exit-code")
	if code != 0 || !strings.Contains(out, "0 added, 0 removed, 0 changed") {
		t.Errorf("diff of the same file: %d %s", code, out)
	}
	// export: the API's body, and the files written with --out.
	out2 := t.TempDir()
	code, out, stderr = admin(t, dir, "project", "export", p.ID, "--presets", "youtube,html5", "--out", out2, "--json")
	if code != 0 {
		t.Fatalf("export: %d %s %s", code, out, stderr)
	}
	x := decode[exportBody](t, out)
	if x.IRRevision != 1 || x.Receipt.Kind != "single_export" || len(x.Receipt.Artifacts) != 2 || len(x.Artifacts) != 2 {
		t.Fatalf("export body: %s", out)
	}
	for _, a := range x.Artifacts {
		b, err := os.ReadFile(a.Path)
		if err != nil || !strings.Contains(string(b), "harbour show") || filepath.Dir(a.Path) != out2 {
			t.Errorf("artifact %s at %q: %v %q", a.Filename, a.Path, err, b)
		}
	}
	code, out, _ = admin(t, dir, "project", "export", p.ID, "--presets", "youtube")
	if code != 0 || !strings.Contains(out, "youtube") || !strings.Contains(out, "ARTIFACT ID") {
		t.Errorf("export table: %d %s", code, out)
	}
	// Each file carries the verdict a process run of the same timeline
	// gives it, and with --standard the clause summary: an LMS file of a
	// timeline without a language needs attention.
	code, out, stderr = admin(t, dir, "project", "export", p.ID, "--presets", "youtube,lms", "--standard", "dcmp", "--json")
	if code != 0 {
		t.Fatalf("export with a standard: %d %s %s", code, out, stderr)
	}
	x = decode[exportBody](t, out)
	for _, a := range x.Artifacts {
		_, proc, _ := run(t, "", "process", file, "--preset", a.Preset, "--standard", "dcmp")
		want := decode[struct {
			DeliveryStatus string `json:"deliveryStatus"`
			Report         struct {
				Remaining []any `json:"remaining"`
				Standard  struct {
					Summary struct{ Pass, Fail, NotEvaluated int } `json:"summary"`
				} `json:"standard"`
			} `json:"report"`
		}](t, proc)
		v := a.Verdict
		switch {
		case v == nil:
			t.Errorf("%s: no verdict: %s", a.Preset, out)
		case v.DeliveryStatus != want.DeliveryStatus || v.Problems != len(want.Report.Remaining):
			t.Errorf("%s: verdict %+v; process says %s with %d problems", a.Preset, v, want.DeliveryStatus, len(want.Report.Remaining))
		case v.Standard == nil || v.Standard.ID != "dcmp" || v.Standard.Summary.Pass != want.Report.Standard.Summary.Pass ||
			v.Standard.Summary.Fail != want.Report.Standard.Summary.Fail || v.Standard.Summary.NotEvaluated != want.Report.Standard.Summary.NotEvaluated:
			t.Errorf("%s: standard %+v; process says %+v", a.Preset, v.Standard, want.Report.Standard.Summary)
		}
	}
	if len(x.Artifacts) != 2 || x.Artifacts[1].Verdict == nil || x.Artifacts[1].Verdict.DeliveryStatus != "needs_attention" {
		t.Errorf("the LMS file should need attention: %s", out)
	}
	code, out, _ = admin(t, dir, "project", "export", p.ID, "--presets", "lms", "--standard", "dcmp")
	if code != 0 || !strings.Contains(out, "needs_attention") || !strings.Contains(out, "dcmp: ") {
		t.Errorf("export table with a verdict: %d %s", code, out)
	}
	if code, out, _ := admin(t, dir, "project", "export", p.ID, "--presets", "nope", "--json"); code != 1 || !strings.Contains(out, `"bad_request"`) {
		t.Errorf("export unknown preset: %d %s", code, out)
	}
	if code, _, _ := admin(t, dir, "project", "export", p.ID); code != ExitUsage {
		t.Errorf("export without presets: %d", code)
	}

	// errors: unknown project, bad id, usage.
	if code, out, _ := admin(t, dir, "project", "diff", "7d444840-9dc0-11d1-b245-5ffdce74fad2", cand, "--json"); code != 1 || !strings.Contains(out, `"not_found"`) {
		t.Errorf("diff unknown project: %d %s", code, out)
	}
	if code, out, _ := admin(t, dir, "project", "diff", "nope", cand, "--json"); code != 1 || !strings.Contains(out, `"bad_request"`) {
		t.Errorf("diff bad id: %d %s", code, out)
	}
	if code, _, _ := admin(t, dir, "project", "diff", p.ID); code != ExitUsage {
		t.Errorf("diff without candidate: %d", code)
	}
	if code, _, _ := admin(t, dir, "project", "create"); code != ExitUsage {
		t.Errorf("create without name or file: %d", code)
	}
}

func TestProjectNeedsAccountWhenSeveral(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, e := range []string{"a@example.com", "b@example.com"} {
		if code, _, stderr := admin(t, dir, "account", "create", "--email", e, "--tier", "pro"); code != 0 {
			t.Fatalf("account create: %s", stderr)
		}
	}
	if code, _, stderr := admin(t, dir, "project", "list"); code != 1 || !strings.Contains(stderr, "--account") {
		t.Errorf("list without --account: %d %s", code, stderr)
	}
	if code, out, _ := admin(t, dir, "project", "list", "--account", "b@example.com"); code != 0 || !strings.Contains(out, "No projects") {
		t.Errorf("list for b: %d %s", code, out)
	}
}
