// SPDX-License-Identifier: GPL-2.0
/*
 * soak_client.c - one client of `make soak` (selftests/soak/): connects
 * to a pathwaysd controller and runs a long mix of programs through the
 * public API, then reports what it saw of itself.
 *
 *   soak_client --controller ADDR --programs N [--name NAME] [--slices K]
 *
 * Three programs, on K slices of the devices the controller places (on
 * two hosts, K = 2, the last placed again until it is on the other
 * island): a tiny one (y = x + 1 on f32[4]), a medium one (four calls in
 * a row on f32[4096]) and one that moves its value from the first slice
 * to the last and back (across the DCN both ways on two hosts, so that
 * each worker opens what it opens to send to the other in the warm-up).
 * Of every 10 runs, 7 are tiny, 2 medium and 1 moves. Up to 8 runs are
 * in flight; every 997th result is read back and checked; the argument
 * buffers are made again every 1000 runs.
 *
 * It prints "progress NAME I" now and then (tools/soak kills by it), and
 * its resident set and open files after a tenth of the runs
 * (its baseline, past the warm-up) and at the end, one line:
 *   soak_client NAME: programs N failed F wrong W rss_kb A B fds A B
 *	hosts H0 H1 heap_bytes A B thp_kb A B
 * (H0 and H1 the hosts of its first and last slice; heap_bytes what the
 * allocator holds for it, heap_in_use(); thp_kb the part of its
 * resident set in transparent huge pages)
 * and exits non-zero if a run failed or a value was wrong.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pathways/pathways.h>

#define SMALL		4
#define MEDIUM		4096
#define IN_FLIGHT	8
#define MAX_SLICES	2

struct soak {
	struct pw_client *cl;
	struct pw_slice *s[MAX_SLICES];
	unsigned int nslices;
	struct pw_fn *tiny_fn, *medium_fn;
	struct pw_program *tiny, *medium, *move;
	struct pw_buffer *small_arg, *medium_arg, *move_arg;
	struct pw_buffer *out[IN_FLIGHT];
	unsigned long failed, wrong;
};

/* y = x + @k over f32[@n]. */
static struct pw_fn *add_fn(const char *name, uint32_t n, double k)
{
	struct pw_fn_builder *b = pw_fn_begin(name);
	pw_val x = pw_fn_param(b, PWTPU_DT_F32, 1, &n);
	struct pw_fn *fn = NULL;

	pw_fn_result(b, pw_fn_binary(b, PWTPU_OP_ADD, x,
				     pw_fn_scalar(b, PWTPU_DT_F32, k)));
	if (pw_fn_build(b, &fn))
		fprintf(stderr, "soak_client: %s: %s\n", name, pw_last_error());
	return fn;
}

/* A program of @calls calls of @fn in a row, the i-th on slice @on[i]. */
static struct pw_program *chain(struct soak *sk, struct pw_fn *fn,
				uint32_t n, unsigned int calls,
				const unsigned int *on)
{
	struct pw_buffer *v, *next;
	struct pw_program *p = NULL;
	unsigned int i;

	if (pw_program_begin(sk->cl) ||
	    pw_program_arg(sk->cl, sk->s[on[0]], PWTPU_DT_F32, 1, &n, &v))
		goto fail;
	for (i = 0; i < calls; i++) {
		if (pw_call(sk->cl, fn, sk->s[on[i]], &v, 1, &next, 1))
			goto fail;
		pw_buffer_put(v);
		v = next;
	}
	if (pw_program_end(sk->cl, &v, 1, &p))
		goto fail;
	pw_buffer_put(v);
	return p;
fail:
	fprintf(stderr, "soak_client: a program: %s\n", pw_last_error());
	return NULL;
}

/* @n floats of value @v on slice @s (one shard per device, replicated). */
static struct pw_buffer *arg_of(struct soak *sk, struct pw_slice *s,
				uint32_t n, float v)
{
	struct pw_buffer *b = NULL;
	float *data = malloc(n * sizeof(float));
	uint32_t i;

	if (!data)
		return NULL;
	for (i = 0; i < n; i++)
		data[i] = v;
	if (pw_buffer_from_host(sk->cl, s, PWTPU_DT_F32, 1, &n, data, true,
				&b))
		fprintf(stderr, "soak_client: an argument: %s\n",
			pw_last_error());
	free(data);
	return b;
}

