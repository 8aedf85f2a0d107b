package engine

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/caption/synth"
)

func TestZZDiag(t *testing.T) {
	eng := newTestEngine(t)
	data := synth.SRT(40_000)
	req := Request{Filename: "big.srt", Data: data, Preset: "generic", FixProfile: "auto-split-cps", Standard: "dcmp"}
	s := time.Now()
	r, err := eng.Process(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Println(time.Since(s))
	cnt := func(name string, n int) { fmt.Println(name, n) }
	cnt("diags", len(r.Report.Diagnostics))
	cnt("fixes", len(r.Report.Fixes))
	cnt("remaining", len(r.Report.Remaining))
	cnt("sugg", len(r.Suggestions))
	cnt("aided fixes", len(r.AidedReport.Fixes))
	cnt("aided remaining", len(r.AidedReport.Remaining))
	cnt("outcues", r.Report.OutputCues)
	cnt("aided outcues", r.AidedReport.OutputCues)
	fmt.Println(r.AidedSameAsDelivery, len(r.Output))
	byCode := map[string]int{}
	for _, d := range r.Report.Diagnostics { byCode[d.Code]++ }
	fmt.Println("diag codes", byCode)
	byCode = map[string]int{}
	for _, d := range r.Report.Fixes { byCode[d.Code+"/"+d.Action]++ }
	fmt.Println("fix codes", byCode)
	byCode = map[string]int{}
	for _, d := range r.AidedReport.Fixes { byCode[d.Code+"/"+d.Action]++ }
	fmt.Println("aided fix codes", byCode)
	byCode = map[string]int{}
	for _, d := range r.Suggestions { byCode[d.Code]++ }
	fmt.Println("sugg codes", byCode)
	byCode = map[string]int{}
	for _, d := range r.AidedReport.Remaining { byCode[d.Code]++ }
	fmt.Println("aided rem codes", byCode)
	for _, c := range r.Report.Standard.Clauses { fmt.Println(c.ID, c.Status, len(c.Findings)) }
}
