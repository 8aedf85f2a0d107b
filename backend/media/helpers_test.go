package media_test

import (
	"bytes"
	"context"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/captionqa/captionqa/backend/account"
	"github.com/captionqa/captionqa/backend/blob"
	"github.com/captionqa/captionqa/backend/blob/fsblob"
	"github.com/captionqa/captionqa/backend/blob/s3blob"
	"github.com/captionqa/captionqa/backend/internal/s3test"
	"github.com/captionqa/captionqa/backend/internal/testkit"
	"github.com/captionqa/captionqa/backend/media"
	"github.com/captionqa/captionqa/backend/project"
	"github.com/captionqa/captionqa/backend/video/ffmpeg"
)

// env is a media service on a real SQLite file, a real blob store and
// the real ffprobe, with a fake clock.
type env struct {
	t       *testing.T
	svc     *media.Service
	blobs   blob.Store
	clock   *testkit.Clock
	account string
	project string
}

// newEnv keeps the blobs in a folder; parts go through the service
// (PutPart).
func newEnv(t *testing.T) *env {
	t.Helper()
	blobs, err := fsblob.Open(t.TempDir(), fsblob.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return newEnvOn(t, blobs, nil)
}

// newPresignedEnv keeps the blobs in a bucket of the test S3 server
// opened with presign=true, and gives the service the store as its
// presigner: parts go straight to the store. It returns the bucket too.
func newPresignedEnv(t *testing.T) (*env, s3test.Target) {
	t.Helper()
	tg := s3test.Bucket(t)
	blobs, err := s3blob.Open(context.Background(), tg.URL()+"&presign=true",
		s3blob.Options{AccessKey: tg.AccessKey, SecretKey: tg.SecretKey})
	if err != nil {
		t.Fatal(err)
	}
	if !blobs.Presign() {
		t.Fatal("the store does not presign with presign=true")
	}
	return newEnvOn(t, blobs, blobs), tg
}

func newEnvOn(t *testing.T, blobs blob.Store, presigner blob.Presigner) *env {
	t.Helper()
	ctx := context.Background()
	db := testkit.MustOpenDB(t)
	clock := testkit.NewClock(time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC))
	accounts := account.NewService(db.Accounts(), account.Options{Now: clock.Now})
	a := testkit.MustCreateAccount(t, accounts, "editor@example.com", account.TierPro)
	projects := project.NewService(db.Projects(), project.Options{Now: clock.Now})
	p, err := projects.Create(ctx, a.ID, project.New{Name: "Interview"})
	if err != nil {
		t.Fatal(err)
	}
	runner, err := ffmpeg.New(ffmpeg.Options{WorkDir: t.TempDir(), Blobs: blobs})
	if err != nil {
		t.Fatal(err)
	}
	svc := media.NewService(media.Options{Store: db.Uploads(), Blobs: blobs, Prober: runner, Projects: projects,
		SignKey: bytes.Repeat([]byte{7}, 32), MaxBytes: 1 << 30, Presigner: presigner, Now: clock.Now})
	return &env{t: t, svc: svc, blobs: blobs, clock: clock, account: a.ID, project: p.ID}
}

// urls returns the session's part URLs.
func (e *env) urls(s *media.Session) []media.PartURL {
	e.t.Helper()
	urls, err := e.svc.URLs(context.Background(), s)
	if err != nil {
		e.t.Fatalf("URLs: %v", err)
	}
	return urls
}

// create opens a session for n bytes.
func (e *env) create(n int64) *media.Session {
	e.t.Helper()
	s, err := e.svc.Create(context.Background(), e.account, media.NewUpload{ProjectID: e.project,
		Filename: "clip.mp4", ContentType: "video/mp4", Bytes: n})
	if err != nil {
		e.t.Fatalf("create: %v", err)
	}
	return s
}

// put sends body as part n of s through its signed URL.
func (e *env) put(s *media.Session, n int, body []byte) (*media.Part, error) {
	e.t.Helper()
	parsed, err := url.Parse(e.urls(s)[n-1].URL)
	if err != nil {
		e.t.Fatal(err)
	}
	seg := strings.Split(parsed.Path, "/")
	return e.svc.PutPart(context.Background(), media.PutInput{UploadID: seg[len(seg)-2], Part: seg[len(seg)-1],
		Expires: parsed.Query().Get("expires"), Sig: parsed.Query().Get("sig"), Body: bytes.NewReader(body),
		ContentLength: int64(len(body))})
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
