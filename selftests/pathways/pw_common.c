// SPDX-License-Identifier: GPL-2.0
/*
 * pw_common.c - helpers of the runtime's guest selftests (pw_common.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <pwtpu/pwtpu_dev.h>

#include "../../runtime/dcn/rclient.h"

#include "pw_common.h"

struct pw_client *pwt_connect(const char *name, unsigned int weight)
{
	struct pw_connect_opts opts = { .name = name, .weight = weight };
	struct pw_client *c;
	int ret = pw_connect(&opts, &c);

	if (ret) {
		fprintf(stderr, "# connect %s: %s (%s)\n", name,
			pw_last_error(), strerror(-ret));
		return NULL;
	}
	return c;
}

struct pw_slice *pwt_slice(struct pw_client *c, unsigned int n,
			      const char *shape)
{
	struct pw_slice *slice;
	struct pw_vset *vs;

	if (pw_make_virtual_device_set(c, &vs) ||
	    pw_add_slice(vs, n, shape, &slice)) {
		fprintf(stderr, "# slice of %u (%s): %s\n", n,
			shape ? shape : "any", pw_last_error());
		return NULL;
	}
	return slice;
}

static struct pw_fn *build(struct pw_fn_builder *b, const char *name)
{
	struct pw_fn *fn = NULL;

	if (pw_fn_build(b, &fn)) {
		fprintf(stderr, "# build %s: %s\n", name, pw_last_error());
		return NULL;
	}
	return fn;
}

struct pw_fn *pwt_scalar_fn(const char *name, enum pwtpu_op op, double k,
			    uint32_t elems)
{
	struct pw_fn_builder *b = pw_fn_begin(name);
	pw_val x = pw_fn_param(b, PWTPU_DT_F32, 1, &elems);

	pw_fn_result(b, pw_fn_binary(b, op, x,
				     pw_fn_scalar(b, PWTPU_DT_F32, k)));
	return build(b, name);
}

struct pw_fn *pwt_slow_add_fn(const char *name, double k, uint32_t elems,
			      uint64_t delay_ns)
{
	struct pw_fn_builder *b = pw_fn_begin(name);
	pw_val x = pw_fn_param(b, PWTPU_DT_F32, 1, &elems);

	/* One DELAY instruction holds at most PWTPU_MAX_DELAY_NS. */
	while (delay_ns) {
		uint64_t ns = delay_ns < PWTPU_MAX_DELAY_NS ?
			      delay_ns : PWTPU_MAX_DELAY_NS;

		pw_fn_delay(b, ns);
		delay_ns -= ns;
	}
	pw_fn_result(b, pw_fn_binary(b, PWTPU_OP_ADD, x,
				     pw_fn_scalar(b, PWTPU_DT_F32, k)));
	return build(b, name);
}

struct pw_fn *pwt_allreduce_add_fn(const char *name, double k,
				   uint32_t elems)
{
	struct pw_fn_builder *b = pw_fn_begin(name);
	pw_val x = pw_fn_param(b, PWTPU_DT_F32, 1, &elems);

	x = pw_fn_all_reduce(b, PWTPU_REDUCE_SUM, x);
	pw_fn_result(b, pw_fn_binary(b, PWTPU_OP_ADD, x,
				     pw_fn_scalar(b, PWTPU_DT_F32, k)));
	return build(b, name);
}

struct pw_buffer *pwt_upload(struct pw_client *c, struct pw_slice *slice,
			     const float *data, uint32_t elems,
			     bool replicate)
{
	struct pw_buffer *buf;
	int ret;

	ret = pw_buffer_from_host(c, slice, PWTPU_DT_F32, 1, &elems, data,
				  replicate, &buf);
	if (ret) {
		fprintf(stderr, "# upload of %u-element shards: %s (%s)\n",
			elems, pw_last_error(), strerror(-ret));
		return NULL;
	}
	return buf;
}

int pwt_fetch(struct pw_buffer *buf, float *out, size_t n)
{
	int ret = pw_buffer_to_host(buf, out, n * sizeof(float));

	if (ret)
		fprintf(stderr, "# fetch of %zu floats: %s (%s)\n", n,
			pw_last_error(), strerror(-ret));
	return ret;
}

