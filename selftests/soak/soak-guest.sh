#!/bin/bash
# Guest side of tools/soak (`make soak`), run on every testbed host with
# pwtpu.ko loaded. One host (no PWTPU_HOSTS, tools/testbed run): pathwaysd's
# controller and worker on loopback and SOAK_CLIENTS clients here. Two
# hosts (tools/testbed-multi -n 2): the controller and a worker on host 0,
# a worker on host 1, and the clients on host 0 with a slice on each
# island, so that a tenth of their runs cross the DCN.
#
# The same load at a tenth of the length comes first (the warm-up); then
# the baseline is taken: HBM in use (sysfs, every device of the host) and each daemon's
# resident set and open files. The clients each run SOAK_PROGRAMS
# programs; two of them are killed (SIGKILL) a third of the way through
# and started again from zero. Once all are done and the killed ones'
# time is up at the controller (their objects freed), the same figures
# are taken again. Each is printed as
#   figure HOST WHAT BASELINE END
# and each client's own line (soak_client) follows. tools/soak judges.
set -uo pipefail

B=${BUILD:-build}
D=$B/tools/pathwaysd
C=$B/selftests/soak/soak_client
N=${SOAK_PROGRAMS:-100000}
NC=${SOAK_CLIENTS:-8}
hosts=${PWTPU_HOSTS:-1}
me=${PWTPU_HOST_INDEX:-0}
out=${PWTPU_OUTDIR:?a directory every host shares}
# A killed client is given up on after this long: its objects go then.
TIMEOUT_MS=3000

if ((hosts > 1)); then
	ips=($PWTPU_DCN_PEERS)
	ctl=${ips[0]}:7700
	me_ip=$PWTPU_DCN_IP
	slices=2
else
	ctl=127.0.0.1:7700
	me_ip=127.0.0.1
	slices=1
fi

hbm() {
	local f sum=0
	for f in /sys/class/pwtpu/pwtpu*/hbm_used; do
		sum=$((sum + $(cat "$f")))
	done
	echo $sum
}
rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }
fds() { ls "/proc/$1/fd" | wc -l; }
# The figures of this host's daemons: "what value" lines.
figures() {
	echo "hbm_used_bytes $(hbm)"
	echo "worker_rss_kb $(rss "$worker")"
	echo "worker_fds $(fds "$worker")"
	if ((me == 0)); then
		echo "controller_rss_kb $(rss "$controller")"
		echo "controller_fds $(fds "$controller")"
	fi
}
wait_file() {	# for as long as tools/soak lets the testbed run
	local t
	for ((t = 0; t < 28800; t++)); do
		[[ -e $1 ]] && return 0
		sleep 0.5
	done
	echo "soak: $1 never came" >&2
	return 1
}
status() { "$D" --role status --controller "$ctl" --listen "$me_ip:0" 2>&1; }

if ((me == 0)); then
	"$D" --role controller --listen "$ctl" --down-ms 30000 \
		--client-timeout-ms "$TIMEOUT_MS" >/tmp/ctl.log 2>&1 &
	controller=$!
fi
sleep 1
"$D" --role worker --listen "$me_ip:7701" --controller "$ctl" \
	--host-id "$me" --data tcp >/tmp/worker.log 2>&1 &
worker=$!

if ((me != 0)); then
	wait_file "$out/warm-done" || exit 1
	figures >"$out/host$me.base"
	wait_file "$out/clients-done" || exit 1
	figures >"$out/host$me.end"
	touch "$out/host$me-measured"
	wait_file "$out/host0-finished"
	kill -TERM "$worker"
	wait "$worker"
	exit 0
fi

for ((t = 0; t < 240; t++)); do
	[[ $(status) == "islands $hosts "* ]] && break
	sleep 0.5
done
rc=0
# One phase: NC clients of $2 programs each, named $1<i>; a third of the
# way through (by client 1's progress) clients 1 and 2 are killed and
# started again from zero. Prints each client's last line.
phase() {
	local prefix=$1 n=$2 i t runs killed=0 pids=()

	for ((i = 1; i <= NC; i++)); do
		"$C" --controller "$ctl" --programs "$n" --slices $slices \
			--name "$prefix$i" >"$out/$prefix$i.log" 2>&1 &
		pids[i]=$!
	done
	for ((t = 0; t < 28800; t++)); do
		runs=$(awk '$1 == "progress" { r = $3 } END { print r + 0 }' \
			"$out/${prefix}1.log")
		((runs >= n / 3)) && break
		kill -0 "${pids[1]}" 2>/dev/null || break
		sleep 0.5
	done
	for i in 1 2; do
		kill -KILL "${pids[i]}" 2>/dev/null || continue
		wait "${pids[i]}" 2>/dev/null
		killed=$((killed + 1))
		mv "$out/$prefix$i.log" "$out/$prefix$i-killed.log"
		"$C" --controller "$ctl" --programs "$n" --slices $slices \
			--name "$prefix$i-again" >"$out/$prefix$i.log" 2>&1 &
		pids[i]=$!
	done
	echo "soak: $prefix: killed $killed clients midway and started them again"
	for ((i = 1; i <= NC; i++)); do
		wait "${pids[i]}" || rc=1
		grep -v '^progress ' "$out/$prefix$i.log"
	done
	# The killed clients' time runs out at the controller; the workers
	# free what they had when it says BYE.
	sleep $((TIMEOUT_MS / 1000 + 3))
}

# The warm-up is the same load at a tenth of the length, so that the
# daemons' tables, pools and connections have the working size of this
# load (clients killed and started again included) before the baseline.
phase warm $((N / 10)) >"$out/warm.out"
sed 's/^soak_client /warm-up /' "$out/warm.out"
figures >"$out/host0.base"
touch "$out/warm-done"
phase c "$N"
figures >"$out/host0.end"
touch "$out/clients-done"
for ((h = 1; h < hosts; h++)); do
	wait_file "$out/host$h-measured" || rc=1
done
for ((h = 0; h < hosts; h++)); do
	join <(sort "$out/host$h.base") <(sort "$out/host$h.end") |
		sed "s/^/figure $h /"
done
touch "$out/host0-finished"
"$D" --role status --controller "$ctl" --listen "$me_ip:0"
kill -TERM "$worker" "$controller"
wait "$worker" "$controller"
grep -E "refused|dropped|at exit" /tmp/ctl.log /tmp/worker.log | sed 's/^/log: /'
exit $rc
