#!/usr/bin/env bash
# build/deps-debian.sh: install those of the Debian packages named as
# arguments that are not installed yet (make deps, deps-desktop, deps-test).
#
#   build/deps-debian.sh ffmpeg tesseract-ocr ...
#
# Idempotent: when all are installed it prints nothing and runs no apt-get.
# Otherwise it prints one line naming what it installs and appends
# apt-get's output to build/apt.log (APT_LOG to change); if apt-get fails
# it prints the log's last lines and exits 1. It runs apt-get with sudo
# unless it is root.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
log=${APT_LOG:-$root/build/apt.log}

missing=()
for p in "$@"; do
	# dpkg -s succeeds for a removed package whose config files remain;
	# the status word says whether it is really installed.
	[ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)" = installed ] || missing+=("$p")
done
[ "${#missing[@]}" -gt 0 ] || exit 0

sudo=()
[ "$(id -u)" = 0 ] || sudo=(sudo)
echo "installing ${#missing[@]} Debian package(s): ${missing[*]} (apt-get output in ${log#"$PWD"/})"
mkdir -p "$(dirname "$log")"
echo "=== $(date -u +%Y-%m-%dT%H:%M:%SZ) apt-get install ${missing[*]}" >>"$log"
if ! {
	"${sudo[@]}" apt-get update -q &&
		"${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q -o Dpkg::Use-Pty=0 --no-install-recommends "${missing[@]}"
} >>"$log" 2>&1; then
	echo "deps-debian: apt-get failed; the last lines of $log:" >&2
	tail -n 30 "$log" >&2
	exit 1
fi
