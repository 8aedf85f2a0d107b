#!/usr/bin/env bash
# build/test.sh: make test. It installs what is missing and builds the UI
# (make deps-test ui), then runs every pass, timed.
#
# Two lanes run side by side, since the race pass alone leaves a core idle
# much of the time (its tests wait on browsers, ffmpeg, PostgreSQL and
# child processes):
#
#   race    every package's tests with -race (cgo on), but the browser, the
#           manual's, the cluster and the package tests
#           then the static binary's compile (cgo off), so that make dist
#           only links it: the plain lane is the longer one (645 s against
#           the race pass's 580 in one run)
#   plain   gofmt, the UI's TypeScript check (tsc, strict), go vet (with
#           the desktop build tags), the browser tests with the manual's
#           examples (package docs), the API and domain suites on
#           PostgreSQL beside the three-node cluster tests, then the tests
#           that step aside under -race, run without it, with one pass of
#           every benchmark (the bench module's too, with its go-astisub
#           read-back of the EBU STL and EBU-TT-D writers)
#
# then, once the tests have reported, packaging: make dist (amd64, gzip),
# the package tests and the desktop window's smoke test.
#
# One set of build flags: -trimpath everywhere, cgo on (the race detector
# and the desktop window need it), so that what go vet compiles is what the
# plain lane's tests, the desktop build of make dist and the smoke test
# link. The static binary of make dist (cgo off) compiles apart, at the
# race lane's end.
#
# Each step's output goes to build/test/STEP.log (shown when the step ends,
# and its go test events to STEP.json); at the end a table gives every
# step's lane, start, wall time and CPU time (its own and its waited-for
# processes'), then the ten slowest test packages.
# A failed step stops the steps not yet started; the run exits 1.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"
out=build/test
rm -rf "$out"
mkdir -p "$out"
: >"$out/steps.tsv"
t0=$(date +%s.%N)

export GOFLAGS="${GOFLAGS:+$GOFLAGS }-trimpath"
# The collector runs as in the product (package gctune's GC percent, 400)
# for the compiler and the tests alike, unless GOGC is set: the race pass
# then spends a third less CPU (httpapi 129 s against 84 s) and the
# compiler a tenth less, for a heap that may grow to five times what is
# live. Tests that weigh memory collect before they read it.
export GOGC="${GOGC:-400}"
GO=${GO:-go}
MAKE=${MAKE:-make}

since() { awk -v a="$(date +%s.%N)" -v b="$t0" 'BEGIN { printf "%.1f", a - b }'; }
say() { flock "$out/.print" printf '[test %6ss] %s\n' "$(since)" "$*"; }

# step LANE NAME CMD...: run CMD into NAME.log unless a step failed, record
# its time, then show its last lines (all of its output on failure).
step() {
	local lane=$1 name=$2 start status secs cpu
	shift 2
	if [ -e "$out/failed" ]; then
		printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$lane" "-" "-" "-" "not run" >>"$out/steps.tsv"
		return 1
	fi
	start=$(since)
	say "$name: started ($lane)"
	# The CPU time of the step and the processes it waited for.
	local TIMEFORMAT='%U %S'
	{ time "$@" >"$out/$name.log" 2>&1; } 2>"$out/$name.cpu"
	status=$?
	cpu=$(awk '{ printf "%.0f", $1 + $2 }' "$out/$name.cpu")
	secs=$(awk -v a="$(since)" -v b="$start" 'BEGIN { printf "%.1f", a - b }')
	if [ "$status" -eq 0 ]; then
		printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$lane" "$start" "$secs" "$cpu" ok >>"$out/steps.tsv"
		flock "$out/.print" sh -c 'printf "[test %6ss] %s: ok in %ss\n" "$1" "$2" "$3"; tail -n 3 "$4" | sed "s/^/    /"' _ "$(since)" "$name" "$secs" "$out/$name.log"
	else
		printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$lane" "$start" "$secs" "$cpu" "FAILED ($status)" >>"$out/steps.tsv"
		touch "$out/failed"
		flock "$out/.print" sh -c 'printf "[test %6ss] %s: FAILED (exit %s) after %ss; build/test/%s.log:\n" "$1" "$2" "$3" "$4" "$2"; sed "s/^/    /" "$5"' _ "$(since)" "$name" "$status" "$secs" "$out/$name.log"
	fi
	return "$status"
}

# gotest NAME ARGS...: go test ARGS through gotestsum, one line a package,
# the output of failed tests, and the events in NAME.json. Test binaries
# link without DWARF (-w): nothing here debugs them, stack traces and race
# reports come from the symbol tables, and a link costs a third less.
gotest() { "$GO" tool gotestsum --format pkgname-and-test-fails --format-hide-empty-pkg --jsonfile "$out/$1.json" -- -ldflags=-w "${@:2}"; }

# static_compile compiles what the static binary of make dist needs (cgo
# off), so that make dist only links it: every package it imports but the
# main one, which would link.
static_compile() {
	CGO_ENABLED=0 "$GO" build $(CGO_ENABLED=0 "$GO" list -deps -f '{{if ne .Name "main"}}{{.ImportPath}}{{end}}' .)
}

# on_postgres CMD...: the store suites' tests on a throwaway PostgreSQL.
on_postgres() { CAPTIONQA_TEST_STORE=postgres "$@"; }