bool pwt_values_checked(void)
{
	/* The module's timing mode is fixed while it is loaded. */
	static int checked = -1;
	char mode[32];

	if (checked < 0)
		checked = pwtpu_sysfs_str(0, "timing_mode", mode,
					  sizeof(mode)) ||
			  strcmp(mode, "skip") != 0;
	return checked;
}

unsigned int pwt_sysfs_devices(void)
{
	unsigned int idx[PWT_MAX_DEVICES];
	int n = pwtpu_list_devices(idx, PWT_MAX_DEVICES);

	return n > 0 ? (unsigned int)n : 0;
}

uint64_t pwt_hbm_used(void)
{
	unsigned int idx[PWT_MAX_DEVICES], i;
	int n = pwtpu_list_devices(idx, PWT_MAX_DEVICES);
	uint64_t sum = 0, used;

	if (n <= 0)
		return UINT64_MAX;
	for (i = 0; i < (unsigned int)n && i < PWT_MAX_DEVICES; i++) {
		if (pwtpu_sysfs_u64(idx[i], "hbm_used", &used))
			return UINT64_MAX;
		sum += used;
	}
	return sum;
}

uint64_t pwt_link_bytes(void)
{
	static const char *const dirs[] = { "minus", "plus" };
	unsigned int idx[PWT_MAX_DEVICES], i, axis, d;
	int n = pwtpu_list_devices(idx, PWT_MAX_DEVICES);
	uint64_t sum = 0, bytes;
	char attr[64];

	for (i = 0; n > 0 && i < (unsigned int)n && i < PWT_MAX_DEVICES; i++)
		for (axis = 0; axis < PWTPU_MESH_MAX_DIMS; axis++)
			for (d = 0; d < 2; d++) {
				snprintf(attr, sizeof(attr), "link_%u_%s/bytes",
					 axis, dirs[d]);
				/* No such link: no such directory. */
				if (!pwtpu_sysfs_u64(idx[i], attr, &bytes))
					sum += bytes;
			}
	return sum;
}

uint64_t pwt_hbm_wait(uint64_t want, unsigned int timeout_ms)
{
	uint64_t deadline = pwt_now_ns() + timeout_ms * 1000000ull;
	uint64_t used;

	for (;;) {
		used = pwt_hbm_used();
		if (used == want || pwt_now_ns() >= deadline)
			return used;
		pwt_sleep_ms(10);
	}
}

uint64_t pwt_hbm_settle(void)
{
	uint64_t deadline = pwt_now_ns() + 3000000000ull;
	uint64_t last = pwt_hbm_used(), used;
	unsigned int same = 0;

	/* Unchanged over 100 ms, or 0 (nothing left to free), will do. */
	while (last && same < 10 && pwt_now_ns() < deadline) {
		pwt_sleep_ms(10);
		used = pwt_hbm_used();
		same = used == last ? same + 1 : 0;
		last = used;
	}
	return last;
}

uint64_t pwt_hbm_total(void)
{
	uint64_t total = 0;

	if (pwtpu_sysfs_u64(0, "hbm_total", &total))
		return 0;
	return total;
}

bool pwt_linked(unsigned int a, unsigned int b)
{
	char buf[256], *tok, *save = NULL;

	if (pwtpu_sysfs_str(a, "neighbors", buf, sizeof(buf)))
		return false;
	/* "minus plus" per axis, "-" where there is no link. */
	for (tok = strtok_r(buf, " ", &save); tok;
	     tok = strtok_r(NULL, " ", &save)) {
		char *end;
		unsigned long peer = strtoul(tok, &end, 10);

		if (end != tok && !*end && peer == b)
			return true;
	}
	return false;
}

uint64_t pwt_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

void pwt_sleep_ms(unsigned int ms)
{
	struct timespec ts = {
		.tv_sec = ms / 1000,
		.tv_nsec = (long)(ms % 1000) * 1000000L,
	};

	nanosleep(&ts, NULL);
}

