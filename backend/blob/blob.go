// Package blob declares the object store CaptionQA keeps media and
// artifacts in: streamed puts, ranged gets, deletes and listings by
// prefix, and nothing an S3-compatible store lacks (no rename, no
// append). The filesystem adapter (package blob/fsblob) keeps objects in
// the data folder; an S3 adapter comes with scale-out. Keys are ours,
// never a user's file name: slash-separated segments of [A-Za-z0-9._-].
package blob

import (
	"context"
	"io"
	"iter"
	"time"
)

// Info describes a stored object.
type Info struct {
	Key  string
	Size int64
	// ETag is a checksum of the content, quoted as an HTTP ETag is (the
	// filesystem adapter's is the hex SHA-256: "\"9f86…\"").
	ETag    string
	ModTime time.Time
}

// Range selects the bytes [Start, Start+Length) of an object; Length -1
// reads to the end.
type Range struct {
	Start, Length int64
}

// Store is an object store. Implementations are safe for concurrent use.
type Store interface {
	// Put stores r's bytes under key, replacing any object there once the
	// whole content has arrived (a reader that fails leaves nothing). size
	// is the length r will give, or -1 when unknown; a reader that gives
	// more or less than a known size fails. It returns the object's Info.
	Put(ctx context.Context, key string, r io.Reader, size int64) (Info, error)
	// Get opens the object, or the range of it when rng is not nil. It
	// returns an error of kind apperr.NotFound when there is no object.
	Get(ctx context.Context, key string, rng *Range) (io.ReadCloser, Info, error)
	// Delete removes the object; deleting a missing object is not an error.
	Delete(ctx context.Context, key string) error
	// List yields the objects whose keys start with prefix, in key order.
	List(ctx context.Context, prefix string) iter.Seq2[Info, error]
}

// Presigner is implemented by a store that can give clients a URL of its
// own for an object (S3's presigned GET and PUT), so that a download's or
// an upload's bytes go between the store and the client without passing
// through the node. The composition root hands one to the exporter and to
// the media service only when the store is reachable by clients
// (s3://...&presign=true).
type Presigner interface {
	// PresignGet returns a URL that serves key's bytes, as an attachment
	// named downloadName, until expires from now (1 s to 7 days).
	PresignGet(ctx context.Context, key string, expires time.Duration, downloadName string) (string, error)
	// PresignPut returns a URL that stores the body of a PUT declaring
	// exactly size bytes as key's object, until expires from now (1 s to
	// 7 days). The PUT's answer carries the object's ETag, the one
	// [Store.List] gives.
	PresignPut(ctx context.Context, key string, size int64, expires time.Duration) (string, error)
}

// Local is implemented by a store whose objects are local files (the
// filesystem adapter): a subprocess such as ffmpeg may read key's content
// from the file File, starting at byte Offset and running to its end,
// without a copy. A later put of key replaces the file (a new inode) and
// never changes the one returned, so a reader that opened it keeps a whole
// object. Stores without local files (S3) do not implement it; their
// callers copy the object to a local file first.
type Local interface {
	// LocalFile returns key's file and where its content starts, or an
	// error of kind apperr.NotFound when there is no object.
	LocalFile(ctx context.Context, key string) (file string, offset int64, err error)
}
