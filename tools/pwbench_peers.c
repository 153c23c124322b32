// SPDX-License-Identifier: GPL-2.0
/*
 * pwbench_peers.c - `pwbench peers`: what a DCN node's bookkeeping costs
 * as its peers grow toward a 512-host cluster (PW_NODE_MAX_PEERS).
 *
 * A controller looks a peer up by node id for every datagram it takes in
 * and once per host in every liveness pass of its loop, and each step of
 * its loop visits every peer's channel. This measures both on one node
 * over the in-process transport, with no traffic, so that only the
 * bookkeeping is timed:
 *
 *   find    pw_node_find() of every known id once, in a shuffled order
 *           (a liveness pass): the time per whole pass, and per lookup as
 *           a pass's time over its lookups (p99: of those averages);
 *   step    pw_node_step() with nothing to receive or send.
 *
 * Half the peers are workers (0x100 + host), half clients (random ids),
 * as in a cluster. A benchmark reports; it fails only when a lookup does
 * not find the peer it must.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>

#include "../runtime/dcn/node.h"
#include "../runtime/net/transport.h"

#include "pwbench.h"

#define PEERS_DEFAULT	"8 64 512 1024"
#define ROUNDS_DEFAULT	2000

static int no_handler(struct pw_node *node, struct pw_node_peer *peer,
		      const struct pw_wire_msg *msg, uint64_t now)
{
	(void)node;
	(void)peer;
	(void)msg;
	(void)now;
	return 0;
}

/* xorshift: the bench's own ids and shuffles, the same in every run. */
static uint32_t next_rand(uint32_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

static int add_peers(struct pw_node *node, uint32_t *ids, unsigned int n)
{
	struct sockaddr_in addr = { .sin_family = AF_INET };
	uint32_t seed = 2463534242u;
	unsigned int i;

	for (i = 0; i < n; i++) {
		ids[i] = i % 2 ? PW_NODE_CLIENT_BASE |
				 (next_rand(&seed) & 0x7fffffff) :
				 PW_NODE_WORKER_BASE + i / 2;
		addr.sin_addr.s_addr = htonl(0x7f000002 + i);
		addr.sin_port = htons(7701);
		if (!pw_node_peer(node, ids[i], &addr)) {
			fprintf(stderr, "pwbench peers: no room for peer %u of %u\n",
				i + 1, n);
			return -ENOMEM;
		}
	}
	return 0;
}

static void shuffle(uint32_t *ids, unsigned int n, uint32_t *seed)
{
	unsigned int i, j;
	uint32_t t;

	for (i = n - 1; i > 0; i--) {
		j = next_rand(seed) % (i + 1);
		t = ids[i];
		ids[i] = ids[j];
		ids[j] = t;
	}
}

struct peers_row {
	struct pwbench_summary pass;	/* ns per liveness pass */
	struct pwbench_summary step;	/* ns per idle step */
};

static int measure(unsigned int n, unsigned int rounds, struct peers_row *row)
{
	struct sockaddr_in any = {
		.sin_family = AF_INET,
		.sin_addr.s_addr = htonl(INADDR_LOOPBACK),
	};
	uint64_t *pass = calloc(rounds, sizeof(*pass));
	uint64_t *step = calloc(rounds, sizeof(*step));
	uint32_t *ids = calloc(n, sizeof(*ids));
	struct pw_node *node = calloc(1, sizeof(*node));
	struct pw_transport *t = NULL;
	struct pw_auth_key key;
	uint32_t seed = 88172645u;
	unsigned int r, i;
	int ret = -ENOMEM;

	if (!pass || !step || !ids || !node)
		goto out;
	pw_auth_key_random(&key);
	ret = pw_loop_open(&t, &any);
	if (ret)
		goto out;
	ret = pw_node_init(node, PW_NODE_CONTROLLER, t, &key, no_handler, NULL);
	if (ret)
		goto out;
	ret = add_peers(node, ids, n);
	for (r = 0; !ret && r < rounds; r++) {
		uint64_t t0;

		shuffle(ids, n, &seed);
		t0 = pwbench_now_ns();
		for (i = 0; i < n; i++)
			if (!pw_node_find(node, ids[i]))
				break;
		pass[r] = pwbench_now_ns() - t0;
		if (i < n) {
			fprintf(stderr, "pwbench peers: peer %#x not found among %u\n",
				ids[i], n);
			ret = -ENOENT;
			break;
		}
		t0 = pwbench_now_ns();
		ret = pw_node_step(node, 0);
		step[r] = pwbench_now_ns() - t0;
	}
	if (!ret)
		ret = pwbench_summarize(pass, rounds, &row->pass);
	if (!ret)
		ret = pwbench_summarize(step, rounds, &row->step);
	pw_node_fini(node);
out:
	free(node);
	free(ids);
	free(step);
	free(pass);
	return ret;
}

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pwbench peers [--peers \"N ...\"] [--rounds N]\n"
		"  a DCN node's peer lookup and idle step against its peer count\n"
		"  --peers   peer counts, at most %u (default \"%s\")\n"
		"  --rounds  passes per count (default %u)\n",
		PW_NODE_MAX_PEERS, PEERS_DEFAULT, ROUNDS_DEFAULT);
}

