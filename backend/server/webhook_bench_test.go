package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/httpapi"
	"github.com/captionqa/captionqa/backend/server"
	"github.com/captionqa/captionqa/backend/webhook"
)

// Shape of one benchmark operation: benchExports exports, small ones (a
// 3-cue project, one preset), spread over benchAccounts accounts because
// the export-operation burst limit (project.ExportBurst, 10 at once,
// then 0.5 a second) is per account and not configurable; each account
// has its own webhook, as integrators would.
const (
	benchExports  = 1000
	benchAccounts = 100
	benchClients  = 8 // exports in flight at once
)

// benchAccount is one account of the benchmark: its key, project and
// webhook secret.
type benchAccount struct {
	key, projectID, secret string
}

// benchServer starts a server with production webhook settings (default
// schedule, timeout and poll interval) trusting rcv, with the per-key
// burst limit lifted, and benchAccounts pro accounts whose webhooks
// point at rcv, enabled or not.
func benchServer(b *testing.B, rcv *receiver, enabled bool) (*server.Server, []benchAccount) {
	b.Helper()
	cfg := server.DefaultConfig()
	cfg.Addr, cfg.DataDir = "127.0.0.1:0", b.TempDir()
	cfg.BurstPerSecond, cfg.Burst = 1e6, 1e6
	cfg.ProDailyCap = account.MaxProDailyCap
	cfg.WebhookCAFile = rcv.CAFile
	cfg.WebhookAllow = loopbackOnly
	srv := server.New(cfg)
	runServer(b, srv)
	base := srv.URL() + "/api/v1"
	ctx := context.Background()
	accounts := make([]benchAccount, benchAccounts)
	for i := range accounts {
		a, err := srv.Accounts().CreateAccount(ctx, account.NewAccount{Email: fmt.Sprintf("bench%d@example.com", i), Tier: account.TierPro})
		if err != nil {
			b.Fatal(err)
		}
		_, key, err := srv.Accounts().CreateKey(ctx, a.ID, account.NewKey{Name: "bench", Scopes: account.Scopes()})
		if err != nil {
			b.Fatal(err)
		}
		var hook httpapi.WebhookView
		mustCall(b, "PUT", base+"/webhook", key, fmt.Sprintf(`{"url":%q,"enabled":%v}`, rcv.URL(), enabled), 200, &hook)
		var p httpapi.ProjectView
		mustCall(b, "POST", base+"/projects", key, `{"name":"bench","ir":`+jsonString(longIR(3))+`}`, 201, &p)
		accounts[i] = benchAccount{key: key, projectID: p.ID, secret: orEmpty(hook.Secret)}
	}
	return srv, accounts
}

// runExports makes benchExports exports, benchExports/benchAccounts per
// account, from benchClients clients at once; it returns the export ids.
func runExports(b *testing.B, base string, accounts []benchAccount) []string {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: benchClients}}
	defer client.CloseIdleConnections()
	work := make(chan benchAccount)
	var mu sync.Mutex
	var ids []string
	var wg sync.WaitGroup
	for range benchClients {
		wg.Go(func() {
			for a := range work {
				req, _ := http.NewRequest("POST", base+"/projects/"+a.projectID+"/exports", strings.NewReader(`{"presets":["youtube"]}`))
				req.Header.Set("Authorization", "Bearer "+a.key)
				req.Header.Set("Content-Type", "application/json")
				res, err := client.Do(req)
				if err != nil {
					b.Error(err)
					continue
				}
				body, _ := io.ReadAll(res.Body)
				res.Body.Close()
				if res.StatusCode != 201 {
					b.Errorf("export: %d %s", res.StatusCode, body)
					continue
				}
				var x httpapi.ExportCreated
				_ = json.Unmarshal(body, &x)
				mu.Lock()
				ids = append(ids, x.ExportID)
				mu.Unlock()
			}
		})
	}
	for i := range benchExports {
		work <- accounts[i%len(accounts)]
	}
	close(work)
	wg.Wait()
	return ids
}

