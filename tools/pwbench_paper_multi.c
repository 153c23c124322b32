// SPDX-License-Identifier: GPL-2.0
/*
 * pwbench_paper_multi.c - the multi-controller baseline of Figure 5: no
 * controller, one process per device of the module's island (as JAX
 * runs one per host; pwbench_mc_kernel.c), or one process per simulated
 * host driving its island (pwbench_mc_sim.c). Nobody orders the gangs:
 * every process submits the same sequence, computation k carrying gang
 * id k, so the members of a computation meet on the devices without any
 * message between the processes.
 *
 * Modes, each over n computations (x = all-reduce(max, x) + 1, then the
 * step's DELAY when it has one):
 *   OpByOp   one EXEC of a 1-step program per submission
 *   Chained  PWP_CHAIN EXECs of it per submission
 *   Fused    one EXEC of a PWP_CHAIN-step program per submission
 *
 * The parent only starts a repetition and waits for every process to
 * report it done; time runs from the start signal to the last report,
 * so the rate is the slowest process's.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pwtpu/pwprog.h"
#include "pwtpu/pwtpu_dev.h"

#include "pwbench.h"
#include "pwbench_mc.h"
#include "pwbench_paper.h"

#define MC_QUIT		0xff

struct mc_report {
	int32_t index;
	int32_t status;
	int32_t ok;
};

struct pwp_multi {
	const struct mc_backend *be;
	unsigned int nproc;
	pid_t *pid;
	int *go;
	int done;
};

void *mc_step_image(unsigned int steps, uint64_t delay_ns, size_t *size)
{
	const uint32_t delay[2] = { (uint32_t)delay_ns,
				    (uint32_t)(delay_ns >> 32) };
	const uint32_t shape[1] = { 1 };
	struct pwprog *p = pwprog_new(1);
	int x, one, t, ret = 0;
	unsigned int i;
	void *img;

	if (!p)
		return NULL;
	x = pwprog_tensor(p, PWTPU_DT_F32, 1, shape, 0, MC_OFF_X);
	one = pwprog_tensor(p, PWTPU_DT_F32, 1, shape, 0, MC_OFF_ONE);
	t = pwprog_tensor(p, PWTPU_DT_F32, 1, shape, 0, MC_OFF_T);
	for (i = 0; i < steps && ret >= 0; i++) {
		ret = pwprog_insn(p, PWTPU_OP_ALL_REDUCE, PWTPU_REDUCE_MAX, t,
				  x, PWTPU_NO_TENSOR, PWTPU_NO_TENSOR, NULL, 0);
		if (ret >= 0)
			ret = pwprog_binary(p, PWTPU_OP_ADD, x, t, one);
		if (ret >= 0 && delay_ns)
			ret = pwprog_insn(p, PWTPU_OP_DELAY, 0, PWTPU_NO_TENSOR,
					  PWTPU_NO_TENSOR, PWTPU_NO_TENSOR,
					  PWTPU_NO_TENSOR, delay, 2);
	}
	img = x < 0 || one < 0 || t < 0 || ret < 0 ? NULL :
	      pwprog_image(p, size);
	pwprog_free(p);
	return img;
}

void mc_child_done(struct mc_child *c, unsigned int slot, int res)
{
	if (res && !c->err)
		c->err = res;
	if (slot >= MC_SLOTS || !c->pending[slot])
		return;
	if (!--c->pending[slot])
		c->inflight--;
}

/* A free slot, reaping until the next one in turn is free. */
static int child_slot(struct mc_child *c)
{
	unsigned int s = c->next_slot;
	int ret;

	while (c->pending[s]) {
		ret = c->be->reap(c, true);
		if (ret < 0)
			return ret;
	}
	c->next_slot = (s + 1) % MC_SLOTS;
	return (int)s;
}

/* @n computations (the next ones in turn) in one submission. */
static int child_submit(struct mc_child *c, bool fused, unsigned int n)
{
	unsigned int i, queued = 0;
	int ret, s;

	for (i = 0; i < n; i++) {
		s = child_slot(c);
		if (s < 0)
			return s;
		/* The same id in every process: the computation's number. */
		ret = c->be->queue(c, fused, (unsigned int)s, ++c->seq);
		if (ret < 0)
			return ret;
		c->pending[s] = (uint8_t)ret;
		c->inflight++;
		queued += (unsigned int)ret;
	}
	ret = c->be->submit(c, queued);
	if (ret)
		return ret;
	while ((ret = c->be->reap(c, false)) > 0)
		;
	return ret;
}

