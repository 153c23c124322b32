#!/bin/bash
# Guest side of selftests/dcn/test_pathwaysd.sh (run on every host by
# tools/testbed-multi -n 3 with pwtpu.ko loaded): host 0 runs the
# controller and a worker and checks what the controller sees, with a
# remote client whose run spans hosts 1 and 2; host 1 is a worker until
# the controller goes away; host 2 is a worker that powers its guest off
# abruptly once that run has reached it.
set -uo pipefail

B=${BUILD:-build}
D=$B/tools/pathwaysd
ips=($PWTPU_DCN_PEERS)
ctl=${ips[0]}:7700
me=$PWTPU_HOST_INDEX
out=${PWTPU_OUTDIR:?a directory every host shares}

status() { "$D" --role status --controller "$ctl" --listen "$PWTPU_DCN_IP:0" 2>&1; }

# Wait up to $2 seconds for status to print exactly $1.
wait_status() {
	local want=$1 deadline=$((SECONDS + $2)) got
	while ((SECONDS < deadline)); do
		got=$(status)
		[[ $got == "$want" ]] && return 0
		sleep 0.5
	done
	echo "wanted \"$want\", status said \"$got\""
	return 1
}

"$D" --role worker --listen "$PWTPU_DCN_IP:7701" --controller "$ctl" \
	--host-id "$me" >/tmp/worker.log 2>&1 &
worker=$!

case $me in
0)
	"$D" --role controller --listen "$PWTPU_DCN_IP:7700" --heartbeat-ms 100 \
		--down-ms 1000 >/tmp/ctl.log 2>&1 &
	controller=$!
	ndev=$(ls -d /sys/class/pwtpu/pwtpu* | wc -l)
	rc=0
	if wait_status "islands 3 devices $((3 * ndev))" 120; then
		echo "ok: three islands registered"
	else
		rc=1
	fi
	# A remote run over hosts 1 and 2 is in flight when host 2 goes.
	"$B/selftests/dcn/remote_hostdown" "$ctl" >/tmp/hostdown.log 2>&1 &
	hostdown=$!
	# Host 2 powers off once registered: the controller must notice.
	if wait_status "islands 2 devices $((2 * ndev))" 60; then
		echo "ok: the powered-off host left the cluster"
	else
		rc=1
	fi
	wait "$hostdown" || rc=1
	sed 's/^/hostdown: /' /tmp/hostdown.log
	# Work on a live island runs; on the dead one it fails, at once.
	if "$B/tools/pwbench" dispatch --dcn "$ctl" --host 1 -n 20 >/tmp/run1.log 2>&1; then
		echo "ok: runs on a live island complete"
	else
		rc=1
		cat /tmp/run1.log
	fi
	if "$B/tools/pwbench" dispatch --dcn "$ctl" --host 2 -n 1 >/tmp/run2.log 2>&1; then
		rc=1
		echo "a run on the powered-off island succeeded"
	else
		echo "run on the powered-off island: $(cat /tmp/run2.log)"
	fi
	# Garbage three ways: as is (no tag: forged), sealed with the cluster
	# key as include/pathways/wire.h says (authentic, so decoded and
	# dropped by reason: this also checks the trailer's construction from
	# outside), and sealed as sent two minutes ago (stale).
	python3 - "$PWTPU_DCN_IP" "$PATHWAYS_KEY_FILE" <<'PY'
import hashlib, hmac, socket, struct, sys, time
ip, keyfile = sys.argv[1], sys.argv[2]
key = bytes.fromhex(open(keyfile).read().strip())
def seal(msg, sent_ns):
    signed = msg + struct.pack("<Q", sent_ns)
    return signed + hmac.new(key, signed, hashlib.sha512).digest()[:32]
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
junk = [b"", b"x", b"garbage" * 10, b"PWDN" + b"\0" * 44,
        struct.pack("<IBB", 0x4e445750, 1, 99) + b"\0" * 42,
        struct.pack("<IBBHH", 0x4e445750, 1, 4, 0, 999) + b"\0" * 38]
now = time.time_ns()
for port in (7700, 7701):
    for j in junk:
        for _ in range(5):
            s.sendto(j, (ip, port))
            s.sendto(seal(j, now), (ip, port))
    for _ in range(5):
        s.sendto(seal(junk[3], now - 120 * 10**9), (ip, port))
print("sent %d garbage datagrams to each of the controller and the worker" % (10 * len(junk) + 5))
PY
	if wait_status "islands 2 devices $((2 * ndev))" 10; then
		echo "ok: the controller still serves after the garbage"
	else
		rc=1
	fi
	sleep 0.5
	kill -TERM "$worker" "$controller"
	wait "$worker" "$controller"
	sed 's/^/ctl: /' /tmp/ctl.log
	sed 's/^/wk0: /' /tmp/worker.log
	touch "$out/host0-done"
	exit $rc
	;;
1)
	# Serve until host 0 is done ($out is shared; a status to a
	# controller that is gone would wait 5 s for its answer).
	for ((t = 0; t < 600; t++)); do
		[[ -e $out/host0-done ]] && break
		sleep 0.5
	done
	kill -TERM "$worker"
	wait "$worker"
	sed 's/^/wk1: /' /tmp/worker.log
	exit 0
	;;
*)
	for _ in $(seq 240); do
		grep -q registered /tmp/worker.log && break
		sleep 0.5
	done
	sed 's/^/wk: /' /tmp/worker.log
	# Long enough for host 0's remote run to reach us first.
	sleep 8
	echo "powering off"
	echo o >/proc/sysrq-trigger
	sleep 30
	;;
esac
