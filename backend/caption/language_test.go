package caption

import "testing"

func TestIsLanguageTag(t *testing.T) {
	t.Parallel()
	tests := map[string]bool{
		"en": true, "en-GB": true, "zh-Hant-TW": true, "es-419": true, "English": true,
		"": false, "e": false, "en_US": false, "en-": false, "1a": false, "not a tag": false,
	}
	for in, want := range tests {
		if got := IsLanguageTag(in); got != want {
			t.Errorf("IsLanguageTag(%q) = %v, want %v", in, got, want)
		}
	}
}
