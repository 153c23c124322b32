#!/bin/bash
# Remote dispatch over a lossy DCN: two testbed hosts with 5% netem loss
# on every DCN link (tools/dcn-dispatch-guest): host 0 runs 200 remote
# runs of each program over kernel UDP and over DPDK against host 1's
# controller and worker. Every run must complete, and the controller must
# have retransmitted (the loss was real). About a minute.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
out=$(mktemp -d "${TMPDIR:-/tmp}/test_dcn_loss.XXXXXX")
trap 'rm -rf "$out"' EXIT
. "$root/selftests/lib/tap.sh"

rc=0
# Dispatch only: host data under this loss is not recovered in time yet
# (docs/dcn.md, "Not yet").
PWTPU_DCN_OUT=$out PWTPU_DCN_ITERS=200 PWTPU_DCN_HOST_DATA=0 \
	tools/testbed-multi -n 2 --rxe --netem "loss 5%" --mem 1536 \
	--outdir "$out" --logs "$out" --quiet --timeout 600 \
	--insmod driver/pwtpu.ko --params "ndev=4 hbm_mib=64 mesh=2x2" \
	-- tools/dcn-dispatch-guest >"$out/multi.log" 2>&1 || rc=$?

# Runs of the two programs; the CSV also holds the echo floor's rows.
rows() { [[ -f $1 ]] && grep -c "^$2,exec_" "$1" || echo 0; }
echo "TAP version 13"
echo "1..4"
check "both hosts exit 0 under 5% loss" '((rc == 0))'
check "every run over kernel UDP completed (2 x 200)" \
	'(($(rows "$out/dcn-udp.csv" dcn-udp) == 400))'
check "every run over DPDK completed (2 x 200)" \
	'(($(rows "$out/dcn-dpdk.csv" dcn-dpdk) == 400))'
check "the controller retransmitted: the loss was real and recovered" \
	'grep -Eq "^controller: sent [0-9]+ retransmitted [1-9][0-9]*" "$out/host1.log"'
grep -E "^(controller|worker): sent" "$out/host1.log" | sed 's/^/# /'
if ((failed)); then
	sed 's/^/#   /' "$out/multi.log" "$out"/host*.log | tail -n 60
fi
echo "$passed passed, $failed failed"
((failed == 0))
