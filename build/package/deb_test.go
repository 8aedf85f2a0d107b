package package_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// runtimeDepends are the Debian packages the video jobs need at run time,
// in both packages' Depends.
var runtimeDepends = []string{"ffmpeg", "tesseract-ocr", "tesseract-ocr-eng", "fonts-dejavu-core"}

// TestServerDeb checks captionqa_VERSION_ARCH.deb for this machine and
// every other architecture make dist built.
func TestServerDeb(t *testing.T) {
	t.Parallel()
	version := productVersion(t)
	for _, arch := range append([]string{runtime.GOARCH}, optionalArches(t, version)...) {
		t.Run(arch, func(t *testing.T) {
			t.Parallel()
			deb := artifact(t, "captionqa_"+version+"_"+arch+".deb")
			checkFields(t, deb, "captionqa", version, arch, append([]string{"adduser"}, runtimeDepends...))
			checkContents(t, deb, withManual(t, "./usr/share/doc/captionqa/", map[string]string{
				"./usr/bin/captionqa":                              "-rwxr-xr-x",
				"./lib/systemd/system/captionqa.service":           "-rw-r--r--",
				"./usr/share/doc/captionqa/copyright":              "-rw-r--r--",
				"./usr/share/doc/captionqa/README.md.gz":           "-rw-r--r--",
				"./usr/share/doc/captionqa/THIRD-PARTY-NOTICES.gz": "-rw-r--r--",
			}))
			checkScripts(t, deb)
			root := extractDeb(t, deb)
			checkELF(t, filepath.Join(root, "usr/bin/captionqa"), arch, true)
			checkUnit(t, root)
			if arch == runtime.GOARCH {
				checkVersion(t, filepath.Join(root, "usr/bin/captionqa"), version)
			}
		})
	}
}

// TestDesktopDeb checks captionqa-desktop_VERSION_amd64.deb.
func TestDesktopDeb(t *testing.T) {
	t.Parallel()
	if runtime.GOARCH != "amd64" {
		t.Skip("make dist builds the desktop package on amd64 only")
	}
	version := productVersion(t)
	deb := artifact(t, "captionqa-desktop_"+version+"_amd64.deb")
	checkFields(t, deb, "captionqa-desktop", version, "amd64", append([]string{"libgtk-3-0", "libwebkit2gtk-4.1-0"}, runtimeDepends...))
	checkContents(t, deb, withManual(t, "./usr/share/doc/captionqa-desktop/", map[string]string{
		"./usr/bin/captionqa-desktop":                              "-rwxr-xr-x",
		"./usr/share/applications/captionqa.desktop":               "-rw-r--r--",
		"./usr/share/icons/hicolor/256x256/apps/captionqa.png":     "-rw-r--r--",
		"./usr/share/doc/captionqa-desktop/copyright":              "-rw-r--r--",
		"./usr/share/doc/captionqa-desktop/README.md.gz":           "-rw-r--r--",
		"./usr/share/doc/captionqa-desktop/THIRD-PARTY-NOTICES.gz": "-rw-r--r--",
	}))
	root := extractDeb(t, deb)

	entry := filepath.Join(root, "usr/share/applications/captionqa.desktop")
	if out, err := exec.Command(need(t, "desktop-file-validate", "desktop-file-utils"), entry).CombinedOutput(); err != nil || len(out) > 0 {
		t.Errorf("desktop-file-validate captionqa.desktop: %v\n%s", err, out)
	}
	b, err := os.ReadFile(entry)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"Exec=captionqa-desktop desktop", "Icon=captionqa", "Name=CaptionQA"} {
		if !strings.Contains(string(b), "\n"+line+"\n") {
			t.Errorf("captionqa.desktop has no line %q:\n%s", line, b)
		}
	}

	// The window's binary links GTK and WebKitGTK 4.1 (the Depends), and
	// prints its version without a display.
	bin := filepath.Join(root, "usr/bin/captionqa-desktop")
	f := checkELF(t, bin, "amd64", false)
	libs, _ := f.ImportedLibraries()
	for _, want := range []string{"libgtk-3.so.0", "libwebkit2gtk-4.1.so.0"} {
		if !strings.Contains(strings.Join(libs, " "), want) {
			t.Errorf("captionqa-desktop does not link %s: %v", want, libs)
		}
	}
	checkVersion(t, bin, version)
}

