package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/explain"
	"github.com/captionqa/captionqa/backend/explain/llm/llmtest"
	"github.com/captionqa/captionqa/backend/server"
	"github.com/captionqa/captionqa/backend/store"
)

// planSRT has three cues and work on them for YouTube: cue 2 overlaps
// cue 1 (blocking) and reads far too fast (suggestions), so the plan's
// actions name cues.
const planSRT = "1\n00:00:01,000 --> 00:00:04,500\nWelcome back to the harbour show.\n\n" +
	"2\n00:00:04,000 --> 00:00:04,600\nTonight we talk about a great many tide tables far too quickly.\n\n" +
	"3\n00:00:06,000 --> 00:00:08,000\nThe ferry leaves at six.\n"

// planCues are planSRT's cues as POST /api/v1/explain takes them.
var planCues = []map[string]any{
	{"text": "Welcome back to the harbour show.", "startMs": 1000, "endMs": 4500},
	{"text": "Tonight we talk about a great many tide tables far too quickly.", "startMs": 4000, "endMs": 4600},
	{"text": "The ferry leaves at six.", "startMs": 6000, "endMs": 8000},
}

var withExplain = map[string]string{"includeExplain": "true"}

// explainCap is the daily explain cap of the servers with ExplainAI on:
// small enough that the cap tests reach it in a few calls, large enough
// for every other test's account.
const explainCap = 5

// TestExplain runs ExplainAI's server tests on as few servers as the
// configurations need, sharing one database: ExplainAI on (explain cap
// explainCap), ExplainAI off, and one per behaviour of the model's
// endpoint. Each test keeps to accounts of its own.
func TestExplain(t *testing.T) {
	t.Parallel()
	db := openExplainDB(t)
	on := newExplainEnv(t, db, "on", func(c *server.Config) { c.ExplainDailyCap = explainCap })
	t.Run("entitlement", func(t *testing.T) { t.Parallel(); testExplainEntitlement(t, on, on, entitlementOn) })
	t.Run("explain off", func(t *testing.T) {
		t.Parallel()
		off := newExplainEnv(t, db, "off", func(c *server.Config) { c.ExplainOff = true })
		t.Run("entitlement", func(t *testing.T) { t.Parallel(); testExplainEntitlement(t, off, on, entitlementOff) })
		t.Run("message", func(t *testing.T) { t.Parallel(); testExplainOffMessage(t, off) })
	})
	t.Run("quota", func(t *testing.T) { t.Parallel(); testExplainQuota(t, on, explainCap) })
	t.Run("concurrent cap", func(t *testing.T) { t.Parallel(); testExplainConcurrentCap(t, on, explainCap) })
	t.Run("bodies", func(t *testing.T) { t.Parallel(); testExplainBodies(t, on) })
	t.Run("model", func(t *testing.T) { t.Parallel(); testExplainModel(t, db, on) })
}

// entitlementCase is a caller of the entitlement matrix: who, what process
// says with and without includeExplain, and what POST /api/v1/explain
// answers.
type entitlementCase struct {
	name     string
	tier     string
	features []string // nil: the tier's
	// What process says with includeExplain (explain or the reason it
	// is absent), and explainAvailable with and without it.
	wantExplain   bool
	wantSkip      string
	wantAvailable bool
	// The explain call's answer: 200, or the error and its details.
	explainStatus int
	explainCode   string
	explainDetail map[string]any
}

var entitlementOn = []entitlementCase{
	{name: "free_plus", tier: account.TierFreePlus, wantSkip: "not_entitled",
		explainStatus: 403, explainCode: "forbidden", explainDetail: map[string]any{"missingFeature": "PRO_WORKSPACE"}},
	{name: "pro without explain_ai", tier: account.TierPro, features: without(account.FeatureExplainAI), wantSkip: "not_entitled",
		explainStatus: 403, explainCode: "forbidden", explainDetail: map[string]any{"missingFeature": "explain_ai"}},
	{name: "pro with explain_ai", tier: account.TierPro, wantExplain: true, wantAvailable: true, explainStatus: 200},
}

