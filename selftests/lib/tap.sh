# selftests/lib/tap.sh - TAP lines for the multi-host shell tests. Source
# it, then `check "what it shows" 'condition'` per test; the caller prints
# "$passed passed, $failed failed" at the end.
n=0 passed=0 failed=0

check() {
	n=$((n + 1))
	if eval "$2"; then
		echo "ok $n - $1"
		passed=$((passed + 1))
	else
		echo "not ok $n - $1"
		failed=$((failed + 1))
	fi
}
