#!/bin/bash
# `make install` into a scratch root (install.mk): the libraries carry
# their sonames and export exactly the functions their installed headers
# declare, under their version nodes; pkg-config's flags build an example
# outside the tree, against the shared library and against the static
# archive alone, and both run it on simulated devices; the udev rule,
# units, sysusers.d and modules-load.d land where Debian looks; the
# examples under /etc never overwrite an operator's files; the module's
# DKMS source tree builds pwtpu.ko on its own.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root" || exit 1
B=${BUILD:-build}
d=$(mktemp -d "${TMPDIR:-/tmp}/test_install.XXXXXX")
trap 'rm -rf "$d"' EXIT
. "$root/selftests/lib/tap.sh"
D=$d/root
L=$D/usr/lib

# Functions a header declares, comments and static inline ones left out.
declared() {
	perl -0777 -pe 's#/\*.*?\*/##gs; s#static inline[^{;]*(\{(?:[^{}]++|(?1))*\})##gs' "$@" |
		grep -oE "\b$prefix[a-z0-9_]*\(" | tr -d '(' | sort -u
}
# What the shared library exports, with @@version.
exported() {
	nm -D --defined-only "$1" | awk '$2 == "T" { print $3 }' | sort -u
}
# exports_exactly LIB VERSION HEADER...: both ways, each at VERSION.
exports_exactly() {
	local lib=$1 ver=$2
	shift 2
	declared "$@" | sed "s/$/@@$ver/" >"$d/want"
	exported "$lib" >"$d/got"
	diff "$d/want" "$d/got" | sed 's/^/# /'
	cmp -s "$d/want" "$d/got" && [[ -s $d/want ]]
}
soname() {
	readelf -d "$1" | grep -oE 'soname: \[[^]]*\]' | tr -d '[]' |
		cut -d' ' -f2
}
# pc ARGS: pkg-config over the scratch root's files only, paths moved there.
pc() {
	PKG_CONFIG_SYSROOT_DIR=$D \
	PKG_CONFIG_LIBDIR=$L/pkgconfig:$(pkg-config --variable pc_path pkg-config) \
		pkg-config "$@"
}

check "make install DESTDIR=... PREFIX=/usr" \
	'make -s install DESTDIR="$D" PREFIX=/usr >"$d/log" 2>&1 ||
	 { tail -5 "$d/log" | sed "s/^/# /"; false; }'
check "headers under include/pathways-1, the layout they include each other by" \
	'for h in uapi/pwtpu.h pathways/pathways.h pathways/rm.h \
		pwtpu/pwtpu_dev.h pwtpu/pwprog.h; do
		cmp -s "include/$h" "$D/usr/include/pathways-1/$h" || exit 1
	 done'
check "sonames libpathways.so.1 and libpwtpu.so.1, with their links" \
	'[[ $(soname $L/libpathways.so) == libpathways.so.1 &&
	    $(soname $L/libpwtpu.so) == libpwtpu.so.1 &&
	    -e $L/libpathways.so.1 && -e $L/libpwtpu.so.1 ]]'
prefix=pw_
check "libpathways.so exports what pathways.h and rm.h declare, at PATHWAYS_1" \
	'exports_exactly $L/libpathways.so PATHWAYS_1 \
		include/pathways/pathways.h include/pathways/rm.h'
prefix=pw
check "libpwtpu.so exports what pwtpu_dev.h and pwprog.h declare, at PWTPU_1" \
	'exports_exactly $L/libpwtpu.so PWTPU_1 \
		include/pwtpu/pwtpu_dev.h include/pwtpu/pwprog.h'
