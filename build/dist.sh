#!/usr/bin/env bash
# build/dist.sh: the packages for sites without internet (make dist), in
# build/dist/. Nothing in them downloads anything when installed.
#
#   make dist                       # linux amd64 and arm64, both .debs
#   make dist DIST_ARCHES=amd64     # amd64 only (what make test checks)
#
# For each architecture in DIST_ARCHES:
#   captionqa-VERSION-linux-ARCH.tar.gz   the static headless binary
#       (CGO_ENABLED=0), README.md and docs/, LICENSE, THIRD-PARTY-NOTICES and
#       captionqa.service (ExecStart in /usr/local/bin, where make install
#       puts the binary), in a folder captionqa-VERSION-linux-ARCH/;
#   captionqa_VERSION_ARCH.deb            /usr/bin/captionqa, the hardened
#       unit /lib/systemd/system/captionqa.service, the captionqa system
#       user (postinst), the service enabled and started when systemd runs;
# and, when DIST_DESKTOP=yes and the machine is amd64 (the window needs
# cgo with GTK and WebKitGTK, so it is built for this machine only):
#   captionqa-desktop_VERSION_amd64.deb   /usr/bin/captionqa-desktop, the
#       menu entry and the icon;
# then SHA256SUMS over all of them.
#
# The Makefile passes the build's identity: DIST_VERSION, DIST_DATE (RFC
# 3339 UTC, also the files' time inside the packages), DIST_LDFLAGS (the
# -X flags of captionqa version) and DIST_MAINTAINER; DIST_DEB_COMPRESSION
# is xz (the smallest .debs, dpkg-deb's default) or gzip (four to eight
# times faster to build: make test's choice). The UI must be built (make
# ui) before: the binaries embed frontend/dist.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

: "${DIST_VERSION:?set by make dist}" "${DIST_DATE:?set by make dist}" "${DIST_LDFLAGS:?set by make dist}"
arches=${DIST_ARCHES:-amd64 arm64}
desktop=${DIST_DESKTOP:-yes}
compression=${DIST_DEB_COMPRESSION:-xz}
maintainer=${DIST_MAINTAINER:-CaptionQA <packages@captionqa.invalid>}
go=${GO:-go}
version=$DIST_VERSION
epoch=$(date -u -d "$DIST_DATE" +%s)
pkg=build/package
out=build/dist
work=$out/.work
t0=$(date +%s.%N)

log() { printf '[dist %6ss] %s\n' "$(awk -v a="$(date +%s.%N)" -v b="$t0" 'BEGIN { printf "%.1f", a - b }')" "$*"; }
die() {
	echo "dist: $*" >&2
	exit 1
}

[[ $version =~ ^[0-9][A-Za-z0-9.+~-]*$ ]] || die "version $version is not a Debian version (it must start with a digit)"
case $compression in xz | gzip) ;; *) die "DIST_DEB_COMPRESSION is xz or gzip, not $compression" ;; esac
[ -s frontend/dist/index.html ] || die "frontend/dist is not built: run make ui (make dist does)"
for t in dpkg-deb tar gzip sha256sum; do command -v "$t" >/dev/null || die "$t is missing"; done

rm -rf "$out"
mkdir -p "$work"

