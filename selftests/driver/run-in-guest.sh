#!/bin/bash
# Run every driver and runtime selftest inside the testbed guest, pwtpu.ko already
# loaded, then check the kernel log; the log check counts as one more
# test. Prints each binary's TAP (with its "# Totals:" line) and exits
# non-zero if anything failed.
#
#   tools/testbed run --insmod driver/pwtpu.ko --params "..." -- \
#       selftests/driver/run-in-guest.sh [TEST_NAME...]
#
# BUILD (default: build/ next to selftests/) says where the binaries are.
set -uo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(dirname "$(dirname "$here")")
build=${BUILD:-$root/build}
# Driver tests, then the runtime's (libpathways over the live devices).
bindirs=("$build/selftests/driver" "$build/selftests/pathways")
failed=0

tests=("$@")
if [ ${#tests[@]} -eq 0 ]; then
	for d in "${bindirs[@]}"; do
		for t in "$d"/test_*; do
			[ -x "$t" ] && tests+=("$t")
		done
	done
else
	for i in "${!tests[@]}"; do
		for d in "${bindirs[@]}"; do
			[ -x "$d/${tests[$i]}" ] && tests[$i]=$d/${tests[$i]}
		done
	done
fi
if [ ${#tests[@]} -eq 0 ]; then
	echo "run-in-guest: no test binaries in ${bindirs[*]} (run 'make user')" >&2
	exit 2
fi
if [ ! -d /sys/module/pwtpu ]; then
	echo "run-in-guest: pwtpu.ko is not loaded" >&2
	exit 2
fi

for t in "${tests[@]}"; do
	echo "# ===== $(basename "$t")"
	out=$("$t" 2>&1)
	rc=$?
	echo "$out"
	if ! grep -q '^# Totals:' <<<"$out"; then
		# Died before the harness could count: count it as a failure.
		echo "# $(basename "$t") exited $rc without totals"
		echo "# Totals: pass:0 fail:1 xfail:0 xpass:0 skip:0 error:0"
		failed=1
	elif [ $rc -ne 0 ]; then
		failed=1
	fi
done

# The kernel log must hold no warning, bug, oops, lockdep, refcount,
# sanitizer (KASAN, KFENCE and UBSAN, on the debug kernel) or hung-task
# report, whatever the tests did to the driver.
echo "# ===== dmesg"
echo "TAP version 13"
echo "1..1"
bad=$(dmesg 2>&1 | grep -E "$(cat "$here/kernel-reports.re")")
if [ -z "$bad" ]; then
	echo "ok 1 - dmesg clean"
	echo "# Totals: pass:1 fail:0 xfail:0 xpass:0 skip:0 error:0"
else
	echo "$bad" | sed 's/^/# /'
	echo "not ok 1 - dmesg clean"
	echo "# Totals: pass:0 fail:1 xfail:0 xpass:0 skip:0 error:0"
	failed=1
fi
exit $failed