static int child_run(struct mc_child *c, enum pwp_mode mode, bool *ok)
{
	unsigned int i;
	int ret = 0;

	c->be->reset(c);
	c->err = 0;
	for (i = 0; i < c->n && !ret; i += mode == PWP_OPBYOP ? 1 : PWP_CHAIN) {
		switch (mode) {
		case PWP_OPBYOP:
			ret = child_submit(c, false, 1);
			break;
		case PWP_CHAINED:
			ret = child_submit(c, false, PWP_CHAIN);
			break;
		default:
			ret = child_submit(c, true, 1);
			break;
		}
	}
	while (c->inflight && ret >= 0)
		ret = c->be->reap(c, true);
	if (ret >= 0)
		ret = c->err;
	*ok = ret || !c->devices_compute || c->be->check(c, (float)c->n);
	return ret;
}

static void report(int fd, unsigned int index, int status, bool ok)
{
	struct mc_report r = { (int32_t)index, status, ok };

	/* Less than PIPE_BUF: one write, never interleaved with another. */
	if (write(fd, &r, sizeof(r)) != sizeof(r))
		_exit(1);
}

static void __attribute__((noreturn))
child_main(struct mc_child *c, int go, int done)
{
	unsigned char mode;
	bool ok = true;
	int ret = c->be->prepare(c);

	report(done, c->index, ret, true);
	while (!ret && read(go, &mode, 1) == 1 && mode != MC_QUIT) {
		ret = child_run(c, (enum pwp_mode)mode, &ok);
		report(done, c->index, ret, ok);
	}
	c->be->close(c);
	_exit(ret ? 1 : 0);
}

/* Read one report from every process; the first failure wins. */
/*
 * Whether a process that has not reported this round is gone (reaped
 * here: its pid becomes 0). Its siblings hold the report pipe open, so
 * without this the parent would wait for its report for ever.
 */
static bool unreported_exited(struct pwp_multi *mc, const bool *reported)
{
	bool gone = false;
	unsigned int i;

	for (i = 0; i < mc->nproc; i++) {
		if (reported[i] || mc->pid[i] <= 0)
			continue;
		if (waitpid(mc->pid[i], NULL, WNOHANG) == mc->pid[i]) {
			fprintf(stderr,
				"pwbench: multi-controller process of %s%u exited before it reported\n",
				mc->be->what, i);
			mc->pid[i] = 0;
			gone = true;
		}
	}
	return gone;
}

/* The next report, or -ECHILD when a process died without one. */
static int next_report(struct pwp_multi *mc, const bool *reported,
		       struct mc_report *r)
{
	struct pollfd p = { .fd = mc->done, .events = POLLIN };
	int n;

	for (;;) {
		n = poll(&p, 1, 1000);
		if (n < 0 && errno != EINTR)
			return -errno;
		if (n > 0)
			return read(mc->done, r, sizeof(*r)) == sizeof(*r) ?
			       0 : -EPIPE;
		/* A report written just before the exit comes first. */
		if (n == 0 && unreported_exited(mc, reported) &&
		    poll(&p, 1, 0) <= 0)
			return -ECHILD;
	}
}

static int collect(struct pwp_multi *mc, bool *ok)
{
	bool *reported = calloc(mc->nproc, sizeof(*reported));
	struct mc_report r;
	unsigned int i;
	int ret = 0, err;

	*ok = true;
	if (!reported)
		return -ENOMEM;
	for (i = 0; i < mc->nproc; i++) {
		err = next_report(mc, reported, &r);
		if (!err && (r.index < 0 || (unsigned int)r.index >= mc->nproc))
			err = -EPROTO;
		if (err) {
			ret = ret ? ret : err;
			break;
		}
		reported[r.index] = true;
		if (r.status && !ret) {
			ret = r.status;
			fprintf(stderr, "pwbench: multi-controller process of "
				"%s%d: %s\n", mc->be->what, r.index,
				strerror(-ret));
		}
		if (!r.ok)
			*ok = false;
	}
	free(reported);
	return ret;
}

/* A gang file for the processes to inherit, from device 0's island. */
static int gang_file(void)
{
	int fd = pwtpu_open(0), gang_fd;

	if (fd < 0)
		return fd;
	gang_fd = pwtpu_gang_create(fd, NULL);
	close(fd);
	return gang_fd;
}

