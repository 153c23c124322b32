// SPDX-License-Identifier: GPL-2.0
/*
 * pwbench_paper_multi.c - the multi-controller baseline of Figure 5: one
 * process per device (as JAX runs one per host), each opening its
 * /dev/pwtpuN and submitting EXECs of raw programs straight through its
 * own io_uring. Nobody orders the gangs: every process submits the same
 * sequence, and computation k of each carries gang id k in one gang file
 * created before the fork and inherited by all, so the members of a
 * computation meet on the devices without any message between the
 * processes, and no other process can meet them.
 *
 * Modes, each over n computations (x = all-reduce(max, x) + 1, then the
 * step's DELAY when it has one):
 *   OpByOp   one EXEC of a 1-step program per io_uring_submit()
 *   Chained  PWP_CHAIN EXECs of it per io_uring_submit()
 *   Fused    one EXEC of a PWP_CHAIN-step program per io_uring_submit()
 *
 * The parent only starts a repetition and waits for every process to
 * report it done; time runs from the start signal to the last report.
 */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pwtpu/pwprog.h"
#include "pwtpu/pwtpu_dev.h"

#include "pwbench.h"
#include "pwbench_paper.h"

/* Commands in flight per process; each holds one gang descriptor. */
#define MC_SLOTS	(2 * PWP_CHAIN)
#define MC_QUIT		0xff

/* Binding 0: x at 0, the constant 1 at 4, the all-reduce result at 8. */
#define OFF_X		0
#define OFF_ONE		4
#define OFF_T		8
#define BO_BYTES	16

struct mc_report {
	int32_t dev;
	int32_t status;
	int32_t ok;
};

struct pwp_multi {
	unsigned int ndev;
	pid_t pid[PWTPU_MAX_GANG];
	int go[PWTPU_MAX_GANG];
	int done;
};

/* One process: its device, buffer, programs and commands in flight. */
struct mc_child {
	unsigned int dev;
	unsigned int ndev;
	unsigned int n;
	uint64_t delay_ns;
	int fd;
	struct pwtpu_bo bo;
	uint32_t prog_step;
	uint32_t prog_fused;
	struct io_uring ring;
	bool ring_ok;
	int gang_fd;		/* inherited: all processes' gangs meet in it */
	uint64_t seq;
	unsigned int inflight;
	unsigned int next_slot;
	int err;
	bool busy[MC_SLOTS];
	struct pwtpu_gang gang[MC_SLOTS];
};

static int load_steps(int fd, unsigned int steps, uint64_t delay_ns,
		      uint32_t *handle)
{
	const uint32_t delay[2] = { (uint32_t)delay_ns,
				    (uint32_t)(delay_ns >> 32) };
	const uint32_t shape[1] = { 1 };
	struct pwtpu_prog_load res;
	struct pwprog *p = pwprog_new(1);
	char log[256] = "";
	int x, one, t, ret = 0;
	unsigned int i;
	size_t size;
	void *img;

	if (!p)
		return -ENOMEM;
	x = pwprog_tensor(p, PWTPU_DT_F32, 1, shape, 0, OFF_X);
	one = pwprog_tensor(p, PWTPU_DT_F32, 1, shape, 0, OFF_ONE);
	t = pwprog_tensor(p, PWTPU_DT_F32, 1, shape, 0, OFF_T);
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
	      pwprog_image(p, &size);
	pwprog_free(p);
	if (!img)
		return ret < 0 ? ret : -ENOMEM;
	ret = pwtpu_prog_load(fd, img, size, log, sizeof(log), &res);
	free(img);
	if (ret)
		fprintf(stderr, "pwbench: %u-step program: %s (%s)\n", steps,
			strerror(-ret), log);
	*handle = res.handle;
	return ret;
}

