#!/bin/bash
# The "pwtpu.ko builds warning-free" check (tools/build-module) can fail:
# on a copy of the module, a clean build passes; a warning (an error under
# -Werror) fails it, though the earlier build left a pwtpu.ko behind; a
# make that fails fails it. About a minute (one module build).
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
work=$(mktemp -d "${TMPDIR:-/tmp}/test_build_check.XXXXXX")
trap 'rm -rf "$work"' EXIT
. selftests/lib/tap.sh
kdir=$(make -s print-KDIR)

echo "TAP version 13"
check "a clean copy builds and passes the check" \
	'tools/build-module-copy "$kdir" "$work/m" "$work/clean.log" &&
	 [[ -f $work/m/driver/pwtpu.ko ]]'
# An unused variable: gcc warns, and under -Werror says "error:".
echo 'static int pwtpu_build_check_unused;' >>"$work/m/driver/pwtpu_drv.c"
check "a warning fails it, the stale pwtpu.ko notwithstanding" \
	'! tools/build-module "$kdir" "$work/m" "$work/warn.log" &&
	 grep -q "pwtpu_build_check_unused" "$work/warn.log" &&
	 [[ ! -f $work/m/driver/pwtpu.ko ]]'
check "no kernel tree fails it with a clear message" \
	'! tools/build-module "$work/none" "$work/m" "$work/none.log" 2>"$work/err" &&
	 grep -q "no kernel tree at" "$work/err"'
echo "1..$n"
echo "$passed passed, $failed failed"
((failed == 0))
