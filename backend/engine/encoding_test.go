package engine

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/captionqa/captionqa/backend/caption"
	"github.com/captionqa/captionqa/backend/internal/golden"
)

// Bytes that are not UTF-8 never leave a delivery ready: in a UTF-8 file
// (after a BOM, or without one when the rest is UTF-8) each line holding
// them is an encoding_not_utf8 error that remains, as the characters read
// for them are a guess; a file that is Windows-1252 throughout is
// re-encoded (will_adapt). The text is kept either way.
func TestInvalidBytesAreNotReady(t *testing.T) {
	t.Parallel()
	eng := newTestEngine(t)
	srt := func(lines ...string) []byte {
		return []byte("1\n00:00:01,000 --> 00:00:03,000\n" + strings.Join(lines, "\n") + "\n")
	}
	tests := []struct {
		name       string
		in         []byte
		wantStatus Status
		wantLines  []int // of the remaining encoding_not_utf8 errors
		wantText   string
	}{
		{"utf-8 bom with invalid bytes", append([]byte{0xEF, 0xBB, 0xBF}, srt("Caf\xe9 cr\xe8me")...), NeedsAttention, []int{3}, "Café crème"},
		{"utf-8 with a stray byte", srt("Café crème brûlée,", "na\xefve"), NeedsAttention, []int{4}, "Café crème brûlée,\nnaïve"},
		{"windows-1252", srt("Caf\xe9 cr\xe8me"), WillAdapt, nil, "Café crème"},
	}
	for _, tt := range tests {
		for _, prof := range []string{"warn-only", "auto-split-cps"} {
			t.Run(tt.name+"/"+prof, func(t *testing.T) {
				t.Parallel()
				res, err := eng.Process(context.Background(), Request{Data: tt.in, Preset: "youtube", FixProfile: prof})
				if err != nil {
					t.Fatal(err)
				}
				if res.DeliveryStatus != tt.wantStatus || res.AidedStatus != tt.wantStatus {
					t.Errorf("statuses %s, %s; want %s", res.DeliveryStatus, res.AidedStatus, tt.wantStatus)
				}
				var lines []int
				for _, d := range res.Report.Remaining {
					if d.Code == caption.CodeEncodingNotUTF8 && d.Severity == caption.SeverityError {
						lines = append(lines, d.Line)
					}
				}
				if !slices.Equal(lines, tt.wantLines) {
					t.Errorf("encoding errors remain on lines %v; want %v (remaining %+v)", lines, tt.wantLines, res.Report.Remaining)
				}
				if !strings.Contains(res.Output, tt.wantText) {
					t.Errorf("output %q lacks %q", res.Output, tt.wantText)
				}
			})
		}
	}
}

// pysrt's Windows-1252 file is still read as Windows-1252 and re-encoded.
func TestWindows1252CorpusFile(t *testing.T) {
	t.Parallel()
	eng := newTestEngine(t)
	data := golden.ReadCorpus(t, "pysrt/tests/static/windows-1252.srt")
	res, err := eng.Process(context.Background(), Request{Filename: "windows-1252.srt", Data: data, Preset: "youtube"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Report.Encoding != caption.EncodingWindows1252 || res.DeliveryStatus != WillAdapt {
		t.Errorf("encoding %q, status %s; want %s, %s", res.Report.Encoding, res.DeliveryStatus, caption.EncodingWindows1252, WillAdapt)
	}
	for _, d := range res.Report.Diagnostics {
		if d.Code == caption.CodeEncodingNotUTF8 && d.Severity != caption.SeverityWarning {
			t.Errorf("diagnostic %+v; want one warning", d)
		}
	}
}
