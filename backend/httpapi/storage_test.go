package httpapi_test

import (
	"context"
	"testing"

	"github.com/captionqa/captionqa/backend/account"
)

// storageOf reads GET /usage's storage.
func (ts *testServer) storageOf(secret string) map[string]float64 {
	ts.t.Helper()
	raw := ts.get("/api/v1/usage", secret).json(ts.t)["storage"].(map[string]any)
	out := map[string]float64{}
	for k, v := range raw {
		out[k] = v.(float64)
	}
	return out
}

// TestStorageQuota: GET /usage shows what the account stores against its
// quota; an export that would pass it is refused up front with 413
// storage_quota, costs no run and stores nothing; deleting the project
// frees its exports and revisions at once.
func TestStorageQuota(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	a, secret := ts.account("storage@example.com", account.TierPro, nil)
	if got := ts.storageOf(secret); got["quotaBytes"] != float64(account.ProStorageQuota) || got["usedBytes"] != 0 {
		t.Fatalf("storage of a new account = %v", got)
	}
	id := ts.mustProject(secret, `{"name":"Quota","ir":`+jsonString(validIR)+`}`)
	st := ts.storageOf(secret)
	if st["revisionsBytes"] <= 0 || st["usedBytes"] != st["revisionsBytes"] || st["artifactsBytes"] != 0 {
		t.Fatalf("storage after a project = %v", st)
	}

	// Room for the revision and 10 bytes: no export fits.
	tight := int64(st["usedBytes"]) + 10
	if _, err := ts.accounts.UpdateAccount(context.Background(), a.Email, account.AccountUpdate{StorageQuota: &tight}); err != nil {
		t.Fatal(err)
	}
	before := ts.get("/api/v1/usage", secret).json(t)["usedToday"]
	e := wantError(t, ts.postJSON("POST", exportPath(id), secret, `{"presets":["youtube","lms"]}`), 413, "payload_too_large")
	if e.Details["reason"] != "storage_quota" || e.Details["quotaBytes"] != float64(tight) || e.Details["usedBytes"] != st["usedBytes"] {
		t.Errorf("refusal = %+v; want reason storage_quota with the figures", e)
	}
	if after := ts.get("/api/v1/usage", secret).json(t)["usedToday"]; after != before {
		t.Errorf("usedToday %v -> %v; a refused export costs no run", before, after)
	}
	if got := ts.storageOf(secret); got["artifactsBytes"] != 0 {
		t.Errorf("a refused export stored %v bytes", got["artifactsBytes"])
	}

	// Back to the tier's quota: the export is stored and counted.
	zero := int64(0)
	if _, err := ts.accounts.UpdateAccount(context.Background(), a.Email, account.AccountUpdate{StorageQuota: &zero}); err != nil {
		t.Fatal(err)
	}
	ts.mustExport(secret, id, `{"presets":["youtube","lms"]}`)
	st = ts.storageOf(secret)
	if st["artifactsBytes"] <= 0 || st["usedBytes"] != st["artifactsBytes"]+st["revisionsBytes"] {
		t.Errorf("storage after an export = %v", st)
	}

	if r := ts.postJSON("DELETE", projectsPath+"/"+id, secret, ``); r.status != 200 {
		t.Fatalf("delete project: %d %s", r.status, r.body)
	}
	if got := ts.storageOf(secret); got["usedBytes"] != 0 {
		t.Errorf("storage after deleting the project = %v; want nothing", got)
	}
}

// TestExportTooLarge: one export's files together are capped at 64 MiB,
// whatever the quota: five templates of 16 MiB each are refused with 413
// export_too_large, and nothing is stored.
func TestExportTooLarge(t *testing.T) {
	t.Parallel()
	ts := newTestServer(t)
	secret := ts.pro("too-large@example.com")
	id := ts.mustProject(secret, `{"name":"Big","ir":`+jsonString(validIR)+`}`)
	script := `function exportTimeline() { return "x".repeat(16 * 1024 * 1024 - 1024); }`
	ids := ""
	for i := range 5 {
		r := ts.postJSON("POST", templatesPath, secret, `{"name":"big `+string(rune('a'+i))+`","scriptSource":`+jsonString(script)+`}`)
		if r.status != 201 {
			t.Fatalf("create template: %d %s", r.status, r.body)
		}
		if ids != "" {
			ids += ","
		}
		ids += `"` + r.json(t)["id"].(string) + `"`
	}
	e := wantError(t, ts.postJSON("POST", exportPath(id), secret, `{"presets":[],"templateIds":[`+ids+`]}`), 413, "payload_too_large")
	if e.Details["reason"] != "export_too_large" || e.Details["limitBytes"] != float64(64<<20) {
		t.Errorf("refusal = %+v; want export_too_large, limitBytes 64 MiB", e)
	}
	if got := ts.storageOf(secret); got["artifactsBytes"] != 0 {
		t.Errorf("a refused export left %v bytes counted", got["artifactsBytes"])
	}
}
