package account

import "testing"

func TestVerifyPassword(t *testing.T) {
	t.Parallel()
	h := hashPassword("a long enough password")
	if ok, err := verifyPassword(h, "a long enough password"); !ok || err != nil {
		t.Errorf("right password: %v, %v", ok, err)
	}
	if ok, err := verifyPassword(h, "a long enough passworD"); ok || err != nil {
		t.Errorf("wrong password: %v, %v", ok, err)
	}
	if _, err := parseHash(dummyHash); err != nil {
		t.Errorf("dummyHash does not parse: %v", err)
	}
	for _, bad := range []string{
		"", "plain", "$argon2i$v=19$m=19456,t=2,p=1$c29tZXNhbHQ$AAAAAAAAAAAAAAAAAAAAAA",
		"$argon2id$v=18$m=19456,t=2,p=1$c29tZXNhbHQ$AAAAAAAAAAAAAAAAAAAAAA",
		"$argon2id$v=19$m=99999999,t=2,p=1$c29tZXNhbHQ$AAAAAAAAAAAAAAAAAAAAAA",
		"$argon2id$v=19$m=19456,t=0,p=1$c29tZXNhbHQ$AAAAAAAAAAAAAAAAAAAAAA",
		"$argon2id$v=19$m=19456,t=2,p=1,x=3$c29tZXNhbHQ$AAAAAAAAAAAAAAAAAAAAAA",
		"$argon2id$v=19$m=19456,t=2,p=1$!!$AAAAAAAAAAAAAAAAAAAAAA",
		"$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHQ$AA",
	} {
		if ok, err := verifyPassword(bad, "whatever password"); ok || err == nil {
			t.Errorf("malformed hash %q: %v, %v; want an error", bad, ok, err)
		}
	}
}
