package server

import (
	"fmt"
	"net/http"
)

// A node's roles ([Config.Role]).
const (
	// RoleAll serves the API and works jobs: a workstation, or a node of
	// a small cluster.
	RoleAll = "all"
	// RoleAPI serves the API and enqueues jobs but works none.
	RoleAPI = "api"
	// RoleWorker works jobs (renders, extracts, webhook deliveries,
	// sweepers) and answers only /healthz and /readyz.
	RoleWorker = "worker"
)

// role is cfg.Role with its default.
func (c *Config) role() string {
	if c.Role == "" {
		return RoleAll
	}
	return c.Role
}

// checkRole refuses an unknown role, and a role other than all on the
// SQLite store: one file serves one node.
func (c *Config) checkRole() error {
	switch c.role() {
	case RoleAll:
		return nil
	case RoleAPI, RoleWorker:
		if c.DB == nil && !isPostgres(c.Store) {
			return fmt.Errorf("server: --role %s needs a shared store (--store postgres://...): the SQLite file serves one node", c.Role)
		}
		return nil
	}
	return fmt.Errorf("server: --role %q: give all, api or worker", c.Role)
}

// works reports whether this node works jobs.
func (c *Config) works() bool { return c.role() != RoleAPI }

// healthOnly is a worker node's HTTP handler: the API's health routes
// only, so that a supervisor or load balancer can watch it.
func (s *Server) healthOnly() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"status":"ok","role":"worker"}`))
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if err := s.db.Ready(r.Context()); err != nil {
			w.WriteHeader(http.StatusServiceUnavailable)
			_, _ = w.Write([]byte(`{"status":"unavailable","role":"worker"}`))
			return
		}
		_, _ = w.Write([]byte(`{"status":"ready","role":"worker"}`))
	})
	return mux
}