# notices FILE TAGS: the licences of everything the binary links or
# embeds: Go and the Go modules (go list -deps with those build tags) and
# the npm packages the UI bundles (frontend/package-lock.json, dev ones
# excepted).
notices() {
	local file=$1 tags=$2
	{
		echo "CaptionQA includes the following third-party software. Each notice below"
		echo "is reproduced from the component's source as required by its licence."
		echo
		echo "================================================================"
		echo "Go (the standard library and runtime) $("$go" env GOVERSION)"
		echo "================================================================"
		cat "$("$go" env GOROOT)/LICENSE"
		"$go" list -deps -tags "$tags" -f '{{with .Module}}{{if not .Main}}{{.Path}} {{.Version}} {{with .Replace}}{{.Dir}}{{else}}{{.Dir}}{{end}}{{end}}{{end}}' . |
			sort -u | while read -r path ver dir; do
			echo
			echo "================================================================"
			echo "$path $ver"
			echo "================================================================"
			found=
			for f in "$dir"/LICENSE* "$dir"/LICENCE* "$dir"/COPYING* "$dir"/NOTICE* "$dir"/license* "$dir"/PATENTS; do
				[ -f "$f" ] || continue
				cat "$f"
				found=1
			done
			[ -n "$found" ] || echo "(no licence file in the module; see https://pkg.go.dev/$path?tab=licenses)"
		done
		sed -n 's/^    "node_modules\/\(.*\)": {$/\1/p' frontend/package-lock.json | while read -r name; do
			# Dev-only packages are not bundled.
			if awk -v k="    \"node_modules/$name\": {" '$0 == k { p = 1; next } p && /^    }/ { exit } p && /"dev": true/ { found = 1 } END { exit !found }' frontend/package-lock.json; then
				continue
			fi
			dir=frontend/node_modules/$name
			echo
			echo "================================================================"
			echo "$name $(sed -n 's/^  "version": "\(.*\)",$/\1/p' "$dir/package.json" 2>/dev/null) (npm, in the UI)"
			echo "================================================================"
			found=
			for f in "$dir"/LICENSE* "$dir"/LICENCE* "$dir"/license*; do
				[ -f "$f" ] || continue
				cat "$f"
				found=1
			done
			[ -n "$found" ] || echo "(no licence file in the package; package.json says: $(sed -n 's/^  "license": "\(.*\)",\{0,1\}$/\1/p' "$dir/package.json" 2>/dev/null))"
		done
	} >"$file"
}

# control TEMPLATE STAGE ARCH: DEBIAN/control from a template, with the
# staged tree's size.
control() {
	local template=$1 stage=$2 arch=$3 size
	size=$(du -sk --apparent-size --exclude=DEBIAN "$stage" | cut -f1)
	mkdir -p "$stage/DEBIAN"
	sed -e "s|@VERSION@|$version|" -e "s|@ARCH@|$arch|" -e "s|@MAINTAINER@|$maintainer|" -e "s|@INSTALLED_SIZE@|$size|" \
		"$template" >"$stage/DEBIAN/control"
	chmod 0644 "$stage/DEBIAN/control"
	(cd "$stage" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | xargs -0 -r md5sum) >"$stage/DEBIAN/md5sums"
	chmod 0644 "$stage/DEBIAN/md5sums"
}

