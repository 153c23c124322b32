// SPDX-License-Identifier: GPL-2.0
/*
 * pwtpu_queue.c - each device's command queue and its kernel thread, the
 * device's "scalar core": it takes commands in submission order, runs
 * them with the firmware, spends the modelled time, and completes them.
 */
#include <linux/delay.h>
#include <linux/hrtimer.h>
#include <linux/kthread.h>
#include <linux/sched.h>
#include <linux/string.h>

#include "pwtpu.h"
#include "pwtpu_trace.h"

void pwtpu_queue_submit(struct pwtpu_job *job)
{
	struct pwtpu_dev *pdev = job->pdev;

	job->id = atomic64_inc_return(&pdev->next_job_id);
	job->submit_ns = ktime_get_ns();
	trace_pwtpu_submit(pdev->index, job->id, job->nr);

	spin_lock(&pdev->qlock);
	list_add_tail(&job->node, &pdev->queue);
	pdev->queued++;
	spin_unlock(&pdev->qlock);
	wake_up(&pdev->qwait);
}

static struct pwtpu_job *pwtpu_queue_pop(struct pwtpu_dev *pdev)
{
	struct pwtpu_job *job;

	spin_lock(&pdev->qlock);
	job = list_first_entry_or_null(&pdev->queue, struct pwtpu_job, node);
	if (job) {
		list_del(&job->node);
		pdev->queued--;
	}
	spin_unlock(&pdev->qlock);
	return job;
}

/* Sleep (or, for short waits, spin) until CLOCK_MONOTONIC @deadline. */
static void pwtpu_wait_until(u64 deadline)
{
	u64 now = ktime_get_ns();

	if (deadline <= now)
		return;
	if (deadline - now < 20 * NSEC_PER_USEC) {
		ndelay(deadline - now);
		return;
	}
	usleep_range_state((deadline - now) / NSEC_PER_USEC,
			   (deadline - now) / NSEC_PER_USEC + 1,
			   TASK_IDLE);
}

static u64 pwtpu_job_exec(struct pwtpu_job *job, bool compute)
{
	struct pwtpu_dev *pdev = job->pdev;
	struct pwfw_buf bufs[PWTPU_MAX_BUFS];
	struct pwfw_exec_env env = {
		.isl = pdev->isl->fw,
		.dev = pdev->index,
		.gang = job->gang,
		.compute = compute,
	};
	u32 i;

	for (i = 0; i < job->nbos; i++) {
		bufs[i].base = job->bos[i]->vaddr;
		bufs[i].size = job->bos[i]->size;
	}
	job->result = pwfw_exec(&job->prog->fw, bufs, job->nbos, &env);
	return job->prog->fw.modeled_ns + env.link_ns;
}

/* Runs one command; returns its modelled duration. */
static u64 pwtpu_job_run(struct pwtpu_job *job, bool compute)
{
	struct pwtpu_island *isl = job->pdev->isl;
	u8 *hbm = job->nbos ? (u8 *)job->bos[0]->vaddr + job->offset : NULL;

	switch (job->nr) {
	case _IOC_NR(PWTPU_CMD_EXEC):
		return pwtpu_job_exec(job, compute);
	case _IOC_NR(PWTPU_CMD_COPY_TO_DEV):
	case _IOC_NR(PWTPU_CMD_COPY_FROM_DEV):
		job->result = pwtpu_job_host_copy(job);
		return pwfw_model_copy_ns(&isl->spec, job->length);
	case _IOC_NR(PWTPU_CMD_COPY_PEER):
		/* skip mode: the link time is spent, no data moves */
		if (compute)
			memmove((u8 *)job->bos[1]->vaddr + job->peer_offset,
				hbm, job->length);
		return pwfw_island_transfer(isl->fw, job->pdev->index,
					    job->peer->index, job->length);
	default:
		return 0;
	}
}

static void pwtpu_job_execute(struct pwtpu_dev *pdev, struct pwtpu_job *job)
{
	u32 mode = pdev->isl->timing;
	u64 model_ns;

	job->start_ns = ktime_get_ns();
	trace_pwtpu_start(pdev->index, job->id, job->nr);
	model_ns = pwtpu_job_run(job, mode != PWTPU_TIMING_SKIP);
	if (mode != PWTPU_TIMING_NATIVE && !job->result)
		pwtpu_wait_until(job->start_ns + model_ns);
	job->end_ns = ktime_get_ns();

	atomic64_add(job->end_ns - job->start_ns, &pdev->busy_ns);
	atomic64_inc(&pdev->cmds_completed);
	trace_pwtpu_complete(pdev->index, job->id, job->nr, job->result,
			     job->start_ns - job->submit_ns,
			     job->end_ns - job->start_ns);

	if (job->ioucmd) {
		pwtpu_uring_complete(job);
	} else {
		complete(&job->done);
		pwtpu_job_put(job);
	}
}

/* The optional polling window: look for work a while before sleeping. */
static bool pwtpu_queue_poll(struct pwtpu_dev *pdev)
{
	u64 end = ktime_get_ns() + (u64)pdev->isl->poll_us * NSEC_PER_USEC;

	while (ktime_get_ns() < end && !need_resched()) {
		if (READ_ONCE(pdev->queued))
			return true;
		cpu_relax();
	}
	return false;
}

static int pwtpu_queue_thread(void *data)
{
	struct pwtpu_dev *pdev = data;
	struct pwtpu_job *job;

	for (;;) {
		job = pwtpu_queue_pop(pdev);
		if (job) {
			pwtpu_job_execute(pdev, job);
			cond_resched();
			continue;
		}
		/* Stop only with an empty queue: every command gets an end. */
		if (kthread_should_stop())
			break;
		if (pdev->isl->poll_us && pwtpu_queue_poll(pdev))
			continue;
		wait_event_interruptible(pdev->qwait,
					 READ_ONCE(pdev->queued) ||
					 kthread_should_stop());
	}
	return 0;
}

int pwtpu_queue_start(struct pwtpu_dev *pdev)
{
	pdev->thread = kthread_run(pwtpu_queue_thread, pdev, "pwtpu%u",
				   pdev->index);
	return PTR_ERR_OR_ZERO(pdev->thread);
}

void pwtpu_queue_stop(struct pwtpu_dev *pdev)
{
	kthread_stop(pdev->thread);
}