// entitlementOff: with ExplainAI off, entitlement is still decided first:
// an account that could never have an explanation is told so.
var entitlementOff = []entitlementCase{
	{name: "free_plus", tier: account.TierFreePlus, wantSkip: "not_entitled",
		explainStatus: 403, explainCode: "forbidden", explainDetail: map[string]any{"missingFeature": "PRO_WORKSPACE"}},
	{name: "pro without explain_ai", tier: account.TierPro, features: without(account.FeatureExplainAI), wantSkip: "not_entitled",
		explainStatus: 403, explainCode: "forbidden", explainDetail: map[string]any{"missingFeature": "explain_ai"}},
	{name: "pro with explain_ai", tier: account.TierPro, wantSkip: "not_configured",
		explainStatus: 503, explainCode: "unavailable", explainDetail: map[string]any{"reason": "explain_off"}},
}

// testExplainEntitlement: who gets an explanation on e, from POST
// /api/v1/process with and without includeExplain and from POST
// /api/v1/explain (on a report processed on ref); only a granted explain
// call counts a run.
func testExplainEntitlement(t *testing.T, e, ref *explainEnv, tests []entitlementCase) {
	// One report for every caller: a refusal comes before the body is
	// read for what it says, the entitled caller has it explained.
	body := ref.processOK(t, ref.account(t, "report-for-"+e.name, account.TierPro, nil, 0), planSRT, nil).explainBody(nil, true)
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			key := e.account(t, fmt.Sprintf("entitlement%d", i), tt.tier, tt.features, 0)
			with := e.processOK(t, key, planSRT, withExplain)
			checkOutcome(t, "includeExplain=true", with, tt.wantExplain, tt.wantSkip, tt.wantAvailable)
			plain := e.processOK(t, key, planSRT, nil)
			checkOutcome(t, "no includeExplain", plain, false, "", tt.wantAvailable)
			if got, want := plain.RemainingAPIRunsToday, with.RemainingAPIRunsToday-1; got != want {
				t.Errorf("remainingApiRunsToday %d after %d; want one run counted", got, with.RemainingAPIRunsToday)
			}

			r := e.explainCall(t, key, body)
			wantUsed := 2
			if tt.explainStatus == 200 {
				var x explainResult
				if err := json.Unmarshal(r.Body, &x); r.Status != 200 || err != nil {
					t.Fatalf("POST /explain: %d %s", r.Status, r.Body)
				}
				if x.Format != explain.Format || x.WrittenBy != "builtin" || x.RemainingAPIRunsToday == nil ||
					*x.RemainingAPIRunsToday != plain.RemainingAPIRunsToday-1 {
					t.Errorf("POST /explain: %s; want a built-in v3 explanation and one run fewer than %d", r.Body, plain.RemainingAPIRunsToday)
				}
				wantUsed = 3
			} else {
				checkError(t, "POST /explain", r, tt.explainStatus, tt.explainCode, tt.explainDetail)
			}
			if got := e.usedToday(t, key); got != wantUsed {
				t.Errorf("usedToday %d; want %d: a refused explain call counts no run", got, wantUsed)
			}
		})
	}
}

// testExplainOffMessage: the 503 tells the operator the flag that turns
// ExplainAI back on, as the contract spells it (serve --explain off/on);
// "--explain=false" is refused by the flag parser.
func testExplainOffMessage(t *testing.T, e *explainEnv) {
	r := e.explainCall(t, e.account(t, "message", account.TierPro, nil, 0), `{"report":{}}`)
	var env apperr.Envelope
	if err := json.Unmarshal(r.Body, &env); err != nil || r.Status != 503 {
		t.Fatalf("POST /explain with ExplainAI off: %d %s", r.Status, r.Body)
	}
	if msg := env.Error.Message; !strings.Contains(msg, "--explain off") || strings.Contains(msg, "--explain=false") {
		t.Errorf("message %q; want it to name the flag as serve takes it: --explain off", msg)
	}
}