/* Fork @mc's processes, each a copy of @c but for its index. */
static int fork_all(struct pwp_multi *mc, struct mc_child *c,
		    unsigned int nproc)
{
	int done[2], go[2];
	unsigned int i;
	int ret = 0;

	if (pipe(done))
		return -errno;
	mc->done = done[0];
	for (i = 0; i < nproc; i++) {
		if (pipe(go)) {
			ret = -errno;
			break;
		}
		mc->pid[i] = fork();
		if (mc->pid[i] == 0) {
			unsigned int k;

			/* Only the parent may hold the others' start pipes. */
			for (k = 0; k < i; k++)
				close(mc->go[k]);
			close(go[1]);
			close(done[0]);
			c->index = i;
			child_main(c, go[0], done[1]);
		}
		close(go[0]);
		mc->go[i] = go[1];
		if (mc->pid[i] < 0) {
			ret = -errno;
			close(go[1]);
			break;
		}
		mc->nproc++;
	}
	close(done[1]);
	return ret;
}

int pwp_multi_start(const struct pwp_multi_where *where, unsigned int n,
		    uint64_t delay_ns, struct pwp_multi **out)
{
	unsigned int nproc = where->sim ? where->hosts : where->ndev;
	struct pwp_multi *mc;
	struct mc_child *c;
	int ret = 0;
	bool ok;

	if (!nproc || (!where->sim && nproc > PWTPU_MAX_GANG) ||
	    nproc > PWP_MAX_SIM_HOSTS)
		return -E2BIG;
	/* A process that failed is gone: writing to it must not kill us. */
	signal(SIGPIPE, SIG_IGN);
	mc = calloc(1, sizeof(*mc));
	c = calloc(1, sizeof(*c));
	if (mc) {
		mc->done = -1;
		mc->pid = calloc(nproc, sizeof(*mc->pid));
		mc->go = calloc(nproc, sizeof(*mc->go));
	}
	if (!mc || !c || !mc->pid || !mc->go) {
		ret = -ENOMEM;
		goto fail;
	}
	c->n = n;
	c->delay_ns = delay_ns;
	c->gang_fd = -1;
	c->train = where->train;
	if (where->sim) {
		mc->be = &mc_sim_backend;
		c->sim = *where->sim;
		c->ndev = where->sim->ndev;
		c->devices_compute = where->sim->timing != PWTPU_TIMING_SKIP;
	} else {
		mc->be = where->train ? &mc_train_backend : &mc_kernel_backend;
		c->ndev = nproc;
		c->devices_compute = pwp_devices_compute();
		c->gang_fd = gang_file();
		if (c->gang_fd < 0) {
			ret = c->gang_fd;
			goto fail;
		}
	}
	c->be = mc->be;
	ret = fork_all(mc, c, nproc);
	if (c->gang_fd >= 0)
		close(c->gang_fd);
	free(c);
	c = NULL;
	if (!ret)
		ret = collect(mc, &ok);
	if (!ret) {
		*out = mc;
		return 0;
	}
fail:
	free(c);
	pwp_multi_stop(mc);
	return ret;
}

int pwp_multi_run(struct pwp_multi *mc, enum pwp_mode mode, uint64_t *ns,
		  bool *ok)
{
	unsigned char m = (unsigned char)mode;
	uint64_t t0 = pwbench_now_ns();
	unsigned int i;
	int ret;

	for (i = 0; i < mc->nproc; i++)
		if (write(mc->go[i], &m, 1) != 1)
			return -EPIPE;
	ret = collect(mc, ok);
	*ns = pwbench_now_ns() - t0;
	return ret;
}

void pwp_multi_stop(struct pwp_multi *mc)
{
	unsigned char quit = MC_QUIT;
	unsigned int i;

	if (!mc)
		return;
	for (i = 0; i < mc->nproc; i++) {
		/* pid 0: reaped already (kill(0) would hit our own group). */
		if (write(mc->go[i], &quit, 1) != 1 && mc->pid[i] > 0)
			kill(mc->pid[i], SIGTERM);
		close(mc->go[i]);
	}
	for (i = 0; i < mc->nproc; i++)
		if (mc->pid[i] > 0)
			waitpid(mc->pid[i], NULL, 0);
	if (mc->done >= 0)
		close(mc->done);
	free(mc->pid);
	free(mc->go);
	free(mc);
}
