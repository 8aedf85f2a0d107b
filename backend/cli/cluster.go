package cli

import (
	"flag"
	"fmt"
	"strings"

	"github.com/captionqa/captionqa/backend/server"
)

// Environment variables of a cluster node. The store URL may hold a
// password: the variable keeps it out of the process list.
const (
	envStore = "CAPTIONQA_STORE"
	envBlobs = "CAPTIONQA_BLOBS"
	envRole  = "CAPTIONQA_ROLE"
)

// registerCluster adds the flags that make serve a node of a cluster.
func registerCluster(fs *flag.FlagSet, cfg *server.Config, getenv func(string) string) {
	fs.StringVar(&cfg.Store, "store", getenv(envStore), "a postgres:// URL: keep accounts, projects, quotas and jobs in that PostgreSQL database, shared by every node (env "+envStore+", which keeps a password out of the process list); default the data folder's SQLite file")
	fs.StringVar(&cfg.Blobs, "blobs", getenv(envBlobs), "s3://BUCKET?endpoint=URL&region=R[&presign=true]: keep media and artifacts in an S3-compatible store, credentials from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (env "+envBlobs+"); default the data folder")
	role := getenv(envRole)
	if role == "" {
		role = server.RoleAll
	}
	fs.StringVar(&cfg.Role, "role", role, "all, api or worker: api nodes serve HTTP, worker nodes work jobs (renders, extracts, webhook deliveries, sweepers); api and worker need --store (env "+envRole+")")
}

// checkCluster refuses, as usage errors, a store or blob URL of another
// kind and a role that is unknown or needs a shared store.
func checkCluster(cfg server.Config) error {
	postgres := strings.HasPrefix(cfg.Store, "postgres://") || strings.HasPrefix(cfg.Store, "postgresql://")
	if cfg.Store != "" && !postgres {
		return fmt.Errorf("--store takes a postgres:// URL (or nothing, for the data folder's SQLite file)")
	}
	if cfg.Blobs != "" && !strings.HasPrefix(cfg.Blobs, "s3://") {
		return fmt.Errorf("--blobs takes an s3://BUCKET?endpoint=URL&region=R URL (or nothing, for the data folder)")
	}
	switch cfg.Role {
	case server.RoleAll:
	case server.RoleAPI, server.RoleWorker:
		if !postgres {
			return fmt.Errorf("--role %s needs --store postgres://...: one SQLite file serves one node", cfg.Role)
		}
	default:
		return fmt.Errorf("--role is all, api or worker, not %q", cfg.Role)
	}
	return nil
}
