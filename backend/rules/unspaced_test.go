package rules

import (
	"reflect"
	"testing"
)

func TestUnspacedBreaks(t *testing.T) {
	t.Parallel()
	tests := []struct {
		word string
		want []string // the parts between the breaks
	}{
		{"東京タワーは高い。", []string{"東", "京", "タ", "ワー", "は", "高", "い。"}},
		{"「ちょっと待って」と", []string{"「ちょっ", "と", "待っ", "て」", "と"}},
		{"我们去北京，好吗？", []string{"我", "们", "去", "北", "京，", "好", "吗？"}},
		{"東京Towerへ", []string{"東", "京", "Tower", "へ"}},
		{"2020年", []string{"2020", "年"}},
		{"well-known", []string{"well-known"}},
		{"e-mail/web", []string{"e-mail/web"}},
		{"café", []string{"café"}},
		{"한국어", []string{"한국어"}},
		{"", nil},
	}
	for _, tt := range tests {
		var got []string
		at := 0
		for _, b := range append(UnspacedBreaks(tt.word, nil), len(tt.word)) {
			if b > at {
				got = append(got, tt.word[at:b])
			}
			at = b
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("UnspacedBreaks(%q) parts %q, want %q", tt.word, got, tt.want)
		}
	}
}
