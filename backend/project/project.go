// Package project keeps projects: named caption timelines an account
// stores, each with its numbered IR revisions (the newest
// [KeptRevisions] of them), so that later work (drift diffs, exports,
// export-template tests) names a timeline by project id rather than
// uploading it again. A project is "ready" once it holds a timeline and
// "empty" before. It declares the [Store] it needs; package store/sqlite
// implements it.
package project

import (
	"time"
)

// Statuses of a [Project].
const (
	// StatusReady: the project holds a timeline (IRRevision >= 1).
	StatusReady = "ready"
	// StatusEmpty: the project was created without a timeline.
	StatusEmpty = "empty"
)

// Limits every project obeys.
const (
	// MaxIRBytes bounds a timeline: the IR JSON text sent, and the IR
	// stored (compact IR v1 JSON) after a caption file is read, are at
	// most this many bytes (about 4.25 MiB, the API's request limit).
	MaxIRBytes = 4_456_448
	// MaxProjects is the most projects an account may hold; deleting one
	// makes room for another.
	MaxProjects = 1_000
	// KeptRevisions is how many revisions a project keeps: storing a
	// newer one prunes the oldest beyond it. Revision numbers never go
	// back, so a pruned number is never reused.
	KeptRevisions = 50
	// MaxNameLen is the longest project name, in characters.
	MaxNameLen = 100
	// DefaultListLimit and MaxListLimit bound a page of [Service.List].
	DefaultListLimit = 20
	MaxListLimit     = 100
)

// Project is a stored caption timeline's header.
type Project struct {
	ID        string // uuid
	AccountID string
	Name      string
	// IRRevision is the current revision's number, 0 while the project
	// is empty.
	IRRevision int
	// CueCount is the current revision's cue count, 0 while empty.
	CueCount  int
	CreatedAt time.Time
	// UpdatedAt is when the last revision was stored (CreatedAt until
	// then).
	UpdatedAt time.Time
}

// Status is [StatusReady] when the project holds a timeline, else
// [StatusEmpty].
func (p *Project) Status() string {
	if p.IRRevision > 0 {
		return StatusReady
	}
	return StatusEmpty
}

// Revision is one stored timeline of a project.
type Revision struct {
	Number    int // from 1, one more than the revision before
	CueCount  int
	CreatedAt time.Time
	// IR is the timeline as compact IR v1 JSON text; empty in listings.
	IR string
}

// Detail is a project with its current timeline.
type Detail struct {
	Project
	// IR is the current revision's IR v1 JSON text, "" while the project
	// is empty.
	IR string
}

// Page is one page of [Service.List].
type Page struct {
	Projects []Project
	// NextCursor continues the listing; "" on the last page.
	NextCursor string
}
