// SPDX-License-Identifier: GPL-2.0
/*
 * pwbench_machine.c - what a measurement ran on, for its table's header:
 * CPUs online and the kernel's clock source. Both move the numbers: in
 * the testbed a guest with two vCPUs on two host cores marks its TSC
 * unstable and reads the emulated HPET instead, at about ten times the
 * cost per clock read (docs/testbed.md).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "pwbench.h"

#define CLOCKSOURCE \
	"/sys/devices/system/clocksource/clocksource0/current_clocksource"

void pwbench_machine(char *buf, size_t len)
{
	char clock[32] = "unknown";
	FILE *f = fopen(CLOCKSOURCE, "r");

	if (f) {
		if (fgets(clock, sizeof(clock), f))
			clock[strcspn(clock, "\n")] = '\0';
		fclose(f);
	}
	snprintf(buf, len, "%ld CPUs, clocksource %s",
		 sysconf(_SC_NPROCESSORS_ONLN), clock);
}
