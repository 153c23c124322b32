// SPDX-License-Identifier: GPL-2.0
/*
 * pwbench - pwtpu micro-benchmarks. Subcommands:
 *   dispatch     latency and throughput of one command through each path
 *   collective   all-reduce time and bandwidth over 2, 4, 8 devices
 *   pathways     the Pathways paper's section 5 micro-benchmarks through
 *                libpathways (Figures 5, 7, 8, 9)
 *   dcn-throughput  Figure 5 through pathwaysd, over 1, 2, 4... hosts
 *   host-data    a remote client's shards over the data plane and in parts
 *   echo         a datagram echo, the DCN floor `dispatch --dcn --echo` uses
 *   peers        a DCN node's peer lookup and idle step against its peers
 *   matmul       the firmware's MATMUL paths on the host CPU against OpenBLAS
 */
#include <stdio.h>
#include <string.h>

#include "pwbench.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pwbench SUBCOMMAND [OPTIONS]\n"
		"  dispatch     dispatch latency of each command path "
		"(pwbench dispatch -h)\n"
		"  collective   all-reduce bandwidth over the mesh "
		"(pwbench collective -h)\n"
		"  pathways     the Pathways paper's micro-benchmarks "
		"(pwbench pathways -h)\n"
		"  dcn-throughput  Figure 5 through pathwaysd across hosts "
		"(pwbench dcn-throughput -h)\n"
		"  host-data    host data over the data plane against control-plane "
		"parts (pwbench host-data -h)\n"
		"  echo         --serve IP:PORT: the DCN floor's other end\n"
		"  peers        a DCN node's peer lookup and step against its "
		"peer count (pwbench peers -h)\n"
		"  matmul       the firmware's MATMUL on this CPU against OpenBLAS "
		"(pwbench matmul -h)\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "dispatch"))
		return pwbench_dispatch_main(argc - 1, argv + 1);
	if (!strcmp(argv[1], "collective"))
		return pwbench_collective_main(argc - 1, argv + 1);
	if (!strcmp(argv[1], "pathways"))
		return pwbench_paper_main(argc - 1, argv + 1);
	if (!strcmp(argv[1], "dcn-throughput"))
		return pwbench_dcn_tput_main(argc - 1, argv + 1);
	if (!strcmp(argv[1], "host-data"))
		return pwbench_host_data_main(argc - 1, argv + 1);
	if (!strcmp(argv[1], "echo"))
		return pwbench_echo_main(argc - 1, argv + 1);
	if (!strcmp(argv[1], "peers"))
		return pwbench_peers_main(argc - 1, argv + 1);
	if (!strcmp(argv[1], "matmul"))
		return pwbench_matmul_main(argc - 1, argv + 1);
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		usage(stdout);
		return 0;
	}
	fprintf(stderr, "pwbench: unknown subcommand '%s'\n", argv[1]);
	usage(stderr);
	return 2;
}
