package sqlstore_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/exporttpl"
	"github.com/captionqa/captionqa/backend/project"
	"github.com/captionqa/captionqa/backend/store/sqlstore"
	"github.com/captionqa/captionqa/backend/video"
	"github.com/captionqa/captionqa/backend/webhook"
)

// TestTimesInWholeSeconds: PostgreSQL's timestamptz keeps microseconds
// and pgx reads times back in the local zone; SQLite keeps the text it
// is given. So every store writes its times in whole seconds and reads
// them back in UTC, on both engines alike: a time off the second in
// another zone comes back as its second, in UTC.
func TestTimesInWholeSeconds(t *testing.T) {
	t.Parallel()
	forEach(t, func(t *testing.T, open func(testing.TB, func() time.Time) *sqlstore.DB) {
		ctx := context.Background()
		db := open(t, nil)
		seedAccountRows(t, db, "a1")
		q := openQueue(t, db)
		at := time.Date(2026, 5, 6, 9, 0, 0, 700_000_000, time.FixedZone("CET", 3600))
		want := time.Date(2026, 5, 6, 8, 0, 0, 0, time.UTC)
		for _, tc := range []struct {
			name string
			// write stores something at at and reads back the times it kept.
			write func() ([]time.Time, error)
		}{
			{"account", func() ([]time.Time, error) {
				a := &account.Account{ID: "id-1", Email: "one@example.test", Tier: account.TierPro,
					Features: []string{account.FeatureAPIV1}, DailyCap: 50, CreatedAt: at}
				if err := db.Accounts().CreateAccount(ctx, a); err != nil {
					return nil, err
				}
				got, err := db.Accounts().AccountByID(ctx, a.ID)
				if err != nil {
					return nil, err
				}
				return []time.Time{got.CreatedAt}, nil
			}},
			{"api key and its last use", func() ([]time.Time, error) {
				k := &account.Key{ID: "k1", AccountID: "a1", Name: "k-k1", Prefix: "cqa_111111111111", CreatedAt: at, ExpiresAt: at.Add(time.Hour)}
				if err := db.Accounts().CreateKey(ctx, k, []byte{1}); err != nil {
					return nil, err
				}
				if err := db.Accounts().TouchKey(ctx, k.ID, at); err != nil {
					return nil, err
				}
				got, _, _, err := db.Accounts().KeyByPrefix(ctx, k.Prefix)
				if err != nil || got.LastUsedAt == nil {
					return nil, fmt.Errorf("key %+v: %v", got, err)
				}
				return []time.Time{got.CreatedAt, *got.LastUsedAt}, nil
			}},
			{"project", func() ([]time.Time, error) {
				if err := db.Projects().CreateProject(ctx, testProject(1, "a1", at), nil, 10); err != nil {
					return nil, err
				}
				got, err := db.Projects().ProjectIR(ctx, "a1", uuidOf(1))
				if err != nil {
					return nil, err
				}
				return []time.Time{got.CreatedAt, got.UpdatedAt}, nil
			}},
			{"template and its update", func() ([]time.Time, error) {
				tpl := &exporttpl.Template{ID: uuidOf(1), AccountID: "a1", Name: "t", Source: "src", JS: "js", Revision: 1,
					FilenamePattern: exporttpl.DefaultFilenamePattern, ContentType: exporttpl.DefaultContentType, CreatedAt: at, UpdatedAt: at}
				if err := db.Templates().CreateTemplate(ctx, tpl, 10); err != nil {
					return nil, err
				}
				tpl.Revision = 2
				if err := db.Templates().UpdateTemplate(ctx, tpl, 1); err != nil {
					return nil, err
				}
				got, err := db.Templates().Template(ctx, "a1", tpl.ID)
				if err != nil {
					return nil, err
				}
				return []time.Time{got.CreatedAt, got.UpdatedAt}, nil
			}},
			{"upload", func() ([]time.Time, error) {
				u := testUpload(1, "a1", at)
				u.ExpiresAt = at
				if err := db.Uploads().CreateUpload(ctx, u, 10, at.Add(-time.Hour)); err != nil {
					return nil, err
				}
				got, err := db.Uploads().UploadByID(ctx, u.ID)
				if err != nil {
					return nil, err
				}
				return []time.Time{got.CreatedAt, got.ExpiresAt}, nil
			}},
			{"export and its artifact", func() ([]time.Time, error) {
				e := testExport(1, "a1", at, "lms")
				if _, err := db.Exports().CreateExport(ctx, e, project.RunCount{Pool: "account:a1", Day: exportDay, Cap: 10}, false); err != nil {
					return nil, err
				}
				got, err := db.Exports().Export(ctx, "a1", e.ID)
				if err != nil {
					return nil, err
				}
				return []time.Time{got.CreatedAt, got.Artifacts[0].CreatedAt}, nil
			}},
			{"video job", func() ([]time.Time, error) {
				j := testJob(1, "a1", at)
				if _, err := q.Videos().CreateJob(ctx, j, project.RunCount{Pool: j.Pool, Day: j.PoolDay, Cap: 100},
					video.WorkArgs{JobID: j.ID, Run: j.Run}); err != nil {
					return nil, err
				}
				got, err := q.Videos().JobByID(ctx, j.ID)
				if err != nil {
					return nil, err
				}
				return []time.Time{got.CreatedAt}, nil
			}},
			{"webhook", func() ([]time.Time, error) {
				c := &webhook.Config{AccountID: "a1", URL: "https://hooks.example/1", Secret: "whsec_1", CreatedAt: at, UpdatedAt: at}
				if err := q.Webhooks().SaveWebhook(ctx, c); err != nil {
					return nil, err
				}
				got, err := q.Webhooks().Webhook(ctx, "a1")
				if err != nil {
					return nil, err
				}
				return []time.Time{got.CreatedAt, got.UpdatedAt}, nil
			}},
			{"delivery", func() ([]time.Time, error) {
				d := testDelivery(1, "a1", at)
				d.LastAttemptAt, d.DeliveredAt = at, at
				if err := q.Webhooks().InsertDelivery(ctx, d); err != nil {
					return nil, err
				}
				got, err := q.Webhooks().Delivery(ctx, d.ID)
				if err != nil {
					return nil, err
				}
				return []time.Time{got.CreatedAt, got.WindowStart, got.NextAttemptAt, got.LastAttemptAt, got.DeliveredAt}, nil
			}},
		} {
			got, err := tc.write()
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
				continue
			}
			for i, g := range got {
				if !g.Equal(want) || g.Location() != time.UTC {
					t.Errorf("%s: time %d read back as %v, want %v", tc.name, i, g, want)
				}
			}
		}
	})
}