fmt_check() {
	local files bad
	# The tracked and the new files, but not the ones deleted in the work tree.
	files=$(git ls-files -co --exclude-standard -- '*.go' 2>/dev/null | while read -r f; do [ -e "$f" ] && echo "$f"; done) ||
		files=$(find . -name '*.go' -not -path './frontend/node_modules/*')
	bad=$(gofmt -l $files) || return 1
	[ -z "$bad" ] || { echo "gofmt would change:"; echo "$bad"; return 1; }
}

# vet: go vet with the desktop window's build tags, once. go vet keys the
# facts it computes over every dependency by the build tags, so a second
# vet without them would redo them all (a minute of CPU) for the one file
# that only a headless build compiles, app/run_headless.go (a constant and
# a one-line Run); the packages' compiled code is shared either way.
vet() { "$GO" vet -tags desktop,production,webkit2_41 ./... && (cd bench && "$GO" vet ./...); }

# The tests that step aside under -race (see backend/internal/race), with
# one pass of every benchmark so that they stay runnable: one test binary
# per package for both.
norace_and_bench() {
	local args run pkgs
	args=$("$GO" run ./backend/internal/race/norace) || return 1
	run=${args%% *}
	pkgs=$(printf '%s\n' ${args#* } $(grep -rl --include='*_test.go' '^func Benchmark' backend | xargs -n1 dirname | sed 's|^|./|') | sort -u)
	gotest norace-and-bench -count=1 "$run" -bench=. -benchtime=1x $pkgs &&
		(cd bench && "$GO" test -ldflags=-w -count=1 -run='^TestAstisub' -bench=. -benchtime=1x ./...)
}

# Every package but the browser, manual, cluster and package tests, which
# run in their own steps.
#
# modernc.org's packages (SQLite, QuickJS and their libc) compile without
# the race detector's instrumentation (-race=false for them only): they are
# C translated to Go, single-threaded behind the locks of database/sql and
# package jsrun, which are instrumented like all of our code and the
# standard library. Instrumented, they cost a third of the race pass's
# test time (httpapi 192 s CPU against 129 s) and could only report races
# inside SQLite or QuickJS themselves.
race_gcflags='-gcflags=modernc.org/...=-race=false'
lane_race() {
	local pkgs
	pkgs=$("$GO" list ./... | grep -v -e '/e2e$' -e '/docs$' -e '/backend/internal/cluster$' -e '/build/package$')
	step race race-tests gotest race-tests -race "$race_gcflags" -count=1 -timeout 15m $pkgs &&
		step race static-compile static_compile
}

lane_plain() {
	step plain fmt fmt_check &&
		step plain typecheck frontend/node_modules/.bin/tsc -p frontend/src &&
		step plain vet vet &&
		step plain browser-and-docs gotest browser-and-docs -count=1 -timeout 10m ./e2e ./docs &&
		step plain postgres-and-cluster on_postgres gotest postgres-and-cluster -count=1 -timeout 10m \
			./backend/httpapi ./backend/account ./backend/quota ./backend/media ./backend/video ./backend/internal/cluster &&
		step plain norace-and-bench norace_and_bench
}

step setup deps-and-ui "$MAKE" --no-print-directory deps-test ui || true
if [ ! -e "$out/failed" ]; then
	lane_race &
	race_pid=$!
	lane_plain &
	plain_pid=$!
	wait "$race_pid"
	wait "$plain_pid"
fi

# Packaging, once the tests have reported; the package tests and the
# desktop smoke test side by side.
if step package dist "$MAKE" --no-print-directory dist DIST_ARCHES=amd64 DIST_DEB_COMPRESSION=gzip; then
	step package package-tests gotest package-tests -count=1 ./build/package &
	step package desktop-smoke build/desktop-smoke.sh
	wait
fi

# The report.
{
	echo
	printf '%-22s %-8s %8s %8s %8s  %s\n' step lane "start s" "wall s" "CPU s" result
	while IFS=$'\t' read -r name lane start secs cpu result; do
		printf '%-22s %-8s %8s %8s %8s  %s\n' "$name" "$lane" "$start" "$secs" "$cpu" "$result"
	done <"$out/steps.tsv"
	printf '%-22s %-8s %8s %8s %8s\n' total "" "" "$(since)" "$(awk -F'\t' '$5 != "-" { s += $5 } END { printf "%.0f", s }' "$out/steps.tsv")"
	echo
	echo "The ten slowest test packages (wall s, pass):"
	for f in "$out"/*.json; do
		[ -s "$f" ] || continue
		jq -r --arg pass "$(basename "$f" .json)" \
			'select(.Test == null and (.Action == "pass" or .Action == "fail") and .Elapsed != null) | [.Elapsed, .Package, $pass] | @tsv' "$f"
	done | sort -t$'\t' -k1,1 -rn | head -n 10 |
		awk -F'\t' '{ sub("^github.com/captionqa/captionqa/?", "", $2); printf "  %8.1f  %-40s %s\n", $1, ($2 == "" ? "." : $2), $3 }'
} | tee "$out/report.txt"

if [ -e "$out/failed" ]; then
	echo "make test: FAILED (see build/test/*.log)"
	exit 1
fi
echo "make test: ok"