// checkOutcome checks ExplainAI's part of a process result.
func checkOutcome(t *testing.T, what string, p processResult, wantExplain bool, wantSkip string, wantAvailable bool) {
	t.Helper()
	if p.ExplainAvailable == nil || *p.ExplainAvailable != wantAvailable {
		t.Errorf("%s: explainAvailable %s; want %v", what, p.raw["explainAvailable"], wantAvailable)
	}
	if got := p.Explain != nil; got != wantExplain {
		t.Errorf("%s: explain present %v; want %v", what, got, wantExplain)
	}
	if p.Explain != nil && (p.Explain.Format != explain.Format || p.Explain.Status != explain.StatusActions || len(p.Explain.Actions) == 0) {
		t.Errorf("%s: explain %s; want a v3 plan with actions", what, p.raw["explain"])
	}
	_, hasSkip := p.raw["explainSkippedReason"]
	switch {
	case wantSkip == "" && hasSkip:
		t.Errorf("%s: explainSkippedReason %s; want none", what, p.raw["explainSkippedReason"])
	case wantSkip != "" && (p.ExplainSkippedReason == nil || *p.ExplainSkippedReason != wantSkip):
		t.Errorf("%s: explainSkippedReason %s; want %s", what, p.raw["explainSkippedReason"], wantSkip)
	}
}

// testExplainQuota: the daily explain cap (cap on e) apart from the daily
// runs. A process call beyond the cap is still a counted run without an
// explanation; an explain call needs room in both pools and takes from
// both or neither.
func testExplainQuota(t *testing.T, e *explainEnv, cap int) {
	t.Run("process beyond the explain cap", func(t *testing.T) {
		t.Parallel()
		key := e.account(t, "process", account.TierPro, nil, 0)
		prev := -1
		for i := range cap + 1 {
			p := e.processOK(t, key, planSRT, withExplain)
			// The last explanation says there is none left; the call
			// after it has none, and its run still counts.
			switch what := fmt.Sprintf("call %d", i+1); {
			case i < cap-1:
				checkOutcome(t, what, p, true, "", true)
			case i == cap-1:
				checkOutcome(t, what, p, true, "", false)
			default:
				checkOutcome(t, what, p, false, "quota_exceeded", false)
			}
			if prev >= 0 && p.RemainingAPIRunsToday != prev-1 {
				t.Errorf("call %d: remainingApiRunsToday %d after %d; want the run counted", i+1, p.RemainingAPIRunsToday, prev)
			}
			prev = p.RemainingAPIRunsToday
		}
		checkOutcome(t, "without includeExplain", e.processOK(t, key, planSRT, nil), false, "", false)

		body := e.processOK(t, key, planSRT, nil).explainBody(planCues, true)
		before := e.usedToday(t, key)
		checkError(t, "POST /explain with the explain cap full", e.explainCall(t, key, body), 429, "quota_exceeded",
			map[string]any{"pool": "explain", "cap": cap})
		if got := e.usedToday(t, key); got != before {
			t.Errorf("usedToday %d after the refused explain call; want %d: no run counted", got, before)
		}
	})

	t.Run("explain with the daily runs full", func(t *testing.T) {
		t.Parallel()
		key := e.account(t, "runs", account.TierPro, nil, 1)
		p := e.processOK(t, key, planSRT, nil)
		if p.RemainingAPIRunsToday != 0 {
			t.Fatalf("remainingApiRunsToday %d; want the one run used", p.RemainingAPIRunsToday)
		}
		checkOutcome(t, "the last run", p, false, "", true)
		body := p.explainBody(planCues, true)
		checkError(t, "POST /explain with the runs full", e.explainCall(t, key, body), 429, "quota_exceeded",
			map[string]any{"pool": "runs", "cap": 1})

		// With room for runs again, the whole explain cap is left: the
		// refused call took no explanation.
		runs := cap + 5
		if _, err := e.srv.Accounts().UpdateAccount(context.Background(), e.email("runs"), account.AccountUpdate{DailyCap: &runs}); err != nil {
			t.Fatal(err)
		}
		checkOutcome(t, "first explanation", e.processOK(t, key, planSRT, withExplain), true, "", true)
		for i := 2; i <= cap; i++ {
			x := e.explainOK(t, key, body)
			if want := runs - i - 1; x.RemainingAPIRunsToday == nil || *x.RemainingAPIRunsToday != want {
				t.Errorf("explanation %d: remainingApiRunsToday %v; want %d", i, x.RemainingAPIRunsToday, want)
			}
		}
		checkError(t, "POST /explain beyond the cap", e.explainCall(t, key, body), 429, "quota_exceeded",
			map[string]any{"pool": "explain"})
		if got, want := e.usedToday(t, key), cap+1; got != want {
			t.Errorf("usedToday %d; want %d (two process runs, %d explain calls)", got, want, cap-1)
		}
	})

	t.Run("a granted explain call is one run", func(t *testing.T) {
		t.Parallel()
		key := e.account(t, "one", account.TierPro, nil, 0)
		p := e.processOK(t, key, planSRT, nil)
		x := e.explainOK(t, key, p.explainBody(nil, true))
		if x.RemainingAPIRunsToday == nil || *x.RemainingAPIRunsToday != p.RemainingAPIRunsToday-1 {
			t.Errorf("remainingApiRunsToday %v after %d; want one fewer", x.RemainingAPIRunsToday, p.RemainingAPIRunsToday)
		}
		if got := e.usedToday(t, key); got != 2 {
			t.Errorf("usedToday %d; want 2", got)
		}
	})
}

