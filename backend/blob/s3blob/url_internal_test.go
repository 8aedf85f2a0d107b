package s3blob

import "testing"

// TestPathStyle checks where the bucket goes in a request's URL: in the
// host name on AWS, in the path elsewhere, unless pathstyle= says.
func TestPathStyle(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		url  string
		want bool
	}{
		{"s3://bucket", false},
		{"s3://bucket?endpoint=https://s3.eu-west-1.amazonaws.com", false},
		{"s3://bucket?endpoint=http://127.0.0.1:9000", true},
		{"s3://bucket?endpoint=https://s3.studio.lan:9000", true},
		{"s3://bucket?pathstyle=true", true},
		{"s3://bucket?endpoint=http://127.0.0.1:9000&pathstyle=false", false},
	} {
		c, err := parseURL(tc.url)
		if err != nil || c.pathStyle != tc.want {
			t.Errorf("parseURL(%q): pathStyle %v (%v), want %v", tc.url, c.pathStyle, err, tc.want)
		}
	}
}

// TestCheckBucket checks S3's rules for bucket names.
func TestCheckBucket(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"abc", "my-bucket.v2", "0bucket9", "a23456789012345678901234567890123456789012345678901234567890123"} {
		if err := checkBucket(name); err != nil {
			t.Errorf("checkBucket(%q) = %v, want nil", name, err)
		}
	}
	for _, name := range []string{"", "ab", "Bad_Bucket", "UPPER", "-dash", "dash-", ".dot", "dot.", "a..b", "a.-b", "a-.b", "192.168.1.1",
		"a234567890123456789012345678901234567890123456789012345678901234"} {
		if err := checkBucket(name); err == nil {
			t.Errorf("checkBucket(%q) = nil, want an error", name)
		}
	}
}
