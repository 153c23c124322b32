// SPDX-License-Identifier: GPL-2.0
/*
 * pwbench_mc_train.c - a multi-controller process of Table 1: it trains
 * the Transformer (pwbench_transformer.h) on one device of the module's
 * island, as a JAX process does on its own: the step function's image
 * loaded on its device, a buffer object per binding, and a step an
 * EXEC whose gang (the step's number, in the file every process
 * inherited) meets the other devices' for the gradients' all-reduce.
 * The weights live in two sets of buffer objects that swap places each
 * step, the results of one the arguments of the next; every repetition
 * starts again from the same weights.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pwtpu/pwtpu_dev.h"

#include "../runtime/fn/fn.h"

#include "pwbench_mc.h"
#include "pwbench_transformer.h"

#define W	PWP_TF_NWEIGHTS

/* A repetition of whole submissions of steps ends on weight set 0. */
_Static_assert(PWP_CHAIN % 2 == 0, "the weights' sets alternate by step");
#define SEQ	(PWP_TF_T * PWP_TF_V)

struct mc_train {
	int fd;
	uint32_t prog;
	struct io_uring ring;
	bool ring_ok;
	/* Weights, set 0 and set 1; x, y; the loss; scratch; constants. */
	struct pwtpu_bo w[2][W];
	struct pwtpu_bo x, y, loss, scratch, consts;
	float *init[W];
	double first_loss;	/* the host's, at the initial weights */
	struct pwtpu_gang gang[MC_SLOTS];
};

static struct mc_train *tdev(struct mc_child *c)
{
	return c->priv;
}

static int bo(struct mc_train *t, uint64_t bytes, struct pwtpu_bo *b)
{
	return pwtpu_bo_alloc(t->fd, bytes ? bytes : 1, b);
}

/* The mean over the island of the host's loss at the initial weights. */
static double host_first_loss(struct mc_train *t, unsigned int ndev)
{
	float x[SEQ], y[SEQ];
	double sum = 0;
	unsigned int v;

	for (v = 0; v < ndev; v++) {
		pwp_tf_data(v, x, y);
		sum += pwp_tf_host_loss((const float *const *)t->init, x, y);
	}
	return sum / ndev;
}

static int train_prepare(struct mc_child *c)
{
	const struct pw_fn *fn = c->train;
	struct pwtpu_prog_load res;
	struct mc_train *t = calloc(1, sizeof(*t));
	char log[256] = "";
	unsigned int k, s;
	int ret;

	if (!t)
		return -ENOMEM;
	c->priv = t;
	for (k = 0; k < W; k++) {
		t->init[k] = malloc(pwp_tf_elems(k) * sizeof(float));
		if (!t->init[k])
			return -ENOMEM;
	}
	pwp_tf_init_weights(1, t->init);
	t->first_loss = host_first_loss(t, c->ndev);
	t->fd = pwtpu_open(c->index);
	if (t->fd < 0)
		return t->fd;
	ret = pwtpu_prog_load(t->fd, fn->image, fn->image_size, log,
			      sizeof(log), &res);
	if (ret) {
		fprintf(stderr, "pwbench: the Transformer step: %s (%s)\n",
			strerror(-ret), log);
		return ret;
	}
	t->prog = res.handle;
	for (s = 0; s < 2; s++)
		for (k = 0; k < W && !ret; k++)
			ret = bo(t, pwp_tf_elems(k) * sizeof(float), &t->w[s][k]);
	if (!ret)
		ret = bo(t, SEQ * sizeof(float), &t->x);
	if (!ret)
		ret = bo(t, SEQ * sizeof(float), &t->y);
	if (!ret)
		ret = bo(t, sizeof(float), &t->loss);
	if (!ret)
		ret = bo(t, fn->scratch_bytes, &t->scratch);
	if (!ret)
		ret = bo(t, fn->const_bytes, &t->consts);
	if (ret)
		return ret;
	pwp_tf_data(c->index, t->x.map, t->y.map);
	if (fn->const_bytes)
		memcpy(t->consts.map, fn->const_data, fn->const_bytes);
	ret = pwtpu_ring_init(&t->ring, MC_SLOTS, 0);
	t->ring_ok = !ret;
	return ret;
}

/*
 * Step @id: the weights of set (@id + 1) % 2 in, set @id % 2 out, so
 * that step 1 reads set 0 and a repetition of an even number of steps
 * ends where it began.
 */
static int train_queue(struct mc_child *c, bool fused, unsigned int slot,
		       uint64_t id)
{
	const struct pw_fn *fn = c->train;
	struct mc_train *t = tdev(c);
	struct pwtpu_gang *g = &t->gang[slot];
	struct io_uring_sqe *sqe = io_uring_get_sqe(&t->ring);
	uint32_t bos[PWTPU_MAX_BUFS];
	unsigned int devs[PWTPU_MAX_GANG], k, in = (id + 1) % 2;
	struct pwtpu_cmd cmd;

	/* A step is one computation: there is no fused form of several. */
	if (fused)
		return -EINVAL;
	if (!sqe)
		return -EBUSY;
	for (k = 0; k < W; k++) {
		bos[k] = t->w[in][k].handle;
		bos[fn->nparams + k] = t->w[1 - in][k].handle;
	}
	bos[PWP_TF_X] = t->x.handle;
	bos[PWP_TF_Y] = t->y.handle;
	bos[fn->nparams + PWP_TF_LOSS] = t->loss.handle;
	if (fn->scratch_buf >= 0)
		bos[fn->scratch_buf] = t->scratch.handle;
	if (fn->const_buf >= 0)
		bos[fn->const_buf] = t->consts.handle;
	for (k = 0; k < c->ndev; k++)
		devs[k] = k;
	pwtpu_gang_fill(g, c->gang_fd, id, c->ndev, devs, c->index, false, 0);
	pwtpu_cmd_exec(&cmd, t->prog, bos, fn->nbufs);
	cmd.gang_ptr = (uintptr_t)g;
	pwtpu_prep_uring_cmd(sqe, t->fd, PWTPU_CMD_EXEC, &cmd);
	sqe->user_data = slot;
	return 1;
}

static int train_submit(struct mc_child *c, unsigned int queued)
{
	return mc_ring_submit(&tdev(c)->ring, queued);
}

static int train_reap(struct mc_child *c, bool wait)
{
	return mc_ring_reap(c, &tdev(c)->ring, wait);
}

/* Set 0 holds the initial weights again. */
static void train_reset(struct mc_child *c)
{
	struct mc_train *t = tdev(c);
	unsigned int k;

	for (k = 0; k < W; k++)
		memcpy(t->w[0][k].map, t->init[k],
		       pwp_tf_elems(k) * sizeof(float));
}

/* Trained: the island's loss fell below the host's at the start. */
static bool train_check(struct mc_child *c, float want)
{
	const float *loss = tdev(c)->loss.map;

	(void)want;
	return isfinite(*loss) && *loss < tdev(c)->first_loss;
}

/* The process exits next: the module frees what its file held. */
static void train_close(struct mc_child *c)
{
	struct mc_train *t = tdev(c);
	unsigned int k;

	if (!t)
		return;
	if (t->ring_ok)
		io_uring_queue_exit(&t->ring);
	for (k = 0; k < W; k++)
		free(t->init[k]);
}

const struct mc_backend mc_train_backend = {
	.what = "/dev/pwtpu",
	.prepare = train_prepare,
	.queue = train_queue,
	.submit = train_submit,
	.reap = train_reap,
	.reset = train_reset,
	.check = train_check,
	.close = train_close,
};
