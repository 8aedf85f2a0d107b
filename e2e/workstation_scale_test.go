package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestWorkstationLargeProject: the editor opens a 30,000-cue project
// with only the rows in view in the page (under 2,000), and an edit far
// down the list is kept. The time it took to become usable is logged
// (a figure for the notes, not asserted: the machine's load sets it).
func TestWorkstationLargeProject(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	cues := make([]string, 30000)
	for i := range cues {
		cues[i] = fmt.Sprintf(`{"id":"%d","startMs":%d,"endMs":%d,"text":"Line %d of the long programme."}`, i+1, i*2000, i*2000+1500, i+1)
	}
	p := irProject(t, e, "Long", cues)
	tab := newBrowser(t, e.ts.URL)
	tab.signIn()
	start := time.Now()
	tab.run("open the editor", chromedp.Navigate(e.ts.URL+"/#/projects/"+p.ID+"/edit"))
	tab.waitLong("rows", `document.querySelectorAll("#cue-list .cue-row").length > 0`, 30*time.Second, `document.body.innerText.slice(0, 500)`)
	t.Logf("30,000 cues: the editor showed its first rows %v after the navigation", time.Since(start).Round(time.Millisecond))
	if n := eval[int](tab, `document.querySelectorAll("#cue-list .cue-row").length`); n == 0 || n >= 2000 {
		t.Errorf("%d rows in the page; want some, and under 2,000", n)
	}
	if n := eval[int](tab, `document.querySelectorAll("#cue-list textarea").length`); n >= 2000 {
		t.Errorf("%d text areas in the page", n)
	}
	// Scrolling the list: the longest frame while it scrolls through
	// 60 steps (requestAnimationFrame deltas), logged as a figure.
	frames := eval[[]float64](tab, `new Promise(done => {
		const list = document.getElementById("cue-list"), deltas = [];
		let last = performance.now(), n = 0;
		const step = now => {
			deltas.push(now - last); last = now;
			list.scrollTop += list.scrollHeight / 200;
			if (++n < 60) requestAnimationFrame(step); else done(deltas.slice(1));
		};
		requestAnimationFrame(step);
	})`)
	t.Logf("30,000 cues: scrolling the list, frames %s", frameSummary(frames))
	// A long project opens on its first five minutes; zoomed in ten times
	// the timeline draws only the cues in view, with readable ticks; the
	// whole programme draws every cue.
	all := eval[int](tab, `document.querySelectorAll("#ws-timeline #timeline rect.cue").length`)
	if all == 0 || all > 200 {
		t.Errorf("%d cues drawn on opening; want the first five minutes' (150)", all)
	}
	zoomStart := time.Now()
	for range 10 {
		tab.run("zoom in", click("#ws-zoom-in"))
	}
	t.Logf("30,000 cues: ten zooms in took %v", time.Since(zoomStart).Round(time.Millisecond))
	if n := eval[int](tab, `document.querySelectorAll("#ws-timeline #timeline rect.cue").length`); n == 0 || n > all {
		t.Errorf("zoomed in: %d cues drawn of %d; want a few dozen", n, all)
	}
	if n := eval[int](tab, `document.querySelectorAll("#ws-timeline text.tick").length`); n < 3 || n > 12 {
		t.Errorf("zoomed in: %d tick labels", n)
	}
	tab.run("whole programme", click("#ws-zoom-all"))
	if n := eval[int](tab, `document.querySelectorAll("#ws-timeline #timeline rect.cue").length`); n != 30000 {
		t.Errorf("the whole programme draws %d cues; want 30,000", n)
	}
}

// TestWorkstationCheckSpeed logs how long the live check of a 1,000-cue
// draft takes, the engine's run and the round trip (a figure for the
// notes; the machine's load sets it, so it is not asserted).
func TestWorkstationCheckSpeed(t *testing.T) {
	t.Parallel()
	e := newEnv(t, false)
	cues := make([]string, 1000)
	for i := range cues {
		cues[i] = fmt.Sprintf(`{"id":"%d","startMs":%d,"endMs":%d,"text":"Line %d of the programme, and a few more words."}`, i+1, i*2500, i*2500+2000, i+1)
	}
	p := irProject(t, e, "Thousand", cues)
	tab := newBrowser(t, e.ts.URL)
	tab.signIn()
	tab.run("open the editor", chromedp.Navigate(e.ts.URL+"/#/projects/"+p.ID+"/edit"))
	tab.waitLong("checked", `document.getElementById("ws-check") && document.getElementById("ws-check").dataset.ms !== undefined`, 30*time.Second, `document.body.innerText.slice(0, 300)`)
	var times []string
	for range 3 {
		eval[bool](tab, `(delete document.getElementById("ws-check").dataset.ms, document.getElementById("ws-preset").dispatchEvent(new Event("change")), true)`)
		tab.waitLong("checked", `document.getElementById("ws-check").dataset.ms !== undefined`, 30*time.Second, `document.getElementById("ws-check").innerText`)
		times = append(times, eval[string](tab, `document.getElementById("ws-check").dataset.ms`)+" ms")
	}
	t.Logf("1,000 cues: the live check took %s", strings.Join(times, ", "))
}

// frameSummary words frame times: their median and the longest.
func frameSummary(ms []float64) string {
	if len(ms) == 0 {
		return "none"
	}
	s := slices.Clone(ms)
	slices.Sort(s)
	return fmt.Sprintf("median %.0f ms, longest %.0f ms over %d", s[len(s)/2], s[len(s)-1], len(s))
}
