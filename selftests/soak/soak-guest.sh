#!/bin/bash
# Guest side of tools/soak (`make soak`), run on every testbed host with
# pwtpu.ko loaded. One host (no PWTPU_HOSTS, tools/testbed run): pathwaysd's
# controller and worker on loopback and SOAK_CLIENTS clients here. Two
# hosts (tools/testbed-multi -n 2): the controller and a worker on host 0,
# a worker on host 1, and the clients on host 0 with a slice on each
# island, so that a tenth of their runs cross the DCN.
#
# The same load at a tenth of the length (1000 at least) comes first (the
# warm-up); then the baseline is taken: HBM in use (sysfs, every device
# of the host) and each daemon's heap in use, resident set and open
# files. The clients each run SOAK_PROGRAMS programs (SOAK_WARM in the
# warm-up, as tools/soak computes it); two of them are
# killed (SIGKILL) a third of the way through and started again from
# zero. Once all are done and the killed ones' time is up at the
# controller (their objects freed), the same figures are taken again.
# Each is printed as
#   figure HOST WHAT BASELINE END
# and each client's own line (soak_client) follows. tools/soak judges.
set -uo pipefail

B=${BUILD:-build}
D=$B/tools/pathwaysd
C=$B/selftests/soak/soak_client
N=${SOAK_PROGRAMS:-100000}
warm=${SOAK_WARM:?tools/soak gives the warm-up length}
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

hbm_now() {
	local f sum=0
	for f in /sys/class/pwtpu/pwtpu*/hbm_used; do
		sum=$((sum + $(cat "$f")))
	done
	echo $sum
}
# HBM in use once it has not changed for 3 s (at most a minute): what
# clients gone a moment ago held is freed when the controller tells the
# workers, a little later on a loaded testbed.
hbm() {
	local last now same=0 t
	last=$(hbm_now)
	for ((t = 0; t < 120 && same < 6; t++)); do
		sleep 0.5
		now=$(hbm_now)
		if ((now == last)); then
			same=$((same + 1))
		else
			same=0
		fi
		last=$now
	done
	echo "$last"
}
rss() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }
thp() { awk '/^AnonHugePages:/ { print $2 }' "/proc/$1/smaps_rollup"; }
fds() { ls "/proc/$1/fd" | wc -l; }
# A daemon's allocator as pathwaysd prints it on SIGUSR1 to its log, $2:
# "HEAP TABLES LIVE" (heap in use outside its tables, bytes in its tables,
# objects live in them), or "NA NA NA" when no new line comes.
memory() {
	local n before
	before=$(grep -c ': memory: ' "$2")
	kill -USR1 "$1" 2>/dev/null
	for ((n = 0; n < 50; n++)); do
		if (($(grep -c ': memory: ' "$2") > before)); then
			awk '/: memory: / { v = $6 " " $10 " " $13 } END { print v }' "$2"
			return
		fi
		sleep 0.1
	done
	echo "NA NA NA"
}
# The figures of this host's daemons: "what value" lines. The allocator
# comes first: on SIGUSR1 a daemon hands its free memory back, as a
# client does before it reads its resident set, so that freed memory is
# not counted as held. Its tables of slots grow to the most they held at
# once and stay (bounded per client): their bytes are shown apart, and
# what is judged is the heap outside them and the objects live in them.
# Each daemon's maps (smaps) are kept, to show where a resident set grew.
daemon_figures() {	# role pid log base|end
	local heap tables live
	read -r heap tables live < <(memory "$2" "$3")
	echo "$1_heap_bytes $heap"
	echo "$1_table_bytes $tables"
	echo "$1_live_objects $live"
	echo "$1_rss_kb $(rss "$2")"
	echo "$1_thp_kb $(thp "$2")"
	echo "$1_fds $(fds "$2")"
	cp "/proc/$2/smaps" "$out/host$me-$1.$4.smaps"
}
# At the baseline no client is left, so the worker holds no client's
# object: wait (at most a minute) for the last gone client's to be freed,
# so that the baseline is not taken over them. One that never goes shows
# in the figures (worker_live_objects) and fails the soak.
no_objects() {	# pid log
	local t live
	for ((t = 0; t < 60; t++)); do
		read -r _ _ live < <(memory "$1" "$2")
		[[ $live == 0 ]] && return 0
		sleep 1
	done
	echo "soak: host $me's worker still holds $live objects of gone clients" >&2
}
figures() {
	[[ $1 == base ]] && no_objects "$worker" /tmp/worker.log
	echo "hbm_used_bytes $(hbm)"
	daemon_figures worker "$worker" /tmp/worker.log "$1"
	((me == 0)) && daemon_figures controller "$controller" /tmp/ctl.log "$1"
	return 0
}
wait_file() {	# FILE [SECONDS]: by default as long as the testbed runs
	local t
	for ((t = 0; t < ${2:-14400} * 2; t++)); do
		[[ -e $1 ]] && return 0
		sleep 0.5
	done
	echo "soak: $1 never came" >&2
	return 1
}
status() { "$D" --role status --controller "$ctl" --listen "$me_ip:0" 2>&1; }

# Resident sets in 4 KiB pages: with THP "always" (Debian's 6.1), the
# kernel may back any 2 MiB of a heap or stack with a huge page at any
# time, a jump of up to 2 MiB that is no memory the process uses. Only
# what asks for them (madvise) gets them here; *_thp_kb shows none came.
echo madvise >/sys/kernel/mm/transparent_hugepage/enabled
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
	# Written whole, then renamed: host 0 starts the clients when the
	# file exists, and none of theirs may be in it.
	figures base >"$out/host$me.base.part"
	mv "$out/host$me.base.part" "$out/host$me.base"
	wait_file "$out/clients-done" || exit 1
	figures end >"$out/host$me.end"
	touch "$out/host$me-measured"
	wait_file "$out/host0-finished"
	kill -TERM "$worker"
	wait "$worker"
	grep -E "memory:" /tmp/worker.log | sed 's/^/log: /'
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

# The warm-up is the same load at a tenth of the length (1000 programs at
# least, or all of a shorter run), so that the daemons' tables, pools and
# connections have the working size of this load before the baseline:
# clients killed and started again, every client in flight at once,
# READYs come before their PLAN (the worker's table for those is made at
# the first).
phase warm "$warm" >"$out/warm.out"
sed 's/^soak_client /warm-up /' "$out/warm.out"
figures base >"$out/host0.base"
touch "$out/warm-done"
# Every host's baseline is taken before the clients start: the other
# hosts wait for their workers to free the warm-up's objects, and a
# client started meanwhile would put its own in their baseline.
# A baseline takes about 2.5 minutes at most (no_objects, hbm): a host
# that has none after 10 fails the soak here, not at the testbed's end.
for ((h = 1; h < hosts; h++)); do
	wait_file "$out/host$h.base" 600 || rc=1
done
phase c "$N"
figures end >"$out/host0.end"
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
grep -E "refused|dropped|at exit|memory:" /tmp/ctl.log /tmp/worker.log |
	sed 's/^/log: /'
exit $rc
