package s3blob

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// defaultEndpoint is where a URL without endpoint= points: AWS, whose
// regional endpoint the client then derives from the bucket's region.
const defaultEndpoint = "https://s3.amazonaws.com"

// config is what a store URL says.
type config struct {
	bucket   string
	endpoint *url.URL // scheme and host only
	custom   bool     // endpoint= was given, rather than AWS by default
	region   string   // "" asks the store (see askRegion)
	presign  bool
	// pathStyle puts the bucket in the path (http://HOST/BUCKET/KEY)
	// rather than in the host name (http://BUCKET.HOST/KEY).
	pathStyle bool
}

// parseURL reads s3://BUCKET?endpoint=URL&region=R&presign=BOOL&pathstyle=BOOL.
// Every parameter is optional; an unknown one is an error, so a typo does
// not silently fall back to a default. Errors never quote the URL whole:
// it might carry credentials someone put there by mistake.
func parseURL(raw string) (config, error) {
	u, err := url.Parse(raw)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // without the URL
		}
		return config{}, fmt.Errorf("s3blob: store URL does not parse: %v", err)
	}
	if u.Scheme != "s3" {
		return config{}, fmt.Errorf("s3blob: store URL scheme %q: want s3://BUCKET", u.Scheme)
	}
	if u.User != nil {
		return config{}, errors.New("s3blob: store URL: credentials do not belong in the URL; set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
	}
	if u.Host == "" {
		return config{}, errors.New("s3blob: store URL names no bucket: want s3://BUCKET")
	}
	if err := checkBucket(u.Host); err != nil {
		return config{}, fmt.Errorf("s3blob: store URL bucket %q: %w", u.Host, err)
	}
	if u.Path != "" && u.Path != "/" {
		return config{}, fmt.Errorf("s3blob: store URL s3://%s%s: a key prefix is not supported, give the bucket alone", u.Host, u.Path)
	}
	c := config{bucket: u.Host}
	endpoint := defaultEndpoint
	var pathStyle *bool // nil: chosen by the endpoint, below
	for name, values := range u.Query() {
		v := values[len(values)-1]
		switch name {
		case "endpoint":
			endpoint, c.custom = v, true
		case "region":
			c.region = v
		case "presign":
			if c.presign, err = strconv.ParseBool(v); err != nil {
				return config{}, fmt.Errorf("s3blob: store URL presign=%q: want true or false", v)
			}
		case "pathstyle":
			path, err := strconv.ParseBool(v)
			if err != nil {
				return config{}, fmt.Errorf("s3blob: store URL pathstyle=%q: want true or false", v)
			}
			pathStyle = &path
		default:
			return config{}, fmt.Errorf("s3blob: store URL parameter %q unknown: endpoint, region, presign and pathstyle are", name)
		}
	}
	if c.endpoint, err = parseEndpoint(endpoint); err != nil {
		return config{}, err
	}
	c.pathStyle = !isAWS(c.endpoint.Hostname())
	if pathStyle != nil {
		c.pathStyle = *pathStyle
	}
	return c, nil
}

// isAWS reports whether host is one of AWS S3's, which all give each
// bucket a host name of its own; other stores (MinIO, Ceph, versitygw)
// mostly serve one host name, the bucket in the path.
func isAWS(host string) bool {
	return strings.HasSuffix(host, ".amazonaws.com") || strings.HasSuffix(host, ".amazonaws.com.cn")
}

// parseEndpoint accepts http(s)://HOST[:PORT] with nothing after it: the
// client puts the bucket in the path or the host itself.
func parseEndpoint(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err == nil && u.User != nil {
		return nil, errors.New("s3blob: store URL endpoint: credentials do not belong in the URL; set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY")
	}
	bad := err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != ""
	if bad {
		return nil, fmt.Errorf("s3blob: store URL endpoint=%q: want http(s)://HOST[:PORT]", raw)
	}
	return &url.URL{Scheme: u.Scheme, Host: u.Host}, nil
}