static int parse_peers(const char *list, unsigned int *counts, unsigned int *n)
{
	char *copy = strdup(list), *tok, *save, *end;
	unsigned long v;

	if (!copy)
		return -ENOMEM;
	*n = 0;
	for (tok = strtok_r(copy, " ,", &save); tok;
	     tok = strtok_r(NULL, " ,", &save)) {
		v = strtoul(tok, &end, 10);
		if (*end || !v || v > PW_NODE_MAX_PEERS || *n == 16) {
			fprintf(stderr,
				"pwbench peers: \"%s\" is not a peer count of 1 to %u (16 counts at most)\n",
				tok, PW_NODE_MAX_PEERS);
			free(copy);
			return -EINVAL;
		}
		counts[(*n)++] = v;
	}
	free(copy);
	if (!*n) {
		fprintf(stderr, "pwbench peers: --peers names no count\n");
		return -EINVAL;
	}
	return 0;
}

int pwbench_peers_main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "peers", required_argument, NULL, 'p' },
		{ "rounds", required_argument, NULL, 'r' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned int counts[16], ncounts, rounds = ROUNDS_DEFAULT, i;
	const char *list = PEERS_DEFAULT;
	struct peers_row first = { 0 }, row;
	char machine[128];
	unsigned long v;
	char *end;
	int c;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			list = optarg;
			break;
		case 'r':
			v = strtoul(optarg, &end, 10);
			if (*end || !v || v > 1000000) {
				fprintf(stderr,
					"pwbench peers: --rounds must be 1 to 1000000, not \"%s\"\n",
					optarg);
				return 2;
			}
			rounds = (unsigned int)v;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		usage(stderr);
		return 2;
	}
	if (parse_peers(list, counts, &ncounts))
		return 2;
	pwbench_machine(machine, sizeof(machine));
	printf("# pwbench peers: %u rounds per count; %s\n", rounds, machine);
	printf("%6s %12s %12s %14s %14s %12s %12s %11s\n", "peers",
	       "find p50 ns", "find p99 ns", "pass p50 us", "pass p99 us",
	       "step p50 us", "step p99 us", "step/first");
	for (i = 0; i < ncounts; i++) {
		if (measure(counts[i], rounds, &row))
			return 1;
		if (!i)
			first = row;
		printf("%6u %12.1f %12.1f %14.2f %14.2f %12.2f %12.2f %10.1fx\n",
		       counts[i], (double)row.pass.p50 / counts[i],
		       (double)row.pass.p99 / counts[i], row.pass.p50 / 1e3,
		       row.pass.p99 / 1e3, row.step.p50 / 1e3,
		       row.step.p99 / 1e3,
		       (double)row.step.p50 / (first.step.p50 ? first.step.p50 : 1));
	}
	return 0;
}