static int make_args(struct soak *sk, float v)
{
	pw_buffer_put(sk->small_arg);
	pw_buffer_put(sk->medium_arg);
	pw_buffer_put(sk->move_arg);
	sk->small_arg = arg_of(sk, sk->s[0], SMALL, v);
	sk->medium_arg = arg_of(sk, sk->s[0], MEDIUM, v);
	sk->move_arg = arg_of(sk, sk->s[0], SMALL, v);
	return sk->small_arg && sk->medium_arg && sk->move_arg ? 0 : -ENOMEM;
}

/* Wait for slot @k's result; check it against @want when @check. */
static void retire(struct soak *sk, unsigned int k, bool check, float want)
{
	float got[MEDIUM];
	size_t bytes;
	int ret;

	if (!sk->out[k])
		return;
	bytes = pw_buffer_num_shards(sk->out[k]) *
		pw_buffer_shard_bytes(sk->out[k]);
	if (check && bytes <= sizeof(got)) {
		ret = pw_buffer_to_host(sk->out[k], got, bytes);
		if (!ret && (got[0] != want || got[bytes / 4 - 1] != want))
			sk->wrong++;
	} else {
		ret = pw_buffer_wait(sk->out[k]);
	}
	if (ret) {
		if (!sk->failed)
			fprintf(stderr, "soak_client: a run failed: %s\n",
				pw_last_error());
		sk->failed++;
	}
	pw_buffer_put(sk->out[k]);
	sk->out[k] = NULL;
}

/* The figure "@key N kB" of /proc file @path, in kB; -1 if none. */
static long proc_kb(const char *path, const char *key)
{
	FILE *f = fopen(path, "r");
	size_t n = strlen(key);
	char line[128];
	long kb = -1;

	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, key, n) &&
		    sscanf(line + n, " %ld", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

/*
 * The resident set, after handing the allocator's free memory back (what
 * was freed is not held, only what is live and what fragments keep).
 */
static long self_rss_kb(void)
{
	malloc_trim(0);
	return proc_kb("/proc/self/status", "VmRSS:");
}

/* What of the resident set is transparent huge pages. */
static long self_thp_kb(void)
{
	return proc_kb("/proc/self/smaps_rollup", "AnonHugePages:");
}

/*
 * In use from the allocator, mmapped chunks included: what pathwaysd
 * reports of itself on SIGUSR1 (tools/pathwaysd.c), measured alike.
 */
static size_t heap_in_use(void)
{
	struct mallinfo2 mi = mallinfo2();

	return mi.uordblks + mi.hblkhd;
}

static long self_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	long n = 0;

	if (!d)
		return -1;
	while (readdir(d))
		n++;
	closedir(d);
	return n - 3;	/* ., .. and the directory's own */
}

