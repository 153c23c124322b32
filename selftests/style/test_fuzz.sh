#!/bin/bash
# tools/fuzz can fail when it must: its replay (tools/run-tests fuzz) of a
# harness built as `make fuzzers` builds them (clang, libFuzzer, ASan,
# UBSan) fails on an input that overflows the heap, on one that leaks, on
# one that is undefined behaviour, on an empty corpus and on a harness
# that does not exist; a clean harness passes; `run` refuses a duration
# that is not one.
set -uo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
work=$(mktemp -d "${TMPDIR:-/tmp}/test_fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT
. selftests/lib/tap.sh

# A harness standing in for fuzz_verify: input "ovf" overflows, "leak"
# leaks, "ub" overflows a signed int, anything else is fine.
cat >"$work/h.c" <<'END'
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	char *volatile p = malloc(8);
	volatile int x = INT_MAX;

	if (n == 3 && !memcmp(d, "ovf", 3))
		p[8] = 1;
	if (n == 2 && !memcmp(d, "ub", 2))
		x = x + 1;
	if (n == 4 && !memcmp(d, "leak", 4))
		p = malloc(8);
	free(p);
	return x == 0;
}
END
mkdir -p "$work/bin"
clang -g -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-o "$work/bin/fuzz_verify" "$work/h.c" >"$work/build.log" 2>&1

# replay_with INPUT...: a corpus of those inputs; true when replay passed.
replay_with() {
	local c=$work/corpus-$RANDOM
	mkdir -p "$c/verify"
	for i in "$@"; do printf '%s' "$i" >"$c/verify/$i"; done
	FUZZ_BIN=$work/bin FUZZ_CORPUS=$c FUZZ_REGRESS=$work/none \
	FUZZ_OUT=$work/out tools/fuzz replay verify >"$work/replay.log" 2>&1 &&
		grep -q '^ok 1 - fuzz_verify' "$work/replay.log"
}

echo "TAP version 13"
check "the stand-in harness builds" '[ -x "$work/bin/fuzz_verify" ]'
check "a clean corpus replays" 'replay_with fine other'
check "a heap overflow fails the replay" '! replay_with fine ovf'
check "a leak fails the replay" '! replay_with leak fine'
check "undefined behaviour fails the replay" '! replay_with ub'
check "an empty corpus fails the replay" '! replay_with'
check "replay of a harness that does not exist fails" \
	'! FUZZ_BIN=$work/bin FUZZ_OUT=$work/out tools/fuzz replay nosuch >/dev/null 2>&1'
check "run refuses a duration that is not one" \
	'! FUZZ_BIN=$work/bin FUZZ_OUT=$work/out tools/fuzz run 1x verify 2>/dev/null'
echo "1..$n"
echo "$passed passed, $failed failed"
((failed == 0))
