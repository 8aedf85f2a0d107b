#!/usr/bin/env bash
# build/desktop-smoke.sh: smoke test of the real desktop window (Wails,
# GTK 3, WebKitGTK 4.1) under a virtual X server.
#
#   build/desktop-smoke.sh            # from anywhere; exits 0 on success
#   SMOKE_KEEP=1 build/desktop-smoke.sh   # keep the temp folder (logs, data)
#
# What it does, step by step (each step fails with a clear message):
#   1. builds the UI (go run ./frontend/bundle) and the desktop binary
#      build/bin/captionqa-desktop (tags desktop,production,webkit2_41);
#   2. starts Xvfb on the first free display from :99 (1280x800x24);
#   3. starts `captionqa-desktop desktop` with a temp --data folder and
#      --addr 127.0.0.1:0 (the server picks a free port and prints it with
#      the owner key, as on every first start);
#   4. waits for the window (xdotool search --sync --onlyvisible --name
#      CaptionQA) and for the page: the UI's boot call GET /api/session,
#      answered 200 through the in-process AssetServer handler (seen in the
#      request log);
#   5. opens the editor with the keyboard, as a user would: a project
#      created through the API (owner key), then Tab x4 + Return on the nav
#      link "Projects", Tab x4 + Return on the project's link, Tab x2 +
#      Return on "Edit captions" (each new page's title takes the focus);
#      waits for the editor's live check (POST /api/v1/projects/ID/check)
#      and screenshots it to build/bin/desktop-smoke-editor.png;
#      then Shift+Tab x3 + Return from the editor's title back through the
#      nav to "API keys" (#nav-keys), then Tab x2 from
#      the page title past the owner key's Revoke button to the name field
#      (#key-name), types a key name and presses Return (submits #key-form:
#      POST /api/v1/api-keys as the desktop owner, no key needed in-window);
#   6. checks from outside, on the TCP listener integrations use, with curl
#      and the owner key: /healthz is up and GET /api/v1/api-keys lists the
#      new key (two keys in all);
#   7. screenshots the window to build/bin/desktop-smoke.png (ImageMagick
#      import -window) and checks that it is not blank;
#   8. closes the app with SIGTERM and checks that it exits 0 (OnShutdown
#      shut the listener down and closed the database) and the port is
#      closed; the EXIT trap stops Xvfb and removes the temp folder.
#
# Needs: Go, libgtk-3-dev libwebkit2gtk-4.1-dev (build), xvfb xauth xdotool
# imagemagick curl (run). No window manager, no D-Bus session.
# Processes this script started are waited for, so they leave no zombies.

set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

bin=build/bin/captionqa-desktop
shot=build/bin/desktop-smoke.png
editor_shot=build/bin/desktop-smoke-editor.png
tags=desktop,production,webkit2_41
key_name="desktop-smoke-$$"
t0=$(date +%s.%N)

log() { printf '[desktop-smoke %6ss] %s\n' "$(awk -v a="$(date +%s.%N)" -v b="$t0" 'BEGIN { printf "%.2f", a - b }')" "$*"; }

# alive PID: the process runs (a child that exited stays a zombie until
# waited for, and kill -0 still succeeds on a zombie).
alive() { [ -r "/proc/$1/stat" ] && [ "$(sed 's/.*) //' "/proc/$1/stat" | cut -c1)" != Z ]; }

tmp=$(mktemp -d -t captionqa-desktop-smoke.XXXXXX)
xvfb_pid="" app_pid="" wid=""

fail() {
	echo "desktop-smoke: FAIL: $*" >&2
	if [ -n "$wid" ] && [ -n "${DISPLAY:-}" ]; then
		import -window "$wid" build/bin/desktop-smoke-fail.png 2>/dev/null &&
			echo "desktop-smoke: the window at the failure: build/bin/desktop-smoke-fail.png" >&2
	fi
	for f in app.out app.err xvfb.log; do
		if [ -s "$tmp/$f" ]; then
			echo "--- last lines of $f ---" >&2
			tail -n 25 "$tmp/$f" >&2
		fi
	done
	exit 1
}

