// SPDX-License-Identifier: GPL-2.0
/*
 * pwtpu_queue.c - each device's command queue: commands have the device
 * one at a time, in submission order, and each runs in a context of its
 * submitter, so that its CPU time is charged to the submitter's cgroup:
 *  - a short command that finds the device idle runs inline, in its own
 *    issue (pwtpu_queue_run_inline());
 *  - a synchronous (ioctl) caller runs its own command when its turn
 *    comes (pwtpu_queue_run_turn());
 *  - a queued io_uring command runs in its file's runner, a kernel thread
 *    made at the file's first queued command and attached to its
 *    submitter's cgroups (pwtpu_ctx_runner()), as vhost attaches its
 *    worker to its owner's.
 * @busy, under the queue lock, is held by whoever has the device, and
 * passes from one command to the next in order (pwtpu_queue_pass()): the
 * device is free only when nothing is queued.
 */
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/sched/signal.h>

#include "pwtpu.h"
#include "pwtpu_trace.h"

/* Number @job and stamp its submission. */
static void pwtpu_job_stamp(struct pwtpu_job *job)
{
	struct pwtpu_dev *pdev = job->pdev;

	job->id = atomic64_inc_return(&pdev->next_job_id);
	job->submit_ns = ktime_get_ns();
	trace_pwtpu_submit(pdev->index, job->id, job->nr);
}

/*
 * Give the device, which @job now has, to @job's runner: its file's
 * runner for io_uring, else its waiting ioctl caller. Under the queue
 * lock, so that the runner cannot end the job (and free its file's
 * context) before the wake-up is done.
 */
static void pwtpu_queue_give(struct pwtpu_job *job)
{
	struct pwtpu_ctx *ctx = job->ctx;

	lockdep_assert_held(&job->pdev->qlock);
	if (job->ioucmd) {
		/* One device per file: one of its commands has it at a time. */
		WARN_ON_ONCE(ctx->turn);
		WRITE_ONCE(ctx->turn, job);	/* its runner may be polling */
		wake_up(&ctx->rwait);
	} else {
		complete(&job->turn);
	}
}

/*
 * Queue a heap @job behind what the device has to do, or give it the
 * device at once if it is free (nothing is queued then).
 */
void pwtpu_queue_submit(struct pwtpu_job *job)
{
	struct pwtpu_dev *pdev = job->pdev;

	pwtpu_job_stamp(job);
	spin_lock(&pdev->qlock);
	if (pdev->busy) {
		list_add_tail(&job->node, &pdev->queue);
		WRITE_ONCE(pdev->queued, pdev->queued + 1);
	} else {
		WRITE_ONCE(pdev->busy, true);
		pwtpu_queue_give(job);
	}
	spin_unlock(&pdev->qlock);
}

/*
 * Whoever had the device is done with it: give it to the next job in
 * order, or free it when nothing is queued. The next job is returned,
 * not given, when it is @self's (a runner's own file's): the runner goes
 * on with it at once, nobody woken.
 */
static struct pwtpu_job *pwtpu_queue_pass(struct pwtpu_dev *pdev,
					  const struct pwtpu_ctx *self)
{
	struct pwtpu_job *job;

	spin_lock(&pdev->qlock);
	job = list_first_entry_or_null(&pdev->queue, struct pwtpu_job, node);
	if (job) {
		list_del_init(&job->node);
		WRITE_ONCE(pdev->queued, pdev->queued - 1);
		if (!job->ioucmd || job->ctx != self) {
			pwtpu_queue_give(job);
			job = NULL;
		}
	} else {
		WRITE_ONCE(pdev->busy, false);
	}
	spin_unlock(&pdev->qlock);
	return job;
}

/*
 * Take a killed ioctl caller's @job off its queue if it has not been
 * given the device yet: true if so, and it never runs. Else the device
 * is the caller's, who must run (or cancel) it and pass the device on.
 */
