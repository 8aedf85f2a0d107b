package account

import (
	"context"
	"fmt"
	"slices"

	"github.com/captionqa/captionqa/backend/apperr"
	"github.com/captionqa/captionqa/backend/blob"
	"github.com/google/uuid"
)

// CreateAccount creates an account. Email is normalised (trimmed, lower
// case); an empty Tier means free_plus; nil Features and a zero DailyCap
// take the tier's defaults (free_plus: API_V1 and API_KEYS, cap 10; pro:
// every feature, cap [Options.ProDailyCap]), to which AddFeatures are
// added and from which DropFeatures are taken. It returns
// [apperr.BadRequest] for a bad email, tier, feature or cap (details
// "field", and "value" for an unknown feature; an email holding a control,
// bidirectional or format character is refused too) and
// [apperr.Conflict] if the email is taken.
func (s *Service) CreateAccount(ctx context.Context, in NewAccount) (*Account, error) {
	email, err := NormalizeEmail(in.Email)
	if err != nil {
		return nil, err
	}
	if err := checkNewEmail(email); err != nil {
		return nil, err
	}
	tier := in.Tier
	if tier == "" {
		tier = TierFreePlus
	}
	if err := checkTier(tier); err != nil {
		return nil, err
	}
	features, dailyCap, _ := s.tierDefaults(tier)
	if in.Features != nil {
		features = in.Features
	}
	if features, err = normalizeFeatures(append(slices.Clone(features), in.AddFeatures...)); err != nil {
		return nil, err
	}
	if _, err := normalizeFeatures(in.DropFeatures); err != nil {
		return nil, err
	}
	features = slices.DeleteFunc(features, func(f string) bool { return slices.Contains(in.DropFeatures, f) })
	if in.DailyCap != 0 {
		dailyCap = in.DailyCap
	}
	if err := checkCap(tier, dailyCap); err != nil {
		return nil, err
	}
	a := &Account{ID: uuid.NewString(), Email: email, Tier: tier, Features: features,
		DailyCap: dailyCap, CreatedAt: s.clock()}
	if err := s.store.CreateAccount(ctx, a); err != nil {
		if apperr.KindOf(err) == apperr.Conflict {
			return nil, apperr.New(apperr.Conflict, "an account with email %s already exists", email).
				WithDetail("field", "email").Wrap(err)
		}
		return nil, fmt.Errorf("account: create account: %w", err)
	}
	return a, nil
}

// UpdateAccount changes the account with this email; nil fields keep their
// value. Changing the tier resets the features and the cap to the new
// tier's defaults unless the update sets them too; a DailyCap of 0 also
// means the tier's default, a StorageQuota of 0 the tier's quota. It
// returns [apperr.BadRequest] for a bad email, tier, feature, cap or a
// negative storage quota and [apperr.NotFound] if no account has the
// email.
func (s *Service) UpdateAccount(ctx context.Context, email string, in AccountUpdate) (*Account, error) {
	email, err := NormalizeEmail(email)
	if err != nil {
		return nil, err
	}
	var features []string
	if in.Features != nil {
		if features, err = normalizeFeatures(*in.Features); err != nil {
			return nil, err
		}
	}
	if in.Tier != nil {
		if err := checkTier(*in.Tier); err != nil {
			return nil, err
		}
	}
	if in.StorageQuota != nil && *in.StorageQuota < 0 {
		return nil, apperr.New(apperr.BadRequest, "the storage quota is a number of bytes, 0 for the tier's").
			WithDetail("field", "storageQuota")
	}
	a, err := s.store.UpdateAccount(ctx, email, func(a *Account) error {
		if in.Tier != nil && *in.Tier != a.Tier {
			a.Tier = *in.Tier
			a.Features, a.DailyCap, _ = s.tierDefaults(a.Tier)
		}
		if in.Features != nil {
			a.Features = features
		}
		if in.DailyCap != nil {
			a.DailyCap = *in.DailyCap
			if a.DailyCap == 0 {
				_, a.DailyCap, _ = s.tierDefaults(a.Tier)
			}
		}
		if in.APIDisabled != nil {
			a.APIDisabled = *in.APIDisabled
		}
		if in.StorageQuota != nil {
			a.StorageQuota = *in.StorageQuota
		}
		return checkCap(a.Tier, a.DailyCap)
	})
	if err != nil {
		if apperr.KindOf(err) == apperr.NotFound {
			return nil, apperr.New(apperr.NotFound, "no account with email %s", email).Wrap(err)
		}
		return nil, fmt.Errorf("account: update account: %w", err)
	}
	return a, nil
}

