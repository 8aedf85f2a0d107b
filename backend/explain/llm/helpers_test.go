package llm

import (
	"testing"

	"github.com/captionqa/captionqa/backend/explain"
	"github.com/captionqa/captionqa/backend/explain/llm/llmtest"
)

// testModel is the model name the tests' writers send.
const testModel = "qwen2.5-7b-instruct"

// newFake starts a fake endpoint (package llmtest: no model runs in
// tests) answering as b says, and returns it with a Writer pointed at
// it; edit, when not nil, adjusts the options first.
func newFake(t *testing.T, b llmtest.Behaviour, edit func(*Options)) (*llmtest.Server, *Writer) {
	t.Helper()
	fake := llmtest.New(t, b)
	opts := Options{Endpoint: fake.URL, Model: testModel}
	if edit != nil {
		edit(&opts)
	}
	w, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return fake, w
}

// testDraft returns a draft with three actions: a blocking one on two
// cues, an auto-fixable suggestion and a manual review without cues.
func testDraft() explain.Draft {
	return explain.Draft{
		Platform: "YouTube",
		Standard: "WCAG 2.1 AA",
		CueCount: 42,
		Explanation: &explain.Explanation{
			Format:   explain.Format,
			Status:   explain.StatusActions,
			Headline: "Not ready for YouTube: 2 cues overlap",
			Message: "Fix the overlapping cues 3 and 4 first: YouTube shows only one of them. " +
				"Then run again with auto-split-cps to split 3 cues that read too fast.",
			ClientSummary:       "The captions are delivered as WebVTT for YouTube. Cues 3 and 4 overlap & need an editor.",
			PlatformNotes:       "YouTube accepts <b> and <i> only; positioning is dropped.",
			AlreadyFixedSummary: "Writing the output removed 1 empty cue.",
			DeliveryComparison:  explain.Comparison{UploadReadyScore: 72.5, EnhancedScore: 91, Summary: "The enhanced delivery scores 91 against 72.5."},
			WrittenBy:           explain.WrittenByBuiltin,
			Actions: []explain.Action{
				{
					ID: "a1", Priority: explain.PriorityBlocking, Blocking: true, Kind: explain.KindFixTiming,
					Title: "Fix overlapping cues", Detail: "Cues 3 and 4 overlap by 200 ms.",
					Codes: []string{"overlapping_cues"}, CueIndexes: []int{2, 3}, Count: 2,
					Clauses: []string{"wcag-1.2.2"}, EffortMinutes: 4, Owner: "caption editor",
				},
				{
					ID: "a2", Priority: explain.PrioritySuggested, Kind: explain.KindSplitCues,
					Title: "Split fast cues", Detail: "Cues 10, 18 and 31 read faster than 20 characters a second.",
					Codes: []string{"reading_speed_high"}, CueIndexes: []int{9, 17, 30}, Count: 3,
					AutoFixable: true, FixProfile: "auto-split-cps", EffortMinutes: 3, Owner: "caption editor",
				},
				{
					ID: "a3", Priority: explain.PriorityReview, Kind: explain.KindReviewManually,
					Title: "Check speaker changes", Detail: "Only a person with the video can tell who speaks.",
					Codes: []string{"speaker_unknown"}, Count: 1, EffortMinutes: 10, Owner: "QC reviewer",
				},
			},
		},
	}
}

// rewritten is a model's answer for testDraft.
func rewritten() explain.Prose {
	return explain.Prose{
		Headline:            "YouTube will not take this file yet: cues 3 and 4 overlap",
		Message:             "Start with cues 3 and 4.",
		ClientSummary:       "Delivered as WebVTT; two cues need an editor.",
		PlatformNotes:       "Only bold and italics survive.",
		AlreadyFixedSummary: "One empty cue was removed.",
		ComparisonSummary:   "91 against 72.5.",
		Actions: []explain.ActionProse{
			{ID: "a1", Title: "Separate cues 3 and 4", Detail: "They overlap by 200 ms."},
			{ID: "a2", Title: "Split three fast cues", Detail: "Run again with auto-split-cps."},
			{ID: "a3", Title: "Check who speaks", Detail: "Watch the video."},
		},
	}
}