static int setup(struct soak *sk, unsigned int nslices)
{
	const unsigned int medium_on[4] = { 0, 0, 0, 0 };
	unsigned int move_on[3] = { 0, nslices - 1, 0 };
	struct pw_vset *vs;
	unsigned int i;

	if (pw_make_virtual_device_set(sk->cl, &vs))
		return -1;
	for (i = 0; i < nslices; i++)
		if (pw_add_slice(vs, 1, NULL, &sk->s[i]))
			return -1;
	/*
	 * On two islands the move must cross the DCN: the controller places
	 * by load, so another slice lands elsewhere within a few (those
	 * placed meanwhile stay in the set, unused, till the end).
	 */
	for (i = 0; nslices > 1 && i < 8 &&
	     pw_slice_host(sk->s[nslices - 1]) == pw_slice_host(sk->s[0]); i++)
		if (pw_add_slice(vs, 1, NULL, &sk->s[nslices - 1]))
			return -1;
	sk->nslices = nslices;
	sk->tiny_fn = add_fn("soak_tiny", SMALL, 1);
	sk->medium_fn = add_fn("soak_medium", MEDIUM, 1);
	if (!sk->tiny_fn || !sk->medium_fn)
		return -1;
	sk->tiny = chain(sk, sk->tiny_fn, SMALL, 1, medium_on);
	sk->medium = chain(sk, sk->medium_fn, MEDIUM, 4, medium_on);
	sk->move = chain(sk, sk->tiny_fn, SMALL, 3, move_on);
	return sk->tiny && sk->medium && sk->move ? 0 : -1;
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "controller", required_argument, NULL, 'c' },
		{ "programs", required_argument, NULL, 'n' },
		{ "name", required_argument, NULL, 'N' },
		{ "slices", required_argument, NULL, 's' },
		{ NULL, 0, NULL, 0 },
	};
	struct pw_connect_opts co = { .name = "soak" };
	unsigned long programs = 1000, i, warm;
	long rss0 = 0, fds0 = 0, thp0 = 0, rss1, fds1, thp1;
	size_t heap0 = 0, heap1;
	unsigned int nslices = 1, k;
	struct soak sk = { 0 };
	int c, ret;

	while ((c = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		switch (c) {
		case 'c':
			co.address = optarg;
			break;
		case 'n':
			programs = strtoul(optarg, NULL, 10);
			break;
		case 'N':
			co.name = optarg;
			break;
		case 's':
			nslices = (unsigned int)strtoul(optarg, NULL, 10);
			break;
		default:
			fprintf(stderr, "usage: %s --controller ADDR --programs N [--name NAME] [--slices 1|2]\n",
				argv[0]);
			return 2;
		}
	}
	if (!nslices || nslices > MAX_SLICES || !programs) {
		fprintf(stderr, "soak_client: --slices is 1 or 2, --programs at least 1\n");
		return 2;
	}
	ret = pw_connect(&co, &sk.cl);
	if (ret) {
		fprintf(stderr, "soak_client: connect: %s\n", pw_last_error());
		return 1;
	}
	if (setup(&sk, nslices) || make_args(&sk, 0)) {
		fprintf(stderr, "soak_client: setup: %s\n", pw_last_error());
		return 1;
	}
	warm = programs / 10;
	for (i = 0; i < programs; i++) {
		struct pw_program *p = i % 10 < 7 ? sk.tiny :
				       i % 10 < 9 ? sk.medium : sk.move;
		/* Every program adds 1 per call: tiny 1, medium 4, move 3. */
		float want = (float)(i / 1000) + (p == sk.tiny ? 1 :
						  p == sk.medium ? 4 : 3);
		struct pw_buffer *arg;

		k = i % IN_FLIGHT;
		retire(&sk, k, false, 0);
		if (i && i % 1000 == 0) {
			for (c = 0; c < IN_FLIGHT; c++)
				retire(&sk, (unsigned int)c, false, 0);
			if (make_args(&sk, (float)(i / 1000)))
				break;
		}
		/* After make_args(), which puts the arguments it replaces. */
		arg = p == sk.tiny ? sk.small_arg :
		      p == sk.medium ? sk.medium_arg : sk.move_arg;
		if (i == warm) {
			rss0 = self_rss_kb();
			thp0 = self_thp_kb();
			fds0 = self_fds();
			heap0 = heap_in_use();
		}
		if (i % (programs / 20 + 1) == 0) {
			printf("progress %s %lu\n", co.name, i);
			fflush(stdout);
		}
		ret = pw_program_run(p, PW_DISPATCH_PARALLEL, &arg, 1,
				     &sk.out[k], 1);
		if (ret) {
			if (!sk.failed)
				fprintf(stderr, "soak_client: run %lu: %s\n",
					i, pw_last_error());
			sk.failed++;
			sk.out[k] = NULL;
			continue;
		}
		if (i % 997 == 0)
			retire(&sk, k, true, want);
	}
	for (k = 0; k < IN_FLIGHT; k++)
		retire(&sk, k, false, 0);
	rss1 = self_rss_kb();
	thp1 = self_thp_kb();
	fds1 = self_fds();
	heap1 = heap_in_use();
	printf("soak_client %s: programs %lu failed %lu wrong %lu rss_kb %ld %ld fds %ld %ld hosts %d %d heap_bytes %zu %zu thp_kb %ld %ld\n",
	       co.name, i, sk.failed, sk.wrong, rss0, rss1, fds0, fds1,
	       pw_slice_host(sk.s[0]), pw_slice_host(sk.s[sk.nslices - 1]),
	       heap0, heap1, thp0, thp1);
	fflush(stdout);
	pw_buffer_put(sk.small_arg);
	pw_buffer_put(sk.medium_arg);
	pw_buffer_put(sk.move_arg);
	pw_program_free(sk.tiny);
	pw_program_free(sk.medium);
	pw_program_free(sk.move);
	pw_fn_put(sk.tiny_fn);
	pw_fn_put(sk.medium_fn);
	pw_disconnect(sk.cl);
	return sk.failed || sk.wrong || i < programs;
}
