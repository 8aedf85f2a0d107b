# CaptionQA: `make run` and `make test` are all a fresh Debian 12 machine
# needs. Both install what is missing first (idempotently), then do their job.

SHELL := /bin/bash
export PATH := /usr/local/go/bin:$(HOME)/go/bin:$(PATH)
GO ?= go
BIN := build/bin/captionqa

# One set of build flags for every target, so that what one compiles the
# others reuse from Go's build cache: -trimpath everywhere, cgo as Go sets
# it (the race detector and the desktop window need it). Only the static
# binaries (make build, make dist) turn cgo off, which compiles them apart.
override GOFLAGS := $(strip $(filter-out -trimpath,$(GOFLAGS)) -trimpath)
export GOFLAGS

# Debian packages, installed by build/deps-debian.sh only when absent
# (apt-get's output goes to build/apt.log, the terminal gets one line).
# make run needs DEB_RUN: ffmpeg (video jobs; libass and libx264 with
# it), a font for burned-in captions and tesseract with its English data
# (OCR of burned-in captions); Node.js and npm too unless a node and an npm
# are on the PATH (they install the UI's npm packages). make desktop and
# desktop-run add DEB_DESKTOP (GTK and WebKitGTK 4.1 to build the window),
# desktop-smoke DEB_SMOKE (Xvfb, xdotool, ImageMagick, curl), make test
# all of them and DEB_TEST (chromium for the browser tests, systemd for
# systemd-analyze and desktop-file-utils, which check the packages,
# postgresql for the throwaway clusters the Postgres store's tests start,
# espeak-ng and sox for the spoken test programmes of the media analysis,
# poppler-utils for pdftotext, which reads the QC report's PDF back).
DEB_RUN     := ca-certificates ffmpeg fonts-dejavu-core tesseract-ocr tesseract-ocr-eng
DEB_DESKTOP := build-essential pkg-config libgtk-3-dev libwebkit2gtk-4.1-dev
DEB_SMOKE   := xvfb xauth xdotool imagemagick curl
DEB_TEST    := git jq chromium systemd desktop-file-utils postgresql espeak-ng sox poppler-utils
NODE_DEBS    = $$(command -v node >/dev/null && command -v npm >/dev/null || echo nodejs npm)

DESKTOP_BIN  := build/bin/captionqa-desktop
DESKTOP_TAGS := desktop,production,webkit2_41

# The build's identity, linked into every binary (captionqa version): the
# version is wails.json's productVersion, the commit HEAD's (-dirty with
# uncommitted changes), the date now in UTC or SOURCE_DATE_EPOCH's.
# Override on the command line: make dist VERSION=0.2.0
VERSION    := $(shell sed -n 's/^ *"productVersion": *"\([^"]*\)".*/\1/p' wails.json)
COMMIT     := $(shell if c=$$(git rev-parse --short=7 HEAD 2>/dev/null); then git diff --quiet HEAD -- 2>/dev/null || c=$$c-dirty; echo $$c; else echo unknown; fi)
BUILD_DATE := $(shell date -u -d "@$${SOURCE_DATE_EPOCH:-$$(date +%s)}" +%Y-%m-%dT%H:%M:%SZ)
CLI_PKG    := github.com/captionqa/captionqa/backend/cli
LDFLAGS    := -X $(CLI_PKG).version=$(VERSION) -X $(CLI_PKG).commit=$(COMMIT) -X $(CLI_PKG).buildDate=$(BUILD_DATE)

# make install: build/bin/captionqa to $(DESTDIR)$(PREFIX)/bin.
PREFIX ?= /usr/local
DESTDIR ?=

# make dist: the architectures of the tarballs and captionqa .debs,
# whether to build the desktop .deb (amd64 machines only) and how to
# compress the .debs. make test builds and checks amd64 only, with gzip,
# to keep CI within its time (a cold arm64 build takes minutes, xz half a
# minute a package).
DIST_ARCHES ?= amd64 arm64
DIST_DESKTOP ?= yes
DIST_DEB_COMPRESSION ?= xz
MAINTAINER ?= CaptionQA <packages@captionqa.invalid>

