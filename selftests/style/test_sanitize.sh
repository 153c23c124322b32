#!/bin/bash
# The sanitize section (tools/run-tests sanitize) can fail: harness tests
# built the way it builds the host tests (make SANITIZE=address,undefined)
# fail on a heap overflow, on undefined behaviour, and on a leak in a
# test's child, which the harness ends with _exit() past LeakSanitizer's
# own check (selftests/lib/lsan_exit.c); a clean one passes.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
work=$(mktemp -d "${TMPDIR:-/tmp}/test_sanitize.XXXXXX")
trap 'rm -rf "$work"' EXIT
. selftests/lib/tap.sh
san=(BUILD=build/san SANITIZE=address,undefined)
make -s "${san[@]}" build/san/kselftest/kselftest_harness.h \
	build/san/selftests/lib/lsan_exit.o >"$work/make.log" 2>&1
read -ra cflags < <(make -s "${san[@]}" print-USER_CFLAGS)
read -ra ldlibs < <(make -s "${san[@]}" print-USER_LDLIBS)

# build NAME BODY: a one-test harness program whose test is BODY.
build() {
	cat >"$work/$1.c" <<-END
	#include <limits.h>
	#include <stdlib.h>
	#include <string.h>
	#include "kselftest_harness.h"
	TEST(t) { $2 }
	TEST_HARNESS_MAIN
	END
	cc "${cflags[@]}" -Wno-unused-parameter -o "$work/$1" "$work/$1.c" \
		"${ldlibs[@]}" >>"$work/build.log" 2>&1
}
# run NAME: its output in NAME.log; true when it exited 0.
run() {
	ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=0 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
		"$work/$1" >"$work/$1.log" 2>&1
}

build clean 'char *p = malloc(64); memset(p, 1, 64); EXPECT_EQ(1, p[63]); free(p);'
build overflow 'char *volatile p = malloc(64); p[64] = 1; free(p);'
build ub 'volatile int x = INT_MAX; x = x + 1; EXPECT_NE(0, x);'
build leak 'char *volatile p = malloc(64); p[0] = 1; p = NULL;'

echo "TAP version 13"
check "a clean test passes" 'run clean && grep -q "^ok 1" "$work/clean.log"'
check "a heap overflow fails it" \
	'! run overflow && grep -q "ERROR: AddressSanitizer: heap-buffer-overflow" "$work/overflow.log" &&
	 grep -q "^not ok 1" "$work/overflow.log"'
check "a signed overflow fails it" \
	'! run ub && grep -q "runtime error: signed integer overflow" "$work/ub.log" &&
	 grep -q "^not ok 1" "$work/ub.log"'
check "a leak in a passing test's child fails it" \
	'! run leak && grep -q "ERROR: LeakSanitizer" "$work/leak.log" &&
	 grep -q "^not ok 1" "$work/leak.log"'
echo "1..$n"
echo "$passed passed, $failed failed"
((failed == 0))
