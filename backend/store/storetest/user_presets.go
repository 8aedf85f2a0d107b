package storetest

import (
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/userpreset"
)

func userPresetScenarios() []scenario {
	return []scenario{
		{"put list get delete", userPresetLifecycle},
	}
}

// userPresetLifecycle: a put creates a name then replaces its file
// keeping CreatedAt; the limit counts new names only; one account's
// presets are invisible to another.
func userPresetLifecycle(e *env) {
	t, s := e.t, e.db.UserPresets()
	a, b := e.account(1), e.account(2)
	put := func(accountID, name, file string, at time.Time) (bool, error) {
		return s.PutPreset(e.ctx, &userpreset.Stored{AccountID: accountID, Name: name, File: []byte(file), CreatedAt: at, UpdatedAt: at}, 2)
	}
	created, err := put(a.ID, "studio-b", `{"base":"youtube"}`, e.now())
	must(t, err)
	if !created {
		t.Error("the first put of a name did not create it")
	}
	_, err = put(a.ID, "studio-a", `{"base":"generic"}`, e.now())
	must(t, err)
	wantIs(t, func() error { _, err := put(a.ID, "studio-c", `{}`, e.now()); return err }(), userpreset.ErrTooManyPresets)
	later := e.now().Add(time.Hour)
	created, err = put(a.ID, "studio-b", `{"base":"tiktok"}`, later)
	must(t, err)
	if created {
		t.Error("a put of a held name created a second one, past the limit")
	}
	_, err = put(uuidN(99), "x", `{}`, e.now())
	wantKind(t, err, apperr.NotFound)

	list, err := s.ListPresets(e.ctx, a.ID)
	must(t, err)
	if len(list) != 2 || list[0].Name != "studio-a" || list[1].Name != "studio-b" || string(list[1].File) != `{"base":"tiktok"}` {
		t.Fatalf("list = %+v; want studio-a, studio-b (replaced), by name", list)
	}
	got, err := s.Preset(e.ctx, a.ID, "studio-b")
	must(t, err)
	if got.AccountID != a.ID || !sameTime(got.CreatedAt, e.now()) || !sameTime(got.UpdatedAt, later) || string(got.File) != `{"base":"tiktok"}` {
		t.Errorf("preset = %+v; want the file replaced, created kept, updated later", got)
	}
	if other, err := s.ListPresets(e.ctx, b.ID); err != nil || len(other) != 0 {
		t.Errorf("another account's list = %+v, %v", other, err)
	}
	_, err = s.Preset(e.ctx, b.ID, "studio-b")
	wantKind(t, err, apperr.NotFound)
	wantKind(t, s.DeletePreset(e.ctx, b.ID, "studio-b"), apperr.NotFound)
	wantKind(t, s.DeletePreset(e.ctx, a.ID, "studio-b"), none)
	wantKind(t, s.DeletePreset(e.ctx, a.ID, "studio-b"), apperr.NotFound)
	_, err = s.Preset(e.ctx, a.ID, "studio-b")
	wantKind(t, err, apperr.NotFound)
}