FUZZTIME ?= 60s
FUZZ_PACKAGES := ./backend/caption ./backend/caption/format ./backend/drift ./backend/engine ./backend/caption/srt ./backend/caption/sbv ./backend/caption/vtt ./backend/caption/ass ./backend/caption/ttml ./backend/caption/scc ./backend/caption/stl ./backend/fix ./backend/rules ./backend/jsonw ./backend/httpapi ./backend/jsrun ./backend/video ./backend/video/ffmpeg ./backend/explain

.PHONY: all deps deps-debian deps-desktop deps-smoke deps-test deps-s3 cluster deps-go deps-npm ui build run install uninstall dist desktop desktop-run desktop-smoke test test-short fuzz bench help

all: build

help:
	@echo "make run     install what is missing, build, start captionqa"
	@echo "make test    install what is missing, run every test (timings in build/test/report.txt)"
	@echo "make test-short  the quick loop: go test -short, no browser, cluster or packages"
	@echo "make build   build the UI and $(BIN) (pure Go, CGO_ENABLED=0)"
	@echo "make desktop build the desktop window, $(DESKTOP_BIN) (GTK, WebKitGTK 4.1)"
	@echo "make desktop-run  build and open the desktop window"
	@echo "make cluster three nodes on one Postgres and one S3 store, on this machine (see README)"
	@echo "make install install $(BIN) as $(DESTDIR)$(PREFIX)/bin/captionqa (PREFIX, DESTDIR)"
	@echo "make dist    tarballs and .debs for $(DIST_ARCHES) in build/dist/ (version $(VERSION))"
	@echo "make fuzz    run every fuzz target for FUZZTIME (default $(FUZZTIME))"
	@echo "make bench   run the speed and memory benchmarks, with the go-astisub comparison"

# deps: what make run needs (Debian packages, Go modules, npm packages).
deps: deps-debian deps-go deps-npm

deps-debian:
	@command -v $(GO) >/dev/null || { echo "Go is missing: install Go 1.26 to /usr/local/go (see README)"; exit 1; }
	@build/deps-debian.sh $(DEB_RUN) $(NODE_DEBS)

# The rest, each in one apt-get run with what make run needs.
deps-desktop:
	@build/deps-debian.sh $(DEB_RUN) $(NODE_DEBS) $(DEB_DESKTOP)

deps-smoke:
	@build/deps-debian.sh $(DEB_RUN) $(NODE_DEBS) $(DEB_DESKTOP) $(DEB_SMOKE)

deps-test: deps-s3
	@build/deps-debian.sh $(DEB_RUN) $(NODE_DEBS) $(DEB_DESKTOP) $(DEB_SMOKE) $(DEB_TEST)

# versitygw serves S3 on loopback over a folder (its POSIX gateway): the
# S3 blob store's tests and make cluster run against it. Built once with
# the Go toolchain into $(HOME)/go/bin.
VERSITYGW_VERSION := v1.8.0
deps-s3:
	@command -v versitygw >/dev/null || { echo "installing versitygw $(VERSITYGW_VERSION) (S3 server for the tests)"; \
		$(GO) install github.com/versity/versitygw/cmd/versitygw@$(VERSITYGW_VERSION); }

deps-go:
	@$(GO) mod download
	@cd bench && $(GO) mod download

# The UI's npm packages (the CodeMirror editor it bundles; openapi-typescript
# and typescript, which only build and check it), exactly as
# frontend/package-lock.json pins them: npm ci runs when node_modules is
# missing or older than the lockfile. Node.js and npm come from Debian
# (deps-debian) unless a node and an npm are already on the PATH.
NPM_STAMP := frontend/node_modules/.package-lock.json

deps-npm: $(NPM_STAMP)

$(NPM_STAMP): frontend/package-lock.json frontend/package.json | deps-debian
	cd frontend && npm ci --no-audit --no-fund
	@touch $@

# ui writes the UI's wire types from the contract (openapi-typescript, into
# frontend/src/api/schema.gen.ts, not kept in git), then bundles
# frontend/src into frontend/dist with esbuild's Go API. The binary embeds
# the result.
SCHEMA_TS := frontend/src/api/schema.gen.ts

