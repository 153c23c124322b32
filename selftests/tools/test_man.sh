#!/bin/bash
# The manual pages (man/): each renders with man(1) as lintian runs it,
# with no warning, and each names what its sources define: every long
# option the tools' --help prints, every ioctl and command of the UAPI,
# every module parameter, sysfs attribute and tracepoint of the driver,
# and every function pathways.h declares. A new option, ioctl or
# function without its documentation fails here.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root" || exit 1
B=${BUILD:-$root/build}
M=${MAN_DIR:-$root/man}
d=$(mktemp -d "${TMPDIR:-/tmp}/test_man.XXXXXX")
trap 'rm -rf "$d"' EXIT
. "$root/selftests/lib/tap.sh"

pages="pwtpu.4 pwtpu-smi.1 pwbench.1 pwtrace.1 pwhlo.1 pathwaysd.8 pathwaysd.conf.5 libpathways.3"

# renders PAGE: non-empty text and nothing on standard error.
renders() {
	local p=$M/$1
	[[ -f $p ]] || { echo "# $1: no such page"; return 1; }
	LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$p" \
		>"$d/out" 2>"$d/err" || { sed 's/^/# /' "$d/err"; return 1; }
	[[ -s $d/err ]] && { sed 's/^/# /' "$d/err"; return 1; }
	[[ $(grep -c . "$d/out") -gt 10 ]]
}

# The page's source as text: no comment lines, \- as -, no font changes.
text() {
	sed -e '/^\.\\"/d' -e 's/\\-/-/g' -e 's/\\f[BIRP]//g' \
		-e 's/\\f\[[A-Z]*\]//g' -e 's/\\&//g' -e 's/\\c$//' "$M/$1"
}

# names PAGE: every word on standard input (one a line) appears in PAGE
# as a whole word; fails on an empty list, naming what is missing.
names() {
	local w ok=0 n=0
	text "$1" >"$d/page"
	while read -r w; do
		[[ -n $w ]] || continue
		n=$((n + 1))
		grep -qE -- "(^|[^A-Za-z0-9_-])${w}([^A-Za-z0-9_-]|$)" "$d/page" ||
			{ echo "# $1 does not document $w"; ok=1; }
	done
	[[ $n -gt 0 ]] || { echo "# $1: nothing to look for"; return 1; }
	return $ok
}

# The long options a help text prints, one a line.
longopts() { grep -oE -- '--[a-z][a-z0-9-]*' | sort -u; }

# help TOOL ARGS...: the tool's usage, whatever its exit status (some
# print it on a usage error); a missing tool leaves nothing to find.
help() { "$B/tools/$1" "${@:2}" 2>&1 || true; }

echo "TAP version 13"
echo "1..15"

for p in $pages; do
	check "$p renders without a warning" 'renders $p'
done
check "pwtpu-smi.1 documents every long option of pwtpu-smi --help" \
	'help pwtpu-smi --help | longopts | names pwtpu-smi.1'
check "pwbench.1 documents every subcommand and every long option of each" \
	'{ help pwbench --help | awk "/^  [a-z]/ { print \$1 }"
	   { help pwbench --help
	     for s in dispatch collective pathways dcn-throughput host-data \
		      peers matmul; do
		help pwbench $s --help
	     done
	     help pwbench dispatch --dcn 127.0.0.1:1 --help
	     help pwbench echo; } | longopts; } | names pwbench.1'
check "pwtrace.1 documents every long option of pwtrace --help" \
	'help pwtrace --help | longopts | names pwtrace.1'
check "pwhlo.1 documents every long option of pwhlo --help" \
	'help pwhlo --help | longopts | names pwhlo.1'
check "pathwaysd.8 documents every long option of pathwaysd --help" \
	'help pathwaysd --help | longopts | names pathwaysd.8'
check "pwtpu.4 names every ioctl and command of include/uapi/pwtpu.h" \
	'grep -oE "^#define PWTPU_(IOCTL|CMD)_[A-Z_]+" include/uapi/pwtpu.h |
	 cut -d" " -f2 | names pwtpu.4'
check "pwtpu.4 names every module parameter, sysfs attribute and tracepoint" \
	'{ grep -ohE "module_param(_cb)?\([a-z_]+" driver/*.c | cut -d"(" -f2
	   grep -ohE "&dev_attr_[a-z_]+\.attr" driver/pwtpu_sysfs.c |
		sed -e "s/&dev_attr_//" -e "s/\.attr//"
	   sed -n "/pwtpu_link_files\[/,/};/p" driver/pwtpu_sysfs.c |
		grep -oE "\"[a-z_]+\"" | tr -d "\""
	   grep -ohE "(DEFINE_EVENT\([a-z_]+, |TRACE_EVENT\()[a-z_]+" \
		driver/pwtpu_trace.h | grep -oE "[a-z_]+$"; } | names pwtpu.4'
check "libpathways.3 names every function include/pathways/pathways.h declares" \
	'perl -0777 -pe "s{/\*.*?\*/}{}gs" include/pathways/pathways.h |
	 grep -oE "\bpw_[a-z0-9_]+\(" | tr -d "(" | sort -u |
	 names libpathways.3'

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
