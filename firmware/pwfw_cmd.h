/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pwfw_cmd.h - one command as a device runs it, for every host of the
 * firmware (pwtpu.ko's queues, the simulated devices of a user-space
 * worker): what a command's fields must say, the work it does, the time
 * it holds the device in each timing mode, and its watchdog. The host
 * owns handles, queues, references and counters; what a command does,
 * and for how long, is decided here alone.
 */
#ifndef PWFW_CMD_H
#define PWFW_CMD_H

#include "pwfw.h"
#include "pwfw_island.h"

/**
 * struct pwfw_cmd - a command that has the device
 * @nr: _IOC_NR of its PWTPU_CMD_*.
 * @dev: the device, in the island.
 * @prog: EXEC: its program.
 * @bufs: EXEC: the bound buffers; a host copy: [0] its buffer object;
 *	COPY_PEER: [0] the source, [1] the destination buffer object.
 * @nbufs: of @bufs.
 * @gang: EXEC with collectives: its gang, checked.
 * @gang_scope: see struct pwfw_exec_env.
 * @scratch: see struct pwfw_exec_env (NULL: the firmware allocates).
 * @peer: COPY_PEER: the destination device.
 * @offset: copies: where in @bufs[0].
 * @peer_offset: COPY_PEER: where in @bufs[1].
 * @length: copies: bytes.
 * @stop: the host's: -PWFW_ECANCELED once the command's owner is dying;
 *	with @watchdog, -PWFW_ETIME past @deadline_ns; else 0.
 * @host_copy: the host's: a host copy's data movement (the host memory
 *	is the platform's), which sets @result to stop.
 * @owner: the host's, for @stop and @host_copy.
 * @start_ns: out: when it had the device.
 * @deadline_ns: out: its watchdog's deadline.
 * @end_ns: out: when it let the device go.
 * @result: out: 0 or -PWFW_E*.
 * @fault_insn: out: with -PWFW_ELOOP, the instruction of the bounded
 *	loop that ran out of trips; else PWTPU_VERR_NO_INSN.
 */
struct pwfw_cmd {
	u32 nr;
	u32 dev;
	const struct pwfw_prog *prog;
	struct pwfw_buf bufs[PWTPU_MAX_BUFS];
	u32 nbufs;
	const struct pwtpu_gang *gang;
	u64 gang_scope;
	void *scratch;
	u32 peer;
	u64 offset;
	u64 peer_offset;
	u64 length;
	int (*stop)(struct pwfw_cmd *cmd, bool watchdog);
	void (*host_copy)(struct pwfw_cmd *cmd);
	void *owner;
	u64 start_ns;
	u64 deadline_ns;
	u64 end_ns;
	int result;
	u32 fault_insn;
};

/*
 * An EXEC's fields against its program, before its buffers are looked
 * at: -PWFW_EINVAL when @nbufs is not the program's, or unless a gang is
 * given (@has_gang) exactly when the program has collectives; else 0.
 * The gang itself is then checked by pwfw_gang_check().
 */
int pwfw_cmd_check_exec(const struct pwfw_prog *prog, u32 nbufs,
			bool has_gang);
/* Binding @i of @prog to a buffer of @size: 0, or -PWFW_ERANGE if small. */
int pwfw_cmd_check_buf(const struct pwfw_prog *prog, u32 i, u64 size);
/* A copy's range in a buffer of @size: not empty, and inside it. */
bool pwfw_cmd_range_ok(u64 size, u64 offset, u64 length);

/*
 * The watchdog's base: an EXEC's static modelled time (links aside), a
 * host copy's modelled time; a COPY_PEER's link time is known only as
 * it runs, so it has none, as a NOP.
 */
u64 pwfw_cmd_model_ns(const struct pwfw_spec *spec,
		      const struct pwfw_cmd *cmd);

/*
 * Run @cmd, which has device @cmd->dev of @isl from @start_ns: its work
 * (in @timing PWTPU_TIMING_SKIP no arithmetic and no data, but the
 * collectives' meetings and the links' time), stopped past its deadline,
 * twice its modelled time plus @watchdog_ns; then, in any timing but
 * PWTPU_TIMING_NATIVE, the device held until its modelled end (a dying
 * owner still stops it): for a program with bounded loops, the end of
 * what it ran. Sets @start_ns, @deadline_ns, @end_ns, @result,
 * @fault_insn.
 */
void pwfw_cmd_run(struct pwfw_island *isl, const struct pwfw_spec *spec,
		  u32 timing, u64 watchdog_ns, struct pwfw_cmd *cmd,
		  u64 start_ns);

#endif /* PWFW_CMD_H */
