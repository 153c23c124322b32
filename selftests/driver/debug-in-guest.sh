#!/bin/bash
# Inside the testbed booted on the debug kernel (tools/debug-kernel, with
# KASAN, KFENCE, lockdep, kmemleak and UBSAN): load pwtpu.ko, run the
# driver suite (run-in-guest.sh with the driver's tests, or the tests
# named; the runtime's are left to the stock kernel, where their timing
# holds), unload it, run the load/unload cycles
# under open files and queued work (unload_cycles), then scan for leaks.
# Any checker's report fails the run. Prints kselftest TAP with "# Totals:"
# lines, like run-in-guest.sh.
#
#   tools/testbed run --kernel "$(tools/debug-kernel)" -- \
#       selftests/driver/debug-in-guest.sh KO "PARAMS" [TEST_NAME...]
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$(dirname "$here")")
build=${BUILD:-$root/build}
kmemleak=/sys/kernel/debug/kmemleak
reports=$(cat "$here/kernel-reports.re")

if [ $# -lt 2 ]; then
	echo "usage: $0 KO PARAMS [TEST_NAME...]" >&2
	exit 2
fi
ko=$1 params=$2
shift 2
if [ $# -eq 0 ]; then
	for t in "$build"/selftests/driver/test_*; do
		[ -f "$t" ] && [ -x "$t" ] && set -- "$@" "$t"
	done
fi
if [ ! -w $kmemleak ]; then
	echo "debug-in-guest: no $kmemleak: not the debug kernel" >&2
	exit 2
fi

# check NAME 'CONDITION', counting into $passed and $failed.
. "$root/selftests/lib/tap.sh"
status=0

# Only our scans, at the end: the automatic one would log transient
# suspects. What the kernel leaked while booting is not ours: kmemleak
# reports only objects older than 5 s, so wait, scan, and forget what it
# found. kmemleak says how it is in its log: a disabled one fails.
if ! echo scan=off >$kmemleak; then
	echo "debug-in-guest: kmemleak is disabled: $(dmesg | grep -m1 kmemleak)" >&2
	exit 2
fi
sleep 5
echo scan >$kmemleak && echo clear >$kmemleak || exit 2

load() { insmod "$ko" $params; }	# $params: words, on purpose

# Files of killed processes are let go by io_uring's exit work or the
# delayed fput: give them 30 s.
unload() {
	local i
	for i in $(seq 300); do
		rmmod pwtpu 2>/dev/null && return 0
		sleep 0.1
	done
	rmmod pwtpu
}

suite() { "$here/run-in-guest.sh" "$@"; }

no_leaks() {
	local leaks
	# Two scans, past the minimum age, so that nothing is in flight; a
	# scan that fails (kmemleak turned itself off) fails the check.
	sleep 6
	echo scan >$kmemleak && echo scan >$kmemleak || return 1
	leaks=$(cat $kmemleak)
	[ -z "$leaks" ] && return 0
	echo "$leaks" | head -n 60 | sed 's/^/# /'
	return 1
}

log_clean() {
	local bad
	bad=$(dmesg | grep -E "$reports")
	[ -z "$bad" ] && return 0
	echo "$bad" | head -n 60 | sed 's/^/# /'
	return 1
}

echo "# ===== debug kernel: $(uname -r)"
if ! load; then
	echo "# insmod $ko $params failed"
	echo "# Totals: pass:0 fail:1 xfail:0 xpass:0 skip:0 error:0"
	exit 1
fi
suite "$@" || status=1

echo "# ===== unload"
echo "TAP version 13"
check "rmmod after the suite" unload
echo "1..1"
PWTPU_KO=$ko PWTPU_PARAMS=$params "$build/selftests/driver/unload_cycles"
cycles=$?

echo "# ===== leaks and reports"
echo "TAP version 13"
check "unload_cycles ran to its end and passed" '[ $cycles -eq 0 ]'
check "kmemleak finds nothing after the suite and the unload cycles" no_leaks
check "kernel log clean (KASAN, KFENCE, UBSAN, lockdep, hung tasks)" log_clean
echo "1..$((n - 1))"
echo "# Totals: pass:$passed fail:$failed xfail:0 xpass:0 skip:0 error:0"
[ "$failed" -eq 0 ] && exit $status
exit 1
