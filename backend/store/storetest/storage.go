package storetest

import (
	"slices"
	"strings"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/media"
	"github.com/captionqa/captionqa/backend/project"
)

func storageScenarios() []scenario {
	return []scenario{
		{"usage and quota", storageQuota},
		{"retention and project delete free it", storageFreed},
		{"account delete", storageAccountDelete},
	}
}

// storageAccount creates account n with a storage quota of quota bytes.
func (e *env) storageAccount(n int, quota int64) *account.Account {
	e.t.Helper()
	a := e.account(n)
	got, err := e.db.Accounts().UpdateAccount(e.ctx, a.Email, func(a *account.Account) error { a.StorageQuota = quota; return nil })
	if err != nil || got.StorageQuota != quota {
		e.t.Fatalf("set storage quota: %+v, %v", got, err)
	}
	return got
}

// wantStorage fails unless the account stores exactly want (its quota
// included).
func (e *env) wantStorage(step, accountID string, want account.Storage) {
	e.t.Helper()
	got, err := e.db.Accounts().Storage(e.ctx, accountID)
	if err != nil || got != want {
		e.t.Errorf("%s: Storage = %+v, %v; want %+v", step, got, err, want)
	}
}

// wantFull fails unless err is the storage quota's refusal.
func (e *env) wantFull(step string, err error) {
	e.t.Helper()
	if apperr.KindOf(err) != apperr.InputTooLarge {
		e.t.Errorf("%s: %v; want payload_too_large (storage_quota)", step, err)
		return
	}
	wantDetail(e.t, err, "reason", "storage_quota")
}

// storageQuota: an account's artifacts, open or kept media and kept
// revisions count; each write that would pass the quota is refused and
// stores nothing; the tier's quota applies without an override.
func storageQuota(e *env) {
	t := e.t
	plain := e.account(9)
	e.wantStorage("tier default", plain.ID, account.Storage{Quota: account.ProStorageQuota})
	if _, err := e.db.Accounts().Storage(e.ctx, uuidN(99)); apperr.KindOf(err) != apperr.NotFound {
		t.Errorf("Storage of an unknown account: %v; want not_found", err)
	}

	a := e.storageAccount(1, 10_000)
	ps := e.db.Projects()
	p := newProject(2, a.ID, e.now())
	p.IRRevision, p.CueCount = 1, 1
	must(t, ps.CreateProject(e.ctx, p, &project.Revision{Number: 1, CueCount: 1, CreatedAt: e.now(), IR: strings.Repeat("a", 1000)}, 10))
	_, err := ps.AddRevision(e.ctx, a.ID, p.ID, 1, &project.Revision{CueCount: 1, CreatedAt: e.now(), IR: strings.Repeat("é", 250)}, 1)
	must(t, err) // revision 1 pruned: 500 bytes (250 two-byte letters) kept
	u := e.newUpload(3, a.ID, p.ID, time.Hour)
	u.Bytes = 2000
	e.upload(u)
	e.upload(e.newUpload(4, plain.ID, p.ID, time.Hour)) // another account's
	ex := e.newExport(5, a.ID, "youtube", "lms")        // 2 x 1234 bytes
	_, err = e.queue().Exports().CreateExport(e.ctx, ex, e.runCount(a.ID, 10), false)
	must(t, err)
	want := account.Storage{Artifacts: 2468, Media: 2000, Revisions: 500, Quota: 10_000}
	e.wantStorage("after writes", a.ID, want)

	// 4,968 stored: 5,033 more do not fit, 5,032 do.
	big := e.newExport(6, a.ID, "youtube", "lms", "netflix", "bbc", "cbc")
	_, err = e.queue().Exports().CreateExport(e.ctx, big, e.runCount(a.ID, 10), false)
	e.wantFull("export of 6,170 bytes", err)
	if _, err := e.queue().Exports().Artifact(e.ctx, a.ID, big.Artifacts[0].ID); apperr.KindOf(err) != apperr.NotFound {
		t.Errorf("refused export was stored: %v", err)
	}
	u2 := e.newUpload(7, a.ID, p.ID, time.Hour)
	u2.Bytes = 5033
	e.wantFull("upload of 5,033 bytes", e.db.Uploads().CreateUpload(e.ctx, u2, 100, e.now()))
	_, err = ps.AddRevision(e.ctx, a.ID, p.ID, 2, &project.Revision{CueCount: 1, CreatedAt: e.now(), IR: strings.Repeat("b", 5033)}, 50)
	e.wantFull("revision of 5,033 bytes", err)
	e.wantFull("project of 5,033 bytes", ps.CreateProject(e.ctx, newProject(8, a.ID, e.now()),
		&project.Revision{Number: 1, CueCount: 1, CreatedAt: e.now(), IR: strings.Repeat("c", 5033)}, 10))
	e.wantStorage("after refusals", a.ID, want)
	u2.Bytes = 5032
	must(t, e.db.Uploads().CreateUpload(e.ctx, u2, 100, e.now()))
	want.Media += 5032
	e.wantStorage("filled to the byte", a.ID, want)

	// Completed media count until their retention ends.
	e.finish(u, time.Hour)
	e.wantStorage("completed media", a.ID, want)
	e.clock.Advance(time.Hour)
	want.Media = 5032
	e.wantStorage("media past retention", a.ID, want)
}