// testExplainConcurrentCap: concurrent explain calls take exactly the
// explain cap, and exactly as many runs.
func testExplainConcurrentCap(t *testing.T, e *explainEnv, cap int) {
	const calls = 20
	key := e.account(t, "race", account.TierPro, nil, 0)
	body := e.processOK(t, key, planSRT, nil).explainBody(planCues, true)
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	got := make([]response, calls)
	errs := make([]error, calls)
	for i := range calls {
		wg.Go(func() { got[i], errs[i] = e.try(t, key, "POST", "/api/v1/explain", string(b)) })
	}
	wg.Wait()
	ok := 0
	for i, r := range got {
		if errs[i] != nil {
			t.Fatalf("call %d: %v", i, errs[i])
		}
		if r.Status == 200 {
			ok++
			continue
		}
		checkError(t, fmt.Sprintf("call %d", i), r, 429, "quota_exceeded", map[string]any{"pool": "explain"})
	}
	if ok != cap {
		t.Errorf("%d calls succeeded; want exactly %d", ok, cap)
	}
	if used := e.usedToday(t, key); used != 1+cap {
		t.Errorf("usedToday %d; want %d (the process run and %d explanations)", used, 1+cap, cap)
	}
}

// testExplainBodies: POST /api/v1/explain on a process result's parts
// gives the process call's own explanation; a body that is not a process
// report is 400 naming the field, and counts nothing.
func testExplainBodies(t *testing.T, e *explainEnv) {
	key := e.account(t, "bodies", account.TierPro, nil, 0)
	p := e.processOK(t, key, planSRT, withExplain)
	want := p.Explain
	if want == nil || len(want.Actions) == 0 {
		t.Fatalf("process explain %s; want a plan with actions", p.raw["explain"])
	}

	t.Run("the process result's parts", func(t *testing.T) {
		x := e.explainOK(t, key, p.explainBody(nil, true))
		if !reflect.DeepEqual(x.Explanation, *want) {
			t.Errorf("explain call:\n%+v\nwant the process call's:\n%+v", x.Explanation, *want)
		}
	})

	t.Run("with the cues", func(t *testing.T) {
		x := e.explainOK(t, key, p.explainBody(planCues, true))
		if x.Format != "svc.explain/v3" || x.WrittenBy != "builtin" || x.Fallback != "" || x.Headline != want.Headline {
			t.Errorf("explain %+v; want v3, built-in, headline %q", x.Explanation, want.Headline)
		}
		if len(x.Actions) != len(want.Actions) {
			t.Fatalf("%d actions; want the process call's %d", len(x.Actions), len(want.Actions))
		}
		quoted := false
		for i, a := range x.Actions {
			for _, c := range a.CueIndexes {
				if c < 0 || c >= len(planCues) {
					t.Errorf("action %s: cue index %d outside the file's %d cues", a.ID, c, len(planCues))
				}
			}
			// The cues' text only adds a quote to the details.
			quoted = quoted || strings.Contains(a.Detail, `("Tonight we talk about a great many tide`)
			w := want.Actions[i]
			a.Detail, w.Detail = "", ""
			if !reflect.DeepEqual(a, w) {
				t.Errorf("action %d: %+v; want the process call's %+v", i, a, w)
			}
		}
		if !quoted {
			t.Errorf("no action quotes cue 2; actions %+v", x.Actions)
		}
	})

	t.Run("bad bodies", func(t *testing.T) {
		edit := func(f func(rep map[string]any)) map[string]any {
			var rep map[string]any
			_ = json.Unmarshal(p.raw["report"], &rep)
			f(rep)
			return map[string]any{"report": rep, "cues": planCues}
		}
		before := e.usedToday(t, key)
		tests := []struct {
			name   string
			body   any
			detail map[string]any
		}{
			{"no report", map[string]any{"aidedOutput": "x", "cues": planCues}, map[string]any{"field": "report"}},
			{"report without summary", edit(func(r map[string]any) { delete(r, "summary") }), map[string]any{"field": "report.summary"}},
			{"unknown preset", edit(func(r map[string]any) { r["preset"] = "myspace" }), map[string]any{"field": "report.preset"}},
			{"fatal finding", edit(func(r map[string]any) {
				r["remaining"].([]any)[0].(map[string]any)["severity"] = "fatal"
			}), map[string]any{"field": "report.remaining[0].severity"}},
			{"report a string", `{"report":"Needs attention"}`, map[string]any{"field": "report", "reason": "wrong_type"}},
			{"not JSON", `report=yes`, map[string]any{"reason": "syntax"}},
		}
		for _, tt := range tests {
			checkError(t, tt.name, e.explainCall(t, key, tt.body), 400, "bad_request", tt.detail)
		}
		if got := e.usedToday(t, key); got != before {
			t.Errorf("usedToday %d after refused bodies; want %d", got, before)
		}
	})
}