bool pwtpu_queue_unlink(struct pwtpu_job *job)
{
	struct pwtpu_dev *pdev = job->pdev;
	bool unlinked = false;

	spin_lock(&pdev->qlock);
	if (!list_empty(&job->node)) {
		list_del_init(&job->node);
		WRITE_ONCE(pdev->queued, pdev->queued - 1);
		unlinked = true;
	}
	spin_unlock(&pdev->qlock);
	if (unlinked) {
		atomic64_inc(&pdev->cmds_cancelled);
		trace_pwtpu_complete(pdev->index, job->id, job->nr, -ECANCELED,
				     0, 0);
	}
	return unlinked;
}

/*
 * The submitter's process is exiting or killed (as ublk tells a dying
 * daemon): the command is not run, or stops. The process, not the
 * thread: io_uring may have issued it from one of its io-wq or SQPOLL
 * threads, which come and go. A file or ring handed to another process
 * does not keep its submitter's commands alive (docs/driver.md).
 */
static bool pwtpu_job_orphaned(const struct pwtpu_job *job)
{
	return READ_ONCE(job->task->signal->flags) & SIGNAL_GROUP_EXIT;
}

/*
 * The firmware asks whether a running command is to stop:
 * -PWFW_ECANCELED once its submitter's process is dying; with @watchdog,
 * -PWFW_ETIME past its watchdog deadline; else 0.
 */
static int pwtpu_cmd_stop(struct pwfw_cmd *cmd, bool watchdog)
{
	BUILD_BUG_ON(PWFW_ECANCELED != ECANCELED || PWFW_ETIME != ETIME);
	if (pwtpu_job_orphaned(cmd->owner))
		return -PWFW_ECANCELED;
	if (watchdog && ktime_get_ns() > cmd->deadline_ns)
		return -PWFW_ETIME;
	return 0;
}

/*
 * The command as the firmware runs it (firmware/pwfw_cmd.h), field by
 * field: most commands use few of them, and this is the inline path.
 */
static void pwtpu_job_cmd(struct pwtpu_job *job, struct pwfw_cmd *cmd)
{
	u32 i;

	cmd->nr = job->nr;
	cmd->dev = job->pdev->index;
	cmd->prog = job->prog ? &job->prog->fw : NULL;
	for (i = 0; i < job->nbos; i++) {
		cmd->bufs[i].base = job->bos[i]->vaddr;
		cmd->bufs[i].size = job->bos[i]->size;
	}
	cmd->nbufs = job->nbos;
	cmd->gang = job->gang;
	cmd->gang_scope = job->gang_scope;
	cmd->scratch = job->scratch;
	cmd->peer = job->peer ? job->peer->index : 0;
	cmd->offset = job->offset;
	cmd->peer_offset = job->peer_offset;
	cmd->length = job->length;
	cmd->stop = pwtpu_cmd_stop;
	cmd->host_copy = pwtpu_job_host_copy;
	cmd->owner = job;
}

/* Run @job, which the device starts at @start_ns. */
static void pwtpu_job_execute(struct pwtpu_dev *pdev, struct pwtpu_job *job,
			      u64 start_ns)
{
	struct pwtpu_island *isl = pdev->isl;
	struct pwfw_cmd cmd;

	if (pwtpu_job_orphaned(job)) {
		job->result = -ECANCELED;
		job->start_ns = start_ns;
		job->end_ns = start_ns;
		atomic64_inc(&pdev->cmds_cancelled);
		goto complete;
	}
	trace_pwtpu_start(pdev->index, job->id, job->nr);
	pwtpu_job_cmd(job, &cmd);
	pwfw_cmd_run(isl->fw, &isl->spec, READ_ONCE(isl->timing),
		     (u64)READ_ONCE(pwtpu_watchdog_ms) * NSEC_PER_MSEC, &cmd,
		     start_ns);
	job->start_ns = cmd.start_ns;
	job->end_ns = cmd.end_ns;
	job->result = cmd.result;
	if (job->result == -ECANCELED || job->result == -ETIME) {
		WRITE_ONCE(pdev->cmds_aborted, pdev->cmds_aborted + 1);
		if (job->result == -ETIME)
			dev_warn_ratelimited(&pdev->dev,
					     "command %llu (pid %d) aborted after %llu ms: watchdog_ms %u past twice its modelled %llu us\n",
					     job->id, task_tgid_nr(job->task),
					     (job->end_ns - job->start_ns) / NSEC_PER_MSEC,
					     READ_ONCE(pwtpu_watchdog_ms),
					     pwfw_cmd_model_ns(&isl->spec, &cmd) /
					     NSEC_PER_USEC);
	}
	if (job->result == -ELOOP)
		dev_info_ratelimited(&pdev->dev,
				     "command %llu (pid %d) failed: the bounded loop at insn %u ran all its trips without a while leaving it\n",
				     job->id, task_tgid_nr(job->task),
				     cmd.fault_insn);

	WRITE_ONCE(pdev->busy_ns, pdev->busy_ns + job->end_ns - job->start_ns);
	WRITE_ONCE(pdev->cmds_completed, pdev->cmds_completed + 1);
complete:
	trace_pwtpu_complete(pdev->index, job->id, job->nr, job->result,
			     job->start_ns - job->submit_ns,
			     job->end_ns - job->start_ns);
}

