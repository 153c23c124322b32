#!/bin/bash
# tools/run-tests' counting (selftests/lib/count.sh) on logs made to
# mislead it: totals printed before a crash, a run cut short of its plan,
# skips that a script counted as passes, no totals at all, a section
# whose number of results is not the expected one. Each must come out
# as the failure or skip it is. Host only, seconds.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/test_run_tests.XXXXXX")
trap 'rm -rf "$work"' EXIT
. "$root/selftests/lib/tap.sh"

# counts NAME RC <<LOG: "passed failed skipped" after count_log, in a
# fresh counter (a subshell), with its output in $work/out.
counts() {
	local name=$1 rc=$2
	cat >"$work/$name.log"
	(
		. "$root/selftests/lib/count.sh"
		count_log "$name" "$work/$name.log" "$rc" >"$work/out"
		echo "$passed $failed $skipped ${#skip_reasons[@]}"
		printf '%s\n' "${skip_reasons[@]}" >"$work/reasons"
	)
}

echo "TAP version 13"
check "a clean kselftest log counts its passes and skips, with reasons" \
	'[[ $(counts clean 0 <<"L"
TAP version 13
1..3
ok 1 a.one
ok 2 a.two # SKIP no AVX2 here
ok 3 a.three
# Totals: pass:2 fail:0 xfail:0 xpass:0 skip:1 error:0
L
) == "2 0 1 1" ]] && grep -qx "clean: no AVX2 here" "$work/reasons"'
check "totals printed, then the guest died: a failure" \
	'[[ $(counts died 124 <<"L"
1..2
ok 1 b.one
ok 2 b.two
# Totals: pass:2 fail:0 xfail:0 xpass:0 skip:0 error:0
L
) == "2 1 0 0" ]] && grep -q "exited 124 though no test in it failed" "$work/out"'
check "fewer results than the plan promised: a failure" \
	'[[ $(counts short 0 <<"L"
1..4
ok 1 c.one
ok 2 c.two
# Totals: pass:2 fail:0 xfail:0 xpass:0 skip:0 error:0
L
) == "2 1 0 0" ]] && grep -q "2 results fewer than its TAP plans promise" "$work/out"'
check "a short stream is not hidden by another one's extra results" \
	'[[ $(counts streams 0 <<"L"
TAP version 13
1..3
ok 1 h.one
TAP version 13
ok 1 - i.one
ok 2 - i.two
# Totals: pass:3 fail:0 xfail:0 xpass:0 skip:0 error:0
L
) == "3 1 0 0" ]]'
check "no totals at all: a failure" \
	'[[ $(counts none 0 <<"L"
ok 1 d.one
Segmentation fault
L
) == "0 1 0 0" ]]'
check "a script that counts its skips as passes: they are skips" \
	'[[ $(counts script 0 <<"L"
ok 1 - host 0: e.one
ok 2 - host 0: e.two # SKIP no RDMA device
1..2
2 passed, 0 failed
L
) == "1 0 1 1" ]] && grep -qx "script: no RDMA device" "$work/reasons"'
check "a script's own skipped count is taken as it is" \
	'[[ $(counts own 0 <<"L"
ok 1 - f.one
ok 2 - f.two # SKIP not here
1..2
1 passed, 0 failed, 1 skipped
L
) == "1 0 1 1" ]]'
check "failures inside and a non-zero exit: counted once" \
	'[[ $(counts failing 1 <<"L"
1..2
ok 1 g.one
not ok 2 g.two
# Totals: pass:1 fail:1 xfail:0 xpass:0 skip:0 error:0
L
) == "1 1 0 0" ]]'
check "a section's count against the expected one" \
	'(
		. "$root/selftests/lib/count.sh"
		printf "host 5\n# a comment\nguest 7\n" >"$work/expected"
		check_count host 5 "$work/expected" >/dev/null
		check_count guest 6 "$work/expected" >/dev/null
		check_count dcn 3 "$work/expected" >/dev/null	# not listed
		[[ "$passed $failed" == "1 1" ]]
	)'
check "the closing line counts all three" \
	'(
		. "$root/selftests/lib/count.sh"
		passed=3 failed=1 skipped=2
		count_summary | tail -n 1 | grep -qx "3 passed, 1 failed, 2 skipped"
	)'
echo "1..$n"
echo "$passed passed, $failed failed"
((failed == 0))
