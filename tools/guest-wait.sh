# Sourced by the multi-host guest scripts (tools/dcn-*-guest): waits that
# never fork. A fork costs a TCG guest tens of milliseconds of emulated
# CPU, which lands in the measurement another host is making. read -t on
# a pipe this shell holds open at both ends (so it never ends) is bash's
# own sleep, and [[ -e ]] is a builtin.
# shellcheck shell=bash

exec {guest_wait_fd}<> <(:)

# nap SECONDS: sleep without a fork.
nap() { read -rt "$1" -u "$guest_wait_fd" || true; }

# wait_file PATH SECONDS: until PATH exists, or fail after SECONDS.
wait_file() {
	local deadline=$((SECONDS + $2))
	until [[ -e $1 ]]; do
		((SECONDS < deadline)) || { echo "$(basename "$0"): no $1 after $2 s" >&2; exit 1; }
		nap 0.5
	done
}
