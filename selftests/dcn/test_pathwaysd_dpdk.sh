#!/bin/bash
# pathwaysd with a DPDK control plane on two testbed hosts
# (tools/testbed-multi; selftests/dcn/pathwaysd-dpdk-scenario.sh): a
# controller and a worker on one host share its interface and address,
# each with its own DPDK port; the other host's worker speaks kernel UDP.
# Clients on the other host, over kernel UDP and over DPDK, and one on
# the daemons' host over DPDK, run programs across both islands and get
# correct results; the daemons' datagrams went through DPDK. About 3 min.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
logs=$(mktemp -d "${TMPDIR:-/tmp}/test_pathwaysd_dpdk.XXXXXX")
trap '[[ -n ${KEEP:-} ]] || rm -rf "$logs"' EXIT
. "$root/selftests/lib/tap.sh"

rc=0
PWTPU_OUTDIR=$logs tools/testbed-multi -n 2 --logs "$logs" --outdir "$logs" \
	--quiet --timeout 900 --mem 1536 \
	--insmod driver/pwtpu.ko --params "ndev=4 hbm_mib=16 mesh=2x2" \
	-- selftests/dcn/pathwaysd-dpdk-scenario.sh >"$logs/out" 2>&1 || rc=$?
h0=$logs/host0.log h1=$logs/host1.log

# "who: transport dpdk: tx N rx M datagrams", both above zero.
went_over_dpdk() {
	grep -Eq "^$1: transport dpdk: tx [1-9][0-9]* rx [1-9][0-9]* datagrams" "$2"
}

echo "TAP version 13"
echo "1..9"
check "both hosts exit 0: every client's runs succeeded" \
	'grep -qx "testbed-multi: host 0 (10.77.0.1) exited 0" "$logs/out" &&
	 grep -qx "testbed-multi: host 1 (10.77.0.2) exited 0" "$logs/out"'
check "controller and worker 0 over DPDK, worker 1 over UDP, both islands up" \
	'grep -q "^ctl: controller: listening on .* over dpdk" "$h0" &&
	 grep -q "^wk0: worker 0: .* over dpdk" "$h0" &&
	 grep -q "^wk1: worker 1: .* over udp" "$h1" &&
	 grep -q "^cluster: islands 2 devices 8" "$h1"'
check "test_remote passes against the DPDK controller (its stop-worker-0 test skips)" \
	'grep -Eq "^remote: # Totals: pass:[1-9][0-9]* fail:0 xfail:0 xpass:0 skip:1 error:0" "$h1"'
check "an example runs from the other host over kernel UDP" \
	'grep -q "^ex1: pipelined result equals the unpipelined model" "$h1"'
check "an example runs from the daemons' own host over DPDK" \
	'grep -q "^ex0: pipelined result equals the unpipelined model" "$h0"'
check "clients dispatch to host 0's device over kernel UDP and over DPDK" \
	'grep -q "^udp: .*dcn-udp" "$h1" && grep -q "^dpdk: .*dcn-dpdk" "$h1"'
check "the controller's and worker 0's datagrams went through DPDK" \
	'went_over_dpdk ctl:\ controller "$h0" && went_over_dpdk wk0:\ worker "$h0"'
check "no datagram of the daemons on one address died waiting for ARP" \
	'grep -Eq "^ctl: controller: dpdk: [0-9]+ frames, ARP asked [0-9]+ answered [0-9]+ learned [0-9]+ dropped 0," "$h0" &&
	 grep -Eq "^wk0: worker: dpdk: [0-9]+ frames, ARP asked [0-9]+ answered [0-9]+ learned [0-9]+ dropped 0," "$h0"'
check "each worker logs where its runs spent their time" \
	'(for w in "wk0: worker 0" "wk1: worker 1"; do
		for st in "plan in to submit" submit "submitted to reaped" "reaped to DONE out"; do
			grep -Eqh "^$w: at exit: $st: p50 [0-9.]+ us, p99 [0-9.]+ us \(last [0-9]+ of [1-9][0-9]* runs\)" "$h0" "$h1" || exit 1
		done
	done)'
grep -E "^(ctl|wk0|wk1): .*(transport|dpdk:|at exit: .*p50)|^(udp|dpdk): " "$h0" "$h1" |
	sed 's/^/# /'
if ((failed)); then
	echo "# testbed-multi exited $rc; host logs:"
	sed 's/^/#   /' "$logs"/host*.log | tail -n 120
fi
echo "$passed passed, $failed failed"
((failed == 0))
