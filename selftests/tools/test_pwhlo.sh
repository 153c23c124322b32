#!/bin/bash
# pwhlo (tools/pwhlo.c) against a pathwaysd controller and a worker of
# one simulated device on loopback: modules written here that pass, fail,
# are not supported or are not valid, each with its line, the summary
# and the exit status; then, when the StableHLO test suite's programs
# are beside the checkout (../shared/stablehlo/testdata), all of them:
# none may fail or be an error (unsupported ones may be).
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root" || exit 1
B=${BUILD:-$root/build}
H=$B/tools/pwhlo
D=$B/tools/pathwaysd
CORPUS=${PWHLO_CORPUS:-$root/../shared/stablehlo/testdata}
d=$(mktemp -d "${TMPDIR:-/tmp}/test_pwhlo.XXXXXX")
pids=()
stop_daemons() {
	((${#pids[@]})) && kill -TERM "${pids[@]}" 2>/dev/null
	((${#pids[@]})) && wait "${pids[@]}" 2>/dev/null
	pids=()
}
trap 'stop_daemons; rm -rf "$d"' EXIT
. "$root/selftests/lib/tap.sh"

# Below the kernel's ephemeral ports (32768 on); the worker takes the
# next two (its control and data ports).
port=$((20000 + $$ % 500 * 20))
ctl=127.0.0.1:$port
m=$d/m

# pwhlo ARGS...: its exit status in $rc, its output in $d/out.
pwhlo() { rc=0; "$H" "$@" >"$d/out" 2>&1 || rc=$?; }
# is TEXT: the output is exactly TEXT (its lines, in order).
is() {
	[[ $(cat "$d/out") == "$1" ]] && return 0
	echo "# expected:"; sed 's/^/#   /' <<<"$1"
	echo "# got:"; sed 's/^/#   /' "$d/out"
	return 1
}
said() { grep -qF -- "$1" "$d/out"; }

# The modules. A check's line is where its custom_call is.
mkdir -p "$m" "$d/one"
cat >"$m/add.mlir" <<'EOF'
module {
  func.func public @main() -> tensor<2xf32> {
    %0 = stablehlo.constant dense<[1.0, 2.5]> : tensor<2xf32>
    %1 = stablehlo.constant dense<[0.25, -1.0]> : tensor<2xf32>
    %2 = stablehlo.add %0, %1 : tensor<2xf32>
    %3 = stablehlo.constant dense<[1.25, 1.5]> : tensor<2xf32>
    stablehlo.custom_call @check.expect_close(%2, %3) {has_side_effect = true} : (tensor<2xf32>, tensor<2xf32>) -> ()
    return %2 : tensor<2xf32>
  }
}
EOF
sed 's/dense<\[1.25, 1.5\]>/dense<[1.25, 1.75]>/' "$m/add.mlir" >"$m/wrong.mlir"
cat >"$m/scatter.mlir" <<'EOF'
func.func @main() -> tensor<3xf32> {
  %x = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %i = stablehlo.constant dense<[[1]]> : tensor<1x1xi32>
  %u = stablehlo.constant dense<[5.0]> : tensor<1xf32>
  %r = "stablehlo.scatter"(%x, %i, %u) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = "stablehlo.subtract"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "stablehlo.return"(%s) : (tensor<f32>) -> ()
  }) {scatter_dimension_numbers = #stablehlo.scatter<inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1>} : (tensor<3xf32>, tensor<1x1xi32>, tensor<1xf32>) -> tensor<3xf32>
  return %r : tensor<3xf32>
}
EOF
cat >"$m/syntax.mlir" <<'EOF'
func.func @main() -> tensor<f32> {
  %0 = stablehlo.constant dense<1.0> : tensor<f32>
  %1 = stablehlo.add %0 %0 : tensor<f32>
  return %1 : tensor<f32>
}
EOF
echo "not a module" >"$m/notes.txt"
cat >"$d/one/compare.mlir" <<'EOF'
func.func @main() -> tensor<3xi1> {
  %a = stablehlo.constant dense<[1.0, 2.0, 3.0]> : tensor<3xf32>
  %b = stablehlo.constant dense<[2.0, 2.0, 2.0]> : tensor<3xf32>
  %c = stablehlo.compare GT, %a, %b, FLOAT : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xi1>
  %e = stablehlo.constant dense<[false, false, true]> : tensor<3xi1>
  stablehlo.custom_call @check.expect_eq(%c, %e) {has_side_effect = true} : (tensor<3xi1>, tensor<3xi1>) -> ()
  return %c : tensor<3xi1>
}
EOF
cat >"$d/one/eq.mlir" <<'EOF'
func.func @main() -> tensor<i1> {
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = stablehlo.multiply %a, %a : tensor<2xf32>
  %e = stablehlo.constant dense<[1.00005, 4.0]> : tensor<2xf32>
  %ok = stablehlo.custom_call @check.eq(%b, %e) : (tensor<2xf32>, tensor<2xf32>) -> tensor<i1>
  return %ok : tensor<i1>
}
EOF
sed 's/1.00005/1.0002/' "$d/one/eq.mlir" >"$d/one/eq_far.mlir"
cat >"$d/one/nocheck.mlir" <<'EOF'
func.func @main() -> tensor<2xf32> {
  %a = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>
  %b = stablehlo.multiply %a, %a : tensor<2xf32>
  return %b : tensor<2xf32>
}
EOF
cat >"$d/one/intclose.mlir" <<'EOF'
func.func @main() -> tensor<2xi32> {
  %a = stablehlo.constant dense<[1, 2]> : tensor<2xi32>
  %b = stablehlo.add %a, %a : tensor<2xi32>
  %e = stablehlo.constant dense<[2, 4]> : tensor<2xi32>
  stablehlo.custom_call @check.expect_close(%b, %e) {has_side_effect = true} : (tensor<2xi32>, tensor<2xi32>) -> ()
  return %b : tensor<2xi32>
}
EOF
cat >"$d/one/arg.mlir" <<'EOF'
func.func @main(%x: tensor<2xf32>, %y: tensor<2xf32>) -> tensor<2xf32> {
  %b = stablehlo.add %x, %y : tensor<2xf32>
  return %b : tensor<2xf32>
}
EOF
{ echo "// RUN-DISABLED(#2497): stablehlo-opt -inline %s | stablehlo-translate --interpret"
  echo "// RUN: stablehlo-opt %s > %t.1"
  cat "$m/wrong.mlir"; } >"$d/one/disabled.mlir"

echo "TAP version 13"
echo "1..11"

up() {
	local t
	for ((t = 0; t < 200; t++)); do
		grep -q "host 0 registered" "$d/ctl.log" 2>/dev/null &&
			grep -q "1 simulated devices (1x1)" "$d/w0.log" 2>/dev/null &&
			return 0
		sleep 0.1
	done
	sed 's/^/# /' "$d/ctl.log" "$d/w0.log"
	return 1
}
if "$D" --gen-key "$d/key" >/dev/null; then
	export PATHWAYS_KEY_FILE=$d/key
	"$D" --role controller --listen "$ctl" >"$d/ctl.log" 2>&1 &
	pids+=($!)
	# 64 MiB, as the conformance guest's device has. With 16, the
	# whole corpus through this one worker ran three igammac programs
	# out of HBM (ENOSPC) after some 240 others, though each passes
	# alone and nothing stays live after: open, docs/stablehlo.md.
	"$D" --role worker --listen "127.0.0.1:$((port + 2))" --controller "$ctl" \
		--host-id 0 --data tcp --devices sim:1x1,hbm_mib=64,timing=native \
		>"$d/w0.log" 2>&1 &
	pids+=($!)
fi
check "a controller and a worker of one simulated device come up" 'up'

check "--help prints the usage; a missing FILE or command is a usage error (2)" \
	'pwhlo --help && ((rc == 0)) && said "usage: pwhlo run [-q] [--connect IP:PORT]" &&
	 pwhlo run && ((rc == 2)) && said "pwhlo: no FILE to run" &&
	 pwhlo frobnicate x.mlir && ((rc == 2)) &&
	 pwhlo run --bogus x.mlir && ((rc == 2)) && said "unknown option '\''--bogus'\''"'

check "an f32 add whose check.expect_close holds passes (exit 0)" \
	'pwhlo run --connect "$ctl" "$m/add.mlir" && ((rc == 0)) &&
	 is "PASS $m/add.mlir
1 passed, 0 failed, 0 unsupported, 0 errors"'

check "a wrong expected value fails at its check, element and values (exit 1)" \
	'pwhlo run --connect "$ctl" "$m/wrong.mlir" && ((rc == 1)) &&
	 is "FAIL $m/wrong.mlir: line 7: check.expect_close: element 1: 1.5 (actual) vs 1.75 (expected), 2097152 ULP (at most 3)
0 passed, 1 failed, 0 unsupported, 0 errors"'

# A scatter that subtracts: the device combines by set, add, multiply,
# maximum and minimum only.
unsup="5:3: stablehlo.scatter: an update computation of stablehlo.subtract is not supported yet (a return of the update, or one add, multiply, maximum or minimum of the two arguments)"
check "a scatter that subtracts is unsupported, named with its line (exit 0)" \
	'pwhlo run --connect "$ctl" "$m/scatter.mlir" && ((rc == 0)) &&
	 is "UNSUPPORTED $m/scatter.mlir: $unsup
0 passed, 0 failed, 1 unsupported, 0 errors"'

check "a syntax error is an error at its line:col (exit 1)" \
	'pwhlo run --connect "$ctl" "$m/syntax.mlir" && ((rc == 1)) &&
	 is "ERROR $m/syntax.mlir: 3:25: expected '\'':'\'' before the op'\''s types, found '\''%0'\''
0 passed, 0 failed, 0 unsupported, 1 errors"'

check "a directory runs its *.mlir by name; -q prints only what did not pass" \
	'pwhlo run --connect "$ctl" "$m" && ((rc == 1)) &&
	 is "PASS $m/add.mlir
UNSUPPORTED $m/scatter.mlir: $unsup
ERROR $m/syntax.mlir: 3:25: expected '\'':'\'' before the op'\''s types, found '\''%0'\''
FAIL $m/wrong.mlir: line 7: check.expect_close: element 1: 1.5 (actual) vs 1.75 (expected), 2097152 ULP (at most 3)
1 passed, 1 failed, 1 unsupported, 1 errors" &&
	 pwhlo run -q --connect "$ctl" "$m/" "$m/add.mlir" && ((rc == 1)) &&
	 is "UNSUPPORTED $m/scatter.mlir: $unsup
ERROR $m/syntax.mlir: 3:25: expected '\'':'\'' before the op'\''s types, found '\''%0'\''
FAIL $m/wrong.mlir: line 7: check.expect_close: element 1: 1.5 (actual) vs 1.75 (expected), 2097152 ULP (at most 3)
2 passed, 1 failed, 1 unsupported, 1 errors"'

check "i1 results, check.eq within 1e-4 and a module with no check" \
	'pwhlo run --connect "$ctl" "$d/one/compare.mlir" "$d/one/eq.mlir" \
		"$d/one/nocheck.mlir" "$d/one/eq_far.mlir" && ((rc == 1)) &&
	 is "PASS $d/one/compare.mlir
PASS $d/one/eq.mlir
PASS $d/one/nocheck.mlir
FAIL $d/one/eq_far.mlir: line 5: check.eq: element 0: 1 (actual) vs 1.0002 (expected), 0.0002 apart (tolerance 0.0001)
3 passed, 1 failed, 0 unsupported, 0 errors"'

check "expect_close on integers is an error; arguments and RUN-DISABLED are unsupported" \
	'pwhlo run --connect "$ctl" "$d/one/intclose.mlir" "$d/one/arg.mlir" \
		"$d/one/disabled.mlir" && ((rc == 1)) &&
	 is "ERROR $d/one/intclose.mlir: line 5: check.expect_close: i32 is not a floating-point type
UNSUPPORTED $d/one/arg.mlir: @main takes 2 arguments; pwhlo runs self-contained modules
UNSUPPORTED $d/one/disabled.mlir: the test suite does not interpret it (RUN-DISABLED(#2497))
0 passed, 0 failed, 2 unsupported, 1 errors"'

# Nothing to run: no connection is tried (one to this address would
# take its 30 s timeout).
check "a run that needs no device connects to none" \
	'rc=0; timeout 10 "$H" run --connect 127.0.0.1:9 "$m/scatter.mlir" \
		"$m/syntax.mlir" >"$d/out" 2>&1 || rc=$?; ((rc == 1)) &&
	 said "0 passed, 0 failed, 1 unsupported, 1 errors"'

if [[ -d $CORPUS ]]; then
	check "the test suite's $(ls "$CORPUS"/*.mlir | wc -l) programs: none fails, none is an error" \
		'pwhlo run -q --connect "$ctl" "$CORPUS"
		 grep -E "^(FAIL|ERROR) " "$d/out" | head -20 | sed "s/^/# /"
		 echo "# pwhlo: $(tail -n 1 "$d/out")"
		 ((rc == 0)) && tail -n 1 "$d/out" | grep -qE "^[0-9]+ passed, 0 failed, [0-9]+ unsupported, 0 errors$"'
else
	n=$((n + 1))
	echo "ok $n - the test suite's programs # SKIP no $CORPUS beside the checkout"
	passed=$((passed + 1))
fi

stop_daemons
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
