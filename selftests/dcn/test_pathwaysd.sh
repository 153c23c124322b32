#!/bin/bash
# pathwaysd on three testbed hosts (tools/testbed-multi): workers register
# their islands with the controller; a host powered off mid-run is marked
# down within the bounded time and leaves the cluster while the others
# stay, and a remote run that spanned it ends with EHOSTDOWN while runs
# over the others go on; garbage datagrams at the controller and a
# worker are dropped and counted, and the services keep serving. About
# 40 s.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
logs=$(mktemp -d "${TMPDIR:-/tmp}/test_pathwaysd.XXXXXX")
trap '[[ -n ${KEEP:-} ]] || rm -rf "$logs"' EXIT
. "$root/selftests/lib/tap.sh"

rc=0
PWTPU_OUTDIR=$logs tools/testbed-multi -n 3 --logs "$logs" --outdir "$logs" \
	--quiet --timeout 300 \
	--insmod driver/pwtpu.ko --params "ndev=4 hbm_mib=16 mesh=2x2" \
	-- selftests/dcn/pathwaysd-scenario.sh >"$logs/out" 2>&1 || rc=$?
h0=$logs/host0.log

echo "TAP version 13"
echo "1..11"
check "host 0 and host 1 exit 0; host 2 was powered off (no status)" \
	'grep -qx "testbed-multi: host 0 (10.77.0.1) exited 0" "$logs/out" &&
	 grep -qx "testbed-multi: host 1 (10.77.0.2) exited 0" "$logs/out" &&
	 grep -qx "testbed-multi: host 2 (10.77.0.3) exited 123" "$logs/out"'
check "three workers register their islands" \
	'grep -q "^ok: three islands registered" "$h0" &&
	 [[ $(grep -c "^ctl: controller: host [012] registered: island 0, 4 devices (2x2)" "$h0") -ge 3 ]]'
# Never early (the controller's own measure of the silence); how late is
# reported, not judged: the scenario's 60 s wait bounds it.
check "the powered-off host is marked down, never before down_ms of silence" \
	'line=$(grep -m1 "^ctl: controller: host 2 down: silent for" "$h0") &&
	 ms=$(sed -E "s/.*silent for ([0-9]+) ms.*/\1/" <<<"$line") &&
	 ((ms >= 1000))'
check "only the powered-off host went down" \
	'! grep -q "controller: host [01] down" "$h0" &&
	 grep -q "^ok: the powered-off host left the cluster" "$h0"'
check "a run on a live island completes through controller and worker" \
	'grep -q "^ok: runs on a live island complete" "$h0"'
check "a remote run in flight on the powered-off host ends with EHOSTDOWN" \
	'grep -q "^hostdown: ok: the run on the powered-off host failed with EHOSTDOWN" "$h0"'
check "after it, a remote run over the live hosts completes correctly" \
	'grep -q "^hostdown: ok: a run over hosts 0 and 1 still completes (x = 2)" "$h0"'
check "a run on the powered-off island fails with a clear error, not a hang" \
	'grep -q "^run on the powered-off island: pwbench: registering .* on host 2: Host is down" "$h0"'
# 30 without a tag and 5 sealed but empty (no room for a trailer) are
# forged, 5 sealed two minutes ago stale, 25 sealed now malformed.
check "garbage at the controller is dropped and counted by reason" \
	'grep -Eq "^ctl: controller: dropped forged 35 stale 5 malformed 25 .*short=.*magic=" "$h0"'
check "garbage at a worker is dropped and counted" \
	'grep -Eq "^wk0: worker: dropped forged 35 stale 5 malformed 25 " "$h0"'
check "the controller keeps serving after garbage" \
	'grep -q "^ok: the controller still serves after the garbage" "$h0"'
grep -E "^(ctl: controller: host 2 down|ctl: controller: dropped|wk0: worker: dropped|hostdown: run)" \
	"$h0" | sed 's/^/# /'
if ((failed)); then
	echo "# testbed-multi exited $rc; host logs:"
	sed 's/^/#   /' "$logs"/host*.log | tail -n 80
fi
echo "$passed passed, $failed failed"
((failed == 0))
