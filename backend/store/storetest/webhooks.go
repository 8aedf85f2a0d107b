package storetest

import (
	"fmt"
	"reflect"
	"slices"
	"time"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/webhook"
)

func webhookScenarios() []scenario {
	return []scenario{
		{"save and replace", webhookSave},
		{"deliveries", webhookDeliveries},
		{"record attempt and requeue", webhookAttempts},
	}
}

func webhookSave(e *env) {
	t, s := e.t, e.queue().Webhooks()
	a := e.account(1)
	_, err := s.Webhook(e.ctx, a.ID)
	wantKind(t, err, apperr.NotFound)
	created := e.now()
	first := &webhook.Config{AccountID: a.ID, URL: "https://hooks.example/a", Enabled: true, Secret: webhook.NewSecret(),
		CreatedAt: created, UpdatedAt: created}
	must(t, s.SaveWebhook(e.ctx, first))
	e.clock.Advance(time.Minute)
	second := &webhook.Config{AccountID: a.ID, URL: "https://hooks.example/b", Enabled: false, Secret: webhook.NewSecret(),
		CreatedAt: created, UpdatedAt: e.now()}
	for _, want := range []*webhook.Config{first, second} {
		must(t, s.SaveWebhook(e.ctx, want))
		got, err := s.Webhook(e.ctx, a.ID)
		must(t, err)
		if got.AccountID != want.AccountID || got.URL != want.URL || got.Enabled != want.Enabled || got.Secret != want.Secret ||
			!sameTime(got.CreatedAt, want.CreatedAt) || !sameTime(got.UpdatedAt, want.UpdatedAt) {
			t.Errorf("webhook = %+v, want %+v", got, want)
		}
	}
	wantKind(t, s.SaveWebhook(e.ctx, &webhook.Config{AccountID: uuidN(99), URL: "https://hooks.example/x",
		Secret: webhook.NewSecret(), CreatedAt: e.now(), UpdatedAt: e.now()}), apperr.NotFound)
}

// newDelivery returns test delivery n of the account, pending, made at
// the clock's time.
func (e *env) newDelivery(n int, accountID string) *webhook.Delivery {
	return &webhook.Delivery{ID: uuidN(n), AccountID: accountID, Event: webhook.EventTest,
		Body: fmt.Appendf(nil, `{"event":"test","deliveryId":%q}`, uuidN(n)), Status: webhook.Pending,
		CreatedAt: e.now(), WindowStart: e.now(), NextAttemptAt: e.now(), Run: 1}
}

func webhookDeliveries(e *env) {
	t, s := e.t, e.queue().Webhooks()
	a, b := e.account(1), e.account(2)
	_, err := s.LastDelivery(e.ctx, a.ID)
	wantKind(t, err, apperr.NotFound)
	for n := 1; n <= 3; n++ {
		must(t, s.InsertDelivery(e.ctx, e.newDelivery(n, a.ID)))
		e.clock.Advance(time.Second)
	}
	export := e.newDelivery(4, b.ID)
	export.Event, export.ProjectID, export.IRRevision, export.ExportID = webhook.EventExportComplete, uuidN(500), 7, uuidN(501)
	export.Status, export.Attempts, export.LastStatusCode, export.LastError = webhook.Failed, 3, 502, "bad gateway"
	export.LastAttemptAt, export.NextAttemptAt = e.now(), time.Time{}
	must(t, s.InsertDelivery(e.ctx, export))
	wantKind(t, s.InsertDelivery(e.ctx, e.newDelivery(5, uuidN(99))), apperr.NotFound)

	got, err := s.Delivery(e.ctx, export.ID)
	must(t, err)
	if !sameDelivery(got, export) {
		t.Errorf("Delivery = %+v\nwant %+v", got, export)
	}
	_, err = s.Delivery(e.ctx, uuidN(99))
	wantKind(t, err, apperr.NotFound)
	list, err := s.Deliveries(e.ctx, a.ID, 2)
	must(t, err)
	if ids := deliveryIDs(list); !slices.Equal(ids, []string{uuidN(3), uuidN(2)}) {
		t.Errorf("Deliveries(limit 2) = %v; want 3, 2 (newest first)", ids)
	}
	if len(list) > 0 && !sameDelivery(&list[0], e.deliveryAt(3, a.ID, t0.Add(2*time.Second))) {
		t.Errorf("listed delivery = %+v", list[0])
	}
	last, err := s.LastDelivery(e.ctx, a.ID)
	must(t, err)
	if last.ID != uuidN(3) {
		t.Errorf("LastDelivery = %s; want %s", last.ID, uuidN(3))
	}
}