// modelHeadline is the headline the fake's model writes.
const modelHeadline = "Cue 1 runs into the next one: fix that before it goes out."

// reword is the fake model's answer: the built-in prose with its own
// headline and message (naming cue 1, which exists) and every action's
// title reworded.
func reword(d explain.Draft) explain.Prose {
	p := llmtest.Echo(d)
	p.Headline = modelHeadline
	p.Message = "Start with cue 1, then the rest."
	for i := range p.Actions {
		p.Actions[i].Title = "Editor: " + p.Actions[i].Title
	}
	return p
}

// testExplainModel: a model behind an OpenAI-compatible endpoint (the
// fake) rewords the prose through the real server; its plan stays the
// built-in one, and every failure keeps the built-in text with the reason.
// ref has no model: it gives the built-in explanations.
func testExplainModel(t *testing.T, db store.DB, ref *explainEnv) {
	refKey := ref.account(t, "builtin", account.TierPro, nil, 0)
	builtin := map[string]*explain.Explanation{}
	for _, p := range []string{"youtube", "vimeo", "facebook"} {
		x := ref.processOK(t, refKey, planSRT, map[string]string{"includeExplain": "true", "preset": p}).Explain
		if x == nil || len(x.Actions) == 0 {
			t.Fatalf("%s: the built-in explanation has no actions", p)
		}
		builtin[p] = x
	}

	// One endpoint answers by the draft's platform, so that one server
	// sees the model write, invent a cue (999 of the file's 3) and invent
	// an action.
	t.Run("answers", func(t *testing.T) {
		t.Parallel()
		const apiKey = "sk-local-test"
		fake := llmtest.New(t, llmtest.Behaviour{Reply: func(d explain.Draft) explain.Prose {
			p := reword(d)
			switch d.Platform {
			case "Vimeo":
				p.Message = "Cue 999 is the worst of them."
			case "Facebook":
				p.Actions = append(p.Actions, explain.ActionProse{ID: "a99", Title: "Also translate it"})
			}
			return p
		}})
		e := newExplainEnv(t, db, "model", func(c *server.Config) {
			c.ExplainEndpoint, c.ExplainModel, c.ExplainAPIKey = fake.URL, "test-model", apiKey
		})
		key := e.account(t, "model", account.TierPro, nil, 0)
		tests := []struct {
			preset   string
			fallback string // "": the model's text
		}{
			{"youtube", ""},
			{"vimeo", "invented_cues"},
			{"facebook", "invented_actions"},
		}
		for _, tt := range tests {
			p := e.processOK(t, key, planSRT, map[string]string{"includeExplain": "true", "preset": tt.preset})
			checkModelCall(t, tt.preset, fake, 0, "Bearer "+apiKey)
			if tt.fallback == "" {
				checkModelWrote(t, tt.preset, p.Explain, builtin[tt.preset])
				// The explain call goes through the same model.
				y := e.explainOK(t, key, p.explainBody(planCues, true))
				checkModelWrote(t, "POST /explain", &y.Explanation, builtin[tt.preset])
				checkModelCall(t, "POST /explain", fake, 0, "Bearer "+apiKey)
				continue
			}
			checkFellBack(t, tt.preset, p.Explain, builtin[tt.preset], tt.fallback)
		}
		if got, want := fake.Count(), len(tests)+1; got != want {
			t.Errorf("the endpoint got %d requests; want %d, one per explanation", got, want)
		}
	})

	failures := []struct {
		name     string
		b        llmtest.Behaviour
		timeout  time.Duration
		fallback string
	}{
		{name: "timeout", b: llmtest.Behaviour{Reply: reword, Delay: 30 * time.Second}, timeout: 500 * time.Millisecond, fallback: "timeout"},
		{name: "garbage", b: llmtest.Behaviour{Content: "Sure! Here is a friendlier explanation."}, fallback: "invalid_response"},
		{name: "HTTP 500", b: llmtest.Behaviour{Status: 500}, fallback: "unavailable"},
	}
	for i, tt := range failures {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fake := llmtest.New(t, tt.b)
			e := newExplainEnv(t, db, fmt.Sprintf("failure%d", i), func(c *server.Config) {
				c.ExplainEndpoint, c.ExplainModel = fake.URL, "test-model"
				c.ExplainTimeout = tt.timeout
			})
			key := e.account(t, "model", account.TierPro, nil, 0)
			began := time.Now()
			p := e.processOK(t, key, planSRT, withExplain)
			if took := time.Since(began); tt.b.Delay > 0 && took > tt.b.Delay/2 {
				t.Errorf("the process call took %v: it waited for the model", took)
			}
			checkFellBack(t, tt.name, p.Explain, builtin["youtube"], tt.fallback)
			checkModelCall(t, tt.name, fake, 1, "")
		})
	}
}