check "the tools, pathwaysd and every man page are installed" \
	'for f in bin/pwtpu-smi bin/pwbench bin/pwtrace bin/pwhlo \
		sbin/pathwaysd; do [[ -x $D/usr/$f ]] || exit 1; done
	 for m in man/*.[1-8]; do
		[[ -f $D/usr/share/man/man${m##*.}/${m#man/} ]] || exit 1
	 done'
check "pkg-config --cflags pathways names only the installed headers" \
	'[[ $(echo $(pc --cflags pathways)) == "-I$D/usr/include/pathways-1" ]]'
check "examples/fig2.c built outside the tree with pkg-config runs, shared" \
	'cc -std=c11 -Wall -Wextra -Werror -o "$d/fig2" examples/fig2.c \
		$(pc --cflags --libs pathways) &&
	 LD_LIBRARY_PATH=$L ldd "$d/fig2" | grep -q "libpathways.so.1 => $L/" &&
	 [[ $(LD_LIBRARY_PATH=$L PATHWAYS_DEVICES=sim:2x2 "$d/fig2" |
	      tail -1) == "(3 5) (2 4)" ]]'
check "and from the static archive alone with --static's libraries" \
	'cc -std=c11 -o "$d/fig2s" examples/fig2.c $(pc --cflags pathways) \
		$L/libpathways.a $(pc --static --libs-only-l pathways |
				   sed "s/-lpathways//") &&
	 ! ldd "$d/fig2s" | grep -q libpathways &&
	 [[ $(PATHWAYS_DEVICES=sim:2x2 "$d/fig2s" | tail -1) == "(3 5) (2 4)" ]]'
check "a libpwtpu program built with pkg-config --cflags --libs pwtpu" \
	'printf "#include <stdio.h>\n#include <pwtpu/pwtpu_dev.h>\nint main(void) { puts(pwtpu_timing_name(0)); return 0; }\n" >"$d/dev.c" &&
	 cc -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -o "$d/dev" "$d/dev.c" \
		$(pc --cflags --libs pwtpu) &&
	 LD_LIBRARY_PATH=$L "$d/dev" | grep -q .'

check "udev rule, units with pathwaysd's path, sysusers.d, modules-load.d" \
	'grep -q "GROUP=\"pwtpu\", MODE=\"0660\"" $D/lib/udev/rules.d/60-pwtpu.rules &&
	 grep -q "^ExecStart=/usr/sbin/pathwaysd --role %i" \
		"$D/lib/systemd/system/pathwaysd@.service" &&
	 [[ -f "$D/lib/systemd/system/pathwaysd@worker.service.d/devices.conf" ]] &&
	 grep -q "^g pwtpu" $D/usr/lib/sysusers.d/pwtpu.conf &&
	 grep -qx pwtpu $D/usr/lib/modules-load.d/pwtpu.conf'
check "examples in /etc, all of modprobe.d's commented; an operator's kept" \
	'! grep -v "^#" $D/etc/modprobe.d/pwtpu.conf | grep -q . &&
	 cmp -s packaging/pathwaysd.conf $D/etc/pathways/pathwaysd.conf &&
	 echo "listen 10.0.0.9:7700" >$D/etc/pathways/pathwaysd.conf &&
	 make -s install-system DESTDIR="$D" PREFIX=/usr >/dev/null &&
	 grep -qx "listen 10.0.0.9:7700" $D/etc/pathways/pathwaysd.conf'
check "with PREFIX outside /usr, every file lands under it" \
	'make -s install DESTDIR="$d/local" PREFIX=/opt/pw >"$d/log2" 2>&1 &&
	 [[ -z $(find "$d/local" -type f -not -path "$d/local/opt/pw/*") ]] &&
	 [[ -f $d/local/opt/pw/lib/systemd/system/pathwaysd@.service &&
	    -f $d/local/opt/pw/etc/pathways/pathwaysd.conf &&
	    -f $d/local/opt/pw/src/pwtpu-0.1.0/dkms.conf ]]'
kdir=/usr/src/linux-headers-$(tools/kver)
src=$D/usr/src/pwtpu-0.1.0
check "the DKMS tree (dkms.conf, sources) builds pwtpu.ko by itself" \
	'grep -q "^PACKAGE_VERSION=\"0.1.0\"" $src/dkms.conf &&
	 make -s -C "$kdir" M="$src" -j"$(nproc)" modules >"$d/kbuild" 2>&1 &&
	 modinfo -F vermagic $src/driver/pwtpu.ko | grep -q "^$(tools/kver) " ||
	 { tail -5 "$d/kbuild" | sed "s/^/# /"; false; }'

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
