package vtt

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/internal/corpus"
)

// wptExpected is a caption-corpus/webvtt-expected/1 file.
type wptExpected struct {
	Test            string                       `json:"test"`
	CueCount        *int                         `json:"cueCount"`
	Cues            []map[string]json.RawMessage `json:"cues"`
	RegionRelations []struct {
		Cue      int    `json:"cue"`
		Relation string `json:"relation"`
		OtherCue int    `json:"otherCue"`
	} `json:"regionRelations"`
	OtherAssertions []struct {
		Target string          `json:"target"`
		Op     string          `json:"op"`
		Value  json.RawMessage `json:"value"`
	} `json:"otherAssertions"`
}

// TestWPTFileParsing checks the spec-level parse of every WPT file-parsing
// test against its expectations, one assertion per asserted property.
// Failures must be listed in testdata/wpt-known-differences.txt, listed
// differences must still fail, and at least 97% must hold.
func TestWPTFileParsing(t *testing.T) {
	files := corpus.Glob(t, "wpt-webvtt/file-parsing", ".vtt")
	known := readKnownDifferences(t, "testdata/wpt-known-differences.txt")
	held, total := 0, 0
	failed := map[string]string{}
	for _, path := range files {
		expPath := strings.TrimSuffix(path, ".vtt") + ".expected.json"
		raw, err := os.ReadFile(expPath)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		var exp wptExpected
		if err := json.Unmarshal(raw, &exp); err != nil {
			t.Fatalf("%s: %v", expPath, err)
		}
		src, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		text, _, _ := caption.DecodeText(src)
		f, _ := parseFile(text)
		check := func(key string, ok bool, why string) {
			total++
			if ok {
				held++
			} else {
				failed[exp.Test+" "+key] = why
			}
		}
		if exp.CueCount != nil {
			check("cueCount", len(f.cues) == *exp.CueCount, fmt.Sprintf("got %d cues, want %d", len(f.cues), *exp.CueCount))
		}
		for _, want := range exp.Cues {
			var idx int
			_ = json.Unmarshal(want["index"], &idx)
			if idx >= len(f.cues) {
				for prop := range want {
					if prop != "index" {
						check(fmt.Sprintf("cue %d %s", idx, prop), false, "cue missing")
					}
				}
				continue
			}
			for _, a := range cueAssertions(t, &f.cues[idx], want) {
				check(fmt.Sprintf("cue %d %s", idx, a.prop), a.ok, a.why)
			}
		}
		for k, rel := range exp.RegionRelations {
			var a, b *rawRegion
			if rel.Cue < len(f.cues) && rel.OtherCue < len(f.cues) {
				a, b = f.cues[rel.Cue].settings.region, f.cues[rel.OtherCue].settings.region
			}
			ok := a != nil && b != nil && (a == b) == (rel.Relation == "sameRegionAs")
			check(fmt.Sprintf("regionRelations %d", k), ok, fmt.Sprintf("cue %d %s cue %d does not hold", rel.Cue, rel.Relation, rel.OtherCue))
		}
		for _, oa := range exp.OtherAssertions {
			got, ok := styleSheetProperty(f.styles, oa.Target)
			want := strings.Trim(string(oa.Value), `"`)
			check(oa.Target, ok && oa.Op == "equals" && got == want, fmt.Sprintf("got %q, want %q", got, want))
		}
		checkIRMapping(t, exp.Test, text, f)
	}
	if total == 0 {
		t.Fatal("no WPT assertions found")
	}
	for key, why := range failed {
		if _, ok := known[key]; !ok {
			t.Errorf("WPT assertion fails and is not in wpt-known-differences.txt: %s: %s", key, why)
		}
	}
	for key := range known {
		if _, ok := failed[key]; !ok {
			t.Errorf("wpt-known-differences.txt lists %q, which now holds; remove it", key)
		}
	}
	pct := 100 * float64(held) / float64(total)
	t.Logf("WPT file-parsing: %d/%d assertions hold (%.1f%%)", held, total, pct)
	if pct < 97 {
		t.Errorf("only %.1f%% of WPT assertions hold, want at least 97%%", pct)
	}
}

