#!/bin/bash
# The DCN data plane between two testbed guests (selftests/net/
# test_dp_hosts.c): tools/testbed-multi boots two hosts with pwtpu.ko and
# soft-RoCE, both run test_dp_hosts, host 0 writing a device buffer into
# host 1's over rdma and over tcp. Prints one TAP line per test and host,
# one per host's exit status, and "N passed, N failed" (tools/run-tests
# counts it). About a minute on 2 cores.
#
#   selftests/net/dp_hosts.sh            the tests
#   selftests/net/dp_hosts.sh --bench    latency and bandwidth, rdma vs
#                                        tcp (numbers only, no verdict)
#
# BUILD (default build/) says where the binary is; DP_HOSTS_LOGS keeps the
# hosts' logs in that directory.
set -uo pipefail
cd "$(dirname "$0")/../.."

bin=${BUILD:-build}/selftests/net/test_dp_hosts
logs=${DP_HOSTS_LOGS:-$(mktemp -d "${TMPDIR:-/tmp}/dp_hosts.XXXXXX")}
mkdir -p "$logs"
[[ -n ${DP_HOSTS_LOGS-} ]] || trap 'rm -rf "$logs"' EXIT
passed=0 failed=0 n=0
# rdma_cm's user-space device (/dev/infiniband/rdma_cm) is rdma_ucm, which
# nothing loads on demand in the guest (no module loading from the
# initramfs): load it before the binary runs.
guest=(bash -c 'modprobe rdma_ucm || exit 122; exec "$0" "$@"' "$bin")

tap() {		# tap ok|fail DESCRIPTION
	n=$((n + 1))
	if [[ $1 == ok ]]; then
		passed=$((passed + 1)); echo "ok $n - $2"
	else
		failed=$((failed + 1)); echo "not ok $n - $2"
	fi
}

if [[ ! -x $bin ]]; then
	tap fail "$bin is built (make user)"
	echo "1..$n"
	echo "$passed passed, $failed failed"
	exit 1
fi

if [[ ${1-} == --bench ]]; then
	tools/testbed-multi -n 2 --rxe --logs "$logs" --quiet \
		--insmod driver/pwtpu.ko --params "ndev=2 hbm_mib=128" \
		--mem 1536 -- "${guest[@]}" --bench
	rc=$?
	grep -ah '^# host .* data plane\|^dp-bench' "$logs"/host*.log
	exit $rc
fi

tools/testbed-multi -n 2 --rxe --logs "$logs" --quiet \
	--insmod driver/pwtpu.ko --params "ndev=2 hbm_mib=64" -- "${guest[@]}" \
	>"$logs/multi.log" 2>&1
for i in 0 1; do
	log=$logs/host$i.log
	grep -a '^# host .* data plane' "$log"
	# The harness's result lines, renumbered, with the host in front.
	while read -r status rest; do
		name=${rest#* }
		if [[ $status == ok ]]; then
			tap ok "host $i: $name"
		else
			tap fail "host $i: $name"
		fi
	done < <(sed -nE 's/^(ok|not ok) [0-9]+ (.*)/\1 x \2/p;' "$log" |
		sed 's/^not ok/not_ok/')
	if grep -aq '^# Totals:' "$log"; then
		tap ok "host $i: test_dp_hosts ran to the end"
	else
		sed "s/^/# [$i] /" "$log" | tail -40
		tap fail "host $i: test_dp_hosts ran to the end"
	fi
	grep -a '^#.*test_dp_hosts.c:[0-9]' "$log" | sed "s/^#/# [$i]/"
done
grep -a '^testbed-multi: host' "$logs/multi.log" | sed 's/^/# /'
echo "1..$n"
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
