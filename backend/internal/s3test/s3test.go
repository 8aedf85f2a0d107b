// Package s3test starts a real S3-compatible server for tests: versitygw's
// POSIX gateway over a temporary folder, on a free loopback port, one
// server per test binary, started on first use and killed with the binary
// (it runs as the test's child with a parent-death signal, so no server
// outlives a crashed or killed test). Each test gets a bucket of its own.
//
// A machine without the versitygw binary fails the test with the command
// that installs it; it never skips.
package s3test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/captionqa/captionqa/backend/internal/procdir"
)

// Install is the command that puts the gateway in $HOME/go/bin.
const Install = "go install github.com/versity/versitygw/cmd/versitygw@v1.8.0"

// The root account of the gateway, and its region. Test credentials, good
// only on the loopback server this package starts.
const (
	AccessKey = "captionqa-test"
	SecretKey = "captionqa-test-secret"
	Region    = "us-east-1"
)

// server is this test binary's gateway; started once.
type server struct {
	root     string // the folder whose subfolders are the buckets
	endpoint string // http://127.0.0.1:PORT
}

// The test binary's one server and the counter naming its buckets. They
// are written once under their sync.Once and read-only after.
var (
	once      sync.Once
	shared    *server
	sharedErr error
	counter   atomic.Int64
)

// Target is a bucket on the test server and how to reach it.
type Target struct {
	// Endpoint is the server's URL, http://127.0.0.1:PORT.
	Endpoint string
	Bucket   string
	Region   string
	// AccessKey and SecretKey sign requests (the gateway's root account).
	AccessKey, SecretKey string
}

// URL returns the bucket as package s3blob's store URL (path-style, as a
// loopback endpoint needs), without credentials.
func (t Target) URL() string {
	q := url.Values{"endpoint": {t.Endpoint}, "region": {t.Region}, "pathstyle": {"true"}}
	return "s3://" + t.Bucket + "?" + q.Encode()
}

// Binary finds the versitygw binary: on PATH, else in $HOME/go/bin where
// go install puts it.
func Binary() (string, error) {
	if p, err := exec.LookPath("versitygw"); err == nil {
		return p, nil
	}
	if home, err := os.UserHomeDir(); err == nil {
		p := filepath.Join(home, "go", "bin", "versitygw")
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", errors.New("s3test: versitygw not found on PATH nor in $HOME/go/bin: install it with " + Install)
}

// start runs the gateway and waits until it answers.
func start() (*server, error) {
	bin, err := Binary()
	if err != nil {
		return nil, err
	}
	dir, err := procdir.Make("captionqa-s3-")
	if err != nil {
		return nil, err
	}
	root := filepath.Join(dir, "root")
	if err := os.Mkdir(root, 0o700); err != nil {
		return nil, err
	}
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	addr := "127.0.0.1:" + strconv.Itoa(port)
	cmd := exec.Command(bin, "--access", AccessKey, "--secret", SecretKey, "--region", Region,
		"--port", addr, "--quiet", "posix", root)
	// The gateway dies with the test binary, whatever ends it.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL, Setpgid: true}
	logf, err := os.Create(filepath.Join(dir, "versitygw.log"))
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("s3test: start versitygw: %w", err)
	}
	s := &server{root: root, endpoint: "http://" + addr}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.Now().Add(30 * time.Second)
	for {
		// Any HTTP answer (an anonymous request gets 403) means it serves.
		resp, err := http.Get(s.endpoint + "/")
		if err == nil {
			resp.Body.Close()
			return s, nil
		}
		select {
		case werr := <-exited:
			log, _ := os.ReadFile(logf.Name())
			return nil, fmt.Errorf("s3test: versitygw exited (%v)\n%s", werr, log)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(logf.Name())
			_ = cmd.Process.Kill()
			return nil, fmt.Errorf("s3test: versitygw did not answer on %s: %v\n%s", addr, err, log)
		}
	}
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// Endpoint returns the URL of the test binary's server, starting it on
// first use.
func Endpoint(t testing.TB) string {
	t.Helper()
	once.Do(func() { shared, sharedErr = start() })
	if sharedErr != nil {
		t.Fatal(sharedErr)
	}
	return shared.endpoint
}

// Bucket creates an empty bucket for the test and returns where it is;
// the bucket and its objects are removed when the test ends.
func Bucket(t testing.TB) Target {
	t.Helper()
	tg := Target{Endpoint: Endpoint(t), Bucket: fmt.Sprintf("test-%d", counter.Add(1)),
		Region: Region, AccessKey: AccessKey, SecretKey: SecretKey}
	c, err := Client(tg)
	if err != nil {
		t.Fatal(err)
	}
	// No CreateBucketConfiguration: the gateway's region is us-east-1,
	// where S3 refuses a location constraint.
	if _, err := c.CreateBucket(context.Background(), &s3.CreateBucketInput{Bucket: &tg.Bucket}); err != nil {
		t.Fatalf("s3test: make bucket %s: %v", tg.Bucket, err)
	}
	t.Cleanup(func() {
		// A bucket of the POSIX gateway is a folder of the root: removing
		// the folder removes the bucket and its objects in one step, where
		// the S3 API would delete object by object.
		if err := os.RemoveAll(filepath.Join(shared.root, tg.Bucket)); err != nil {
			t.Logf("s3test: remove bucket %s: %v", tg.Bucket, err)
		}
	})
	return tg
}

// Client returns an S3 client signed as tg's account, for tests that look
// at the bucket behind the store's back (incomplete uploads, say).
func Client(tg Target) (*s3.Client, error) {
	if _, err := url.Parse(tg.Endpoint); err != nil {
		return nil, fmt.Errorf("s3test: endpoint %q: %w", tg.Endpoint, err)
	}
	creds := aws.Credentials{AccessKeyID: tg.AccessKey, SecretAccessKey: tg.SecretKey, Source: "s3test"}
	return s3.New(s3.Options{
		BaseEndpoint: aws.String(tg.Endpoint),
		Region:       tg.Region,
		UsePathStyle: true,
		Credentials: aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
			return creds, nil
		}),
		// As package s3blob's: checksums only where S3 requires them.
		RequestChecksumCalculation: aws.RequestChecksumCalculationWhenRequired,
		ResponseChecksumValidation: aws.ResponseChecksumValidationWhenRequired,
	}), nil
}
