// SPDX-License-Identifier: GPL-2.0
/*
 * pwfw_cmd.c - one command as a device runs it (pwfw_cmd.h): the same
 * for pwtpu.ko and for simulated devices in user space.
 */
#include "pwfw_cmd.h"
#include "pwfw_platform.h"

#define PWFW_CMD_MOVE_PIECE	0x100000ULL	/* 1 MiB */
/* The model's waits are slept in pieces, so that a dying owner ends one. */
#define PWFW_CMD_WAIT_PIECE_NS	10000000ULL

int pwfw_cmd_check_exec(const struct pwfw_prog *prog, u32 nbufs,
			bool has_gang)
{
	if (nbufs != prog->nbufs)
		return -PWFW_EINVAL;
	/* A gang exactly when the program has collectives. */
	if (has_gang != !!prog->ncoll)
		return -PWFW_EINVAL;
	return 0;
}

int pwfw_cmd_check_buf(const struct pwfw_prog *prog, u32 i, u64 size)
{
	return size < prog->buf_bytes[i] ? -PWFW_ERANGE : 0;
}

bool pwfw_cmd_range_ok(u64 size, u64 offset, u64 length)
{
	return length && offset <= size && length <= size - offset;
}

static bool pwfw_cmd_is_host_copy(const struct pwfw_cmd *cmd)
{
	return cmd->nr == _IOC_NR(PWTPU_CMD_COPY_TO_DEV) ||
	       cmd->nr == _IOC_NR(PWTPU_CMD_COPY_FROM_DEV);
}

u64 pwfw_cmd_model_ns(const struct pwfw_spec *spec,
		      const struct pwfw_cmd *cmd)
{
	if (cmd->nr == _IOC_NR(PWTPU_CMD_EXEC))
		return cmd->prog->modeled_ns;
	if (pwfw_cmd_is_host_copy(cmd))
		return pwfw_model_copy_ns(spec, cmd->length);
	return 0;
}

/*
 * The execution's safe points. The watchdog bounds an EXEC's own work;
 * one with collectives is left to the gang timeout, since the time its
 * members wait for each other (up to the gang timeout each) is no work.
 */
static int pwfw_cmd_env_stop(struct pwfw_exec_env *env)
{
	struct pwfw_cmd *cmd = env->owner;

	return cmd->stop(cmd, !cmd->gang);
}

/* An EXEC; returns its modelled time: what ran, and the links' time. */
static u64 pwfw_cmd_exec(struct pwfw_island *isl,
			 const struct pwfw_spec *spec, struct pwfw_cmd *cmd,
			 bool compute)
{
	struct pwfw_exec_env env = {
		.isl = isl,
		.dev = cmd->dev,
		.gang = cmd->gang,
		.gang_scope = cmd->gang_scope,
		.scratch = cmd->scratch,
		.scratch_bytes = cmd->prog->coll_scratch,
		.compute = compute,
		.spec = spec,
		.stop = pwfw_cmd_env_stop,
		.owner = cmd,
	};

	cmd->result = pwfw_exec(cmd->prog, cmd->bufs, cmd->nbufs, &env);
	cmd->fault_insn = env.fault_insn;
	return env.model_ns + env.link_ns;
}

/*
 * COPY_PEER's move, up to all of HBM: in 1 MiB pieces, letting others
 * run and asking whether to stop between them, in the direction that
 * keeps an overlapping move (one buffer to itself) right.
 */
static void pwfw_cmd_move(struct pwfw_cmd *cmd)
{
	u8 *dst = (u8 *)cmd->bufs[1].base + cmd->peer_offset;
	const u8 *src = (const u8 *)cmd->bufs[0].base + cmd->offset;
	const u64 len = cmd->length;
	u64 off, n;

	for (off = 0; off < len && !cmd->result; off += n) {
		n = len - off < PWFW_CMD_MOVE_PIECE ? len - off :
						      PWFW_CMD_MOVE_PIECE;
		if (dst <= src)
			__builtin_memmove(dst + off, src + off, n);
		else
			__builtin_memmove(dst + len - off - n,
					  src + len - off - n, n);
		pwfw_plat_yield();
		if (off + n < len)
			cmd->result = cmd->stop(cmd, true);
	}
}

/* The command's work; returns its modelled duration. */
static u64 pwfw_cmd_work(struct pwfw_island *isl, const struct pwfw_spec *spec,
			 struct pwfw_cmd *cmd, bool compute)
{
	switch (cmd->nr) {
	case _IOC_NR(PWTPU_CMD_EXEC):
		return pwfw_cmd_exec(isl, spec, cmd, compute);
	case _IOC_NR(PWTPU_CMD_COPY_TO_DEV):
	case _IOC_NR(PWTPU_CMD_COPY_FROM_DEV):
		cmd->host_copy(cmd);
		return pwfw_model_copy_ns(spec, cmd->length);
	case _IOC_NR(PWTPU_CMD_COPY_PEER):
		/* Skip mode: the links' time is spent, no data moves. */
		if (compute)
			pwfw_cmd_move(cmd);
		return pwfw_island_transfer(isl, cmd->dev, cmd->peer,
					    cmd->length);
	default:
		return 0;
	}
}

/*
 * Hold the device until @deadline on the platform's clock, in pieces of
 * at most 10 ms so that a dying owner ends the wait. The model's own
 * time is no work: the watchdog does not apply.
 */
static void pwfw_cmd_wait_until(struct pwfw_cmd *cmd, u64 deadline)
{
	u64 now = pwfw_plat_now_ns(), n;

	while (deadline > now) {
		n = deadline - now;
		pwfw_plat_delay_ns(n < PWFW_CMD_WAIT_PIECE_NS ? n :
				   PWFW_CMD_WAIT_PIECE_NS);
		now = pwfw_plat_now_ns();
		if (deadline > now) {
			cmd->result = cmd->stop(cmd, false);
			if (cmd->result)
				return;
		}
	}
}

void pwfw_cmd_run(struct pwfw_island *isl, const struct pwfw_spec *spec,
		  u32 timing, u64 watchdog_ns, struct pwfw_cmd *cmd,
		  u64 start_ns)
{
	u64 model_ns;

	cmd->start_ns = start_ns;
	cmd->deadline_ns = start_ns + 2 * pwfw_cmd_model_ns(spec, cmd) +
			   watchdog_ns;
	cmd->result = 0;
	cmd->fault_insn = PWTPU_VERR_NO_INSN;
	model_ns = pwfw_cmd_work(isl, spec, cmd, timing != PWTPU_TIMING_SKIP);
	if (timing != PWTPU_TIMING_NATIVE && !cmd->result)
		pwfw_cmd_wait_until(cmd, start_ns + model_ns);
	cmd->end_ns = pwfw_plat_now_ns();
}
