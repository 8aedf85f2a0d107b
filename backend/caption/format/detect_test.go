package format

import (
	"errors"
	"strings"
	"testing"
)

func TestDetect(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, file, head, want string
	}{
		{"webvtt header", "x.txt", "WEBVTT\n\n00:01.000 --> 00:02.000\nhi\n", VTT},
		{"webvtt after bom", "", "\uFEFFWEBVTT - title\n", VTT},
		{"srt", "", "1\n00:00:01,000 --> 00:00:02,000\nhi\n", SRT},
		{"srt with dots stays srt by name", "a.srt", "1\n00:00:01.000 --> 00:00:02.000\nhi\n", SRT},
		{"headerless vtt", "", "00:01.000 --> 00:02.000\nhi\n\n00:03.000 --> 00:04.000\nyo\n", VTT},
		{"headerless vtt named vtt", "a.vtt", "1\n00:00:01,000 --> 00:00:02,000\nhi\n", VTT},
		{"sbv", "", "0:00:01.000,0:00:02.000\nhi\n\n0:00:03.000,0:00:04.000\nyo\n", SBV},
		{"ass", "", "[Script Info]\nScriptType: v4.00+\n", ASS},
		{"ssa events only", "", "Dialogue: Marked=0,0:00:01.00,0:00:02.00,Default,,0,0,0,,hi\n", ASS},
		{"ttml", "", `<?xml version="1.0"?><tt xmlns="http://www.w3.org/ns/ttml">`, TTML},
		{"dfxp", "", `<tt xmlns="http://www.w3.org/2006/10/ttaf1">`, TTML},
		{"xml named ttml", "a.ttml", `<?xml version="1.0"?><!-- long comment -->`, TTML},
		{"json ir", "", `{"version":1,"cues":[]}`, JSON},
		{"scc", "x.txt", "Scenarist_SCC V1.0\r\n\r\n00:00:01;00\t9420 9420\r\n", SCC},
		{"scc after a bom", "", "\uFEFFScenarist_SCC V1.0\n", SCC},
		{"scc without its header", "", "00:00:01:00\t9420 9420 94ae 94ae\n", SCC},
		{"scc by name", "a.scc", "9420 9420\n", SCC},
		{"ebu stl", "x.bin", "850STL25.01\x31\x30\x30" + strings.Repeat(" ", 100), STL},
		{"ebu stl at 30 fps", "", "437STL30.01" + strings.Repeat("\x00", 20), STL},
		{"stl by name only", "a.stl", "garbage", STL},
		{"an srt named stl is srt", "a.stl", "1\n00:00:01,000 --> 00:00:02,000\nhi\n", SRT},
		{"not quite stl", "", "85XSTL25.01", ""},
		{"unknown text falls back to the name", "a.srt", "hello world", SRT},
		{"unknown", "notes.txt", "hello world", ""},
		{"empty", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := Detect(tt.file, []byte(tt.head)); got != tt.want {
				t.Errorf("Detect(%q, %q) = %q; want %q", tt.file, tt.head, got, tt.want)
			}
		})
	}
}

func TestNormalize(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"WebVTT": VTT, " ssa ": ASS, "dfxp": TTML, "developer-json": JSON, "srt": SRT,
		"SCC": SCC, "stl": STL, "EBU-STL": STL} {
		if got, err := Normalize(in); got != want || err != nil {
			t.Errorf("Normalize(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := Normalize("sami"); !errors.Is(err, ErrUnknownFormat) {
		t.Errorf("Normalize(sami) error = %v; want ErrUnknownFormat", err)
	}
	for ext, want := range map[string]string{"a.scc": SCC, "b.STL": STL} {
		if got := FromExtension(ext); got != want {
			t.Errorf("FromExtension(%q) = %q; want %q", ext, got, want)
		}
	}
	if err := Write(STL, nil, nil); !errors.Is(err, ErrUnknownFormat) {
		t.Errorf("Write(stl) error = %v; want ErrUnknownFormat (EBU STL is read-only)", err)
	}
	if err := Write(ASS, nil, nil); !errors.Is(err, ErrUnknownFormat) {
		t.Errorf("Write(ass) error = %v; want ErrUnknownFormat (ASS is read-only)", err)
	}
}

func TestReadUnknownContent(t *testing.T) {
	t.Parallel()
	f, tr, diags, err := Read("notes.txt", "", []byte("just some prose\n"))
	if err != nil || f != "" || len(tr.Cues) != 0 {
		t.Fatalf("Read = %q, %d cues, %v", f, len(tr.Cues), err)
	}
	if len(diags) != 2 || diags[0].Code != CodeUnknownFormat || diags[1].Code != "no_cues" {
		t.Errorf("diagnostics = %+v; want unknown_format, no_cues", diags)
	}
	_, _, diags, _ = Read("empty.txt", "", nil)
	if len(diags) != 1 || diags[0].Code != "empty_input" {
		t.Errorf("empty input diagnostics = %+v; want empty_input", diags)
	}
}
