package fix

import "testing"

func TestProbe(t *testing.T) {
	for _, s := range []string{"This is the view from the top of the lighthouse.", "We have to hurry so the last ferry doesn't leave without us tonight.", "I'll meet you at the old harbour when the tide turns tomorrow.", "so the last ferry", "at the old harbour"} {
		for _, w := range []int{42, 32, 25, 20} {
			ws := tokenize(s, nil)
			f := &fixer{}
			f.wrap(s, ws, w, minLines(ws, w))
			t.Logf("%d %q", w, render(s, ws))
		}
	}
}