cleanup() {
	local code=$?
	if [ -n "$app_pid" ]; then
		kill -TERM "$app_pid" 2>/dev/null || true
		for _ in $(seq 50); do alive "$app_pid" || break; sleep 0.1; done
		kill -KILL "$app_pid" 2>/dev/null || true
		wait "$app_pid" 2>/dev/null || true
	fi
	if [ -n "$xvfb_pid" ]; then
		kill -TERM "$xvfb_pid" 2>/dev/null || true
		wait "$xvfb_pid" 2>/dev/null || true
	fi
	if [ "${SMOKE_KEEP:-}" = 1 ]; then
		echo "desktop-smoke: kept $tmp" >&2
	else
		rm -rf "$tmp"
	fi
	exit "$code"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# wait_for SECONDS DESCRIPTION COMMAND...: retry COMMAND every 0.1 s.
wait_for() {
	local secs=$1 what=$2
	shift 2
	local deadline=$(($(date +%s) + secs))
	until "$@" >/dev/null 2>&1; do
		if [ -n "$app_pid" ] && ! alive "$app_pid"; then
			fail "the app exited while waiting for $what"
		fi
		[ "$(date +%s)" -lt "$deadline" ] || fail "timed out after ${secs}s waiting for $what"
		sleep 0.1
	done
}

# logged METHOD PATH STATUS: the app's request log has that line.
logged() { grep -q "method=$1 path=$2 status=$3" "$tmp/app.err"; }

# 0. Tools.
missing=""
for t in go Xvfb xdotool import identify curl awk; do command -v "$t" >/dev/null || missing="$missing $t"; done
[ -z "$missing" ] || fail "missing tools:$missing (apt-get install -y --no-install-recommends xvfb xauth xdotool imagemagick curl)"
pkg-config --exists gtk+-3.0 webkit2gtk-4.1 ||
	fail "GTK/WebKit headers missing (apt-get install -y --no-install-recommends build-essential pkg-config libgtk-3-dev libwebkit2gtk-4.1-dev)"

# 1. Build the UI and the desktop binary.
log "building the UI and $bin"
go run ./frontend/bundle >"$tmp/build.log" 2>&1 || { cat "$tmp/build.log" >&2; fail "the UI did not build"; }
[ -s frontend/dist/index.html ] || fail "frontend/dist/index.html is missing after the UI build"
mkdir -p build/bin
CGO_ENABLED=1 go build -trimpath -tags "$tags" -o "$bin" . 2>"$tmp/build.log" || { cat "$tmp/build.log" >&2; fail "the desktop binary did not build"; }
log "built"

# 2. A virtual X server on the first free display from :99.
n=99
while [ -e "/tmp/.X$n-lock" ] || [ -e "/tmp/.X11-unix/X$n" ]; do
	n=$((n + 1))
	[ "$n" -lt 140 ] || fail "no free X display between :99 and :139"
done
export DISPLAY=":$n"
unset WAYLAND_DISPLAY
Xvfb "$DISPLAY" -screen 0 1280x800x24 -nolisten tcp >"$tmp/xvfb.log" 2>&1 &
xvfb_pid=$!
wait_for 10 "Xvfb on $DISPLAY" xdotool getdisplaygeometry
log "Xvfb is up on $DISPLAY"

# 3. The app, with its own data folder and a free port. WebKit's cache and
# settings go to the temp folder too.
mkdir -p "$tmp/data" "$tmp/xdg"
XDG_CACHE_HOME="$tmp/xdg/cache" XDG_CONFIG_HOME="$tmp/xdg/config" XDG_DATA_HOME="$tmp/xdg/data" NO_AT_BRIDGE=1 \
	"$bin" desktop --addr 127.0.0.1:0 --data "$tmp/data" --log-format text --log-level info >"$tmp/app.out" 2>"$tmp/app.err" &
app_pid=$!
wait_for 30 "the server's start line" grep -q '^CaptionQA is running at http://' "$tmp/app.out"
url=$(sed -n 's|^CaptionQA is running at \(http://[^ ]*\)/ .*|\1|p' "$tmp/app.out" | head -n 1)
wait_for 5 "the owner key (first start)" grep -q '^  cqa_' "$tmp/app.out"
owner_key=$(sed -n 's/^  \(cqa_[A-Za-z0-9_-]*\)$/\1/p' "$tmp/app.out" | head -n 1)
[ -n "$url" ] && [ -n "$owner_key" ] || fail "could not read the URL and owner key from the app's output"
log "the server listens at $url"

# 4. The window, then the page.
wid=$(timeout 30 xdotool search --sync --onlyvisible --name '^CaptionQA$' | head -n 1) || true
[ -n "$wid" ] || fail "no visible window named CaptionQA within 30s"
log "window $wid is visible ($(xdotool getwindowgeometry "$wid" | sed -n 's/ *Geometry: //p'))"
wait_for 30 "the page (GET / through the window)" logged GET / 200
wait_for 30 "the UI's boot call GET /api/session" logged GET /api/session 200
sleep 0.5 # the page renders after the session answer
log "the page is loaded and signed in"

# 5. The editor: open a project's captions in the workstation page with the
# keyboard, and see it check the draft.
body='{"name":"Desktop smoke","ir":"{\"version\":1,\"language\":\"en\",\"cues\":[{\"id\":\"c1\",\"startMs\":1000,\"endMs\":3000,\"text\":\"This line is far too long for any of the platforms CaptionQA checks its captions against.\"}]}"}'
project=$(curl -fsS -m 5 -H "Authorization: Bearer $owner_key" -H 'Content-Type: application/json' --data "$body" "$url/api/v1/projects") ||
	fail "could not create the smoke project through the API"
project_id=$(sed -n 's/.*"id":"\([0-9a-f-]*\)".*/\1/p' <<<"$project")
[ -n "$project_id" ] || fail "no project id in $project"
xdotool windowfocus --sync "$wid"
xdotool key --delay 120 Tab Tab Tab Tab Return # #skip-link, brand, #nav-run, #nav-projects: open "Projects" (its title takes the focus)
wait_for 15 "the project list (GET /api/v1/projects)" logged GET /api/v1/projects 200
sleep 0.5 # the list renders
xdotool key --delay 120 Tab Tab Tab Tab Return # title -> "Choose caption file", name, "Create project", the project's link
wait_for 15 "the project page (GET /api/v1/projects/$project_id)" logged GET "/api/v1/projects/$project_id" 200
sleep 0.5 # the page renders; its title took the focus from the link followed
xdotool key --delay 120 Tab Tab Return # title -> "All projects", "Edit captions"
wait_for 20 "the editor's live check (POST /api/v1/projects/$project_id/check)" logged POST "/api/v1/projects/$project_id/check" 200
sleep 0.5 # the findings render
rm -f "$editor_shot"
import -window "$wid" "$editor_shot" || fail "import could not capture window $wid"
colours=$(identify -format '%k' "$editor_shot") || fail "$editor_shot is not a readable image"
[ "$colours" -gt 16 ] || fail "$editor_shot looks blank ($colours colours)"
log "the editor opened project $project_id in the window and checked its draft (screenshot $editor_shot)"

# 5, continued: an API key with the keyboard, from the editor's title (it took
# the focus from the "Edit captions" link): back through the nav.
xdotool key --delay 120 shift+Tab shift+Tab shift+Tab Return # #nav-account, #nav-webhook, #nav-keys: open "API keys"
wait_for 15 "the API keys page (GET /api/v1/api-keys)" logged GET /api/v1/api-keys 200
sleep 0.5 # the list renders
xdotool key --delay 120 Tab Tab # page title -> the owner key's Revoke -> #key-name
xdotool type --delay 20 "$key_name"
xdotool key Return # submits #key-form
wait_for 15 "the key to be created (POST /api/v1/api-keys 201)" logged POST /api/v1/api-keys 201
log "created key $key_name in the window"

# 6. Check from outside, on the TCP port, with the owner key.
curl -fsS -m 5 "$url/healthz" >/dev/null || fail "GET $url/healthz failed"
keys=$(curl -fsS -m 5 -H "Authorization: Bearer $owner_key" "$url/api/v1/api-keys") ||
	fail "GET $url/api/v1/api-keys with the owner key failed"
grep -q "\"name\":\"$key_name\"" <<<"$keys" || fail "the key list does not name $key_name: $keys"
count=$(grep -o '"keyId"' <<<"$keys" | wc -l)
[ "$count" -eq 2 ] || fail "expected 2 keys (owner + $key_name), got $count: $keys"
log "the API on $url lists $count keys, $key_name among them"

# 7. Screenshot of the window.
sleep 0.3 # let the secret panel paint
rm -f "$shot"
import -window "$wid" "$shot" || fail "import could not capture window $wid"
colours=$(identify -format '%k' "$shot") || fail "$shot is not a readable image"
[ "$colours" -gt 16 ] || fail "$shot looks blank ($colours colours)"
log "screenshot $shot ($(identify -format '%wx%h' "$shot"), $colours colours)"

# 8. Close the app like a session manager would, and check it shut down cleanly.
kill -TERM "$app_pid"
deadline=$(($(date +%s) + 15))
while alive "$app_pid"; do
	[ "$(date +%s)" -lt "$deadline" ] || fail "the app did not exit within 15s of SIGTERM"
	sleep 0.1
done
code=0
wait "$app_pid" || code=$?
app_pid=""
[ "$code" -eq 0 ] || fail "the app exited with code $code after SIGTERM"
if curl -s -m 2 "$url/healthz" >/dev/null; then fail "$url still answers after the app exited"; fi
log "the app exited 0 and closed $url"
echo "desktop-smoke: OK (window, page, the editor on a project, key created in the window and seen through the API, screenshots $editor_shot $shot)"