static int child_prepare(struct mc_child *c)
{
	int ret;

	c->fd = pwtpu_open(c->dev);
	if (c->fd < 0)
		return c->fd;
	ret = pwtpu_bo_alloc(c->fd, BO_BYTES, &c->bo);
	if (!ret)
		ret = load_steps(c->fd, 1, c->delay_ns, &c->prog_step);
	if (!ret)
		ret = load_steps(c->fd, PWP_CHAIN, c->delay_ns,
				 &c->prog_fused);
	if (!ret)
		ret = pwtpu_ring_init(&c->ring, MC_SLOTS, 0);
	c->ring_ok = !ret;
	return ret;
}

/* Reap one completion, waiting for it when @wait; 0 when none was ready. */
static int child_reap(struct mc_child *c, bool wait)
{
	struct io_uring_cqe *cqe;
	int ret = wait ? io_uring_wait_cqe(&c->ring, &cqe) :
		  io_uring_peek_cqe(&c->ring, &cqe);

	if (ret == -EAGAIN && !wait)
		return 0;
	if (ret)
		return ret;
	if (cqe->res && !c->err)
		c->err = cqe->res;
	if (cqe->user_data < MC_SLOTS) {
		c->busy[cqe->user_data] = false;
		c->inflight--;
	}
	io_uring_cqe_seen(&c->ring, cqe);
	return 1;
}

/* A free gang slot, reaping until the next one in turn is free. */
static int child_slot(struct mc_child *c)
{
	unsigned int s = c->next_slot;
	int ret;

	while (c->busy[s]) {
		ret = child_reap(c, true);
		if (ret < 0)
			return ret;
	}
	c->next_slot = (s + 1) % MC_SLOTS;
	return (int)s;
}

/* @n EXECs of @prog (the next n computations) in one submission. */
static int child_submit(struct mc_child *c, uint32_t prog, unsigned int n)
{
	struct pwtpu_cmd cmd;
	unsigned int i, k;
	int ret, s;

	for (i = 0; i < n; i++) {
		struct pwtpu_gang *g;
		struct io_uring_sqe *sqe;

		s = child_slot(c);
		if (s < 0)
			return s;
		g = &c->gang[s];
		memset(g, 0, sizeof(*g));
		/* The same id in every process: the computation's number. */
		g->gang_id = ++c->seq;
		g->gang_fd = c->gang_fd;
		g->ndevices = c->ndev;
		g->rank = c->dev;
		for (k = 0; k < c->ndev; k++) {
			g->devices[k] = k;
			g->permute[k] = PWTPU_NO_RANK;
		}
		pwtpu_cmd_exec(&cmd, prog, &c->bo.handle, 1);
		cmd.gang_ptr = (uintptr_t)g;
		sqe = io_uring_get_sqe(&c->ring);
		if (!sqe)
			return -EBUSY;
		pwtpu_prep_uring_cmd(sqe, c->fd, PWTPU_CMD_EXEC, &cmd);
		sqe->user_data = (uint64_t)s;
		c->busy[s] = true;
		c->inflight++;
	}
	ret = io_uring_submit(&c->ring);
	if (ret != (int)n)
		return ret < 0 ? ret : -EIO;
	while ((ret = child_reap(c, false)) > 0)
		;
	return ret;
}

static int child_run(struct mc_child *c, enum pwp_mode mode, bool *ok)
{
	float *v = c->bo.map;
	unsigned int i;
	int ret = 0;

	v[OFF_X / 4] = 0.0f;
	v[OFF_ONE / 4] = 1.0f;
	c->err = 0;
	for (i = 0; i < c->n && !ret; i += mode == PWP_OPBYOP ? 1 : PWP_CHAIN) {
		switch (mode) {
		case PWP_OPBYOP:
			ret = child_submit(c, c->prog_step, 1);
			break;
		case PWP_CHAINED:
			ret = child_submit(c, c->prog_step, PWP_CHAIN);
			break;
		default:
			ret = child_submit(c, c->prog_fused, 1);
			break;
		}
	}
	while (c->inflight && ret >= 0)
		ret = child_reap(c, true);
	if (ret >= 0)
		ret = c->err;
	*ok = ret || !pwp_devices_compute() || v[OFF_X / 4] == (float)c->n;
	return ret;
}

