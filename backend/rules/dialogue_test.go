package rules

import "testing"

func TestDialogueDash(t *testing.T) {
	t.Parallel()
	for w, want := range map[string]int{"-": 1, "-Hi": 1, "–Hi": 3, "—": 3, "--": 0, "-–": 0, "-5": 0, "Hi": 0, "well-known": 0, "": 0} {
		if got := DialogueDash(w); got != want {
			t.Errorf("DialogueDash(%q) = %d, want %d", w, got, want)
		}
	}
}