type assertion struct {
	prop string
	ok   bool
	why  string
}

// cueAssertions compares each asserted VTTCue property with the cue.
func cueAssertions(t *testing.T, c *rawCue, want map[string]json.RawMessage) []assertion {
	t.Helper()
	s := &c.settings
	props := make([]string, 0, len(want))
	for p := range want {
		props = append(props, p)
	}
	sort.Strings(props)
	var out []assertion
	add := func(prop string, got any, ok bool, w json.RawMessage) {
		out = append(out, assertion{prop, ok, fmt.Sprintf("got %v, want %s", got, w)})
	}
	for _, prop := range props {
		w := want[prop]
		switch prop {
		case "index":
		case "id":
			add(prop, strconv.Quote(c.id), jsonString(w) == c.id, w)
		case "text":
			add(prop, strconv.Quote(c.payload), jsonString(w) == c.payload, w)
		case "startTime":
			add(prop, c.start.ms, sameNumber(w, float64(c.start.ms)/1000), w)
		case "endTime":
			add(prop, c.end.ms, sameNumber(w, float64(c.end.ms)/1000), w)
		case "align":
			add(prop, orDefault(s.align, "center"), jsonString(w) == orDefault(s.align, "center"), w)
		case "lineAlign":
			add(prop, orDefault(s.lineAlign, "start"), jsonString(w) == orDefault(s.lineAlign, "start"), w)
		case "positionAlign":
			add(prop, orDefault(s.positionAlign, "auto"), jsonString(w) == orDefault(s.positionAlign, "auto"), w)
		case "vertical":
			add(prop, s.vertical, jsonString(w) == s.vertical, w)
		case "snapToLines":
			add(prop, s.snapToLines, string(w) == strconv.FormatBool(s.snapToLines), w)
		case "line":
			add(prop, autoNumber(s.line), sameAuto(w, s.line), w)
		case "position":
			add(prop, autoNumber(s.position), sameAuto(w, s.position), w)
		case "size":
			size := 100.0
			if s.size != nil {
				size = *s.size
			}
			add(prop, size, sameNumber(w, size), w)
		case "region":
			out = append(out, regionAssertions(s.region, w)...)
		default:
			t.Errorf("unhandled WPT cue property %q", prop)
		}
	}
	return out
}

// regionAssertions checks region presence, then each listed attribute.
func regionAssertions(r *rawRegion, w json.RawMessage) []assertion {
	if string(w) == "null" {
		return []assertion{{"region", r == nil, "cue has a region, want none"}}
	}
	out := []assertion{{"region", r != nil, "cue has no region"}}
	var attrs map[string]json.RawMessage
	_ = json.Unmarshal(w, &attrs)
	names := make([]string, 0, len(attrs))
	for n := range attrs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		a := attrs[n]
		if r == nil {
			out = append(out, assertion{"region." + n, false, "cue has no region"})
			continue
		}
		var got any
		var ok bool
		switch n {
		case "scroll":
			got, ok = r.scroll, jsonString(a) == r.scroll
		default:
			v := map[string]float64{"width": r.width, "lines": r.lines, "regionAnchorX": r.anchorX, "regionAnchorY": r.anchorY,
				"viewportAnchorX": r.viewportX, "viewportAnchorY": r.viewportY}[n]
			got, ok = v, sameNumber(a, v)
		}
		out = append(out, assertion{"region." + n, ok, fmt.Sprintf("got %v, want %s", got, a)})
	}
	return out
}

