#!/bin/bash
# Guest side of selftests/dcn/test_pathwaysd_dpdk.sh (tools/testbed-multi
# -n 2, pwtpu.ko loaded): a pathwaysd cluster whose control plane is DPDK
# on host 0 and kernel UDP on host 1. Host 0 runs the controller and
# worker 0, two processes with DPDK ports on one interface and one
# address; host 1 runs worker 1 over kernel UDP and the clients:
# test_remote and an example over kernel UDP, and pwbench's DCN dispatch
# to host 0's device over kernel UDP and over DPDK. Then a client on host
# 0 itself, which must speak DPDK to reach the daemons beside it
# (PATHWAYS_TRANSPORT=dpdk), runs an example across both islands. Files
# in $PWTPU_OUTDIR say who is ready.
set -uo pipefail

B=${BUILD:-build}
D=$B/tools/pathwaysd
ips=($PWTPU_DCN_PEERS)
me=$PWTPU_HOST_INDEX
out=${PWTPU_OUTDIR:?a directory every host shares}
ctl=${ips[0]}:7720

# shellcheck source=tools/guest-wait.sh
. tools/guest-wait.sh

worker() {
	"$D" --role worker --transport "$1" --listen "$PWTPU_DCN_IP:7721" \
		--controller "$ctl" --host-id "$me" --data tcp \
		>"/tmp/worker.log" 2>&1 &
	wk=$!
}

rc=0
if ((me == 0)); then
	"$D" --role controller --transport dpdk --listen "$ctl" \
		--down-ms 30000 >/tmp/ctl.log 2>&1 &
	c=$!
	worker dpdk
	touch "$out/host0-up"
	wait_file "$out/host1-clients-done" 900
	PATHWAYS_TRANSPORT=dpdk timeout 300 "$B/examples/pipeline" 4 \
		--connect "$ctl" 2>&1 | sed "s/^/ex0: /"
	((PIPESTATUS[0] == 0)) || rc=1
	touch "$out/host0-done"
	kill -TERM "$c" "$wk"
	wait "$c" "$wk"
	sed "s/^/ctl: /" /tmp/ctl.log
	sed "s/^/wk0: /" /tmp/worker.log
	exit $rc
fi

trap 'touch "$out/host1-clients-done"' EXIT
wait_file "$out/host0-up" 300
worker udp
ndev=$(ls -d /sys/class/pwtpu/pwtpu* | wc -l)
want="islands 2 devices $((2 * ndev))"
for _ in $(seq 240); do
	s=$("$D" --role status --controller "$ctl" --listen "$PWTPU_DCN_IP:0" 2>&1)
	[[ $s == "$want" ]] && break
	nap 0.5
done
echo "cluster: $s"
PW_CONTROLLER=$ctl PW_DATA_KIND=tcp "$B/selftests/dcn/test_remote" 2>&1 |
	sed "s/^/remote: /"
((PIPESTATUS[0] == 0)) || rc=1
timeout 300 "$B/examples/pipeline" 4 --connect "$ctl" 2>&1 | sed "s/^/ex1: /"
((PIPESTATUS[0] == 0)) || rc=1
"$B/tools/pwbench" dispatch --dcn "$ctl" --host 0 -n 200 2>&1 |
	sed "s/^/udp: /"
((PIPESTATUS[0] == 0)) || rc=1
"$B/tools/pwbench" dispatch --dcn "$ctl" --host 0 -n 200 \
	--dpdk "$PWTPU_DCN_IF" --addr "$PWTPU_DCN_IP:7800" 2>&1 |
	sed "s/^/dpdk: /"
((PIPESTATUS[0] == 0)) || rc=1
touch "$out/host1-clients-done"
# Worker 1 serves host 0's client too.
wait_file "$out/host0-done" 600
kill -TERM "$wk"
wait "$wk"
sed "s/^/wk1: /" /tmp/worker.log
exit $rc
