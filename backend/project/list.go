package project

import (
	"context"
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/captionqa/captionqa/backend/apperr"
)

// cursorTag opens every cursor, so a future cursor layout can be told
// from this one.
const cursorTag = "p1"

// List returns a page of the account's projects, newest first. limit 0
// is [DefaultListLimit]; cursor "" starts at the newest, otherwise it is
// a [Page.NextCursor] of an earlier call. Projects created or deleted
// between pages never make a page repeat or skip another project. It
// returns [apperr.BadRequest] (details "field" "limit" or "cursor") for a
// limit outside 1 to [MaxListLimit] or a cursor it did not issue.
func (s *Service) List(ctx context.Context, accountID string, limit int, cursor string) (*Page, error) {
	if limit == 0 {
		limit = DefaultListLimit
	}
	if limit < 1 || limit > MaxListLimit {
		return nil, apperr.New(apperr.BadRequest, "limit must be 1 to %d", MaxListLimit).
			WithDetail("field", "limit").WithDetail("reason", "out_of_range")
	}
	var pos *Position
	if cursor != "" {
		p, err := decodeCursor(cursor)
		if err != nil {
			return nil, apperr.New(apperr.BadRequest, "cursor is not one this server issued; start again without it").
				WithDetail("field", "cursor").WithDetail("reason", "invalid_cursor").Wrap(err)
		}
		pos = p
	}
	// One more than asked says whether another page follows.
	list, err := s.store.ListProjects(ctx, accountID, pos, limit+1)
	if err != nil {
		return nil, fmt.Errorf("project: list: %w", err)
	}
	page := &Page{Projects: list}
	if len(list) > limit {
		page.Projects = list[:limit]
		last := list[limit-1]
		page.NextCursor = encodeCursor(Position{CreatedAt: last.CreatedAt, ID: last.ID})
	}
	return page, nil
}

// encodeCursor writes pos as opaque text: base64url of "p1.<unix>.<id>".
func encodeCursor(pos Position) string {
	raw := cursorTag + "." + strconv.FormatInt(pos.CreatedAt.Unix(), 10) + "." + pos.ID
	return base64.RawURLEncoding.EncodeToString([]byte(raw))
}

func decodeCursor(s string) (*Position, error) {
	if len(s) > 128 {
		return nil, fmt.Errorf("project: cursor too long")
	}
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return nil, fmt.Errorf("project: cursor: %w", err)
	}
	parts := strings.Split(string(b), ".")
	if len(parts) != 3 || parts[0] != cursorTag {
		return nil, fmt.Errorf("project: cursor: bad layout")
	}
	sec, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil {
		return nil, fmt.Errorf("project: cursor: %w", err)
	}
	if _, err := uuid.Parse(parts[2]); err != nil || len(parts[2]) != 36 {
		return nil, fmt.Errorf("project: cursor: bad id")
	}
	return &Position{CreatedAt: time.Unix(sec, 0).UTC(), ID: parts[2]}, nil
}
