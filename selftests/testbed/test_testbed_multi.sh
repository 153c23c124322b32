#!/bin/bash
# shellcheck disable=SC2016 # guest commands are single-quoted on purpose
# Tests of tools/testbed-multi: hosts on one private L2 network reach each
# other and nothing else, statuses come back per host, soft-RoCE and
# netem come up when asked. Boots 2-3 guests three times: about a minute.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
multi=$root/tools/testbed-multi
work=$(mktemp -d "${TMPDIR:-/tmp}/test_testbed_multi.XXXXXX")
trap 'rm -rf "$work"' EXIT
n=0 passed=0 failed=0

# Every host sends to every other over UDP until it heard from all.
udp_mesh='
import os, socket
me = int(os.environ["PWTPU_HOST_INDEX"])
peers = os.environ["PWTPU_DCN_PEERS"].split()
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.bind((peers[me], 7777))
s.settimeout(0.3)
got = set()
left = 10  # rounds after hearing everyone: a peer may still miss ours
for _ in range(200):
    for i, p in enumerate(peers):
        if i != me:
            s.sendto(b"%d" % me, (p, 7777))
    try:
        while True:
            got.add(int(s.recvfrom(16)[0]))
    except socket.timeout:
        pass
    if len(got) == len(peers) - 1:
        left -= 1
        if not left:
            break
print("host %d heard %s" % (me, sorted(got)))
'

mt() {
	rc=0
	"$multi" --logs "$work/logs" "$@" >"$work/out" 2>"$work/err" </dev/null || rc=$?
	out=$(<"$work/out")
}

check() {
	local name=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $name"
		passed=$((passed + 1))
	else
		echo "not ok $n - $name"
		echo "# rc=${rc-}; stdout, stderr (tails):"
		tail -n 15 "$work/out" "$work/err" 2>/dev/null | sed 's/^/#   /'
		failed=$((failed + 1))
	fi
}

t_mesh3() {
	mt -n 3 --rxe -- bash -c 'python3 -c "$0" && rdma link show rxe0/1 &&
		! ip route get 10.0.2.2 2>/dev/null | grep -q via' "$udp_mesh"
	[[ $rc == 0 ]] &&
		grep -q '^\[0\] host 0 heard \[1, 2\]' <<<"$out" &&
		grep -q '^\[1\] host 1 heard \[0, 2\]' <<<"$out" &&
		grep -q '^\[2\] host 2 heard \[0, 1\]' <<<"$out" &&
		[[ $(grep -c 'link rxe0/1 state ACTIVE .* netdev eth0' <<<"$out") == 3 ]] &&
		[[ -s $work/logs/host2.log ]]
}

t_status() {
	mt -n 2 -- bash -c 'exit $((PWTPU_HOST_INDEX * 3))'
	[[ $rc == 3 ]] &&
		grep -qx 'testbed-multi: host 0 (10.77.0.1) exited 0' <<<"$out" &&
		grep -qx 'testbed-multi: host 1 (10.77.0.2) exited 3' <<<"$out"
}

# One cluster key for all the hosts of a run.
t_key() {
	mt -n 2 -- sh -c 'echo "key $(sha256sum <"$PATHWAYS_KEY_FILE")"'
	[[ $rc == 0 ]] &&
		[[ $(grep -ao 'key [0-9a-f]\{64\}' <<<"$out" | wc -l) == 2 ]] &&
		[[ $(grep -ao 'key [0-9a-f]\{64\}' <<<"$out" | sort -u | wc -l) == 1 ]]
}

t_netem() {
	mt -n 2 --netem "delay 2ms loss 5%" -- tc qdisc show dev eth0
	[[ $rc == 0 ]] &&
		[[ $(grep -c 'qdisc netem .*delay 2ms loss 5%' <<<"$out") == 2 ]]
}

t_usage() {
	mt -n 1 -- true
	[[ $rc == 2 ]] && grep -q -- '-n takes 2..16' "$work/err"
}

echo "TAP version 13"
echo "1..5"
check "three hosts reach each other over the DCN, with soft-RoCE" t_mesh3
check "each host's status comes back; the first failure is the exit status" t_status
check "every host of a run has the same cluster key" t_key
check "netem applies on every host's DCN link" t_netem
check "too few hosts is a usage error" t_usage
echo "$passed passed, $failed failed"
((failed == 0))