// checkModelCall checks the last request the fake got: want in total
// (0: any), with the Authorization header auth, carrying planSRT's draft.
func checkModelCall(t *testing.T, what string, fake *llmtest.Server, want int, auth string) {
	t.Helper()
	if want > 0 && fake.Count() != want {
		t.Errorf("%s: the endpoint got %d requests; want %d", what, fake.Count(), want)
	}
	req := fake.Last()
	if req.Authorization != auth {
		t.Errorf("%s: Authorization %q; want %q", what, req.Authorization, auth)
	}
	if d, err := req.Draft(); err != nil || d.CueCount != 3 || d.Explanation == nil || len(d.Explanation.Actions) == 0 {
		t.Errorf("%s: draft sent %+v (%v); want the plan of a 3-cue file", what, d, err)
	}
}

// checkModelWrote checks an explanation whose prose the fake's model
// rewrote from builtin: its headline, its titles, the built-in plan.
func checkModelWrote(t *testing.T, what string, x, builtin *explain.Explanation) {
	t.Helper()
	if x == nil {
		t.Fatalf("%s: no explanation", what)
	}
	if x.WrittenBy != "model" || x.Model != "test-model" || x.Fallback != "" || x.Headline != modelHeadline {
		t.Errorf("%s: writtenBy %q model %q fallback %q headline %q; want the model's", what, x.WrittenBy, x.Model, x.Fallback, x.Headline)
	}
	if len(x.Actions) != len(builtin.Actions) {
		t.Fatalf("%s: %d actions; want the built-in %d", what, len(x.Actions), len(builtin.Actions))
	}
	for i, a := range x.Actions {
		b := builtin.Actions[i]
		if a.ID != b.ID || a.Kind != b.Kind || !reflect.DeepEqual(a.CueIndexes, b.CueIndexes) || a.Priority != b.Priority ||
			!reflect.DeepEqual(a.Codes, b.Codes) || a.Title != "Editor: "+b.Title {
			t.Errorf("%s: action %d %+v; want the built-in plan's %+v, reworded", what, i, a, b)
		}
	}
}

// checkFellBack checks an explanation whose model's text was refused: the
// built-in one, word for word, with the reason.
func checkFellBack(t *testing.T, what string, x, builtin *explain.Explanation, fallback string) {
	t.Helper()
	if x == nil {
		t.Fatalf("%s: no explanation", what)
	}
	want := *builtin
	want.Fallback = fallback
	if !reflect.DeepEqual(*x, want) {
		t.Errorf("%s: explanation\n%+v\nwant the built-in one with fallback %s:\n%+v", what, *x, fallback, want)
	}
}