# docs STAGE PACKAGE NOTICES: /usr/share/doc/PACKAGE (copyright, the
# README, the manual of docs/ and the notices, compressed as Debian does).
docs() {
	local d=$1/usr/share/doc/$2 f
	install -d -m 0755 "$d" "$d/docs"
	install -m 0644 "$pkg/LICENSE" "$d/copyright"
	gzip -9n <README.md >"$d/README.md.gz"
	for f in docs/*.md; do
		gzip -9n <"$f" >"$d/$f.gz"
	done
	gzip -9n <"$3" >"$d/THIRD-PARTY-NOTICES.gz"
	chmod 0644 "$d"/*.gz "$d"/docs/*.gz
}

# deb STAGE: build/dist/PACKAGE_VERSION_ARCH.deb, every file root's, with
# the same time.
deb() {
	local stage=$1 name
	find "$stage" -exec touch -h -d "@$epoch" {} +
	name=$(sed -n 's/^Package: //p' "$stage/DEBIAN/control")_${version}_$(sed -n 's/^Architecture: //p' "$stage/DEBIAN/control").deb
	SOURCE_DATE_EPOCH=$epoch dpkg-deb --root-owner-group -Z"$compression" -z6 --build "$stage" "$out/$name" >/dev/null
	log "$out/$name ($(du -h "$out/$name" | cut -f1))"
}

notices "$work/THIRD-PARTY-NOTICES" ""

for arch in $arches; do
	log "building captionqa for linux/$arch"
	bin=$work/captionqa-linux-$arch
	CGO_ENABLED=0 GOOS=linux GOARCH=$arch "$go" build -trimpath -ldflags "$DIST_LDFLAGS -s -w" -o "$bin" .

	# The tarball.
	dir=captionqa-$version-linux-$arch
	install -d -m 0755 "$work/$dir"
	install -m 0755 "$bin" "$work/$dir/captionqa"
	install -m 0644 README.md "$pkg/LICENSE" "$work/THIRD-PARTY-NOTICES" "$work/$dir/"
	# The manual the README links to.
	install -d -m 0755 "$work/$dir/docs"
	install -m 0644 docs/*.md "$work/$dir/docs/"
	sed 's|@BINDIR@|/usr/local/bin|g' "$pkg/captionqa.service" >"$work/$dir/captionqa.service"
	chmod 0644 "$work/$dir/captionqa.service"
	tar -C "$work" --sort=name --owner=0 --group=0 --numeric-owner --mtime="@$epoch" -cf - "$dir" | gzip -6n >"$out/$dir.tar.gz"
	log "$out/$dir.tar.gz ($(du -h "$out/$dir.tar.gz" | cut -f1))"

	# The .deb.
	stage=$work/deb-captionqa-$arch
	install -D -m 0755 "$bin" "$stage/usr/bin/captionqa"
	install -d -m 0755 "$stage/lib/systemd/system"
	sed 's|@BINDIR@|/usr/bin|g' "$pkg/captionqa.service" >"$stage/lib/systemd/system/captionqa.service"
	chmod 0644 "$stage/lib/systemd/system/captionqa.service"
	docs "$stage" captionqa "$work/THIRD-PARTY-NOTICES"
	control "$pkg/deb/captionqa/control" "$stage" "$arch"
	install -m 0755 "$pkg/deb/captionqa/postinst" "$pkg/deb/captionqa/prerm" "$pkg/deb/captionqa/postrm" "$stage/DEBIAN/"
	deb "$stage"
done

if [ "$desktop" = yes ]; then
	[ "$("$go" env GOARCH)" = amd64 ] || die "the desktop package is built on amd64 only (DIST_DESKTOP=no to leave it out)"
	log "building captionqa-desktop for linux/amd64 (GTK 3, WebKitGTK 4.1)"
	tags=desktop,production,webkit2_41
	bin=$work/captionqa-desktop
	CGO_ENABLED=1 "$go" build -trimpath -tags "$tags" -ldflags "$DIST_LDFLAGS -s -w" -o "$bin" .
	CGO_ENABLED=1 notices "$work/THIRD-PARTY-NOTICES-desktop" "$tags"
	stage=$work/deb-captionqa-desktop-amd64
	install -D -m 0755 "$bin" "$stage/usr/bin/captionqa-desktop"
	install -D -m 0644 "$pkg/captionqa.desktop" "$stage/usr/share/applications/captionqa.desktop"
	# The icon's folder is named for its size: width and height are the
	# PNG header's bytes 16 to 23, big-endian.
	read -r w h < <(od -An -tu1 -j16 -N8 build/appicon.png | awk '{ print $1*16777216 + $2*65536 + $3*256 + $4, $5*16777216 + $6*65536 + $7*256 + $8 }')
	size=${w}x$h
	install -D -m 0644 build/appicon.png "$stage/usr/share/icons/hicolor/$size/apps/captionqa.png"
	docs "$stage" captionqa-desktop "$work/THIRD-PARTY-NOTICES-desktop"
	control "$pkg/deb/captionqa-desktop/control" "$stage" amd64
	deb "$stage"
fi

rm -rf "$work"
(cd "$out" && sha256sum -- *.tar.gz *.deb >SHA256SUMS)
log "done: $out/SHA256SUMS"