int pwt_allreduce_runs(const char *controller, unsigned int ndev, float base,
		       unsigned int runs, unsigned int in_flight, char *why,
		       size_t why_len)
{
	const uint32_t n4 = 4, shape[1] = { 4 };
	float x[PWT_MAX_DEVICES * 4], got[PWT_MAX_DEVICES * 4];
	struct pw_fn *fn = pwt_allreduce_add_fn("ar", 0.0, n4);
	struct pw_rprog *p = pw_rprog_begin();
	uint32_t slice, fid = 0, prog, in, *out, *ticket;
	struct pw_remote *r = NULL;
	unsigned int i, k;
	int v, ret;

	out = calloc(runs, sizeof(*out));
	ticket = calloc(runs, sizeof(*ticket));
	ret = fn && p && out && ticket && ndev <= PWT_MAX_DEVICES ?
	      pw_remote_connect(controller, "allreduce", &r) : -ENOMEM;
	for (i = 0; i < ndev * 4; i++)
		x[i] = base;
	if (!ret)
		ret = pw_remote_slice(r, ndev, NULL, &slice);
	if (!ret)
		ret = pw_remote_buffer_sharded(r, slice, PWTPU_DT_F32, 1, shape,
					       x, false, &in);
	if (!ret)
		ret = pw_remote_function(r, fn, &fid);
	if (!ret) {
		v = pw_rprog_arg_sharded(p, slice, ndev, PWTPU_DT_F32, 1,
					 shape);
		pw_rprog_call_sharded(p, fn, fid, slice, ndev, &v, 1, &v);
		pw_rprog_results(p, &v, 1);
		ret = pw_remote_program(r, p, &prog);
	}
	for (k = 0; !ret && k < runs; k++) {
		if (k >= in_flight)
			ret = pw_remote_wait(r, ticket[k - in_flight]);
		if (!ret)
			ret = pw_remote_run_async(r, prog, &in, 1, &out[k], 1,
						  &ticket[k]);
	}
	for (k = runs > in_flight ? runs - in_flight : 0; !ret && k < runs;
	     k++)
		ret = pw_remote_wait(r, ticket[k]);
	if (!ret)
		ret = pw_remote_read(r, 0, out[runs - 1], got,
				     ndev * 4 * sizeof(float));
	snprintf(why, why_len, "%s", ret ? pw_last_error() : "");
	for (i = 0; !ret && pwt_values_checked() && i < ndev * 4; i++) {
		if (got[i] != base * (float)ndev) {
			snprintf(why, why_len, "element %u is %g, not %g", i,
				 got[i], base * (float)ndev);
			ret = -EDOM;
		}
	}
	pw_remote_close(r);
	pw_rprog_free(p);
	pw_fn_put(fn);
	free(out);
	free(ticket);
	return ret;
}

void pwt_pathwaysd_path(char *path, size_t size)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	self[n > 0 ? n : 0] = '\0';
	snprintf(path, size, "%s/../../tools/pathwaysd", dirname(self));
}

int pwt_daemon_start(const char *const *args)
{
	pid_t pid = fork();

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);
		execv(args[0], (char *const *)args);
		_exit(127);
	}
	return (int)pid;
}

void pwt_daemon_stop(int pid)
{
	int status;

	if (pid <= 0)
		return;
	kill(pid, SIGTERM);
	waitpid(pid, &status, 0);
}

int pwt_cluster_start(unsigned int port, const char *const *ctl_extra,
		      int *ctl, int *worker)
{
	char exe[PATH_MAX], ctl_at[32], wk_at[32];
	/*
	 * A worker busy under TCG (and a shared machine) can miss the
	 * default 1 s of heartbeats: the tests are not about hosts going down.
	 */
	const char *c[16] = { exe, "--role", "controller", "--listen", ctl_at,
			      "--down-ms", "10000" };
	const char *w[] = { exe, "--role", "worker", "--listen", wk_at,
			    "--controller", ctl_at, "--host-id", "0",
			    "--data", "tcp", NULL };

	unsigned int i, n = 7;

	for (i = 0; ctl_extra && ctl_extra[i] && n < 15; i++)
		c[n++] = ctl_extra[i];
	*ctl = *worker = 0;
	pwt_pathwaysd_path(exe, sizeof(exe));
	if (access(exe, X_OK))
		return -errno;
	snprintf(ctl_at, sizeof(ctl_at), "127.0.0.1:%u", port);
	snprintf(wk_at, sizeof(wk_at), "127.0.0.1:%u", port + 1);
	*ctl = pwt_daemon_start(c);
	if (*ctl < 0)
		return *ctl;
	*worker = pwt_daemon_start(w);
	return *worker < 0 ? *worker : 0;
}
