package llm

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/captionqa/captionqa/backend/explain"
	"github.com/captionqa/captionqa/backend/explain/llm/llmtest"
	"github.com/captionqa/captionqa/backend/internal/golden"
)

// TestRequestGolden compares the request sent for testDraft with
// testdata/request.golden.json (the body, indented) and its user message
// with testdata/user.golden.json; go test -update rewrites them. Read the
// diff as the model would: a prompt change is a behaviour change.
func TestRequestGolden(t *testing.T) {
	t.Parallel()
	fake, w := newFake(t, llmtest.Behaviour{}, func(o *Options) { o.APIKey = "k" })
	if _, err := w.Write(t.Context(), testDraft()); err != nil {
		t.Fatalf("Write: %v", err)
	}
	body := fake.Last().Body
	golden.Compare(t, filepath.Join("testdata", "request.golden.json"), indent(t, body))

	var req struct {
		Messages []struct{ Content string } `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil || len(req.Messages) != 2 {
		t.Fatalf("request body: %v, %d messages", err, len(req.Messages))
	}
	golden.Compare(t, filepath.Join("testdata", "user.golden.json"), indent(t, []byte(req.Messages[1].Content)))
}

func indent(t *testing.T, js []byte) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := json.Indent(&b, js, "", "  "); err != nil {
		t.Fatalf("%v\n%s", err, js)
	}
	b.WriteByte('\n')
	return b.Bytes()
}

// TestDraftRoundTrip checks that the user message carries the draft's
// facts and that package llmtest reads them back as sent: the fake's
// Reply sees the draft the Explainer gave, less the rule codes (left out
// on purpose) and the fields that are not the model's business.
func TestDraftRoundTrip(t *testing.T) {
	t.Parallel()
	drafts := map[string]explain.Draft{
		"actions": testDraft(),
		"clear": {Platform: "Netflix", CueCount: 1, Explanation: &explain.Explanation{
			Status: explain.StatusClear, Actions: []explain.Action{}, Headline: "Ready for Netflix",
			DeliveryComparison: explain.Comparison{UploadReadyScore: 100, EnhancedScore: 100},
		}},
	}
	for name, d := range drafts {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			seen := make(chan explain.Draft, 1)
			fake, w := newFake(t, llmtest.Behaviour{Reply: func(d explain.Draft) explain.Prose {
				seen <- d
				return llmtest.Echo(d)
			}}, nil)
			got, err := w.Write(t.Context(), d)
			if err != nil {
				t.Fatalf("Write: %v", err)
			}
			if want := llmtest.Echo(d); !reflect.DeepEqual(got, want) {
				t.Errorf("Write = %+v, want the echoed prose %+v", got, want)
			}
			want := sent(d)
			if got := <-seen; !reflect.DeepEqual(got, want) {
				t.Errorf("the fake read the draft\n%s\nwant\n%s", dump(t, got), dump(t, want))
			}
			if got, err := fake.Last().Draft(); err != nil || !reflect.DeepEqual(got, want) {
				t.Errorf("Request.Draft() = %s, %v; want the draft the fake read", dump(t, got), err)
			}
		})
	}
}

// sent returns d as the user message carries it: without the rule codes,
// the format and who wrote it, and with empty lists rather than nil ones.
func sent(d explain.Draft) explain.Draft {
	e := *d.Explanation
	e.Format, e.WrittenBy, e.Model, e.Fallback = "", "", "", ""
	e.Actions = make([]explain.Action, len(d.Explanation.Actions))
	for i, a := range d.Explanation.Actions {
		a.Codes = nil
		if a.CueIndexes == nil {
			a.CueIndexes = []int{}
		}
		e.Actions[i] = a
	}
	d.Explanation = &e
	return d
}

func dump(t *testing.T, d explain.Draft) string {
	t.Helper()
	js, err := json.MarshalIndent(struct {
		explain.Draft
		Explanation *explain.Explanation
	}{d, d.Explanation}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(js)
}
