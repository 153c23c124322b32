#!/bin/bash
# shellcheck disable=SC2016 # guest commands are single-quoted on purpose
# Tests of tools/testbed itself. Boots the guest about 15 times (each a few
# seconds under TCG) and waits out one 20 s timeout: about a minute or two.
set -euo pipefail

export PATH=$PATH:/usr/sbin:/sbin
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
testbed=$root/tools/testbed
work=$(mktemp -d "${TMPDIR:-/tmp}/test_testbed.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/tmp" "$work/a dir"
n=0 passed=0 failed=0

# Run the testbed with its run dirs under $work/tmp (checked for leftovers
# at the end); sets $rc, $out (stdout), $err (stderr) and $took (seconds).
tb() {
	local t0=$SECONDS
	rc=0
	TMPDIR=$work/tmp "$testbed" "$@" >"$work/out" 2>"$work/err" </dev/null || rc=$?
	out=$(<"$work/out") err=$(<"$work/err") took=$((SECONDS - t0))
}

# check NAME FUNCTION: one TAP-style line; diagnostics of the last run on failure.
check() {
	local name=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n - $name"
		passed=$((passed + 1))
	else
		echo "not ok $n - $name"
		echo "# rc=${rc-} took=${took-}s; stdout, stderr (tails):"
		tail -n 15 "$work/out" "$work/err" 2>/dev/null | sed 's/^/#   /'
		failed=$((failed + 1))
	fi
}

# Kernel messages (timestamped) may precede the command's output.
cmd_out() { grep -av '^\[ *[0-9]*\.[0-9]*\]' <<<"$out" || true; }

t_true() { tb run -- true && [[ $rc == 0 ]]; }
t_exit3() { tb run -- sh -c 'exit 3' && [[ $rc == 3 ]]; }

t_output() {
	tb run -- echo "marker-$$-output"
	[[ $rc == 0 && $out == *"marker-$$-output"* ]]
}

# Every byte arrives, in order, with plain \n line ends and no status marker.
t_output_exact() {
	tb run -- seq 1 3000
	[[ $rc == 0 && "$(cmd_out)" == "$(seq 1 3000)" && $out != *testbed-status* ]]
}

t_args() {
	tb run -- printf '<%s>\n' 'a b' '  two  spaces ' "it's" 'say "hi"' '$HOME' '*' ''
	[[ $rc == 0 && "$(cmd_out)" == "$(printf '<%s>\n' 'a b' '  two  spaces ' "it's" 'say "hi"' '$HOME' '*' '')" ]]
}

t_cwd() {
	echo "seen-$$" >"$work/a dir/marker"
	cd "$work/a dir"
	tb run -- sh -c 'pwd; cat marker'
	cd "$root"
	[[ $rc == 0 && $out == *"$work/a dir"* && $out == *"seen-$$"* ]]
}

# / is read-only; /tmp is writable, and guest writes never reach the host.
t_rootfs() {
	tb run -- sh -c '
		if touch /testbed-probe 2>/dev/null; then echo root-writable; fi
		echo scratch >/tmp/probe && cat /tmp/probe
		echo leak >"$1/leak" 2>/dev/null; true' sh "$work"
	[[ $rc == 0 && $out == *scratch* && $out != *root-writable* && ! -e $work/leak ]]
}

t_env() {
	PWTPU_TB_TEST="a b" NOT_PASSED=x tb run -- sh -c 'echo "[$PWTPU_TB_TEST][${NOT_PASSED-unset}][$HOME]"'
	[[ $rc == 0 && $out == *"[a b][unset][/tmp]"* ]]
}

# The guest's Pathways cluster key: root's, mode 600, 64 hex digits; a
# new one per run, or the --key file's (tools/testbed key writes one).
t_key() {
	local k=$work/cluster.key
	rm -f "$k"
	"$testbed" key "$k" || return 1
	[[ $(stat -c %a "$k") == 600 ]] || return 1
	tb run --key "$k" -- sh -c 'stat -c "%a %u" "$PATHWAYS_KEY_FILE"; cat "$PATHWAYS_KEY_FILE"'
	[[ $rc == 0 && $out == *"600 0"* && $out == *"$(cat "$k")"* ]] || return 1
	tb run -- sh -c 'cat "$PATHWAYS_KEY_FILE"'
	[[ $rc == 0 && $(cmd_out) =~ ^[0-9a-f]{64}$ && $out != *"$(cat "$k")"* ]]
}

t_panic() {
	tb run --timeout 120 -- sh -c 'echo 1 >/proc/sys/kernel/sysrq; echo c >/proc/sysrq-trigger; sleep 100'
	[[ $rc == 125 && $err == *"testbed: guest kernel panicked"* ]] && ((took < 60))
}

t_no_status() {
	tb run --timeout 120 -- sh -c 'echo 1 >/proc/sys/kernel/sysrq; echo o >/proc/sysrq-trigger; sleep 100'
	[[ $rc == 123 && $err == *"guest exited without reporting a status"* ]] && ((took < 60))
}

t_timeout() {
	tb run --timeout 20 -- sleep 1000
	[[ $rc == 124 && $err == *"testbed: timeout after 20 s"* ]] && ((took < 40))
}

t_insmod_missing() {
	tb run --insmod "$work/nonexistent.ko" -- true
	[[ $rc != 0 && $err == *"no such file"* ]] && ((took < 10))
}

t_insmod_bogus() {
	echo "not a module" >"$work/bogus.ko"
	tb run --insmod "$work/bogus.ko" --params "x=1" -- echo ran-anyway
	# The guest's stderr arrives merged into stdout.
	[[ $rc == 121 && $out == *"insmod $work/bogus.ko x=1 failed"* && $out != *ran-anyway* &&
		$err == *"loading modules in the guest failed"* ]]
}

# A real module with parameters: the kernel's dummy netdev driver.
t_insmod_params() {
	local ko
	ko=$(modinfo -k "$("$root/tools/kver")" -n dummy) || return 1
	tb run --insmod "$ko" --params "numdummies=2" -- ip -br link
	[[ $rc == 0 && $out == *dummy1* && $out != *dummy2* ]]
}

t_modprobe() {
	tb run --modprobe dummy -- sh -c 'modprobe virtio_net && cat /proc/modules'
	[[ $rc == 0 && $out == *"dummy "* && $out == *"virtio_net "* ]]
}

t_usage() {
	tb run
	[[ $rc == 2 && $err == *"needs a command"* ]]
}

# --kernel wants a built kernel tree (booting one is the debug section's).
t_kernel_not_a_tree() {
	tb run --kernel "$work/nonexistent" -- true
	[[ $rc == 2 && $err == *"no such directory"* ]] || return 1
	mkdir -p "$work/empty-tree"
	tb run --kernel "$work/empty-tree" -- true
	[[ $rc == 2 && $err == *"not a built kernel tree"* ]]
}

# The interactive shell, driven through a pty; its exit status propagates.
t_shell() {
	command -v python3 >/dev/null || { echo "# no python3 to drive a pty"; return 1; }
	rc=0
	TMPDIR=$work/tmp python3 - "$testbed" >"$work/out" 2>"$work/err" <<'EOF' || rc=$?
import os, pty, select, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], [sys.argv[1], "shell", "--timeout", "60"])
buf, end = b"", time.time() + 60
while b"testbed:" not in buf and time.time() < end:
    if select.select([fd], [], [], 0.5)[0]:
        buf += os.read(fd, 4096)
os.write(fd, b"exit 5\r")
while True:
    try:
        if not os.read(fd, 4096):
            break
    except OSError:
        break
sys.exit(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
EOF
	[[ $rc == 5 ]]
}

t_outdir() {
	mkdir -p "$work/out dir"
	tb run --outdir "$work/out dir" -- sh -c 'echo made >"$0/f" && ! touch /etc/x' "$work/out dir" &&
		[[ $rc == 0 && $(<"$work/out dir/f") == made ]] &&
		{ tb run --outdir "$work/none" -- true; [[ $rc == 2 && $err == *"no such directory"* ]]; }
}

t_no_leftovers() { [[ -z $(ls -A "$work/tmp") ]]; }

cd "$root"
check "exit status 0 propagates" t_true
check "exit status 3 propagates" t_exit3
check "output arrives on stdout" t_output
check "output arrives complete and exact" t_output_exact
check "arguments with spaces and quotes survive" t_args
check "guest sees the host cwd" t_cwd
check "--outdir is writable at the same path, the rest read-only" t_outdir
check "root is read-only, /tmp writable, nothing leaks to the host" t_rootfs
check "PWTPU_* passes through, other variables do not" t_env
check "the guest has a private cluster key, --key's or a new one" t_key
check "guest panic fails with the panic message in bounded time" t_panic
check "guest dying without a status fails clearly" t_no_status
check "hang fails with the timeout message" t_timeout
check "--insmod of a nonexistent file fails cleanly" t_insmod_missing
check "--insmod of a bad module fails with insmod's status" t_insmod_bogus
check "--insmod with --params loads a real module" t_insmod_params
check "--modprobe and modprobe in the guest work" t_modprobe
check "run without a command is a usage error" t_usage
check "--kernel refuses what is not a built kernel tree" t_kernel_not_a_tree
check "shell: interactive shell's exit status propagates" t_shell
check "run dirs are cleaned up" t_no_leftovers

echo "1..$n"
echo "$passed passed, $failed failed"
((failed == 0))
