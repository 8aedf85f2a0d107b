package server_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"mime/multipart"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/httpapi"
	"github.com/captionqa/captionqa/backend/video/ffmpeg/fftest/programme"
)

// spokenIR is an IR of one cue per speech segment, shifted by shiftMs.
func spokenIR(speech []programmeSegment, texts []string, shiftMs int64) string {
	var cues []string
	for i, s := range speech {
		cues = append(cues, fmt.Sprintf(`{"id":"%d","startMs":%d,"endMs":%d,"text":%q}`, i+1, s.StartMs+shiftMs, s.EndMs+shiftMs+300, texts[i]))
	}
	return `{"version":1,"language":"en","cues":[` + strings.Join(cues, ",") + `]}`
}

// programmeSegment is a speech segment's times.
type programmeSegment struct{ StartMs, EndMs int64 }

// processWith posts the IR to POST /api/v1/process with fields and
// returns the decoded 200 body.
func (e *videoEnv) processWith(ir string, fields map[string]string) map[string]any {
	e.t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	fw, _ := w.CreateFormFile("file", "timeline.json")
	_, _ = io.WriteString(fw, ir)
	for k, v := range fields {
		_ = w.WriteField(k, v)
	}
	_ = w.Close()
	req, err := http.NewRequest("POST", e.url+"/api/v1/process", &buf)
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+e.key)
	req.Header.Set("Content-Type", w.FormDataContentType())
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 {
		e.t.Fatalf("POST /api/v1/process %v: %d %s", fields, res.StatusCode, body)
	}
	var out map[string]any
	if err := json.Unmarshal(body, &out); err != nil {
		e.t.Fatal(err)
	}
	return out
}

// codesOf lists the codes of a process result's diagnostics and
// suggestions.
func codesOf(res map[string]any) map[string]map[string]any {
	out := map[string]map[string]any{}
	report, _ := res["report"].(map[string]any)
	for _, list := range []string{"diagnostics", "suggestions"} {
		for _, d := range asList(report[list]) {
			m := d.(map[string]any)
			out[m["code"].(string)] = m
		}
	}
	for _, d := range asList(res["suggestions"]) {
		m := d.(map[string]any)
		out[m["code"].(string)] = m
	}
	return out
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// TestAnalyzeJobChecksTheCaptions: a spoken programme with hard cuts is
// uploaded and analysed by a job; its analysis has the cuts at their
// frames and a speech segment per line; captions 2 s late checked against
// it (process with projectId) report sync_offset of about 2 s, and the
// same captions on time do not.
func TestAnalyzeJobChecksTheCaptions(t *testing.T) {
	t.Parallel()
	programme.Need(t)
	texts := []string{"Welcome back to the harbour show.", "Tonight we look at the tide tables.",
		"The ferry leaves at six every morning.", "Thank you for watching, good night."}
	var lines []programme.Line
	for i, text := range texts {
		lines = append(lines, programme.Line{AtMs: 1000 + int64(i)*4000, Text: text})
	}
	truth := programme.Cached(t, programme.Spec{Lines: lines, Container: "mp4",
		Scenes: []programme.Scene{{Source: "testsrc2", Frames: 100}, {Source: "smptebars", Frames: 150}, {Source: "rgbtestsrc", Frames: 200}}})
	e := newVideoEnv(t, nil)
	var speech []programmeSegment
	for _, s := range truth.Speech {
		speech = append(speech, programmeSegment{s.StartMs, s.EndMs})
	}
	pid := e.newProject("Harbour", spokenIR(speech, texts, 0))
	up := e.uploadFile(pid, truth.Path)

	var c jobCreated
	e.call("POST", "/api/v1/jobs/analyze", map[string]any{"projectId": pid, "mediaObjectKey": up.ObjectKey}, 202, &c)
	if c.Kind != "analyze" {
		t.Fatalf("job created = %+v", c)
	}
	j, _ := e.waitJob(c.JobID, 2*time.Minute, func(j *httpapi.JobView) bool { return j.Status != "queued" && j.Status != "running" })
	if j.Status != "succeeded" {
		t.Fatalf("analyze job = %s %+v", j.Status, j.Error)
	}

	var got httpapi.AnalysisView
	e.call("GET", "/api/v1/media/upload/"+up.UploadID+"/analysis", nil, 200, &got)
	a := got.Analysis
	if a == nil || a.Video == nil || a.Audio == nil || got.JobID != c.JobID {
		t.Fatalf("analysis = %+v", got)
	}
	var cuts []int64
	for _, sc := range a.Video.ShotChanges {
		cuts = append(cuts, sc.Frame)
	}
	if !slices.Equal(cuts, truth.Cuts) {
		t.Errorf("shot changes at frames %v; want %v", cuts, truth.Cuts)
	}
	if len(a.Audio.Speech) != len(truth.Speech) {
		t.Errorf("speech = %+v; want %d segments like %+v", a.Audio.Speech, len(truth.Speech), truth.Speech)
	}
	if len(a.Audio.Waveform.Peaks) == 0 {
		t.Error("no waveform")
	}

	onTime := codesOf(e.processWith(spokenIR(speech, texts, 0), map[string]string{"projectId": pid}))
	if _, ok := onTime["sync_offset"]; ok {
		t.Errorf("captions on time report sync_offset: %v", onTime["sync_offset"])
	}
	late := codesOf(e.processWith(spokenIR(speech, texts, 2000), map[string]string{"mediaObjectKey": up.ObjectKey, "projectId": pid}))
	d, ok := late["sync_offset"]
	if !ok {
		t.Fatalf("captions 2 s late: no sync_offset among %v", late)
	}
	// The value is the shift the captions need: 2 s earlier.
	if v, _ := d["value"].(float64); v < -2080 || v > -1920 {
		t.Errorf("sync_offset value = %v; want about -2000", d["value"])
	}
	// An export of the project (its captions 2 s late) checks against
	// the programme: FCC synchronicity is graded, and fails.
	e.call("PUT", "/api/v1/projects/"+pid+"/ir", map[string]any{"ir": spokenIR(speech, texts, 2000), "baseRevision": 1}, 200, nil)
	var x struct {
		Artifacts []struct {
			Verdict struct {
				Standard struct {
					Summary map[string]int `json:"summary"`
				} `json:"standard"`
			} `json:"verdict"`
		} `json:"artifacts"`
	}
	export := map[string]any{"presets": []string{"youtube"}, "standard": "fcc-79.1"}
	r := e.call("POST", "/api/v1/projects/"+pid+"/exports", export, 201, &x)
	withMedia := maps.Clone(x.Artifacts[0].Verdict.Standard.Summary)
	// The same captions in a project without media: not evaluated.
	other := e.newProject("No media", spokenIR(speech, texts, 2000))
	e.call("POST", "/api/v1/projects/"+other+"/exports", export, 201, &x)
	blindExport := x.Artifacts[0].Verdict.Standard.Summary
	if withMedia["fail"] <= blindExport["fail"] || withMedia["notEvaluated"] >= blindExport["notEvaluated"] {
		t.Errorf("FCC clauses with the programme %v, without %v; want more graded, and failed: %s", withMedia, blindExport, r.Body)
	}

	blind := codesOf(e.processWith(spokenIR(speech, texts, 2000), nil))
	if _, ok := blind["sync_offset"]; ok {
		t.Error("a check without media reports sync_offset")
	}
}