// checkIRMapping checks that the IR carries what the spec-level parse
// found: same cues, times, ids and placement.
func checkIRMapping(t *testing.T, test, text string, f *rawFile) {
	t.Helper()
	track, _ := parseText(text)
	// The IR drops cues that end before they start (never displayed).
	var shown []*rawCue
	for i := range f.cues {
		if f.cues[i].end.ms >= f.cues[i].start.ms {
			shown = append(shown, &f.cues[i])
		}
	}
	if len(track.Cues) != len(shown) {
		t.Errorf("%s: IR has %d cues, spec parse %d displayable", test, len(track.Cues), len(shown))
		return
	}
	for i, rc := range shown {
		c := &track.Cues[i]
		want := placement(&rc.settings)
		if c.ID != rc.id || c.StartMs != rc.start.ms || c.EndMs != rc.end.ms || placementString(c.Placement) != placementString(want) {
			t.Errorf("%s cue %d: IR %q %d-%d %s does not match the spec parse", test, i, c.ID, c.StartMs, c.EndMs, placementString(c.Placement))
		}
		if rc.settings.line != nil && (c.Placement.LineUnit == caption.LineUnitLines) != rc.settings.snapToLines {
			t.Errorf("%s cue %d: line unit %q, snapToLines %v", test, i, c.Placement.LineUnit, rc.settings.snapToLines)
		}
	}
}

var sheetTarget = regexp.MustCompile(`^styleSheets(?:\.length|\[(\d+)\]\.cssRules(?:\.length|\[(\d+)\]\.(type|selectorText)))$`)

// styleSheetProperty evaluates a styleSheets.* target over the kept STYLE
// blocks, with a minimal reading of CSS rules (selector, then a braced
// block; comments skipped).
func styleSheetProperty(styles []string, target string) (string, bool) {
	m := sheetTarget.FindStringSubmatch(target)
	if m == nil {
		return "", false
	}
	if m[1] == "" {
		return strconv.Itoa(len(styles)), true
	}
	i, _ := strconv.Atoi(m[1])
	if i >= len(styles) {
		return "", false
	}
	rules := cssSelectors(styles[i])
	if m[2] == "" {
		return strconv.Itoa(len(rules)), true
	}
	j, _ := strconv.Atoi(m[2])
	if j >= len(rules) {
		return "", false
	}
	if m[3] == "type" {
		return "1", !strings.HasPrefix(rules[j], "@")
	}
	return rules[j], true
}

var cssComment = regexp.MustCompile(`(?s)/\*.*?\*/`)

func cssSelectors(css string) []string {
	css = cssComment.ReplaceAllString(css, "")
	var out []string
	for {
		open := strings.IndexByte(css, '{')
		if open < 0 {
			return out
		}
		out = append(out, strings.Join(strings.Fields(css[:open]), " "))
		depth, k := 0, open
		for ; k < len(css); k++ {
			if css[k] == '{' {
				depth++
			} else if css[k] == '}' {
				if depth--; depth == 0 {
					break
				}
			}
		}
		if k >= len(css) {
			return out
		}
		css = css[k+1:]
	}
}

func jsonString(w json.RawMessage) string {
	var s string
	if json.Unmarshal(w, &s) != nil {
		return "\x00not a string"
	}
	return s
}

func sameNumber(w json.RawMessage, got float64) bool {
	var v float64
	if json.Unmarshal(w, &v) != nil {
		return false
	}
	return v == got || math.Abs(v-got) <= 1e-9*math.Max(math.Abs(v), 1)
}

func sameAuto(w json.RawMessage, got *float64) bool {
	if jsonString(w) == "auto" {
		return got == nil
	}
	return got != nil && sameNumber(w, *got)
}

func autoNumber(v *float64) any {
	if v == nil {
		return "auto"
	}
	return *v
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// readKnownDifferences reads "<test> cue <i> <property>: <reason>" lines;
// blank lines and "#" comments are skipped.
func readKnownDifferences(t *testing.T, path string) map[string]string {
	t.Helper()
	fh, err := os.Open(filepath.FromSlash(path))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	known := map[string]string{}
	sc := bufio.NewScanner(fh)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, reason, ok := strings.Cut(line, ": ")
		if !ok || strings.TrimSpace(reason) == "" {
			t.Fatalf("%s: %q has no reason", path, line)
		}
		known[key] = reason
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return known
}