ui: deps $(SCHEMA_TS)
	$(GO) run ./frontend/bundle

$(SCHEMA_TS): assets/openapi/openapi.yaml $(NPM_STAMP)
	frontend/node_modules/.bin/openapi-typescript assets/openapi/openapi.yaml -o $@ --alphabetize

build: ui
	CGO_ENABLED=0 $(GO) build -ldflags '$(LDFLAGS)' -o $(BIN) .

run: build
	./$(BIN) $(ARGS)

# install puts the binary on the PATH, so that the README's captionqa
# commands run as written (make run does not need it).
install: build
	install -D -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/bin/captionqa

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/captionqa

# dist: build/dist/ holds a tarball and a .deb per architecture in
# DIST_ARCHES, the desktop .deb and SHA256SUMS (see build/dist.sh).
dist: deps-desktop ui
	DIST_VERSION='$(VERSION)' DIST_DATE='$(BUILD_DATE)' DIST_LDFLAGS='$(LDFLAGS)' DIST_ARCHES='$(DIST_ARCHES)' \
		DIST_DESKTOP='$(DIST_DESKTOP)' DIST_DEB_COMPRESSION='$(DIST_DEB_COMPRESSION)' DIST_MAINTAINER='$(MAINTAINER)' GO='$(GO)' build/dist.sh

# The desktop window: the same binary with Wails, GTK and WebKitGTK 4.1.
desktop: deps-desktop ui
	CGO_ENABLED=1 $(GO) build -tags $(DESKTOP_TAGS) -ldflags '$(LDFLAGS)' -o $(DESKTOP_BIN) .

desktop-run: desktop
	./$(DESKTOP_BIN) desktop $(ARGS)

# desktop-smoke opens the window under Xvfb, acts in it with the keyboard,
# checks the effect through the API and keeps a screenshot in build/bin/.
desktop-smoke: deps-smoke ui
	build/desktop-smoke.sh

# test: every pass, timed, in build/test.sh: gofmt and go vet, every test
# with -race (unit, golden, fuzz seeds, the conformance suites on the test
# corpus of docs/development.md, the architecture rules, the API on real SQLite over
# loopback, both stores' conformance suite on SQLite and a throwaway
# PostgreSQL, the blob stores' on a folder and on versitygw) beside a lane
# without it (the tests that step aside under -race, one pass of every
# benchmark, the browser tests in Debian's chromium, the API and domain
# suites on PostgreSQL beside the three-node cluster tests), then make
# dist, the tests of the packages it built and the desktop window's smoke
# test under Xvfb. It ends with a table of every step's time and the ten
# slowest test packages (build/test/report.txt).
test:
	@build/test.sh

# test-short: the edit-test loop. Every package's tests in -short mode
# (long tests skip themselves), without the race detector, the browser, the
# cluster or the packages; the collector at the product's setting, as in
# make test.
test-short: ui
	GOGC=$${GOGC:-400} $(GO) test -short $$($(GO) list ./... | grep -v -e '/e2e$$' -e '/backend/internal/cluster$$' -e '/build/package$$')

# cluster: a throwaway PostgreSQL, versitygw and three nodes of the
# binary on this machine, until Ctrl-C (build/cluster.sh).
cluster: build deps-s3
	@command -v initdb >/dev/null || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || build/deps-debian.sh postgresql
	build/cluster.sh

fuzz: deps
	@for p in $(FUZZ_PACKAGES); do \
		for f in $$($(GO) test -list '^Fuzz' $$p | grep '^Fuzz'); do \
			echo "== $$p $$f ($(FUZZTIME))"; \
			$(GO) test -run='^$$' -fuzz="^$$f$$" -fuzztime=$(FUZZTIME) $$p || exit 1; \
		done; \
	done

bench: deps
	$(GO) test -run='^$$' -bench=. -benchmem -count=1 ./backend/caption/... ./backend/engine ./backend/explain ./backend/httpapi
	cd bench && $(GO) test -run='^$$' -bench=. -benchmem -count=1 ./...