// BenchmarkExportsWithWebhook: what delivering the export webhook costs.
// Each operation is 1,000 small exports against a fresh server. In
// "webhook" every account's webhook is enabled and every export is
// delivered to a local HTTPS receiver (checked at the end: each one
// arrives, signed with its account's secret); ns/op is the exports' own
// time, with deliveries running beside them, and deliveries/s counts
// from the first export to the last delivery. "disabled" is the same
// exports with the webhooks disabled: the difference in ns/op is what
// delivery adds to the exports.
func BenchmarkExportsWithWebhook(b *testing.B) {
	for _, mode := range []struct {
		name    string
		enabled bool
	}{{"webhook", true}, {"disabled", false}} {
		b.Run(mode.name, func(b *testing.B) {
			var exportTime, deliveryTime, drainTime time.Duration
			var duringExports, drained int
			for range b.N {
				b.StopTimer()
				rcv := newReceiver(b)
				var mu sync.Mutex
				var arrivals []time.Time
				// Verification is per account, below: the receiver's one
				// secret cannot check them all.
				rcv.setAnswer(func(w http.ResponseWriter, _ *http.Request) {
					mu.Lock()
					arrivals = append(arrivals, time.Now())
					mu.Unlock()
					w.WriteHeader(http.StatusNoContent)
				})
				srv, accounts := benchServer(b, rcv, mode.enabled)
				b.StartTimer()

				start := time.Now()
				ids := runExports(b, srv.URL()+"/api/v1", accounts)
				exportsEnd := time.Now()
				exportTime += exportsEnd.Sub(start)
				b.StopTimer()
				if len(ids) != benchExports {
					b.Fatalf("%d exports got a 201 of %d", len(ids), benchExports)
				}
				if !mode.enabled {
					checkNoneSent(b, srv, rcv, accounts)
					continue
				}
				rcv.waitFor(b, benchExports, 5*time.Minute)
				mu.Lock()
				last := arrivals[len(arrivals)-1]
				for _, at := range arrivals {
					if at.After(exportsEnd) {
						drained++
					} else {
						duringExports++
					}
				}
				mu.Unlock()
				deliveryTime += last.Sub(start)
				drainTime += max(last.Sub(exportsEnd), 0)
				checkAllDelivered(b, srv, rcv, accounts, ids)
			}
			b.ReportMetric(float64(exportTime.Milliseconds())/float64(b.N), "exports-ms/op")
			if mode.enabled {
				// Overall, from the first export to the last delivery; and
				// the backlog's rate once the exports were done.
				b.ReportMetric(float64(benchExports*b.N)/deliveryTime.Seconds(), "deliveries/s")
				b.ReportMetric(float64(duringExports)/float64(b.N), "delivered-during-exports/op")
				if drainTime > 0 {
					b.ReportMetric(float64(drained)/drainTime.Seconds(), "backlog-deliveries/s")
				}
			}
		})
	}
}

