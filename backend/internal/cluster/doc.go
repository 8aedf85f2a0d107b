// Package cluster tests CaptionQA scaled out: three `captionqa serve`
// processes on loopback ports sharing one PostgreSQL database (--store)
// and one S3 bucket (--blobs), started through the real command line
// (the test binary re-runs itself as each node) and killed with -9 where
// a test needs a node to die. Each test starts its own nodes on a fresh
// database and bucket, from pgtest's throwaway PostgreSQL and s3test's
// versitygw gateway; the tests fail, never skip, when PostgreSQL,
// versitygw or ffmpeg is missing.
//
// The tests: one daily cap across nodes, a key revoked on one node
// refused by the others, one burst limit across nodes, an upload, a
// render and its download each through another node (proxied, and with
// presigned URLs straight to the store), render jobs shared
// by two worker nodes, a worker killed mid-render, and a webhook
// delivered after the node that enqueued it died.
package cluster
