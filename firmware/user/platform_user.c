// SPDX-License-Identifier: GPL-2.0
/*
 * The firmware's platform in user space: no FPU sections are needed, a
 * delay is a real sleep, and PWFW_SIMD=0 in the environment forces the
 * scalar paths (tests compare both).
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../pwfw_platform.h"

void pwfw_plat_fpu_begin(void)
{
}

void pwfw_plat_fpu_end(void)
{
}

void pwfw_plat_yield(void)
{
}

void pwfw_plat_delay_ns(u64 ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / 1000000000ULL),
		.tv_nsec = (long)(ns % 1000000000ULL),
	};

	while (nanosleep(&ts, &ts))
		;
}

bool pwfw_plat_simd(void)
{
	const char *v = getenv("PWFW_SIMD");

	return !v || strcmp(v, "0") != 0;
}
