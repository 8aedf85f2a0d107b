package blobtest

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/blob"
)

func testKeys(t *testing.T, s blob.Store) {
	ctx := context.Background()
	for _, tc := range []struct {
		key string
		ok  bool
	}{
		{"a", true},
		{"artifacts/2f0c/youtube.srt", true},
		{"media/A-b_c.9/x", true},
		{"", false},
		{"/etc/passwd", false},
		{"a/../b", false},
		{"..", false},
		{"a/./b", false},
		{"a//b", false},
		{"b/", false},
		{".tmp/x", false},
		{".hidden", false},
		{`a\b`, false},
		{"a b", false},
		{"é", false},
		{"a/b\x00", false},
		{strings.Repeat("a", 1025), false},
	} {
		_, err := s.Put(ctx, tc.key, strings.NewReader("x"), 1)
		if tc.ok {
			if err != nil {
				t.Errorf("put %.20q: %v", tc.key, err)
			}
			continue
		}
		if apperr.KindOf(err) != apperr.BadRequest {
			t.Errorf("put %.20q: got %v, want bad_request", tc.key, err)
		}
		if _, _, err := s.Get(ctx, tc.key, nil); apperr.KindOf(err) != apperr.BadRequest {
			t.Errorf("get %.20q: got %v, want bad_request", tc.key, err)
		}
		if err := s.Delete(ctx, tc.key); apperr.KindOf(err) != apperr.BadRequest {
			t.Errorf("delete %.20q: got %v, want bad_request", tc.key, err)
		}
	}
	// Only the valid keys were stored.
	if got := fmt.Sprint(keys(list(t, s, ""))); got != "[a artifacts/2f0c/youtube.srt media/A-b_c.9/x]" {
		t.Errorf("stored %s", got)
	}
}

func testPutGet(t *testing.T, s blob.Store) {
	const key, content = "artifacts/x/out.srt", "0123456789abcdef"
	info := mustPut(t, s, key, content)
	checkInfo(t, "put", info, key, int64(len(content)))
	for _, tc := range []struct {
		name string
		rng  *blob.Range
		want string
	}{
		{"whole", nil, content},
		{"from start to end", &blob.Range{Start: 0, Length: -1}, content},
		{"to end", &blob.Range{Start: 10, Length: -1}, "abcdef"},
		{"head", &blob.Range{Start: 0, Length: 4}, "0123"},
		{"middle", &blob.Range{Start: 2, Length: 3}, "234"},
		{"past end is cut", &blob.Range{Start: 14, Length: 100}, "ef"},
		{"last byte", &blob.Range{Start: 15, Length: 1}, "f"},
		{"empty at end", &blob.Range{Start: 16, Length: -1}, ""},
		{"zero length", &blob.Range{Start: 3, Length: 0}, ""},
		{"zero length at end", &blob.Range{Start: 16, Length: 0}, ""},
	} {
		got, gi := read(t, s, key, tc.rng)
		if got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
		// Info describes the whole object, whatever the range.
		checkInfo(t, tc.name, gi, key, int64(len(content)))
		if gi.ETag != info.ETag {
			t.Errorf("%s: ETag %s, put said %s", tc.name, gi.ETag, info.ETag)
		}
	}
	for _, rng := range []blob.Range{{Start: -1, Length: 1}, {Start: 17, Length: -1}, {Start: 17, Length: 0}, {Start: 100, Length: 2}, {Start: 0, Length: -2}} {
		_, _, err := s.Get(context.Background(), key, &rng)
		if apperr.KindOf(err) != apperr.BadRequest {
			t.Errorf("range %+v: got %v, want bad_request", rng, err)
		}
	}
	// An empty object reads as empty, whole or from its end.
	mustPut(t, s, "empty", "")
	for _, rng := range []*blob.Range{nil, {Start: 0, Length: -1}, {Start: 0, Length: 0}} {
		if got, gi := read(t, s, "empty", rng); got != "" || gi.Size != 0 {
			t.Errorf("empty object, range %+v: %q, %+v", rng, got, gi)
		}
	}
}

func testOverwrite(t *testing.T, s blob.Store) {
	first := mustPut(t, s, "a/k", "first version")
	// Replace, with an unknown size.
	second, err := s.Put(context.Background(), "a/k", strings.NewReader("second"), -1)
	if err != nil {
		t.Fatal(err)
	}
	checkInfo(t, "second put", second, "a/k", 6)
	got, gi := read(t, s, "a/k", nil)
	if got != "second" || gi.Size != 6 || gi.ETag != second.ETag {
		t.Errorf("after replace: %q %+v; put said %+v", got, gi, second)
	}
	if second.ETag == first.ETag {
		t.Errorf("ETag %s unchanged by new content", first.ETag)
	}
	if ks := keys(list(t, s, "")); len(ks) != 1 {
		t.Errorf("objects %q, want one", ks)
	}
}

func testGetMissing(t *testing.T, s blob.Store) {
	mustPut(t, s, "a", "x")
	for _, key := range []string{"b", "a/b", "dir/none", "A"} {
		if _, _, err := s.Get(context.Background(), key, nil); apperr.KindOf(err) != apperr.NotFound {
			t.Errorf("get %s: got %v, want not_found", key, err)
		}
		for _, rng := range []blob.Range{{Start: 1, Length: -1}, {Start: 0, Length: 0}} {
			if _, _, err := s.Get(context.Background(), key, &rng); apperr.KindOf(err) != apperr.NotFound {
				t.Errorf("get %s %+v: got %v, want not_found", key, rng, err)
			}
		}
	}
}
