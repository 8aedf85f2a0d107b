package storetest

import (
	"encoding/json"
	"errors"
	"reflect"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/project"
	"github.com/captionqa/captionqa/backend/webhook"
)

func exportScenarios() []scenario {
	return []scenario{
		{"create counts a run", exportCreate},
		{"artifacts and known blobs", exportArtifacts},
		{"webhook outbox", exportOutbox},
	}
}

// newExport returns export n of the account's project, at revision 3,
// with an artifact per preset (ids 1000n+i).
func (e *env) newExport(n int, accountID string, presets ...string) *project.Export {
	ex := &project.Export{ID: uuidN(n), AccountID: accountID, ProjectID: uuidN(500), IRRevision: 3, CreatedAt: e.now()}
	for i, preset := range presets {
		ex.Artifacts = append(ex.Artifacts, project.Artifact{ID: uuidN(1000*n + i), ExportID: ex.ID, AccountID: accountID,
			Preset: preset, BlobKey: "artifacts/" + ex.ID + "/" + preset + ".vtt", Filename: "talk-" + preset + ".vtt",
			ContentType: "text/vtt; charset=utf-8", Bytes: 1234, SHA256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
			CreatedAt: e.now()})
	}
	return ex
}

// runCount is the account's pool of the clock's day.
func (e *env) runCount(accountID string, cap int) project.RunCount {
	return project.RunCount{Pool: "account:" + accountID, Day: day(e.now()), Cap: cap}
}

// exportCreate: each export takes one run of its pool, in the same
// transaction; at the cap nothing is stored.
func exportCreate(e *env) {
	t, s := e.t, e.queue().Exports()
	a := e.account(1)
	steps := []struct {
		name     string
		export   *project.Export
		cap      int
		wantUsed int
		full     bool
	}{
		{"first", e.newExport(1, a.ID, "youtube", "lms"), 2, 1, false},
		{"second", e.newExport(2, a.ID, "youtube"), 2, 2, false},
		{"pool full", e.newExport(3, a.ID, "youtube"), 2, 0, true},
		{"no cap", e.newExport(4, a.ID, "youtube"), 0, 0, true},
	}
	for _, st := range steps {
		used, err := s.CreateExport(e.ctx, st.export, e.runCount(a.ID, st.cap), false)
		switch {
		case st.full:
			if !errors.Is(err, project.ErrPoolFull) {
				t.Errorf("%s: %v; want ErrPoolFull", st.name, err)
			}
			_, aerr := s.ArtifactByID(e.ctx, st.export.Artifacts[0].ID)
			if apperr.KindOf(aerr) != apperr.NotFound {
				t.Errorf("%s: the refused export's artifact: %v; want not found", st.name, aerr)
			}
		case err != nil || used != st.wantUsed:
			t.Errorf("%s: used %d, %v; want %d", st.name, used, err, st.wantUsed)
		}
	}
	if used, err := e.db.Quotas().Used(e.ctx, "account:"+a.ID, day(e.now())); err != nil || used != 2 {
		t.Errorf("pool count = %d, %v; want 2", used, err)
	}
	// An unknown account stores nothing and takes no run.
	_, err := s.CreateExport(e.ctx, e.newExport(5, uuidN(99), "youtube"), e.runCount(uuidN(99), 5), false)
	wantKind(t, err, apperr.NotFound)
	if used, err := e.db.Quotas().Used(e.ctx, "account:"+uuidN(99), day(e.now())); err != nil || used != 0 {
		t.Errorf("the unknown account's pool = %d, %v; want 0", used, err)
	}
}

