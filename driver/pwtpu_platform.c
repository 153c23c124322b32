// SPDX-License-Identifier: GPL-2.0
/*
 * pwtpu_platform.c - the firmware's platform inside the kernel: FPU
 * sections, rescheduling between chunks, and synthetic compute time.
 */
#include <linux/delay.h>
#include <linux/sched.h>
#include <asm/fpu/api.h>

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
	if (ns < 20 * NSEC_PER_USEC)
		ndelay(ns);
	else
		usleep_range_state(ns / NSEC_PER_USEC, ns / NSEC_PER_USEC + 1,
				   TASK_IDLE);
}

bool pwfw_plat_simd(void)
{
	return true;
}
