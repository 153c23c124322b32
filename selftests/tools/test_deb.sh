#!/bin/bash
# `make deb` (debian/, install.mk): dpkg-buildpackage builds the five
# packages from a copy of the tree, lintian --pedantic finds no error or
# warning (tools/lint-deb), and each package holds what it is for, with
# the dependencies and shared-library symbols that make it installable.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root" || exit 1
B=${BUILD:-build}
D=$B/deb
V=0.1.0
d=$(mktemp -d "${TMPDIR:-/tmp}/test_deb.XXXXXX")
trap 'rm -rf "$d"' EXIT
. "$root/selftests/lib/tap.sh"

# has PKG PATH...: the package's files include every PATH.
has() {
	local pkg=$1 p
	shift
	dpkg-deb -c "$D/${pkg}_${V}_"*.deb | awk '{ print $6 }' >"$d/files"
	for p in "$@"; do
		grep -qx "./$p" "$d/files" || { echo "# $pkg: no $p"; return 1; }
	done
}
field() { dpkg-deb -f "$D/${1}_${V}_"*.deb "$2"; }

check "make deb builds pwtpu-dkms, libpathways1, libpathways-dev, pathwaysd, pwtpu-tools" \
	'make -s deb >"$d/log" 2>&1 || { tail -20 "$d/log" | sed "s/^/# /"; false; }
	 for p in pwtpu-dkms libpathways1 libpathways-dev pathwaysd pwtpu-tools; do
		ls "$D/${p}_${V}_"*.deb >/dev/null || exit 1
	 done'
check "lintian --pedantic: no errors, no warnings" \
	'tools/lint-deb "$D/pwtpu_${V}_amd64.changes" "$d/lintian" | sed "s/^/# /";
	 [[ ${PIPESTATUS[0]} -eq 0 ]]'
check "pwtpu-dkms: the module source with dkms.conf, the udev rule, modules-load.d" \
	'has pwtpu-dkms usr/src/pwtpu-$V/dkms.conf usr/src/pwtpu-$V/Kbuild \
		usr/src/pwtpu-$V/driver/pwtpu_drv.c usr/src/pwtpu-$V/firmware/pwfw.h \
		usr/src/pwtpu-$V/include/uapi/pwtpu.h lib/udev/rules.d/60-pwtpu.rules \
		usr/lib/modules-load.d/pwtpu.conf etc/modprobe.d/pwtpu.conf &&
	 field pwtpu-dkms Depends | grep -q dkms &&
	 dpkg-deb --ctrl-tarfile "$D/pwtpu-dkms_${V}_all.deb" |
		tar -xO ./postinst | grep -q "dkms"'
check "only pwtpu-dkms has the module source and DKMS's scripts and dependency" \
	'for p in libpathways1 libpathways-dev pathwaysd pwtpu-tools; do
		dpkg-deb -c "$D/${p}_${V}_"*.deb | grep -q " ./usr/src/" &&
			{ echo "# $p has usr/src"; exit 1; }
		field $p Depends | grep -q dkms &&
			{ echo "# $p depends on dkms"; exit 1; }
		dpkg-deb --ctrl-tarfile "$D/${p}_${V}_"*.deb | tar -t |
			grep -q prerm && dpkg-deb --ctrl-tarfile "$D/${p}_${V}_"*.deb |
			tar -xO ./prerm | grep -q dkms &&
			{ echo "# $p runs dkms"; exit 1; }
	 done; true'
check "libpathways1: both libraries, a symbols file by version node" \
	'has libpathways1 usr/lib/x86_64-linux-gnu/libpathways.so.1 \
		usr/lib/x86_64-linux-gnu/libpwtpu.so.1 &&
	 dpkg-deb --ctrl-tarfile "$D/libpathways1_${V}_amd64.deb" |
		tar -xO ./symbols | grep -q "^ pw_connect@PATHWAYS_1 $V"'
check "libpathways-dev: headers, .so links, archives, pkg-config, on the same version" \
	'has libpathways-dev usr/include/pathways-1/pathways/pathways.h \
		usr/lib/x86_64-linux-gnu/libpathways.so \
		usr/lib/x86_64-linux-gnu/libpathways.a \
		usr/lib/x86_64-linux-gnu/pkgconfig/pathways.pc &&
	 field libpathways-dev Depends | grep -q "libpathways1 (= $V)" &&
	 field libpathways-dev Depends | grep -q libdpdk-dev &&
	 dpkg-deb -x "$D/libpathways-dev_${V}_amd64.deb" "$d/dev" &&
	 ! grep "^Libs.private" "$d/dev/usr/lib/x86_64-linux-gnu/pkgconfig/pathways.pc" |
		grep -q -- "-Wl,"'
check "pathwaysd: the daemon, its units, its configuration as a conffile, its user" \
	'has pathwaysd usr/sbin/pathwaysd lib/systemd/system/pathwaysd@.service \
		lib/systemd/system/pathwaysd@worker.service.d/devices.conf \
		usr/share/man/man5/pathwaysd.conf.5.gz &&
	 dpkg-deb --ctrl-tarfile "$D/pathwaysd_${V}_amd64.deb" |
		tar -xO ./conffiles | grep -qx /etc/pathways/pathwaysd.conf &&
	 dpkg-deb --ctrl-tarfile "$D/pathwaysd_${V}_amd64.deb" |
		tar -xO ./postinst | grep -q "systemd-sysusers.*pathwaysd.conf"'
check "pwtpu-tools: the tools and their pages; pwtpu(4) with the module" \
	'has pwtpu-tools usr/bin/pwtpu-smi usr/bin/pwbench usr/bin/pwtrace \
		usr/bin/pwhlo usr/share/man/man1/pwtpu-smi.1.gz &&
	 has pwtpu-dkms usr/share/man/man4/pwtpu.4.gz'

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
