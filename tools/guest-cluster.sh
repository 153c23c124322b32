# Sourced by the multi-host guest scripts that run pathwaysd on every
# testbed host (tools/testbed-multi sets PWTPU_HOST_INDEX, PWTPU_DCN_IP,
# PWTPU_DCN_PEERS): host 0 runs the controller at $ctl, every host a
# worker. Waits never fork (guest-wait.sh).
#   cluster_up NAME     start; on host 0 return once every island is up
#   cluster_follow NAME the other hosts: wait until host 0 is done, stop
#                       the worker and exit
#   cluster_down NAME   host 0: tell the others, stop its own daemons
# shellcheck shell=bash

# shellcheck source=tools/guest-wait.sh
. "$(dirname "${BASH_SOURCE[0]}")/guest-wait.sh"

cluster_ips=($PWTPU_DCN_PEERS)
cluster_me=$PWTPU_HOST_INDEX
ctl=${cluster_ips[0]}:7700

cluster_up() {
	local name=$1 ndev _
	local d="${BUILD:-build}/tools/pathwaysd"

	if ((cluster_me == 0)); then
		# TCG guests on a small machine: a busy worker can miss the
		# default 1 s of heartbeats, and this measures, not that.
		"$d" --role controller --listen "$ctl" --down-ms 10000 \
			>"$OUT/$name-controller.log" 2>&1 &
		cluster_ctl=$!
	fi
	"$d" --role worker --listen "$PWTPU_DCN_IP:7701" --controller "$ctl" \
		--host-id "$cluster_me" >"$OUT/$name-worker$cluster_me.log" 2>&1 &
	cluster_worker=$!
	((cluster_me == 0)) || return 0
	ndev=$(ls -d /sys/class/pwtpu/pwtpu* | wc -l)
	for _ in $(seq 600); do
		"$d" --role status --controller "$ctl" --listen "$PWTPU_DCN_IP:0" \
			2>/dev/null | grep -qx "islands ${#cluster_ips[@]} devices $((${#cluster_ips[@]} * ndev))" &&
			return 0
		nap 0.5
	done
	echo "$(basename "$0"): the islands did not all register" >&2
	return 1
}

cluster_follow() {
	wait_file "$OUT/$1-done" 2300	# under tools/dcn-throughput's limit
	kill -TERM "$cluster_worker"
	wait "$cluster_worker" || true
	exit 0
}

cluster_down() {
	touch "$OUT/$1-done"
	kill -TERM "$cluster_ctl" "$cluster_worker"
	wait "$cluster_ctl" "$cluster_worker" || true
}
