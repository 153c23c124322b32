// SPDX-License-Identifier: GPL-2.0
/*
 * coll_sim.c - simulated islands for the collective tests; see coll_sim.h.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "coll_sim.h"

int sim_init(struct sim *s, const char *mesh, u32 ndev, u64 timeout_ms)
{
	struct pwfw_mesh m;
	char err[128];

	memset(s, 0, sizeof(*s));
	if (pwfw_mesh_parse(&m, mesh, ndev, err, sizeof(err))) {
		fprintf(stderr, "# %s\n", err);
		return -1;
	}
	if (pwfw_user_island_init(&s->ui))
		return -1;
	pwfw_spec_default(&s->spec);
	s->isl = pwfw_island_create(&s->ui, &s->spec, &m, ndev,
				    timeout_ms * 1000000ULL);
	if (!s->isl) {
		pwfw_user_island_destroy(&s->ui);
		return -1;
	}
	s->ndev = ndev;
	return 0;
}

void sim_fini(struct sim *s)
{
	pwfw_island_destroy(s->isl);
	pwfw_user_island_destroy(&s->ui);
}

int sim_prog_verify(struct sim_prog *sp)
{
	struct pwfw_verr err;

	if (tp_verify(sp->tp, &sp->prog, &err)) {
		fprintf(stderr, "# verifier: %s\n", err.msg);
		return -1;
	}
	sp->bytes = sp->prog.buf_bytes[0];
	return 0;
}

int sim_prog_coll(struct sim_prog *sp, u32 op, u32 mode, u32 dtype,
		  u32 arank, const u32 *ashape, u32 drank, const u32 *dshape)
{
	struct tp *p = calloc(1, sizeof(*p));
	u16 a, d;

	memset(sp, 0, sizeof(*sp));
	if (!p)
		return -1;
	sp->tp = p;
	tp_reset(p, 1);
	a = tp_new(p, dtype, arank, ashape);
	d = tp_new(p, dtype, drank, dshape);
	tp_op(p, op, d, a, NO, NO)->mode = (u8)mode;
	sp->a_off = p->t[a].offset;
	sp->d_off = p->t[d].offset;
	sp->a_elems = pwfw_tensor_elems(&p->t[a]);
	sp->d_elems = pwfw_tensor_elems(&p->t[d]);
	sp->esize = pwfw_dtype_size(dtype);
	return sim_prog_verify(sp);
}

void sim_prog_free(struct sim_prog *sp)
{
	free(sp->tp);
	sp->tp = NULL;
}

void sim_gang(struct pwtpu_gang *g, u64 id, u32 n, const u32 *devs,
	      const u32 *group, const u32 *permute)
{
	u32 i;

	memset(g, 0, sizeof(*g));
	g->gang_id = id;
	g->ndevices = n;
	for (i = 0; i < n; i++) {
		g->devices[i] = devs[i];
		g->group[i] = group ? group[i] : 0;
		g->permute[i] = permute ? permute[i] : PWTPU_NO_RANK;
	}
}

u64 sim_gang_id(void)
{
	static atomic_ullong next = 0x1000;

	return atomic_fetch_add(&next, 1);
}

void sim_exec_init(struct sim_exec *x, struct sim *s,
		   const struct sim_prog *sp, void *mem,
		   const struct pwtpu_gang *g, u32 rank)
{
	memset(x, 0, sizeof(*x));
	memset(mem, SIM_POISON, sp->bytes);
	x->prog = &sp->prog;
	x->mem = mem;
	x->size = sp->bytes;
	x->gang = *g;
	x->gang.rank = rank;
	x->env.isl = s->isl;
	x->env.dev = g->devices[rank];
	x->env.gang = &x->gang;
	x->env.compute = true;
}

static void *sim_thread(void *arg)
{
	struct sim_exec *xs = arg;
	struct pwfw_buf buf;
	u32 i;

	for (i = 0; i < SIM_MAX_EXECS; i++) {
		if (!xs[i].prog)
			continue;
		buf.base = xs[i].mem;
		buf.size = xs[i].size;
		xs[i].ret = pwfw_exec(xs[i].prog, &buf, 1, &xs[i].env);
	}
	return NULL;
}

int sim_run(struct sim_exec x[][SIM_MAX_EXECS], u32 nthreads)
{
	pthread_t tid[SIM_MAX_DEV];
	u32 t, started;
	int ret = 0;

	for (started = 0; started < nthreads; started++)
		if (pthread_create(&tid[started], NULL, sim_thread,
				   x[started]))
			break;
	if (started < nthreads)
		ret = -1;
	for (t = 0; t < started; t++)
		pthread_join(tid[t], NULL);
	return ret;
}