/*
 * Run @job at once in its submitter's context if the device is free
 * (nothing queued, so order is kept, and nothing running). True when it
 * ran: its result and times are in it, and it is the caller's to end.
 * False when the device is busy: it is to be queued.
 */
bool pwtpu_queue_run_inline(struct pwtpu_job *job)
{
	struct pwtpu_dev *pdev = job->pdev;

	spin_lock(&pdev->qlock);
	if (pdev->busy) {
		spin_unlock(&pdev->qlock);
		return false;
	}
	WRITE_ONCE(pdev->busy, true);
	spin_unlock(&pdev->qlock);

	/* Submitted and started at once: one clock read. */
	pwtpu_job_stamp(job);
	pwtpu_job_execute(pdev, job, job->submit_ns);
	WRITE_ONCE(pdev->cmds_inline, pdev->cmds_inline + 1);

	/* What was queued meanwhile waited for us: its turn. */
	pwtpu_queue_pass(pdev, NULL);
	return true;
}

/*
 * Run @job, a synchronous caller's, which has been given the device, in
 * the caller's context; then pass the device on.
 */
void pwtpu_queue_run_turn(struct pwtpu_job *job)
{
	pwtpu_job_execute(job->pdev, job, ktime_get_ns());
	pwtpu_queue_pass(job->pdev, NULL);
}

/* The file's next turn, if the device has been given to one of its jobs. */
static struct pwtpu_job *pwtpu_runner_take(struct pwtpu_ctx *ctx)
{
	struct pwtpu_dev *pdev = ctx->pdev;
	struct pwtpu_job *job;

	spin_lock(&pdev->qlock);
	job = ctx->turn;
	WRITE_ONCE(ctx->turn, NULL);
	spin_unlock(&pdev->qlock);
	return job;
}

/* The optional polling window: look for a turn a while before sleeping. */
static bool pwtpu_runner_poll(struct pwtpu_ctx *ctx)
{
	u64 end = ktime_get_ns() + (u64)ctx->pdev->isl->poll_us * NSEC_PER_USEC;

	while (ktime_get_ns() < end && !need_resched() &&
	       !kthread_should_stop()) {
		if (READ_ONCE(ctx->turn))
			return true;
		cpu_relax();
	}
	return false;
}

/*
 * A file's runner: it runs the file's queued io_uring commands when the
 * device is given to them, and those that follow in the queue at once,
 * then completes each. It is stopped when the file is released, which
 * is only once every command of the file has completed (each holds the
 * file), so it never leaves one behind.
 */
int pwtpu_queue_runner(void *data)
{
	struct pwtpu_ctx *ctx = data;
	struct pwtpu_dev *pdev = ctx->pdev;
	struct pwtpu_job *job, *next;

	for (;;) {
		job = pwtpu_runner_take(ctx);
		while (job) {
			pwtpu_job_execute(pdev, job, ktime_get_ns());
			/* Free the device before completing, for the next. */
			next = pwtpu_queue_pass(pdev, ctx);
			pwtpu_uring_complete(job);
			cond_resched();
			job = next;
		}
		if (kthread_should_stop())
			break;
		if (pdev->isl->poll_us && pwtpu_runner_poll(ctx))
			continue;
		wait_event_interruptible(ctx->rwait, READ_ONCE(ctx->turn) ||
					 kthread_should_stop());
	}
	return 0;
}
