# CaptionQA: `make run` and `make test` are all a fresh Debian 12 machine
# needs. Both install what is missing first (idempotently), then do their job.

SHELL := /bin/bash
export PATH := /usr/local/go/bin:$(HOME)/go/bin:$(PATH)
GO ?= go
BIN := build/bin/captionqa

# Debian packages the build, the tests and the app need: ffmpeg (video
# jobs; libass and libx264 with it), a font for burned-in captions and
# tesseract with its English data (OCR of burned-in captions);
# chromium for the browser tests; GTK and WebKitGTK 4.1 (and Xvfb, xdotool,
# ImageMagick for the smoke test) for the desktop window. `deps` installs
# only what is absent.
DEB_PACKAGES := ca-certificates curl git jq ffmpeg fonts-dejavu-core tesseract-ocr tesseract-ocr-eng chromium \
	build-essential pkg-config libgtk-3-dev libwebkit2gtk-4.1-dev xvfb xauth xdotool imagemagick

DESKTOP_BIN  := build/bin/captionqa-desktop
DESKTOP_TAGS := desktop,production,webkit2_41

FUZZTIME ?= 60s
FUZZ_PACKAGES := ./backend/caption ./backend/caption/format ./backend/engine ./backend/caption/srt ./backend/caption/sbv ./backend/caption/vtt ./backend/caption/ass ./backend/caption/ttml ./backend/caption/scc ./backend/caption/stl ./backend/fix ./backend/rules ./backend/jsonw ./backend/httpapi ./backend/jsrun ./backend/video ./backend/video/ffmpeg ./backend/explain

.PHONY: all deps deps-debian deps-go deps-npm ui build run desktop desktop-run desktop-smoke test vet fmt-check fuzz bench help

all: build

help:
	@echo "make run     install what is missing, build, start captionqa"
	@echo "make test    install what is missing, run every test"
	@echo "make build   build the UI and $(BIN) (pure Go, CGO_ENABLED=0)"
	@echo "make desktop build the desktop window, $(DESKTOP_BIN) (GTK, WebKitGTK 4.1)"
	@echo "make desktop-run  build and open the desktop window"
	@echo "make fuzz    run every fuzz target for FUZZTIME (default $(FUZZTIME))"
	@echo "make bench   run the speed and memory benchmarks, with the go-astisub comparison"

deps: deps-debian deps-go deps-npm

deps-debian:
	@command -v $(GO) >/dev/null || { echo "Go is missing: install Go 1.26 to /usr/local/go (see README)"; exit 1; }
	@missing=""; for p in $(DEB_PACKAGES); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || missing="$$missing nodejs npm"; \
	if [ -n "$$missing" ]; then \
		echo "installing Debian packages:$$missing"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	fi

deps-go:
	@$(GO) mod download
	@cd bench && $(GO) mod download

# The UI's npm packages (the CodeMirror editor), exactly as
# frontend/package-lock.json pins them: npm ci runs when node_modules is
# missing or older than the lockfile. Node.js and npm come from Debian
# (deps-debian) unless a node and an npm are already on the PATH.
NPM_STAMP := frontend/node_modules/.package-lock.json

deps-npm: $(NPM_STAMP)

$(NPM_STAMP): frontend/package-lock.json frontend/package.json | deps-debian
	cd frontend && npm ci --no-audit --no-fund
	@touch $@

# ui bundles frontend/src into frontend/dist with esbuild's Go API; npm only
# installs the packages it bundles (deps-npm). The binary embeds the result.
ui: deps
	$(GO) run ./frontend/bundle

build: ui
	CGO_ENABLED=0 $(GO) build -trimpath -o $(BIN) .

run: build
	./$(BIN) $(ARGS)

# The desktop window: the same binary with Wails, GTK and WebKitGTK 4.1.
desktop: ui
	$(GO) build -trimpath -tags $(DESKTOP_TAGS) -o $(DESKTOP_BIN) .

desktop-run: desktop
	./$(DESKTOP_BIN) desktop $(ARGS)

# desktop-smoke opens the window under Xvfb, acts in it with the keyboard,
# checks the effect through the API and keeps a screenshot in build/bin/.
desktop-smoke: deps
	build/desktop-smoke.sh

vet:
	$(GO) vet ./...
	$(GO) vet -tags $(DESKTOP_TAGS) ./app/ .
	cd bench && $(GO) vet ./...

fmt-check:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

# test: vet, gofmt, every test with -race (unit, golden, fuzz seeds, the
# conformance suites on ../shared/corpus, the architecture rules, the API on
# real SQLite over loopback, the browser tests in Debian's chromium), the
# scaling checks again without -race (they skip under it: see
# backend/internal/scaling), the headless build without cgo, the desktop window's smoke test under Xvfb,
# and one pass of every benchmark so they stay runnable.
test: ui fmt-check vet
	$(GO) test -race -count=1 -timeout 15m ./...
	$(GO) test -count=1 -run Linear ./backend/...
	CGO_ENABLED=0 $(GO) build -o /dev/null .
	build/desktop-smoke.sh
	$(GO) test -run='^$$' -bench=. -benchtime=1x ./... >/dev/null
	cd bench && $(GO) test -count=1 -run='^$$' -bench=. -benchtime=1x ./... >/dev/null

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
