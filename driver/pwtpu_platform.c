// SPDX-License-Identifier: GPL-2.0
/*
 * pwtpu_platform.c - the firmware's platform inside the kernel: FPU
 * sections, rescheduling between chunks, synthetic compute time, and the
 * island's lock, sleeps, memory, log and trace hooks.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/delay.h>
#include <linux/mm.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <asm/cpufeature.h>
#include <asm/fpu/api.h>

#include "pwtpu.h"
#include "pwtpu_trace.h"
#include "../firmware/pwfw_platform.h"

void pwfw_plat_fpu_begin(void)
{
	kernel_fpu_begin();
}

void pwfw_plat_fpu_end(void)
{
	kernel_fpu_end();
}

void pwfw_plat_yield(void)
{
	cond_resched();
}

void pwfw_plat_delay_ns(u64 ns)
{
	if (ns < 20 * NSEC_PER_USEC) {
		ndelay(ns);
		cond_resched();	/* a loop of short delays must not hog */
	} else {
		usleep_range_state(ns / NSEC_PER_USEC, ns / NSEC_PER_USEC + 1,
				   TASK_IDLE);
	}
}

/*
 * SSE2 is part of x86-64; AVX2 needs the CPU feature and the OS saving
 * the YMM registers, which kernel_fpu_begin() then preserves.
 */
enum pwfw_simd pwfw_plat_simd(void)
{
	if (boot_cpu_has(X86_FEATURE_AVX) && boot_cpu_has(X86_FEATURE_AVX2) &&
	    cpu_has_xfeatures(XFEATURE_MASK_SSE | XFEATURE_MASK_YMM, NULL))
		return PWFW_SIMD_AVX2;
	return PWFW_SIMD_SSE2;
}

void pwfw_plat_lock(void *host)
{
	struct pwtpu_island *isl = host;

	mutex_lock(&isl->fw_lock);
}

void pwfw_plat_unlock(void *host)
{
	struct pwtpu_island *isl = host;

	mutex_unlock(&isl->fw_lock);
}

/*
 * Only a command's runner waits here (a file's runner thread, or an
 * ioctl caller), for peers, bounded by the gang timeout: TASK_IDLE, so a
 * long wait neither counts as load nor looks hung.
 */
bool pwfw_plat_wait(void *host, u64 deadline_ns)
{
	struct pwtpu_island *isl = host;
	u64 now = ktime_get_ns();
	DEFINE_WAIT(wait);

	if (now >= deadline_ns)
		return false;
	prepare_to_wait(&isl->fw_wait, &wait, TASK_IDLE);
	mutex_unlock(&isl->fw_lock);
	schedule_timeout(nsecs_to_jiffies(deadline_ns - now) + 1);
	finish_wait(&isl->fw_wait, &wait);
	mutex_lock(&isl->fw_lock);
	return ktime_get_ns() < deadline_ns;
}

void pwfw_plat_wake_all(void *host)
{
	struct pwtpu_island *isl = host;

	wake_up_all(&isl->fw_wait);
}

u64 pwfw_plat_now_ns(void)
{
	return ktime_get_ns();
}

void *pwfw_plat_zalloc(u64 bytes)
{
	return kvzalloc(bytes, GFP_KERNEL);
}

void pwfw_plat_free(void *p)
{
	kvfree(p);
}

/* Users can make the firmware speak (a gang that times out): rate-limited. */
void pwfw_plat_log(void *host, const char *msg)
{
	pr_warn_ratelimited("%s\n", msg);
}

void pwfw_plat_trace_link(void *host, u32 from, u32 to, u64 bytes,
			  u64 model_ns)
{
	trace_pwtpu_link(from, to, bytes, model_ns);
}

void pwfw_plat_trace_coll(void *host, u32 dev, u64 gang_id, u32 seq,
			  u32 op, u32 phase, s32 arg)
{
	trace_pwtpu_coll(dev, gang_id, seq, op, phase, arg);
}