// storageFreed: the retention sweep deletes the exports created before
// its cut-off, oldest first, and hands back their artifacts' keys;
// deleting a project deletes its exports and revisions and releases its
// media, and the account's usage drops at once.
func storageFreed(e *env) {
	t := e.t
	a := e.storageAccount(1, 1<<30)
	ps, xs := e.db.Projects(), e.queue().Exports()
	p := newProject(2, a.ID, e.now())
	p.IRRevision, p.CueCount = 1, 1
	must(t, ps.CreateProject(e.ctx, p, &project.Revision{Number: 1, CueCount: 1, CreatedAt: e.now(), IR: strings.Repeat("a", 300)}, 10))
	old := e.newExport(3, a.ID, "youtube")
	_, err := xs.CreateExport(e.ctx, old, e.runCount(a.ID, 10), false)
	must(t, err)
	e.clock.Advance(time.Hour)
	kept := e.newExport(4, a.ID, "youtube", "lms")
	kept.ProjectID = p.ID
	_, err = xs.CreateExport(e.ctx, kept, e.runCount(a.ID, 10), false)
	must(t, err)
	open := e.newUpload(5, a.ID, p.ID, time.Hour)
	open.Bytes = 700
	e.upload(open)
	done := e.upload(e.newUpload(6, a.ID, p.ID, time.Hour))
	done.Bytes = 40 << 20
	e.finish(done, 24*time.Hour)
	other := e.upload(e.newUpload(7, a.ID, uuidN(500), time.Hour))
	e.wantStorage("before", a.ID, account.Storage{Artifacts: 3 * 1234, Media: 700 + 2*(40<<20), Revisions: 300, Quota: 1 << 30})

	keys, n, err := xs.DeleteExportsBefore(e.ctx, e.now().Add(-time.Minute), 10)
	if err != nil || n != 1 || !slices.Equal(keys, []string{old.Artifacts[0].BlobKey}) {
		t.Errorf("DeleteExportsBefore = %v, %d, %v; want the older export's one key", keys, n, err)
	}
	if _, err := xs.Artifact(e.ctx, a.ID, old.Artifacts[0].ID); apperr.KindOf(err) != apperr.NotFound {
		t.Errorf("expired export still there: %v", err)
	}

	keys, err = ps.DeleteProject(e.ctx, a.ID, p.ID)
	slices.Sort(keys)
	if want := []string{kept.Artifacts[1].BlobKey, kept.Artifacts[0].BlobKey}; err != nil || !slices.Equal(keys, want) {
		t.Errorf("DeleteProject = %v, %v; want the keys %v", keys, err, want)
	}
	e.wantStorage("after", a.ID, account.Storage{Media: other.Bytes, Quota: 1 << 30})
	due, err := e.db.Uploads().DueUploads(e.ctx, e.now(), media.CompleteGrace, 10)
	if ids := uploadIDs(due); err != nil || !slices.Contains(ids, open.ID) || !slices.Contains(ids, done.ID) || slices.Contains(ids, other.ID) {
		t.Errorf("DueUploads after the delete = %v, %v; want the project's two sessions only", ids, err)
	}
}

// storageAccountDelete: AccountBlobs names the account's artifacts, its
// media not yet swept and its sessions' part prefixes; DeleteAccount
// deletes the account with every row it owns, and no other account's.
func storageAccountDelete(e *env) {
	t := e.t
	a, other := e.account(1), e.account(2)
	xs := e.queue().Exports()
	ex := e.newExport(3, a.ID, "youtube")
	_, err := xs.CreateExport(e.ctx, ex, e.runCount(a.ID, 10), false)
	must(t, err)
	_, err = xs.CreateExport(e.ctx, e.newExport(4, other.ID, "youtube"), e.runCount(other.ID, 10), false)
	must(t, err)
	u := e.upload(e.newUpload(5, a.ID, uuidN(500), time.Hour))
	keys, prefixes, err := e.db.Accounts().AccountBlobs(e.ctx, a.ID)
	slices.Sort(keys)
	if want := []string{ex.Artifacts[0].BlobKey, u.ObjectKey}; err != nil || !slices.Equal(keys, want) ||
		!slices.Equal(prefixes, []string{media.PartPrefix + u.ID + "/"}) {
		t.Errorf("AccountBlobs = %v, %v, %v; want %v and the session's part prefix", keys, prefixes, err, want)
	}
	must(t, e.db.Accounts().DeleteAccount(e.ctx, a.ID))
	if err := e.db.Accounts().DeleteAccount(e.ctx, a.ID); apperr.KindOf(err) != apperr.NotFound {
		t.Errorf("DeleteAccount again: %v; want not_found", err)
	}
	if _, err := xs.Artifact(e.ctx, a.ID, ex.Artifacts[0].ID); apperr.KindOf(err) != apperr.NotFound {
		t.Errorf("the deleted account's artifact: %v; want not_found", err)
	}
	if st, err := e.db.Accounts().Storage(e.ctx, other.ID); err != nil || st.Artifacts != 1234 {
		t.Errorf("the other account's storage = %+v, %v; want its one artifact", st, err)
	}
}
