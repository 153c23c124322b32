# selftests/lib/count.sh - how tools/run-tests counts, in one place, so
# that selftests/style/test_run_tests.sh can feed it logs that must fail.
# Source it; the state is $passed, $failed, $skipped, failures[] (names)
# and skip_reasons[] ("name: reason").
passed=0 failed=0 skipped=0
failures=() skip_reasons=()

pass() { passed=$((passed + 1)); echo "ok - $1"; }
fail() { failed=$((failed + 1)); failures+=("$1"); echo "not ok - $1"; }

# count_log NAME LOG [RC]: add what test log LOG says, its producer having
# exited RC (default 0). A log counts by its kselftest "# Totals:" lines
# and its "N passed, N failed[, N skipped]" lines; "ok N ... # SKIP why"
# results count as skipped, not passed, with their reasons. It fails
# when it has no totals (it crashed), when a TAP stream in it (from one
# "TAP version" line to the next) has fewer results than its plan "1..N"
# promises (it stopped midway: only a plan printed before the results
# can say so), and when RC is non-zero but nothing in it failed (it died
# after printing its totals).
count_log() {
	local name=$1 log=$2 rc=${3:-0}
	local p=0 f=0 s=0 found=0 kind a b c d e g short tap_skips
	while read -r kind a b c d e g; do
		found=1
		if [[ $kind == K ]]; then	# pass fail xfail xpass skip error
			p=$((p + a + c)); f=$((f + b + d + g)); s=$((s + e))
		else				# passed failed [skipped]
			p=$((p + a)); f=$((f + b)); s=$((s + ${c:-0}))
		fi
	done < <(sed -nE \
		-e 's/^# Totals: pass:([0-9]+) fail:([0-9]+) xfail:([0-9]+) xpass:([0-9]+) skip:([0-9]+) error:([0-9]+).*/K \1 \2 \3 \4 \5 \6/p' \
		-e 's/^([0-9]+) passed, ([0-9]+) failed, ([0-9]+) skipped.*/S \1 \2 \3/p' \
		-e 's/^([0-9]+) passed, ([0-9]+) failed$/S \1 \2/p' "$log")
	if ((!found)); then
		fail "$name: no test totals (see $log)"
		return
	fi
	# Scripts that count a skipped result as passed (no skipped field).
	if ! grep -aqE '^# Totals:|^[0-9]+ passed, [0-9]+ failed, [0-9]+ skipped' "$log"; then
		tap_skips=$(grep -acE '^ok [0-9]+ .*# SKIP' "$log")
		p=$((p - tap_skips)); s=$((s + tap_skips))
	fi
	while IFS= read -r why; do
		skip_reasons+=("$name: ${why:-(no reason given)}")
	done < <(sed -nE 's/^ok [0-9]+ .*# SKIP ?(.*)/\1/p' "$log")
	passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
	((f > 0)) && failures+=("$name ($f)")
	short=$(awk '
		function end() { if (plan > res) short += plan - res; plan = res = 0 }
		/^TAP version/ { end() }
		/^1\.\.[0-9]+$/ { plan += substr($0, 4) }
		/^(ok|not ok) [0-9]+/ { res++ }
		END { end(); print short + 0 }' "$log")
	if ((short > 0)); then
		fail "$name: $short results fewer than its TAP plans promise (see $log)"
	fi
	if ((rc != 0 && f == 0)); then
		fail "$name: exited $rc though no test in it failed (see $log)"
	fi
}

# section_results: passed + failed + skipped so far (a section's share is
# the difference across it).
section_results() { echo $((passed + failed + skipped)); }

# check_count SECTION RESULTS FILE: the section's results against FILE's
# "SECTION N" line; a section FILE does not list is not checked.
check_count() {
	local section=$1 got=$2 file=$3 want
	want=$(awk -v s="$section" '$1 == s { print $2 }' "$file")
	[[ -n $want ]] || return 0
	if ((got == want)); then
		pass "section $section: $got results, as $file expects"
	else
		fail "section $section: $got results, $file expects $want"
	fi
}

# The closing lines: what failed, what was skipped and why, the counts.
count_summary() {
	if ((${#failures[@]})); then
		echo "failures:"
		printf '  %s\n' "${failures[@]}"
	fi
	if ((${#skip_reasons[@]})); then
		echo "skipped:"
		printf '%s\n' "${skip_reasons[@]}" | sort | uniq -c |
			sed -E 's/^ *1 /  /; s/^ *([0-9]+) /  (x\1) /'
	fi
	echo "$passed passed, $failed failed, $skipped skipped"
}
