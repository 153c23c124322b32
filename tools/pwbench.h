/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pwbench.h - what the pwbench subcommands share: a clock and latency
 * summaries. A benchmark reports; it never passes or fails on timing.
 */
#ifndef PWBENCH_H
#define PWBENCH_H

#include <stddef.h>
#include <stdint.h>

/* CLOCK_MONOTONIC in ns: the clock the driver stamps commands with. */
uint64_t pwbench_now_ns(void);

struct pwbench_summary {
	uint64_t min;
	uint64_t p50;
	uint64_t p99;
	uint64_t max;
	double mean;
};

/* Summarise @n samples; sorts a copy, @v is left as it was. */
int pwbench_summarize(const uint64_t *v, size_t n, struct pwbench_summary *s);

/* "N CPUs, clocksource X": what a table's numbers were measured on. */
void pwbench_machine(char *buf, size_t len);

/* `pwbench dispatch ...`: argv[0] is "dispatch". */
int pwbench_dispatch_main(int argc, char **argv);
/* `pwbench dispatch --dcn ...`: over the DCN (pwbench_dcn.c). */
int pwbench_dcn_main(int argc, char **argv);
/*
 * pwbench_echo.c: @n datagram round trips over @t to an echo at @to; each
 * one's time into @rtt (the ones that came back, in order), the count of
 * those that did not in @lost. Returns how many came back, or -errno.
 */
struct pw_transport;
struct sockaddr_in;
int pwbench_echo_rtt(struct pw_transport *t, const struct sockaddr_in *to,
		     unsigned int n, uint64_t *rtt, unsigned int *lost);
/* The same with a plain blocking socket of its own: the network's floor. */
int pwbench_echo_rtt_blocking(const struct sockaddr_in *to, unsigned int n,
			      uint64_t *rtt, unsigned int *lost);
/* `pwbench echo --serve IP:PORT`: the other end. */
int pwbench_echo_main(int argc, char **argv);
/* pwbench_dcn_tput.c: Figure 5 across hosts, through pathwaysd. */
int pwbench_dcn_tput_main(int argc, char **argv);
/* pwbench_host_data.c: host data over the data plane and in parts. */
int pwbench_host_data_main(int argc, char **argv);
/* `pwbench collective ...`: argv[0] is "collective". */
int pwbench_collective_main(int argc, char **argv);
/* `pwbench pathways ...`: argv[0] is "pathways" (pwbench_paper.c). */
int pwbench_paper_main(int argc, char **argv);
/* `pwbench peers ...`: a DCN node's peer bookkeeping (pwbench_peers.c). */
int pwbench_peers_main(int argc, char **argv);
/* `pwbench matmul ...`: the firmware's MATMUL paths against OpenBLAS. */
int pwbench_matmul_main(int argc, char **argv);

#endif /* PWBENCH_H */