// ListAccounts returns every account, oldest first.
func (s *Service) ListAccounts(ctx context.Context) ([]Account, error) {
	list, err := s.store.ListAccounts(ctx)
	if err != nil {
		return nil, fmt.Errorf("account: list accounts: %w", err)
	}
	return list, nil
}

// AccountByEmail returns the account with this email (normalised first).
// It returns [apperr.NotFound] if there is none, or if email is not a valid
// address.
func (s *Service) AccountByEmail(ctx context.Context, email string) (*Account, error) {
	norm, err := NormalizeEmail(email)
	if err != nil {
		return nil, apperr.New(apperr.NotFound, "account not found").Wrap(err)
	}
	a, err := s.store.AccountByEmail(ctx, norm)
	if err != nil {
		return nil, fmt.Errorf("account: account by email: %w", err)
	}
	return a, nil
}

// Account returns the account with this id. It returns [apperr.NotFound]
// if there is none.
func (s *Service) Account(ctx context.Context, id string) (*Account, error) {
	a, err := s.store.AccountByID(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("account: account %s: %w", id, err)
	}
	return a, nil
}

// Storage returns what the account keeps stored against its quota
// (docs/api.md, Storage). It returns [apperr.NotFound] if there is no
// such account.
func (s *Service) Storage(ctx context.Context, id string) (Storage, error) {
	st, err := s.store.Storage(ctx, id)
	if err != nil {
		return st, fmt.Errorf("account: storage of %s: %w", id, err)
	}
	return st, nil
}

// DeleteAccount deletes the account with this email, everything it owns
// (keys, sessions, projects, templates, exports, media, jobs, webhook)
// and the files in blobs its rows name (docs/cli.md, Accounts and keys).
// The files go first and the rows last, so a deletion cut off half-way is
// finished by running it again. It returns [apperr.BadRequest] for a bad
// email and [apperr.NotFound] if no account has it.
func (s *Service) DeleteAccount(ctx context.Context, email string, blobs blob.Store) (*Account, error) {
	a, err := s.AccountByEmail(ctx, email)
	if err != nil {
		return nil, err
	}
	keys, prefixes, err := s.store.AccountBlobs(ctx, a.ID)
	if err != nil {
		return nil, fmt.Errorf("account: delete %s: %w", a.ID, err)
	}
	for _, p := range prefixes {
		for info, err := range blobs.List(ctx, p) {
			if err != nil {
				return nil, fmt.Errorf("account: delete %s: list %s: %w", a.ID, p, err)
			}
			keys = append(keys, info.Key)
		}
	}
	for _, k := range keys {
		if err := blobs.Delete(ctx, k); err != nil {
			return nil, fmt.Errorf("account: delete %s: %w", a.ID, err)
		}
	}
	if err := s.store.DeleteAccount(ctx, a.ID); err != nil {
		return nil, fmt.Errorf("account: delete %s: %w", a.ID, err)
	}
	return a, nil
}

// EnsureOwner creates the owner account if no account exists yet: tier
// pro, every feature, cap [Options.ProDailyCap], with a key named "owner"
// carrying every scope and the default lifetime, whose one-time secret it
// returns with created true. If any account exists it creates nothing and
// returns the oldest account, an empty secret and created false. Both
// happen in one transaction, so concurrent callers create one owner. The
// key's lifetime is [Options.DefaultKeyTTL], at most [MaxKeyLifetime]. It
// returns [apperr.BadRequest] for a bad email.
func (s *Service) EnsureOwner(ctx context.Context, email string) (owner *Account, secret string, created bool, err error) {
	email, err = NormalizeEmail(email)
	if err != nil {
		return nil, "", false, err
	}
	if err := checkNewEmail(email); err != nil {
		return nil, "", false, err
	}
	now := s.clock()
	a := &Account{ID: uuid.NewString(), Email: email, Tier: TierPro, Features: sortedCopy(Features()),
		DailyCap: s.proCap, CreatedAt: now}
	k, secret, hash, err := mintKey(a.ID, "owner", sortedCopy(Scopes()), now, now.Add(s.keyTTL))
	if err != nil {
		return nil, "", false, err
	}
	owner, created, err = s.store.EnsureFirstAccount(ctx, a, k, hash)
	if err != nil {
		return nil, "", false, fmt.Errorf("account: ensure owner: %w", err)
	}
	if !created {
		return owner, "", false, nil
	}
	return owner, secret, true, nil
}