func exportArtifacts(e *env) {
	t, s := e.t, e.queue().Exports()
	a, b := e.account(1), e.account(2)
	ex := e.newExport(1, a.ID, "youtube", "lms")
	_, err := s.CreateExport(e.ctx, ex, e.runCount(a.ID, 10), false)
	must(t, err)
	want := &ex.Artifacts[1]
	reads := []struct {
		name string
		get  func() (*project.Artifact, error)
		kind apperr.Kind
	}{
		{"own", func() (*project.Artifact, error) { return s.Artifact(e.ctx, a.ID, want.ID) }, none},
		{"by id", func() (*project.Artifact, error) { return s.ArtifactByID(e.ctx, want.ID) }, none},
		{"another account's", func() (*project.Artifact, error) { return s.Artifact(e.ctx, b.ID, want.ID) }, apperr.NotFound},
		{"unknown", func() (*project.Artifact, error) { return s.ArtifactByID(e.ctx, uuidN(99)) }, apperr.NotFound},
	}
	for _, tt := range reads {
		got, err := tt.get()
		if !kindIs(err, tt.kind) {
			t.Errorf("%s: %v; want %s", tt.name, err, tt.kind.Code())
			continue
		}
		if err == nil && !sameArtifact(got, want) {
			t.Errorf("%s: %+v\nwant %+v", tt.name, got, want)
		}
	}

	orphan := "artifacts/" + uuidN(77) + "/youtube.vtt"
	known, err := e.db.KnownBlobs(e.ctx, []string{ex.Artifacts[0].BlobKey, orphan, ex.Artifacts[1].BlobKey})
	must(t, err)
	if !known[ex.Artifacts[0].BlobKey] || !known[ex.Artifacts[1].BlobKey] || known[orphan] {
		t.Errorf("KnownBlobs = %v; want both artifacts' keys and not the orphan", known)
	}
	if known, err := e.db.KnownBlobs(e.ctx, nil); err != nil || len(known) != 0 {
		t.Errorf("KnownBlobs(none) = %v, %v", known, err)
	}
}

// exportOutbox: an export records its webhook delivery in its own
// transaction exactly when it should: notify set and the webhook
// enabled; an export refused by a full pool records none.
func exportOutbox(e *env) {
	t, q := e.t, e.queue()
	on, off, bare := e.account(1), e.account(2), e.account(3)
	for _, c := range []*webhook.Config{
		{AccountID: on.ID, URL: "https://hooks.example/on", Enabled: true, Secret: webhook.NewSecret(), CreatedAt: e.now(), UpdatedAt: e.now()},
		{AccountID: off.ID, URL: "https://hooks.example/off", Enabled: false, Secret: webhook.NewSecret(), CreatedAt: e.now(), UpdatedAt: e.now()},
	} {
		must(t, q.Webhooks().SaveWebhook(e.ctx, c))
	}
	steps := []struct {
		name      string
		account   string
		notify    bool
		cap       int
		wantAdded int
	}{
		{"enabled and notify", on.ID, true, 100, 1},
		{"not notified", on.ID, false, 100, 0},
		{"disabled", off.ID, true, 100, 0},
		{"no webhook", bare.ID, true, 100, 0},
		{"pool full: rolled back", on.ID, true, 0, 0},
	}
	for i, st := range steps {
		e.clock.Advance(time.Second)
		before, err := q.Webhooks().Deliveries(e.ctx, st.account, 100)
		must(t, err)
		ex := e.newExport(i+1, st.account, "lms")
		_, err = q.Exports().CreateExport(e.ctx, ex, e.runCount(st.account, st.cap), st.notify)
		if st.cap > 0 && err != nil || st.cap == 0 && !errors.Is(err, project.ErrPoolFull) {
			t.Fatalf("%s: CreateExport: %v", st.name, err)
		}
		after, err := q.Webhooks().Deliveries(e.ctx, st.account, 100)
		must(t, err)
		if got := len(after) - len(before); got != st.wantAdded {
			t.Errorf("%s: %d deliveries recorded, want %d", st.name, got, st.wantAdded)
		}
		if st.wantAdded == 1 {
			d := after[0]
			var body webhook.Payload
			if err := json.Unmarshal(d.Body, &body); err != nil {
				t.Errorf("%s: body %q: %v", st.name, d.Body, err)
			}
			if want := webhook.NewExportDelivery(ex, ex.CreatedAt); d.Status != webhook.Pending || d.Event != webhook.EventExportComplete ||
				d.ExportID != ex.ID || d.ProjectID != ex.ProjectID || d.IRRevision != 3 || d.Attempts != 0 || d.Run != 1 ||
				!sameTime(d.CreatedAt, ex.CreatedAt) || !sameTime(d.WindowStart, ex.CreatedAt) ||
				!reflect.DeepEqual(body.Receipt, webhook.NewReceipt(ex)) || string(d.Body) != string(want.Body) {
				t.Errorf("%s: delivery %+v, body %s", st.name, d, d.Body)
			}
		}
	}
}

// sameArtifact compares artifacts, times as instants.
func sameArtifact(got, want *project.Artifact) bool {
	g := *got
	if !sameTime(g.CreatedAt, want.CreatedAt) {
		return false
	}
	g.CreatedAt = want.CreatedAt
	return g == *want
}
