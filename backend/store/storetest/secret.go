package storetest

import (
	"bytes"
	"sync"
)

func secretScenarios() []scenario {
	return []scenario{
		{"same bytes every time", secretStable},
	}
}

// secretStable: a store that keeps the shared secret makes it once, of at
// least 32 bytes, and every caller, concurrent first callers included,
// gets the same bytes; one that keeps none says so every time.
func secretStable(e *env) {
	t := e.t
	const callers = 8
	secrets := make([][]byte, callers)
	oks := make([]bool, callers)
	var wg sync.WaitGroup
	for i := range callers {
		wg.Go(func() {
			var err error
			secrets[i], oks[i], err = e.db.SharedSecret(e.ctx)
			if err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	again, ok, err := e.db.SharedSecret(e.ctx)
	must(t, err)
	for i := range callers {
		if oks[i] != ok || !bytes.Equal(secrets[i], again) {
			t.Fatalf("caller %d got %x (ok %v), then %x (ok %v); want the same", i, secrets[i], oks[i], again, ok)
		}
	}
	if ok && len(again) < 32 || !ok && again != nil {
		t.Errorf("secret %x, ok %v; want at least 32 bytes when ok, none otherwise", again, ok)
	}
}