// checkFields checks the control fields with dpkg-deb --field.
func checkFields(t *testing.T, deb, pkg, version, arch string, depends []string) {
	t.Helper()
	out := run(t, need(t, "dpkg-deb", "dpkg"), "--field", deb)
	fields := map[string]string{}
	key := ""
	for _, line := range strings.Split(out, "\n") {
		if k, v, ok := strings.Cut(line, ": "); ok && !strings.HasPrefix(line, " ") {
			key = k
			fields[k] = v
		} else if key != "" && strings.HasPrefix(line, " ") {
			fields[key] += "\n" + line
		}
	}
	for k, want := range map[string]string{"Package": pkg, "Version": version, "Architecture": arch, "Section": "video", "Priority": "optional"} {
		if fields[k] != want {
			t.Errorf("%s: %s = %q, want %q", filepath.Base(deb), k, fields[k], want)
		}
	}
	if m := fields["Maintainer"]; !strings.Contains(m, "<") || !strings.HasSuffix(m, ">") {
		t.Errorf("%s: Maintainer %q is not 'Name <address>'", filepath.Base(deb), m)
	}
	if size, err := strconv.Atoi(fields["Installed-Size"]); err != nil || size < 1024 {
		t.Errorf("%s: Installed-Size %q: want the KiB the files take", filepath.Base(deb), fields["Installed-Size"])
	}
	if d := fields["Description"]; !strings.Contains(d, "\n ") {
		t.Errorf("%s: Description %q has no long description", filepath.Base(deb), d)
	}
	got := map[string]bool{}
	for _, d := range strings.Split(fields["Depends"], ",") {
		if f := strings.Fields(d); len(f) > 0 {
			got[f[0]] = true
		}
	}
	for _, d := range depends {
		if !got[d] {
			t.Errorf("%s: Depends %q lacks %s", filepath.Base(deb), fields["Depends"], d)
		}
	}
}

// checkContents checks dpkg-deb --contents: each file in want with its
// mode, every entry root's.
func checkContents(t *testing.T, deb string, want map[string]string) {
	t.Helper()
	out := run(t, need(t, "dpkg-deb", "dpkg"), "--contents", deb)
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		// -rwxr-xr-x root/root 33788066 2026-11-26 14:07 ./usr/bin/captionqa
		f := strings.Fields(line)
		if len(f) < 6 {
			t.Errorf("unexpected dpkg-deb --contents line %q", line)
			continue
		}
		mode, owner, path := f[0], f[1], f[5]
		if owner != "root/root" {
			t.Errorf("%s: %s is owned by %s, want root/root", filepath.Base(deb), path, owner)
		}
		if wantMode, ok := want[path]; ok {
			delete(want, path)
			if mode != wantMode {
				t.Errorf("%s: %s has mode %s, want %s", filepath.Base(deb), path, mode, wantMode)
			}
		} else if mode[0] != 'd' {
			t.Errorf("%s: unexpected file %s", filepath.Base(deb), path)
		}
	}
	for path := range want {
		t.Errorf("%s has no %s", filepath.Base(deb), path)
	}
}

// withManual adds the manual's pages, docs/NAME.md.gz under doc (a
// package's /usr/share/doc folder), to a want list of checkContents.
func withManual(t *testing.T, doc string, want map[string]string) map[string]string {
	t.Helper()
	for _, page := range manualPages(t) {
		want[doc+"docs/"+page+".gz"] = "-rw-r--r--"
	}
	return want
}

