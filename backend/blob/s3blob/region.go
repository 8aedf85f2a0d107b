package s3blob

import (
	"context"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
)

// lookupRegion signs the question of a bucket's region, as S3 expects of
// a client that does not know it yet, and is the answer of a store that
// names none.
const lookupRegion = "us-east-1"

// askRegion asks the store the bucket's region (GetBucketLocation), which
// SigV4 needs to sign and a URL without region= leaves to the store. The
// question names the bucket in the path at the URL's endpoint (AWS's
// global one by default), which answers for a bucket of any region. An
// answer that refuses the question yet names the region (AWS's
// x-amz-bucket-region header) gives that region; one that refuses the
// signature or the permission gives lookupRegion, and the bucket check
// that follows says what is wrong. Errors: the request's, for
// [Store.fail].
func askRegion(ctx context.Context, o s3.Options, cfg config) (string, error) {
	out, err := s3.New(o).GetBucketLocation(ctx, &s3.GetBucketLocationInput{Bucket: &cfg.bucket}, func(o *s3.Options) {
		o.Region = lookupRegion
		o.UsePathStyle = true
		o.BaseEndpoint = aws.String(cfg.endpoint.String())
	})
	if err != nil {
		resp, _ := answerOf(err)
		if region := resp.header.Get("X-Amz-Bucket-Region"); region != "" {
			return region, nil
		}
		switch resp.code {
		case "AuthorizationHeaderMalformed", "InvalidRegion", "AccessDenied":
			return lookupRegion, nil
		}
		return "", err
	}
	switch loc := string(out.LocationConstraint); loc {
	case "":
		return lookupRegion, nil
	case "EU":
		return "eu-west-1", nil // the name of S3's first European region
	default:
		return loc, nil
	}
}
