#!/bin/bash
# Guest side of selftests/dcn/test_remote.sh (tools/testbed-multi -n 2
# --rxe, pwtpu.ko loaded): two clusters on the same hosts, one after the
# other (a worker claims its host's island, so two cannot share it): one
# whose workers use the RDMA data plane (soft-RoCE), then one whose
# workers use TCP. Host 0 runs the controller and a worker of each, then
# test_remote against it; host 1 runs a worker of each until host 0 says
# that cluster is done. The daemons log into $out, which the host keeps
# even when the testbed's timeout ends the guests.
set -uo pipefail
# shellcheck source=tools/guest-wait.sh
. "$(dirname "${BASH_SOURCE[0]}")/../../tools/guest-wait.sh"

B=${BUILD:-build}
D=$B/tools/pathwaysd
ips=($PWTPU_DCN_PEERS)
me=$PWTPU_HOST_INDEX
out=${PWTPU_OUTDIR:?a directory every host shares}
declare -A port=([rdma]=7700 [tcp]=7710)

status() { "$D" --role status --controller "${ips[0]}:$1" --listen "$PWTPU_DCN_IP:0" 2>&1; }

start_worker() {
	local p=${port[$1]}

	"$D" --role worker --listen "$PWTPU_DCN_IP:$((p + 1))" \
		--controller "${ips[0]}:$p" --host-id "$me" --data "$1" \
		>"$out/worker$me-$1.log" 2>&1 &
	worker=$!
}

if ((me != 0)); then
	for mode in rdma tcp; do
		start_worker "$mode"
		# Serve until host 0 is done with this cluster ($out is
		# shared), then a while more so that the ends of host 0's
		# connections arrive (test_remote.sh checks they were closed).
		# Polling the controller instead cost a minute: a status to a
		# controller that is gone waits 5 s for its answer.
		wait_file "$out/host0-done-$mode" 540	# under the testbed's 600
		nap 3
		kill -TERM "$worker"
		wait "$worker"
		sed "s/^/wk$me-$mode: /" "$out/worker$me-$mode.log"
	done
	exit 0
fi

rc=0
ndev=$(ls -d /sys/class/pwtpu/pwtpu* | wc -l)
for mode in rdma tcp; do
	p=${port[$mode]}
	start_worker "$mode"
	# A worker stopped for the deadline test must not be marked down.
	"$D" --role controller --listen "$PWTPU_DCN_IP:$p" \
		--client-timeout-ms 3000 --down-ms 30000 \
		>"$out/ctl-$mode.log" 2>&1 &
	ctl=$!
	# Bounded by time, not tries: a status the controller does not
	# answer takes 5 s.
	want="islands 2 devices $((2 * ndev))" have='' deadline=$((SECONDS + 120))
	while ((SECONDS < deadline)); do
		have=$(status "$p")
		[[ $have == "$want" ]] && break
		nap 0.5
	done
	echo "cluster $mode: $have"
	if [[ $have != "$want" ]]; then
		echo "cluster $mode: not up within 120 s (want: $want)"
		rc=1
		touch "$out/host0-done-$mode"
		kill -TERM "$ctl" "$worker"
		wait "$ctl" "$worker"
		sed "s/^/ctl-$mode: /" "$out/ctl-$mode.log"
		sed "s/^/wk0-$mode: /" "$out/worker0-$mode.log"
		continue
	fi
	PW_CONTROLLER=${ips[0]}:$p PW_DIGEST=$out/digest-$mode \
		PW_WORKER0_PID=$worker PW_DATA_KIND=$mode \
		"$B/selftests/dcn/test_remote" 2>&1 | sed "s/^/$mode: /"
	((PIPESTATUS[0] == 0)) || rc=1
	# The examples as a user runs them against the cluster.
	for ex in "fig2" "pipeline 4" "mlp 20"; do
		PATHWAYS_LOG=1 timeout 300 $B/examples/$ex --connect "${ips[0]}:$p" 2>&1 |
			sed "s/^/$mode-ex: /"
		((PIPESTATUS[0] == 0)) || rc=1
	done
	# The client that died is given up on after 3 s: let that happen.
	nap 5
	kill -TERM "$ctl" "$worker"
	wait "$ctl" "$worker"
	touch "$out/host0-done-$mode"
	sed "s/^/ctl-$mode: /" "$out/ctl-$mode.log"
	sed "s/^/wk0-$mode: /" "$out/worker0-$mode.log"
done
exit $rc
