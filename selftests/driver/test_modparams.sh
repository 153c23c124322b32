#!/usr/bin/env bash
# Module parameters and module lifetime, inside the testbed (run with no
# module loaded): good values load and show up in sysfs, bad ones fail
# the load with a message naming the parameter, and unloading while a
# device is open is refused.
set -uo pipefail
cd "$(dirname "$0")/../.."

KO=driver/pwtpu.ko
n=0 passed=0 failed=0

check() {
	local name=$1
	shift
	n=$((n + 1))
	if "$@"; then
		passed=$((passed + 1)); echo "ok $n - $name"
	else
		failed=$((failed + 1)); echo "not ok $n - $name"
	fi
}

# insmod must fail and the kernel log must say why, naming $2.
load_fails() {
	local params=$1 expect=$2
	dmesg -C
	if insmod "$KO" $params 2>/dev/null; then
		rmmod pwtpu
		return 1
	fi
	dmesg | grep -q -- "$expect" || { dmesg | tail -3; return 1; }
}

loads_with() {
	local params=$1
	insmod "$KO" $params || return 1
	shift
	local ok=0
	"$@" || ok=1
	rmmod pwtpu || ok=1
	return $ok
}

defaults_ok() {
	[ "$(ls /dev/pwtpu* | wc -l)" -eq 8 ] &&
	[ "$(cat /sys/module/pwtpu/parameters/ndev)" = 8 ] &&
	[ "$(cat /sys/class/pwtpu/pwtpu7/mesh_shape)" = 8 ] &&
	[ "$(cat /sys/class/pwtpu/pwtpu7/mesh_coords)" = 7 ] &&
	[ "$(cat /sys/class/pwtpu/pwtpu0/hbm_total)" = $((64 << 20)) ] &&
	[ "$(cat /sys/class/pwtpu/pwtpu0/timing_mode)" = native ]
}

torus_ok() {
	[ "$(ls /dev/pwtpu* | wc -l)" -eq 16 ] &&
	[ "$(cat /sys/class/pwtpu/pwtpu5/mesh_shape)" = 4x4t ] &&
	[ "$(cat /sys/class/pwtpu/pwtpu5/mesh_coords)" = 1,1 ] &&
	[ "$(cat /sys/class/pwtpu/pwtpu5/timing_mode)" = modeled ] &&
	[ "$(cat /sys/class/pwtpu/pwtpu5/hbm_total)" = $((16 << 20)) ] &&
	grep -q 'array_dim=64' /sys/class/pwtpu/pwtpu5/spec
}

unload_busy_refused() {
	insmod "$KO" ndev=2 || return 1
	exec 3</dev/pwtpu1
	local refused=0
	rmmod pwtpu 2>/dev/null || refused=1
	exec 3<&-
	rmmod pwtpu || return 1
	[ $refused -eq 1 ]
}

dmesg_clean() {
	! dmesg | grep -E "$(cat selftests/driver/kernel-reports.re)"
}

dmesg -C
check "defaults: 8 devices, 1-D mesh, 64 MiB, native" loads_with "" defaults_ok
check "4x4 torus, modeled timing, spec override" \
	loads_with "ndev=16 mesh=4x4t hbm_mib=16 timing=modeled spec=array_dim=64" torus_ok
check "mesh whose product is not ndev" load_fails "ndev=8 mesh=2x3" "mesh=2x3"
check "mesh that does not parse" load_fails "mesh=2xx4" "mesh=2xx4"
check "ndev=0" load_fails "ndev=0" "ndev=0"
check "ndev=65" load_fails "ndev=65" "ndev=65"
check "hbm_mib=0" load_fails "hbm_mib=0" "hbm_mib=0"
check "hbm_mib=4097" load_fails "hbm_mib=4097" "hbm_mib=4097"
check "unknown timing mode" load_fails "timing=fast" "timing=fast"
check "poll_us out of range" load_fails "poll_us=5000" "poll_us=5000"
check "max_inflight=0" load_fails "max_inflight=0" "max_inflight=0"
check "watchdog_ms below 100" load_fails "watchdog_ms=50" "invalid for parameter .watchdog_ms"
check "max_inflight past 65536" load_fails "max_inflight=65537" "max_inflight=65537"
check "spec with unknown key" load_fails "spec=warp=9" "spec=warp=9"
check "spec with bad array_dim" load_fails "spec=array_dim=7" "spec=array_dim=7"
check "unload while a device is open is refused" unload_busy_refused
check "kernel log clean" dmesg_clean

echo "1..$n"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
