#!/bin/bash
# pathwaysd's configuration as systemd runs it (packaging/, docs/install.md):
# the example /etc/pathways/pathwaysd.conf is valid for both roles;
# --check-config names what is wrong (the option, the file and line) and
# exits 2 for the configuration, 1 for the key; each role tells systemd
# READY=1 once it serves and STOPPING=1 as it goes; the unit passes
# systemd-analyze verify without a word (it warns, and exits 0, on a
# setting it does not know).
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root" || exit 1
B=${BUILD:-build}
P=$root/$B/tools/pathwaysd
d=$(mktemp -d "${TMPDIR:-/tmp}/test_pathwaysd_config.XXXXXX")
trap 'rm -rf "$d"' EXIT
. "$root/selftests/lib/tap.sh"

"$P" --gen-key "$d/key" >/dev/null || exit 1
# The example with this test's key, simulated devices, and ports of its
# own (the worker's data plane takes the next one).
cport=$((20000 + RANDOM % 20000))
sed -e "s|^key .*|key $d/key|" -e "s|^devices kernel|devices sim:2x2|" \
	-e "s|127.0.0.1:7700|127.0.0.1:$cport|" \
	-e "s|0.0.0.0:7700|127.0.0.1:$cport|" -e "s|:7701|:$((cport + 1))|" \
	packaging/pathwaysd.conf >"$d/ok.conf"

# cfg ROLE TEXT [ARGS...]: pathwaysd --check-config over TEXT; its exit
# status in $rc, what it printed in $d/out.
cfg() {
	local role=$1
	printf '%s\n' "$2" >"$d/c.conf"
	shift 2
	rc=0
	"$P" --role "$role" --config "$d/c.conf" "$@" --check-config \
		>"$d/out" 2>&1 || rc=$?
	sed 's/^/# /' "$d/out"
}
said() { grep -qF -- "$1" "$d/out"; }

# notified ROLE: run ROLE for a moment under a NOTIFY_SOCKET; what it sent.
notified() {
	rm -f "$d/notify.sock" "$d/notes"
	python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
s.settimeout(10)
with open(sys.argv[2], "w") as out:
    while True:
        try:
            m = s.recv(4096).decode()
        except OSError:
            break
        out.write(m + "\n")
        out.flush()
        if "STOPPING=1" in m:
            break
' "$d/notify.sock" "$d/notes" &
	local py=$! i
	for i in $(seq 100); do [[ -S $d/notify.sock ]] && break; sleep 0.1; done
	NOTIFY_SOCKET=$d/notify.sock "$P" --role "$1" --config "$d/ok.conf" \
		--run-for 0.5 >/dev/null 2>&1
	wait $py
	sed 's/^/# /' "$d/notes"
}

check "the example configuration is valid for the controller" \
	'"$P" --role controller --config "$d/ok.conf" --check-config | grep -q "configuration of the controller is valid"'
check "and for the worker" \
	'"$P" --role worker --config "$d/ok.conf" --check-config | grep -q "configuration of the worker is valid"'
check "a number that is not one: exit 2, naming the option, file and line" \
	'cfg worker "[worker]
controller 127.0.0.1:1
host-id 0
heartbeat-ms soon" --key "$d/key"; [[ $rc -eq 2 ]] &&
	 said "--heartbeat-ms soon: want 1..3600000" && said "c.conf:4)"'
check "a section that is not a role: exit 2, naming its line" \
	'cfg worker "[workers]"; [[ $rc -eq 2 ]] &&
	 said "c.conf:1: want [controller], [worker] or [status]"'
check "the role set inside a section: exit 2" \
	'cfg worker "[worker]
role controller"; [[ $rc -eq 2 ]] && said "not set inside a [worker] section"'
check "a value with more after it: exit 2" \
	'cfg controller "listen 127.0.0.1:7700 junk"; [[ $rc -eq 2 ]] &&
	 said "c.conf:1: want one value after listen"'
check "a line past 254 characters: exit 2, not read as two" \
	'cfg controller "# $(printf "%0300d" 0)
key /nonexistent"; [[ $rc -eq 2 ]] && said "c.conf:1: longer than 254"'
check "--run-for inf: exit 2" \
	'cfg controller "run-for inf" --key "$d/key"; [[ $rc -eq 2 ]] &&
	 said "want 0..31536000 seconds"'
check "another role's section is not read" \
	'cfg controller "key $d/key
[worker]
heartbeat-ms soon"; [[ $rc -eq 0 ]]'
check "a worker without its controller: exit 2" \
	'cfg worker "host-id 1" --key "$d/key"; [[ $rc -eq 2 ]] &&
	 said "a worker needs --controller and --host-id"'
check "--down-ms not above --heartbeat-ms: exit 2" \
	'cfg controller "heartbeat-ms 500
down-ms 400" --key "$d/key"; [[ $rc -eq 2 ]] &&
	 said "--down-ms must exceed --heartbeat-ms"'
check "a key that is not there: exit 1, naming the file" \
	'cfg controller "key $d/none"; [[ $rc -eq 1 ]] && said "$d/none"'
check "the controller notifies READY=1, then STOPPING=1" \
	'notified controller; grep -q "^READY=1" "$d/notes" &&
	 grep -q "^STOPPING=1" "$d/notes"'
check "the worker notifies READY=1 with its island running" \
	'notified worker; grep -q "^READY=1" "$d/notes" &&
	 grep -q "^STATUS=worker running its island" "$d/notes"'
check "pathwaysd@worker.service passes systemd-analyze verify" \
	'mkdir -p "$d/units/pathwaysd@worker.service.d" &&
	 sed "s|@SBINDIR@|$root/$B/tools|" packaging/systemd/pathwaysd@.service \
		>"$d/units/pathwaysd@worker.service" &&
	 cp "packaging/systemd/pathwaysd@worker-devices.conf" \
		"$d/units/pathwaysd@worker.service.d/devices.conf" &&
	 SYSTEMD_UNIT_PATH=$d/units: systemd-analyze verify --man=no \
		"$d/units/pathwaysd@worker.service" >"$d/verify" 2>&1 &&
	 ! sed "s/^/# /" "$d/verify" | grep .'

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
