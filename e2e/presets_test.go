package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// TestPresetsPage: on the Presets page the owner saves a preset file of
// their own; a file that does not check is refused with its field listed
// next to the text; the saved preset is listed and offered on Run QA and
// in a project's export; Delete asks, then deletes.
func TestPresetsPage(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	b := newBrowser(t, e.ts.URL)
	b.signIn()
	b.run("open presets", click("#nav-presets"))
	b.waitJS("the list", `document.querySelector('#presets-table tr[data-preset="youtube"]') !== null`)

	setFile := func(body string) {
		eval[bool](b, fmt.Sprintf(`(() => { const t = document.getElementById("preset-file"); t.value = %q; t.dispatchEvent(new Event("input")); return true })()`, body))
	}
	eval[bool](b, `(() => { document.getElementById("preset-name").value = "studio-a"; return true })()`)
	setFile(`{"base":"youtube","rules":{"line_too_long":{"limit":0},"too_loud":"off"}}`)
	b.run("save a bad file", click("#preset-save"))
	b.waitJS("the field errors", `document.querySelectorAll("#preset-errors li").length === 2`)
	fields := eval[string](b, `[...document.querySelectorAll("#preset-errors li")].map(l => l.dataset.field).join(",")`)
	if fields != "rules.line_too_long.limit,rules.too_loud" {
		t.Errorf("field errors on %q; want rules.line_too_long.limit,rules.too_loud", fields)
	}
	if got := eval[string](b, `document.getElementById("preset-file").getAttribute("aria-invalid")`); got != "true" {
		t.Errorf("textarea aria-invalid = %q after a refusal", got)
	}
	if eval[bool](b, `document.querySelector('#presets-table tr[data-preset="studio-a"]') !== null`) {
		t.Fatal("a refused file was listed")
	}
	b.shots("presets-refused")

	setFile(`{"base":"youtube","title":"Studio A","rules":{"line_too_long":{"level":"enforced","limit":30}}}`)
	b.run("save", click("#preset-save"))
	b.waitJS("the saved preset listed", `document.querySelector('#presets-table tr[data-preset="studio-a"]') !== null`)
	if n := eval[int](b, `document.querySelectorAll("#preset-errors li").length`); n != 0 {
		t.Errorf("%d field errors left after a save", n)
	}
	row := b.text(`#presets-table tr[data-preset="studio-a"]`)
	if !strings.Contains(row, "Studio A") || !strings.Contains(row, "yours, on youtube") {
		t.Errorf("row = %q", row)
	}
	b.shots("presets-saved")

	b.run("open run QA", click("#nav-run"))
	b.waitJS("the preset offered on Run QA", `[...document.querySelectorAll("#qa-preset option")].some(o => o.value === "studio-a")`)

	b.run("back to presets", click("#nav-presets"))
	b.waitJS("the list again", `document.querySelector('#presets-table [data-delete="studio-a"]') !== null`)
	b.run("delete, asked", click(`#presets-table [data-delete="studio-a"]`))
	if got := b.text(`#presets-table [data-delete="studio-a"]`); got != "Delete studio-a?" {
		t.Errorf("the first press shows %q; want it to ask", got)
	}
	b.run("delete, confirmed", click(`#presets-table [data-delete="studio-a"]`))
	b.waitJS("the preset gone", `document.querySelector('#presets-table tr[data-preset="youtube"]') !== null && document.querySelector('#presets-table tr[data-preset="studio-a"]') === null`)
	b.checkConsole()
}
