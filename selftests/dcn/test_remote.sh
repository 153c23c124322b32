#!/bin/bash
# Remote clients over two testbed hosts (tools/testbed-multi), once over
# the RDMA data plane (soft-RoCE) and once over TCP: a pipeline whose
# stages sit on both islands gives the same result, bit for bit, as the
# fused model on one device, and the same over RDMA as over TCP; buffers,
# many runs in flight and bad input (selftests/dcn/test_remote.c). The
# harness's own counts are added to ours. --netem "ARGS" puts netem on
# every DCN link (selftests/dcn/test_remote_loss.sh: 5% loss).
set -uo pipefail
netem=()
[[ ${1-} == --netem ]] && netem=(--netem "$2")

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
out=$(mktemp -d "${TMPDIR:-/tmp}/test_remote.XXXXXX")
trap '[[ -n ${KEEP:-} ]] || rm -rf "$out"' EXIT
. "$root/selftests/lib/tap.sh"

rc=0
PWTPU_OUTDIR=$out tools/testbed-multi -n 2 --rxe "${netem[@]}" \
	--outdir "$out" --logs "$out" --quiet \
	--timeout 600 --insmod driver/pwtpu.ko \
	--params "ndev=4 hbm_mib=16 mesh=2x2" \
	-- selftests/dcn/remote-scenario.sh >"$out/multi.log" 2>&1 || rc=$?
h0=$out/host0.log

echo "TAP version 13"
echo "1..$((${#netem[@]} ? 11 : 12))"
check "both hosts exit 0" '((rc == 0))'
check "the rdma cluster's workers use RDMA verbs" \
	'(($(grep -c "^wk[01]-rdma: worker [01]: data plane rdma" "$h0" "$out/host1.log" |
	     awk -F: "{s += \$2} END {print s}") == 2))'
check "the tcp cluster's workers use TCP" \
	'(($(grep -c "^wk[01]-tcp: worker [01]: data plane tcp" "$h0" "$out/host1.log" |
	     awk -F: "{s += \$2} END {print s}") == 2))'
check "the pipeline across islands gives one result over RDMA and TCP" \
	'[[ -s $out/digest-rdma && -s $out/digest-tcp ]] &&
	 cmp -s "$out/digest-rdma" "$out/digest-tcp"'
# As on one host (examples/fig2, pipeline, mlp), with the pipeline's
# stages and the MLP's two slices placed on both islands by the
# controller, the MLP's gradients crossing between them every step.
check "fig2 and pipeline --connect give their one-host results, stages on both islands" \
	'(($(grep -c "^\(rdma\|tcp\)-ex: (3 5) (2 4)$" "$h0") == 2)) &&
	 (($(grep -c "^\(rdma\|tcp\)-ex: pipelined result equals the unpipelined model" "$h0") == 2)) &&
	 grep -q "^rdma-ex: stage [0-9]: host 0," "$h0" &&
	 grep -q "^rdma-ex: stage [0-9]: host 1," "$h0"'
check "mlp --connect trains over both islands, losses within 1e-6 of one island's" \
	'(($(grep -c "^\(rdma\|tcp\)-ex: data-parallel MLP .*: slice 0 on host [01], slice 1 on host [01]$" "$h0") == 2)) &&
	 ! grep -q "^\(rdma\|tcp\)-ex: data-parallel MLP .*slice 0 on host \([01]\), slice 1 on host \2$" "$h0" &&
	 (($(grep -c "^\(rdma\|tcp\)-ex: loss 0.6[0-9]* -> " "$h0") == 2))'
check "the harness ran over both clusters" \
	'(($(grep -c "^\(rdma\|tcp\): # Totals" "$h0") == 2))'
# (A status client that exits before acknowledging may be given up on too.)
check "the client that died is given up on, by both controllers" \
	'grep -q "^ctl-rdma: controller: client node [0-9]* gone (\(it acknowledged nothing\|nothing heard from it\)" "$h0" &&
	 grep -q "^ctl-tcp: controller: client node [0-9]* gone (\(it acknowledged nothing\|nothing heard from it\)" "$h0"'
check "each controller named the run it ended at its deadline" \
	'grep -q "^ctl-rdma: controller: run [0-9]* of client [0-9]*: not done within its 200 ms: ETIMEDOUT" "$h0" &&
	 grep -q "^ctl-tcp: controller: run [0-9]* of client [0-9]*: not done within its 200 ms: ETIMEDOUT" "$h0"'
check "host 1's workers made a run wait for HBM instead of failing it" \
	'(($(grep -c "^wk1-\(rdma\|tcp\): worker 1: at exit: [1-9][0-9]* runs waited for HBM" \
	     "$out/host1.log") == 2))'
# Every client closed or was collected: the four workers hold nothing.
check "no buffer or function of any client is left on any worker" \
	'(($(cat "$h0" "$out/host1.log" |
	     grep -c "^wk[01]-\(rdma\|tcp\): worker [01]: at exit: 0 buffers (0 bytes), 0 functions") == 4))'
# Host 1's workers outlive host 0's by seconds: every connection ended
# then, accepted ones too, and was closed. (Not under loss: a lost
# rdma_cm disconnect request is sent again only seconds later.)
if ((${#netem[@]} == 0)); then
	check "host 1's workers closed every data-plane connection that ended" \
		'(($(grep -c "^wk1-\(rdma\|tcp\): worker 1: at exit: 0 data-plane connections open" \
		     "$out/host1.log") == 2))'
fi
grep -E "^(rdma|tcp): (ok|not ok|# Totals)" "$h0" | sed 's/^/# /'
# What a failed harness test said: its assertion and log lines.
grep -E "^(rdma|tcp): # .*test_remote\.c:" "$h0" | sed 's/^/# /'
grep -hE "gone|at exit" "$h0" "$out/host1.log" | sed 's/^/# /'
# The harness's counts, over both clusters.
while read -r p f; do
	passed=$((passed + p)); failed=$((failed + f))
done < <(sed -nE 's/^(rdma|tcp): # Totals: pass:([0-9]+) fail:([0-9]+) .*/\2 \3/p' "$h0")
if ((failed)); then
	echo "# testbed-multi exited $rc; host logs:"
	sed 's/^/#   /' "$out/multi.log" "$h0" "$out/host1.log" | tail -n 120
	# The daemons' own logs, kept by the host when a timeout ended
	# the guests before they printed them.
	for f in "$out"/ctl-*.log "$out"/worker*.log; do
		[[ -e $f ]] || continue
		echo "# ${f##*/}:"
		tail -n 30 "$f" | sed 's/^/#   /'
	done
fi
echo "$passed passed, $failed failed"
((failed == 0))