// checkScripts checks the maintainer scripts: dash can parse them,
// postinst creates the captionqa system user and enables and starts the
// service only where systemd runs, prerm stops it, postrm purges.
func checkScripts(t *testing.T, deb string) {
	t.Helper()
	dpkgDeb := need(t, "dpkg-deb", "dpkg")
	info := run(t, dpkgDeb, "--info", deb)
	for _, s := range []string{"postinst", "prerm", "postrm"} {
		if !strings.Contains(info, "*  "+s+" ") {
			t.Errorf("%s: no executable %s in dpkg-deb --info:\n%s", filepath.Base(deb), s, info)
		}
	}
	contains := map[string][]string{
		"postinst": {
			"adduser --system --group --home /var/lib/captionqa --quiet captionqa",
			"install -d -o captionqa -g captionqa -m 0700 /var/lib/captionqa",
			"deb-systemd-helper enable captionqa.service",
			"if [ -d /run/systemd/system ]; then",
			"deb-systemd-invoke $action captionqa.service",
		},
		"prerm":  {`if [ "$1" = remove ] && [ -d /run/systemd/system ]; then`, "deb-systemd-invoke stop captionqa.service"},
		"postrm": {"deb-systemd-helper purge captionqa.service", "rm -rf /var/lib/captionqa"},
	}
	for s, wants := range contains {
		script := run(t, dpkgDeb, "--info", deb, s)
		for _, want := range wants {
			if !strings.Contains(script, want) {
				t.Errorf("%s %s lacks %q:\n%s", filepath.Base(deb), s, want, script)
			}
		}
		cmd := exec.Command("sh", "-n")
		cmd.Stdin = strings.NewReader(script)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("%s %s: sh -n: %v\n%s", filepath.Base(deb), s, err, out)
		}
	}
}

// extractDeb unpacks a package's files into a new temp folder.
func extractDeb(t *testing.T, deb string) string {
	t.Helper()
	root := t.TempDir()
	run(t, need(t, "dpkg-deb", "dpkg"), "-x", deb, root)
	return root
}

// checkUnit checks the unit as installed: the hardening the issue asks
// for, systemd-analyze verify with no complaint (ExecStart pointed at the
// extracted binary, which must exist for verify), and an exposure of at
// most 2.0 by systemd-analyze security.
func checkUnit(t *testing.T, root string) {
	t.Helper()
	analyze := need(t, "systemd-analyze", "systemd")
	b, err := os.ReadFile(filepath.Join(root, "lib/systemd/system/captionqa.service"))
	if err != nil {
		t.Fatal(err)
	}
	unit := string(b)
	for _, line := range []string{
		"ExecStart=/usr/bin/captionqa serve --data /var/lib/captionqa",
		"User=captionqa", "StateDirectory=captionqa", "Environment=CAPTIONQA_ADDR=127.0.0.1:8787", "Restart=on-failure",
		"ProtectSystem=strict", "ProtectHome=true", "PrivateTmp=true", "PrivateDevices=true", "NoNewPrivileges=true",
		"ProtectKernelTunables=true", "ProtectKernelModules=true", "ProtectControlGroups=true",
		"RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX", "RestrictNamespaces=true", "LockPersonality=true",
		"MemoryDenyWriteExecute=true", "SystemCallArchitectures=native", "CapabilityBoundingSet=",
		"WantedBy=multi-user.target",
	} {
		if !strings.Contains(unit, "\n"+line+"\n") {
			t.Errorf("captionqa.service has no line %q", line)
		}
	}

	// verify checks that ExecStart's binary exists and is executable, on
	// this machine's paths: point it at the extracted one. The file keeps
	// its name, which verify reads as the unit's.
	bin := filepath.Join(root, "usr/bin/captionqa")
	dir := t.TempDir()
	path := filepath.Join(dir, "captionqa.service")
	if err := os.WriteFile(path, []byte(strings.ReplaceAll(unit, "ExecStart=/usr/bin/captionqa ", "ExecStart="+bin+" ")), 0o644); err != nil {
		t.Fatal(err)
	}
	// verify exits 0 on warnings (an unknown key, a bad value): any
	// output is a failure.
	if out, err := exec.Command(analyze, "verify", path).CombinedOutput(); err != nil || len(out) > 0 {
		t.Errorf("systemd-analyze verify captionqa.service: %v\n%s", err, out)
	}
	if out, err := exec.Command(analyze, "security", "--offline=true", "--threshold=20", path).CombinedOutput(); err != nil {
		t.Errorf("systemd-analyze security: exposure above 2.0 (%v):\n%s", err, out)
	}
}
