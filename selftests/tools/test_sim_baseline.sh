#!/bin/bash
# The multi-controller baseline on simulated hosts (`pwbench pathways
# throughput --only-multi --sim`, tools/pwbench_mc_sim.c) and
# tools/sim-scale, which sets it beside the single controller: the
# baseline's processes end every device at x = n (pwbench checks it and
# fails otherwise), its steps' compute really runs, bad options are
# refused by name, and sim-scale writes both tables on one host.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root" || exit 1
B=${BUILD:-$root/build}
P=$B/tools/pwbench
d=$(mktemp -d "${TMPDIR:-/tmp}/test_sim_baseline.XXXXXX")
trap 'rm -rf "$d"' EXIT
. "$root/selftests/lib/tap.sh"

# pwbench ARGS...: its exit status, its output in $d/out.
pwb() { "$P" "$@" >"$d/out" 2>&1; }
said() { grep -qF -- "$1" "$d/out"; }
# The multi-controller rate of mode $1 in $d/out.
rate() { awk -v m="$1" '$1 == m { print $3 }' "$d/out"; }
positive() { [[ $1 =~ ^[0-9]+$ ]] && (($1 > 0)); }

echo "TAP version 13"
echo "1..6"

check "3 simulated hosts of 2 devices: every mode runs, every device ends at x = n" \
	'pwb pathways throughput --only-multi --sim sim:2,hbm_mib=1 --sim-hosts 3 \
		-n 256 -r 1 && said "of each simulated host" &&
	 positive "$(rate OpByOp)" && positive "$(rate Chained)" &&
	 positive "$(rate Fused)" && ! said "wrong"'
# Each computation sleeps 2 ms on the device: no host can do more than
# 500 a second, whatever this machine's load.
check "each step's compute runs: 2 ms a step caps every mode at 500/s" \
	'pwb pathways throughput --only-multi --sim sim:1,hbm_mib=1 --sim-hosts 2 \
		-n 128 -r 1 --delays 2000 &&
	 for m in OpByOp Chained Fused; do
		r=$(rate $m); positive "$r" && ((r <= 500)) || exit 1
	 done'
check "--sim needs throughput --only-multi, and simulated devices" \
	'! pwb pathways throughput --sim sim:2 &&
	 said "--sim and --sim-hosts go together, with throughput --only-multi" &&
	 ! pwb pathways parity --only-multi --sim sim:2 &&
	 ! pwb pathways throughput --only-multi --sim kernel &&
	 said "--sim wants simulated devices" &&
	 ! pwb pathways throughput --only-multi --sim sim:3x3x3x3 &&
	 said "the mesh is not one of up to"'
check "--sim-hosts is 1..512, and --devices must be the simulated island" \
	'! pwb pathways throughput --only-multi --sim sim:2 --sim-hosts 513 &&
	 said "--sim-hosts is 1..512" &&
	 ! pwb pathways throughput --only-multi --sim sim:2 --sim-hosts 0 &&
	 ! pwb pathways throughput --only-multi --sim sim:2 --devices 3 &&
	 said "--devices 3: the simulated island has 2"'
check "sim-scale refuses a compute time past 64000 us, an -n not of 128s, a stray host count" \
	'! tools/sim-scale --parity 0,64001 >"$d/out" 2>&1 &&
	 said "--parity takes microseconds 0..64000, not '\''64001'\''" &&
	 ! tools/sim-scale -H "1 2" --parity 0 --parity-hosts 4 >"$d/out" 2>&1 &&
	 said "--parity-hosts: 4 is not one of -H'\''s host counts" &&
	 ! tools/sim-scale -n 100 >"$d/out" 2>&1 &&
	 said "-n must be a multiple of 128" &&
	 ! tools/sim-scale -n 0100 >"$d/out" 2>&1 &&
	 said "-n must be a multiple of 128, not '\''0100'\''"'
# One host, single controller through pathwaysd and the baseline, at no
# compute and at 1 ms a step: a row of each, ratios from the two. Numbers
# with leading zeros are decimal (0128 is no octal error).
check "sim-scale on one host: Figure 5 with the baseline, and Figure 6" \
	'tools/sim-scale -H 01 -n 0128 --parity 0,01000 --csv "$d/s.csv" >"$d/out" 2>&1 &&
	 awk -F, '\''NR == 2 && $1 == 1 && $7 > 0 && $12 > 0 && $14 > 0 { ok = 1 }
		END { exit !ok }'\'' "$d/s.csv" &&
	 [[ $(wc -l <"$d/fig6-sim.csv") -eq 7 ]] &&
	 awk -F, '\''NR > 1 && ($4 <= 0 || $5 <= 0 || $6 <= 0) { bad = 1 }
		END { exit bad }'\'' "$d/fig6-sim.csv"'

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