// deliveryAt is delivery n as newDelivery made it at at.
func (e *env) deliveryAt(n int, accountID string, at time.Time) *webhook.Delivery {
	d := e.newDelivery(n, accountID)
	d.CreatedAt, d.WindowStart, d.NextAttemptAt = at, at, at
	return d
}

// webhookAttempts: an attempt records its outcome only in its run; a
// requeue starts the next run, pending again.
func webhookAttempts(e *env) {
	t, s := e.t, e.queue().Webhooks()
	a := e.account(1)
	d := e.newDelivery(1, a.ID)
	must(t, s.InsertDelivery(e.ctx, d))

	e.clock.Advance(time.Minute)
	retry := *d
	retry.Attempts, retry.LastStatusCode, retry.LastError = 1, 503, "unavailable"
	retry.LastAttemptAt, retry.NextAttemptAt = e.now(), e.now().Add(time.Minute)
	must(t, s.RecordAttempt(e.ctx, &retry))
	if got, err := s.Delivery(e.ctx, d.ID); err != nil || !sameDelivery(got, &retry) {
		t.Errorf("after a failed attempt: %+v, %v\nwant %+v", got, err, retry)
	}

	e.clock.Advance(time.Minute)
	failed := retry
	failed.Status, failed.Attempts, failed.LastStatusCode, failed.LastError = webhook.Failed, 2, 0, "connection refused"
	failed.LastAttemptAt, failed.NextAttemptAt = e.now(), time.Time{}
	must(t, s.RecordAttempt(e.ctx, &failed))

	// A redeliver starts run 2; an attempt of run 1 then records nothing.
	e.clock.Advance(time.Minute)
	again := failed
	again.Status, again.WindowStart, again.NextAttemptAt = webhook.Pending, e.now(), e.now()
	must(t, s.Requeue(e.ctx, &again))
	if again.Run != 2 {
		t.Errorf("requeued run = %d; want 2", again.Run)
	}
	got, err := s.Delivery(e.ctx, d.ID)
	must(t, err)
	if got.Run != 2 || got.Status != webhook.Pending || !sameTime(got.WindowStart, again.WindowStart) ||
		!sameTime(got.NextAttemptAt, again.NextAttemptAt) || !sameTime(got.CreatedAt, d.CreatedAt) {
		t.Errorf("after requeue: %+v", got)
	}
	late := failed // run 1
	late.Status, late.Attempts = webhook.Delivered, 3
	wantKind(t, s.RecordAttempt(e.ctx, &late), apperr.NotFound)

	delivered := again
	delivered.Status, delivered.Attempts, delivered.LastStatusCode, delivered.LastError = webhook.Delivered, 3, 204, ""
	delivered.LastAttemptAt, delivered.NextAttemptAt, delivered.DeliveredAt = e.now(), time.Time{}, e.now()
	must(t, s.RecordAttempt(e.ctx, &delivered))
	if got, err := s.Delivery(e.ctx, d.ID); err != nil || !sameDelivery(got, &delivered) {
		t.Errorf("delivered: %+v, %v\nwant %+v", got, err, delivered)
	}

	unknown := e.newDelivery(99, a.ID)
	wantKind(t, s.RecordAttempt(e.ctx, unknown), apperr.NotFound)
	wantKind(t, s.Requeue(e.ctx, unknown), apperr.NotFound)
}

// sameDelivery compares deliveries, times as instants.
func sameDelivery(got, want *webhook.Delivery) bool {
	g, w := *got, *want
	times := [][2]time.Time{{g.LastAttemptAt, w.LastAttemptAt}, {g.NextAttemptAt, w.NextAttemptAt},
		{g.DeliveredAt, w.DeliveredAt}, {g.CreatedAt, w.CreatedAt}, {g.WindowStart, w.WindowStart}}
	for _, tt := range times {
		if !sameTime(tt[0], tt[1]) {
			return false
		}
	}
	g.LastAttemptAt, g.NextAttemptAt, g.DeliveredAt, g.CreatedAt, g.WindowStart =
		w.LastAttemptAt, w.NextAttemptAt, w.DeliveredAt, w.CreatedAt, w.WindowStart
	return reflect.DeepEqual(g, w)
}

func deliveryIDs(list []webhook.Delivery) []string {
	ids := make([]string, len(list))
	for i, d := range list {
		ids[i] = d.ID
	}
	return ids
}