static void report(int fd, unsigned int dev, int status, bool ok)
{
	struct mc_report r = { (int32_t)dev, status, ok };

	/* Less than PIPE_BUF: one write, never interleaved with another. */
	if (write(fd, &r, sizeof(r)) != sizeof(r))
		_exit(1);
}

static void __attribute__((noreturn))
child_main(struct mc_child *c, int go, int done)
{
	unsigned char mode;
	bool ok = true;
	int ret = child_prepare(c);

	report(done, c->dev, ret, true);
	while (!ret && read(go, &mode, 1) == 1 && mode != MC_QUIT) {
		ret = child_run(c, (enum pwp_mode)mode, &ok);
		report(done, c->dev, ret, ok);
	}
	if (c->ring_ok)
		io_uring_queue_exit(&c->ring);
	_exit(ret ? 1 : 0);
}

/* Read one report from every process; the first failure wins. */
static int collect(struct pwp_multi *mc, bool *ok)
{
	struct mc_report r;
	unsigned int i;
	int ret = 0;

	*ok = true;
	for (i = 0; i < mc->ndev; i++) {
		if (read(mc->done, &r, sizeof(r)) != sizeof(r))
			return ret ? ret : -EPIPE;
		if (r.status && !ret) {
			ret = r.status;
			fprintf(stderr, "pwbench: multi-controller process of "
				"/dev/pwtpu%d: %s\n", r.dev, strerror(-ret));
		}
		if (!r.ok)
			*ok = false;
	}
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

int pwp_multi_start(unsigned int ndev, unsigned int n, uint64_t delay_ns,
		    struct pwp_multi **out)
{
	struct pwp_multi *mc;
	struct mc_child *c;
	int done[2], go[2];
	unsigned int i;
	int gang_fd;
	int ret = 0;
	bool ok;

	if (ndev > PWTPU_MAX_GANG)
		return -E2BIG;
	/* A process that failed is gone: writing to it must not kill us. */
	signal(SIGPIPE, SIG_IGN);
	gang_fd = gang_file();
	if (gang_fd < 0)
		return gang_fd;
	mc = calloc(1, sizeof(*mc));
	c = calloc(1, sizeof(*c));
	if (!mc || !c || pipe(done)) {
		free(mc);
		free(c);
		close(gang_fd);
		return -ENOMEM;
	}
	mc->done = done[0];
	for (i = 0; i < ndev; i++) {
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
			c->dev = i;
			c->ndev = ndev;
			c->n = n;
			c->delay_ns = delay_ns;
			c->gang_fd = gang_fd;
			child_main(c, go[0], done[1]);
		}
		close(go[0]);
		mc->go[i] = go[1];
		if (mc->pid[i] < 0) {
			ret = -errno;
			close(go[1]);
			break;
		}
		mc->ndev++;
	}
	close(done[1]);
	close(gang_fd);
	free(c);
	if (!ret)
		ret = collect(mc, &ok);
	if (ret) {
		pwp_multi_stop(mc);
		return ret;
	}
	*out = mc;
	return 0;
}

int pwp_multi_run(struct pwp_multi *mc, enum pwp_mode mode, uint64_t *ns,
		  bool *ok)
{
	unsigned char m = (unsigned char)mode;
	uint64_t t0 = pwbench_now_ns();
	unsigned int i;
	int ret;

	for (i = 0; i < mc->ndev; i++)
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
	for (i = 0; i < mc->ndev; i++) {
		if (write(mc->go[i], &quit, 1) != 1)
			kill(mc->pid[i], SIGTERM);
		close(mc->go[i]);
	}
	for (i = 0; i < mc->ndev; i++)
		waitpid(mc->pid[i], NULL, 0);
	close(mc->done);
	free(mc);
}