// checkAllDelivered checks that each export arrived once, signed with its
// account's secret, and that every account's log says delivered.
func checkAllDelivered(b *testing.B, srv *server.Server, rcv *receiver, accounts []benchAccount, ids []string) {
	b.Helper()
	secrets := map[string]string{} // by project
	for _, a := range accounts {
		secrets[a.projectID] = a.secret
	}
	want := map[string]bool{}
	for _, id := range ids {
		want[id] = true
	}
	seen := map[string]bool{}
	for _, g := range rcv.deliveries() {
		var p webhook.Payload
		if err := json.Unmarshal(g.Body, &p); err != nil || len(p.Receipt.Artifacts) == 0 {
			b.Fatalf("delivery body %s: %v", g.Body, err)
		}
		x := p.Receipt.Artifacts[0].ExportID
		if !webhook.Verify(secrets[p.Receipt.ProjectID], g.Body, g.Header.Get(webhook.HeaderSignature)) {
			b.Errorf("the delivery of export %s does not verify with its account's secret", x)
		}
		if !want[x] || seen[x] {
			b.Errorf("export %s: unknown or delivered twice", x)
		}
		seen[x] = true
	}
	if len(seen) != len(want) {
		b.Errorf("%d of %d exports delivered", len(seen), len(want))
	}
	base := srv.URL() + "/api/v1"
	for _, a := range accounts {
		// The log's outcome is committed just after the receiver's
		// answer: wait for it.
		deadline := time.Now().Add(logWait)
		for {
			// httpapi's deliveryList is unexported: its one member.
			var log struct {
				Deliveries []hookDelivery `json:"deliveries"`
			}
			mustCall(b, "GET", base+"/webhook/deliveries", a.key, "", 200, &log)
			done := 0
			for _, d := range log.Deliveries {
				if d.Status == "delivered" && d.Attempts == 1 {
					done++
				}
			}
			if done == benchExports/benchAccounts {
				break
			}
			if time.Now().After(deadline) {
				b.Fatalf("an account's log: %v; want %d delivered at the first attempt", log.Deliveries, benchExports/benchAccounts)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// checkNoneSent checks that disabled webhooks recorded and sent nothing.
func checkNoneSent(b *testing.B, srv *server.Server, rcv *receiver, accounts []benchAccount) {
	b.Helper()
	for _, a := range accounts[:5] {
		// httpapi's deliveryList is unexported: its one member.
		var log struct {
			Deliveries []hookDelivery `json:"deliveries"`
		}
		mustCall(b, "GET", srv.URL()+"/api/v1/webhook/deliveries", a.key, "", 200, &log)
		if len(log.Deliveries) != 0 {
			b.Fatalf("a disabled webhook logged %v", log.Deliveries)
		}
	}
	if n := len(rcv.deliveries()); n != 0 {
		b.Fatalf("disabled webhooks sent %d requests", n)
	}
}

// BenchmarkWebhookBesideHungReceiver: how long one account's delivery
// takes, from its redeliver to its arrival at a fast local receiver
// (ns/op), alone and while another account's receiver never answers.
// Settings are production's (attempt timeout 10 s, per-account cap 2,
// breaker 5 failures for a minute) but for the queue's polling, 100 ms,
// so that the poll does not hide the queueing. In "beside a hung
// receiver" the other account has 6 deliveries due before the first
// operation, its receiver holding every request it gets; as its attempts
// time out they are retried on the schedule, or held back by its
// circuit. first-delivery-ms is the account's first delivery, from its
// export, made while the hung attempts are fresh: on a shared queue it
// waited for their timeout.
func BenchmarkWebhookBesideHungReceiver(b *testing.B) {
	for _, mode := range []struct {
		name string
		hang bool
	}{{"alone", false}, {"beside a hung receiver", true}} {
		b.Run(mode.name, func(b *testing.B) {
			e := newHookEnv(b, func(c *server.Config) {
				c.WebhookSchedule, c.WebhookTimeout, c.WebhookBreakerCoolDown = webhook.Schedule{}, 0, 0
			})
			if mode.hang {
				hung := hangOwner(b, e)
				for range 6 {
					e.export(b)
				}
				hung.waitHeld(b, webhook.DefaultPerAccount)
			}
			fast := e.secondAccount(b, "fast@example.com", newReceiver(b))
			firstAt := time.Now()
			fast.export(b)
			fast.rcv.waitFor(b, 1, logWait)
			first := time.Since(firstAt)
			id := fast.waitLog(b, "the first delivery delivered", allOf(1, func(d hookDelivery) bool { return d.Status == "delivered" }))[0].DeliveryID
			b.ResetTimer()
			for i := range b.N {
				// The log's outcome is committed just after the answer:
				// wait for it, untimed, before the next redeliver.
				b.StopTimer()
				fast.waitLog(b, "the delivery delivered", allOf(1, func(d hookDelivery) bool { return d.Status == "delivered" }))
				b.StartTimer()
				mustCall(b, "POST", fast.base+"/webhook/deliveries/"+id+"/redeliver", fast.key, "", 202, nil)
				fast.rcv.waitFor(b, i+2, logWait)
			}
			b.ReportMetric(float64(first.Microseconds())/1000, "first-delivery-ms")
		})
	}
}
