// SPDX-License-Identifier: GPL-2.0
/*
 * wdev_sim.c - simulated devices behind a worker's pw_wdev: the
 * firmware's island in this process, on its user-space platform, so
 * that one machine can hold many hosts (issue 14). The device is the
 * same device: programs are verified and run, and commands hold their
 * device, by the firmware (firmware/pwfw_cmd.h), as in pwtpu.ko. What
 * this file keeps is what the module keeps for a file: handles,
 * each device's HBM budget (whole pages, as BO_CREATE charges them), a
 * queue per device run in order by a thread of its own, and the
 * commands' references on their objects.
 *
 * As at io_uring submission, a command's handles are looked up when it
 * is flushed; one that is not valid then completes at once with the
 * error the module gives. One mutex guards everything but a running
 * command's work. With a trace file, each command's submission, start
 * and completion are written there as the module's tracepoints print
 * them, so that tools/pwtrace draws a simulated island as a real one.
 */
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/mman.h>
#include <unistd.h>

#include "../../firmware/pwfw.h"
#include "../../firmware/pwfw_cmd.h"
#include "../../firmware/pwfw_island.h"
#include "../../firmware/user/pwfw_user.h"
#include "../util/log.h"
#include "node.h"
#include "wdev.h"

#define SIM_BUCKETS	1024
#define SIM_PAGE	4096ull
/* The module's defaults (driver/pwtpu_drv.c). */
#define SIM_GANG_TIMEOUT_NS	(2000ull * 1000000)
#define SIM_WATCHDOG_NS		(30000ull * 1000000)
/* Every gang of the worker meets in this one scope, as in its gang file. */
#define SIM_GANG_SCOPE	1

/* A program or a buffer object of one device, by handle. */
struct sim_obj {
	struct sim_obj *next;
	uint32_t handle;
	unsigned int dev;
	bool prog;
	bool live;			/* its handle is not destroyed */
	unsigned int refs;		/* the handle's, and commands' */
	void *base;			/* BO: its memory; program: its image */
	uint64_t size;
	uint64_t charged;		/* BO: whole pages of HBM */
	struct pwfw_prog fw;		/* program: as verified */
};

/* A command, from its queueing to its reaping. */
struct sim_cmd {
	struct sim_cmd *next;
	uint64_t tag;
	uint32_t op;			/* PWTPU_CMD_* */
	unsigned int dev;
	uint32_t handle;		/* EXEC: program; COPY_PEER: source */
	uint32_t handles[PWTPU_MAX_BUFS];	/* EXEC */
	unsigned int nhandles;
	struct pwtpu_gang gang;
	bool has_gang;
	unsigned int peer;		/* COPY_PEER */
	uint32_t peer_handle;
	uint64_t offset, peer_offset, length;
	struct sim_obj *objs[PWTPU_MAX_BUFS + 1];	/* referenced */
	unsigned int nobjs;
	struct pwfw_cmd fw;
	uint64_t submit_ns;
	uint64_t id;			/* in the trace; 0 until submitted */
	struct pw_wdev *w;
};

struct sim_dev {
	struct sim_obj *objs[SIM_BUCKETS];
	uint32_t next_handle;
	unsigned int nbos, nprogs;
	uint64_t hbm_used;
	struct sim_cmd *head, *tail;	/* queued, in order */
	pthread_cond_t cond;
	pthread_t runner;
	bool started;
};

struct wdev_sim {
	struct pw_wdev_sim_cfg cfg;
	struct pwfw_spec spec;
	struct pwfw_mesh mesh;
	struct pwfw_user_island ui;
	struct pwfw_island *isl;
	pthread_mutex_t lock;
	atomic_bool stopping;		/* closing: cancel, as for a dead owner */
	unsigned int cancelled;		/* closing: queued ones never run */
	unsigned int stopped;		/* closing: running ones stopped */
	struct sim_cmd *pending[PW_WDEV_RING];	/* queued, not flushed */
	unsigned int npending;
	struct sim_cmd *done_head, *done_tail;
	FILE *trace;			/* cfg.trace, line buffered */
	int pid;			/* the trace's task */
	uint64_t next_id;
	struct sim_dev dev[PW_WIRE_MAX_DEVICES];
};

static struct wdev_sim *sdev(const struct pw_wdev *w)
{
	return w->be;
}

/*
 * A buffer object's memory: page-aligned as the module's vmalloc, and
 * zero pages until written, so that a simulated host costs what its
 * programs touch, not its HBM.
 */
static void *obj_memory(uint64_t bytes)
{
	void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

/* A BO's memory, or a program's image. */
static void obj_free(struct sim_obj *o)
{
	if (o->prog)
		free(o->base);
	else if (o->base)
		munmap(o->base, o->charged);
	free(o);
}

static struct sim_obj *obj_find(struct sim_dev *d, uint32_t handle, bool prog)
{
	struct sim_obj *o = d->objs[handle % SIM_BUCKETS];

	while (o && o->handle != handle)
		o = o->next;
	return o && o->prog == prog ? o : NULL;
}

/* A new handle, cyclic from 1 as the module's: a stale one stays stale. */
static uint32_t obj_handle(struct sim_dev *d)
{
	struct sim_obj *o;

	do {
		if (++d->next_handle > INT32_MAX)
			d->next_handle = 1;
		for (o = d->objs[d->next_handle % SIM_BUCKETS]; o; o = o->next)
			if (o->handle == d->next_handle)
				break;
	} while (o);
	return d->next_handle;
}

static void obj_insert(struct wdev_sim *s, unsigned int dev,
		       struct sim_obj *o)
{
	struct sim_dev *d = &s->dev[dev];

	o->dev = dev;
	o->handle = obj_handle(d);
	o->next = d->objs[o->handle % SIM_BUCKETS];
	d->objs[o->handle % SIM_BUCKETS] = o;
	o->live = true;
	o->refs = 1;
}

/* Drop a reference; the last frees the object and its HBM. Locked. */
static void obj_put(struct wdev_sim *s, struct sim_obj *o)
{
	struct sim_dev *d = &s->dev[o->dev];
	struct sim_obj **pp;

	if (--o->refs)
		return;
	for (pp = &d->objs[o->handle % SIM_BUCKETS]; *pp != o;
	     pp = &(*pp)->next)
		;
	*pp = o->next;
	d->hbm_used -= o->charged;
	obj_free(o);
}

/* The handle goes now; what commands still use stays until they end. */
static int obj_destroy(struct pw_wdev *w, unsigned int dev, uint32_t handle,
		       bool prog)
{
	struct wdev_sim *s = sdev(w);
	struct sim_dev *d = &s->dev[dev];
	struct sim_obj *o;
	int ret = -ENOENT;

	pthread_mutex_lock(&s->lock);
	o = obj_find(d, handle, prog);
	if (o && o->live) {
		o->live = false;
		if (prog)
			d->nprogs--;
		else
			d->nbos--;
		obj_put(s, o);
		ret = 0;
	}
	pthread_mutex_unlock(&s->lock);
	return ret;
}

static int bo_create(struct pw_wdev *w, unsigned int dev, uint64_t bytes,
		     struct pwtpu_bo *bo)
{
	struct wdev_sim *s = sdev(w);
	struct sim_dev *d = &s->dev[dev];
	uint64_t charged = (bytes + SIM_PAGE - 1) & ~(SIM_PAGE - 1);
	struct sim_obj *o;
	int ret = 0;

	if (!bytes)
		return -EINVAL;
	if (bytes > s->cfg.hbm_bytes)
		return -E2BIG;
	/* The handle and the HBM first, in the module's order, then memory. */
	pthread_mutex_lock(&s->lock);
	if (d->nbos >= PWTPU_MAX_HANDLES)
		ret = -EDQUOT;
	else if (charged > s->cfg.hbm_bytes - d->hbm_used)
		ret = -ENOSPC;
	if (!ret) {
		d->hbm_used += charged;
		d->nbos++;
	}
	pthread_mutex_unlock(&s->lock);
	if (ret)
		return ret;
	o = calloc(1, sizeof(*o));
	if (o)
		o->base = obj_memory(charged);
	pthread_mutex_lock(&s->lock);
	if (!o || !o->base) {
		d->hbm_used -= charged;
		d->nbos--;
		ret = -ENOMEM;
	} else {
		o->size = bytes;
		o->charged = charged;
		obj_insert(s, dev, o);
		memset(bo, 0, sizeof(*bo));
		bo->handle = o->handle;
		bo->size = bytes;
	}
	pthread_mutex_unlock(&s->lock);
	if (ret)
		free(o);
	return ret;
}

/* The BO's memory is this process's: its "mapping" is that memory. */
static int bo_map(struct pw_wdev *w, unsigned int dev, struct pwtpu_bo *bo)
{
	struct wdev_sim *s = sdev(w);
	struct sim_obj *o;

	pthread_mutex_lock(&s->lock);
	o = obj_find(&s->dev[dev], bo->handle, false);
	if (o && o->live)
		bo->map = o->base;
	pthread_mutex_unlock(&s->lock);
	return o && o->live ? 0 : -ENOENT;
}

static void bo_unmap(struct pw_wdev *w, struct pwtpu_bo *bo)
{
	(void)w;
	(void)bo;
}

static int bo_destroy(struct pw_wdev *w, unsigned int dev, uint32_t handle)
{
	return obj_destroy(w, dev, handle, false);
}

static int prog_load(struct pw_wdev *w, unsigned int dev, const void *image,
		     size_t size, uint32_t *handle)
{
	struct wdev_sim *s = sdev(w);
	struct sim_dev *d = &s->dev[dev];
	struct pwfw_verr verr;
	struct sim_obj *o;
	int ret = 0;

	if (!size)
		return -EINVAL;
	if (size > PWFW_MAX_PROG_SIZE)
		return -E2BIG;
	/* The handle first, as the module counts it before verifying. */
	pthread_mutex_lock(&s->lock);
	if (d->nprogs >= PWTPU_MAX_HANDLES)
		ret = -EDQUOT;
	else
		d->nprogs++;
	pthread_mutex_unlock(&s->lock);
	if (ret)
		return ret;
	o = calloc(1, sizeof(*o));
	if (o)
		o->base = malloc(size);
	if (!o || !o->base) {
		ret = -ENOMEM;
	} else {
		memcpy(o->base, image, size);
		if (pwfw_verify(o->base, size, &s->spec, &o->fw, &verr))
			ret = -EINVAL;
	}
	pthread_mutex_lock(&s->lock);
	if (ret) {
		d->nprogs--;
	} else {
		o->prog = true;
		o->size = size;
		obj_insert(s, dev, o);
		*handle = o->handle;
	}
	pthread_mutex_unlock(&s->lock);
	if (ret) {
		if (o)
			free(o->base);
		free(o);
	}
	return ret;
}

static int prog_unload(struct pw_wdev *w, unsigned int dev, uint32_t handle)
{
	return obj_destroy(w, dev, handle, true);
}

static int flush(struct pw_wdev *w);

/* As on the module's ring: a full queue is flushed to make room. */
static int queue_cmd(struct pw_wdev *w, struct sim_cmd *c)
{
	struct wdev_sim *s = sdev(w);

	if (s->npending == PW_WDEV_RING)
		flush(w);
	c->w = w;
	s->pending[s->npending++] = c;
	return 0;
}

static int exec(struct pw_wdev *w, unsigned int dev, uint32_t prog,
		const uint32_t *bos, unsigned int nbos,
		const struct pwtpu_gang *gang, uint64_t tag)
{
	struct sim_cmd *c = calloc(1, sizeof(*c));

	if (!c)
		return -ENOMEM;
	if (nbos > PWTPU_MAX_BUFS) {
		free(c);
		return -EINVAL;
	}
	c->tag = tag;
	c->dev = dev;
	c->op = prog ? PWTPU_CMD_EXEC : PWTPU_CMD_NOP;
	c->handle = prog;
	if (nbos)	/* a NOP has none: no NULL to memcpy() */
		memcpy(c->handles, bos, nbos * sizeof(*bos));
	c->nhandles = nbos;
	if (gang) {
		c->gang = *gang;
		c->has_gang = true;
	}
	return queue_cmd(w, c);
}

static int copy_peer(struct pw_wdev *w, unsigned int dev, uint32_t bo,
		     uint64_t offset, uint64_t length, unsigned int peer_dev,
		     uint32_t peer_bo, uint64_t peer_offset, uint64_t tag)
{
	struct sim_cmd *c = calloc(1, sizeof(*c));

	if (!c)
		return -ENOMEM;
	c->tag = tag;
	c->dev = dev;
	c->op = PWTPU_CMD_COPY_PEER;
	c->handle = bo;
	c->offset = offset;
	c->length = length;
	c->peer = peer_dev;
	c->peer_handle = peer_bo;
	c->peer_offset = peer_offset;
	return queue_cmd(w, c);
}

static int reserve(struct pw_wdev *w, unsigned int n)
{
	if (PW_WDEV_RING - sdev(w)->npending < n)
		flush(w);
	return PW_WDEV_RING - sdev(w)->npending < n ? -EBUSY : 0;
}

/* A live object of @c's, referenced by @c: NULL if there is none. */
static struct sim_obj *cmd_get(struct wdev_sim *s, struct sim_cmd *c,
			       unsigned int dev, uint32_t handle, bool prog)
{
	struct sim_obj *o = obj_find(&s->dev[dev], handle, prog);

	if (!o || !o->live)
		return NULL;
	o->refs++;
	c->objs[c->nobjs++] = o;
	return o;
}

static void cmd_buf(struct sim_cmd *c, const struct sim_obj *o)
{
	c->fw.bufs[c->fw.nbufs].base = o->base;
	c->fw.bufs[c->fw.nbufs].size = o->size;
	c->fw.nbufs++;
}

/* An EXEC's objects, checked in the order the module checks them. */
static int resolve_exec(struct wdev_sim *s, struct sim_cmd *c)
{
	struct sim_obj *prog, *bo;
	unsigned int i, j;
	int ret;

	prog = cmd_get(s, c, c->dev, c->handle, true);
	if (!prog)
		return -ENOENT;
	c->fw.prog = &prog->fw;
	ret = pwfw_cmd_check_exec(&prog->fw, c->nhandles, c->has_gang);
	if (ret)
		return ret;
	if (c->has_gang) {
		if (pwfw_gang_check(s->isl, c->dev, &c->gang))
			return -EINVAL;
		c->fw.gang = &c->gang;
		c->fw.gang_scope = SIM_GANG_SCOPE;
	}
	for (i = 0; i < c->nhandles; i++) {
		for (j = 0; j < i; j++)
			if (c->handles[j] == c->handles[i])
				return -EINVAL;
		bo = cmd_get(s, c, c->dev, c->handles[i], false);
		if (!bo)
			return -ENOENT;
		cmd_buf(c, bo);
		ret = pwfw_cmd_check_buf(&prog->fw, i, bo->size);
		if (ret)
			return ret;
	}
	return 0;
}

static int resolve_peer(struct wdev_sim *s, struct sim_cmd *c)
{
	struct sim_obj *src, *dst;

	src = cmd_get(s, c, c->dev, c->handle, false);
	if (!src)
		return -ENOENT;
	dst = cmd_get(s, c, c->peer, c->peer_handle, false);
	if (!dst)
		return -ENOENT;
	cmd_buf(c, src);
	cmd_buf(c, dst);
	if (!pwfw_cmd_range_ok(src->size, c->offset, c->length) ||
	    !pwfw_cmd_range_ok(dst->size, c->peer_offset, c->length))
		return -EINVAL;
	c->fw.peer = c->peer;
	c->fw.offset = c->offset;
	c->fw.peer_offset = c->peer_offset;
	c->fw.length = c->length;
	return 0;
}

/*
 * The devices' owner is the worker's process: closing them, as it exits,
 * stops what runs with -ECANCELED, as a dying owner's commands stop on
 * the module's devices; else only the watchdog stops a command.
 */
static int cmd_stop(struct pwfw_cmd *cmd, bool watchdog)
{
	const struct sim_cmd *c = cmd->owner;

	if (atomic_load(&sdev(c->w)->stopping))
		return -PWFW_ECANCELED;
	if (watchdog && pw_now_ns() > cmd->deadline_ns)
		return -PWFW_ETIME;
	return 0;
}

static const char *cmd_name(uint32_t op)
{
	switch (op) {
	case PWTPU_CMD_EXEC:
		return "exec";
	case PWTPU_CMD_COPY_PEER:
		return "copy_peer";
	default:
		return "nop";
	}
}

/*
 * One event, as ftrace prints the module's (driver/pwtpu_trace.h): the
 * timestamp is CLOCK_MONOTONIC, as with trace_clock mono. Called with
 * the lock held, so a command's events are in order in the file.
 */
static void trace_event(struct wdev_sim *s, const struct sim_cmd *c,
			const char *event)
{
	uint64_t now;

	if (!s->trace)
		return;
	now = pw_now_ns();
	fprintf(s->trace, "pwsim-%d [%03u] ..... %llu.%09llu: %s: dev=%u id=%llu ",
		s->pid, c->dev, (unsigned long long)(now / 1000000000),
		(unsigned long long)(now % 1000000000), event, c->dev,
		(unsigned long long)c->id);
	if (strcmp(event, "pwtpu_complete"))
		fprintf(s->trace, "cmd=%s\n", cmd_name(c->op));
	else
		fprintf(s->trace, "cmd=0x%x result=%d queue_ns=%llu exec_ns=%llu\n",
			_IOC_NR(c->op), c->fw.result,
			(unsigned long long)(c->fw.start_ns - c->submit_ns),
			(unsigned long long)(c->fw.end_ns - c->fw.start_ns));
}

/* Finished (or refused): its references go, and it waits to be reaped. */
static void cmd_done(struct wdev_sim *s, struct sim_cmd *c)
{
	unsigned int i;

	if (c->id)	/* submitted: its completion is traced */
		trace_event(s, c, "pwtpu_complete");
	for (i = 0; i < c->nobjs; i++)
		obj_put(s, c->objs[i]);
	c->nobjs = 0;
	c->next = NULL;
	if (s->done_tail)
		s->done_tail->next = c;
	else
		s->done_head = c;
	s->done_tail = c;
	eventfd_write(c->w->efd, 1);
}

static int flush(struct pw_wdev *w)
{
	struct wdev_sim *s = sdev(w);
	unsigned int i, n = s->npending;
	struct sim_cmd *c;
	struct sim_dev *d;
	int ret;

	pthread_mutex_lock(&s->lock);
	for (i = 0; i < n; i++) {
		c = s->pending[i];
		c->submit_ns = pw_now_ns();
		c->fw.nr = _IOC_NR(c->op);
		c->fw.dev = c->dev;
		c->fw.stop = cmd_stop;
		c->fw.owner = c;
		if (c->op == PWTPU_CMD_EXEC)
			ret = resolve_exec(s, c);
		else if (c->op == PWTPU_CMD_COPY_PEER)
			ret = resolve_peer(s, c);
		else	/* a NOP names nothing, as the module checks */
			ret = c->nhandles || c->has_gang ? -EINVAL : 0;
		if (ret) {
			c->fw.result = ret;
			c->fw.start_ns = c->submit_ns;
			c->fw.end_ns = c->submit_ns;
			cmd_done(s, c);
			continue;
		}
		c->id = ++s->next_id;
		trace_event(s, c, "pwtpu_submit");
		d = &s->dev[c->dev];
		if (d->tail)
			d->tail->next = c;
		else
			d->head = c;
		d->tail = c;
		pthread_cond_signal(&d->cond);
	}
	s->npending = 0;
	pthread_mutex_unlock(&s->lock);
	return (int)n;
}

/* As the module's CQE words: nanoseconds, at most UINT32_MAX. */
static uint32_t clamp32(uint64_t ns)
{
	return ns > UINT32_MAX ? UINT32_MAX : (uint32_t)ns;
}

static int reap(struct pw_wdev *w, struct pw_wdev_done *done,
		unsigned int max)
{
	struct wdev_sim *s = sdev(w);
	unsigned int n = 0;
	struct sim_cmd *c;
	uint64_t val;

	if (read(w->efd, &val, sizeof(val)) < 0 && errno != EAGAIN)
		return -errno;
	pthread_mutex_lock(&s->lock);
	while (n < max && (c = s->done_head)) {
		s->done_head = c->next;
		if (!s->done_head)
			s->done_tail = NULL;
		done[n].tag = c->tag;
		done[n].res = c->fw.result;
		done[n].queue_ns = clamp32(c->fw.start_ns - c->submit_ns);
		done[n].exec_ns = clamp32(c->fw.end_ns - c->fw.start_ns);
		n++;
		free(c);
	}
	if (s->done_head)
		eventfd_write(w->efd, 1);	/* more next time */
	pthread_mutex_unlock(&s->lock);
	return (int)n;
}

struct runner_arg {
	struct wdev_sim *s;
	unsigned int dev;
};

/* One device: its commands in order, each run as the firmware says. */
static void *runner(void *arg)
{
	struct wdev_sim *s = ((struct runner_arg *)arg)->s;
	unsigned int dev = ((struct runner_arg *)arg)->dev;
	struct sim_dev *d = &s->dev[dev];
	struct sim_cmd *c;

	free(arg);
	pthread_mutex_lock(&s->lock);
	for (;;) {
		while (!d->head && !atomic_load(&s->stopping))
			pthread_cond_wait(&d->cond, &s->lock);
		c = d->head;
		if (!c)
			break;
		d->head = c->next;
		if (!d->head)
			d->tail = NULL;
		if (atomic_load(&s->stopping)) {
			/* Queued when the devices close: never run. */
			c->fw.result = -ECANCELED;
			c->fw.start_ns = c->fw.end_ns = pw_now_ns();
			s->cancelled++;
			cmd_done(s, c);
			continue;
		}
		trace_event(s, c, "pwtpu_start");
		pthread_mutex_unlock(&s->lock);
		pwfw_cmd_run(s->isl, &s->spec, s->cfg.timing,
			     SIM_WATCHDOG_NS, &c->fw, pw_now_ns());
		pthread_mutex_lock(&s->lock);
		s->stopped += c->fw.result == -ECANCELED;
		cmd_done(s, c);
	}
	pthread_mutex_unlock(&s->lock);
	return NULL;
}

static void free_objs(struct sim_dev *d)
{
	struct sim_obj *o;
	unsigned int b;

	for (b = 0; b < SIM_BUCKETS; b++)
		while ((o = d->objs[b])) {
			d->objs[b] = o->next;
			obj_free(o);
		}
}

static void close_sim(struct pw_wdev *w)
{
	struct wdev_sim *s = sdev(w);
	struct sim_cmd *c;
	unsigned int i;

	pthread_mutex_lock(&s->lock);
	atomic_store(&s->stopping, true);
	for (i = 0; i < w->ndev; i++)
		pthread_cond_signal(&s->dev[i].cond);
	pthread_mutex_unlock(&s->lock);
	/* Each runner cancels its queue and stops what it runs. */
	for (i = 0; i < w->ndev; i++) {
		if (s->dev[i].started)
			pthread_join(s->dev[i].runner, NULL);
		pthread_cond_destroy(&s->dev[i].cond);
	}
	if (s->cancelled || s->stopped)
		pw_log("simulated devices closed: %u queued commands cancelled, %u running stopped",
		       s->cancelled, s->stopped);
	for (i = 0; i < s->npending; i++)
		free(s->pending[i]);
	while ((c = s->done_head)) {
		s->done_head = c->next;
		free(c);
	}
	for (i = 0; i < w->ndev; i++)
		free_objs(&s->dev[i]);
	if (s->isl)
		pwfw_island_destroy(s->isl);
	pwfw_user_island_destroy(&s->ui);
	pthread_mutex_destroy(&s->lock);
	if (s->trace)
		fclose(s->trace);
	close(w->efd);
	free(s);
}

static const struct pw_wdev_ops sim_ops = {
	.name = "sim",
	.close = close_sim,
	.exec = exec,
	.copy_peer = copy_peer,
	.reserve = reserve,
	.flush = flush,
	.reap = reap,
	.bo_create = bo_create,
	.bo_map = bo_map,
	.bo_unmap = bo_unmap,
	.bo_destroy = bo_destroy,
	.prog_load = prog_load,
	.prog_unload = prog_unload,
};

static void sim_log(void *arg, const char *msg)
{
	(void)arg;
	pw_log("simulated device: %s", msg);
}

int pw_wdev_open_sim(struct pw_wdev *w, const struct pw_wdev_sim_cfg *cfg)
{
	struct runner_arg *arg;
	struct wdev_sim *s;
	char err[128];
	unsigned int i;
	int ret;

	memset(w, 0, sizeof(*w));
	if (!cfg->ndev || cfg->ndev > PW_WIRE_MAX_DEVICES || !cfg->hbm_bytes ||
	    cfg->timing > PWTPU_TIMING_SKIP)
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->cfg = *cfg;
	pwfw_spec_default(&s->spec);
	if (pwfw_mesh_parse(&s->mesh, cfg->mesh, cfg->ndev, err,
			    sizeof(err))) {
		free(s);
		return -EINVAL;
	}
	ret = pwfw_user_island_init(&s->ui);
	if (ret) {
		free(s);
		return -ret;
	}
	if (cfg->trace[0]) {
		s->trace = fopen(cfg->trace, "ae");
		if (!s->trace) {
			ret = -errno;
			pw_log("simulated devices: cannot open trace file %s: %s",
			       cfg->trace, strerror(errno));
			pwfw_user_island_destroy(&s->ui);
			free(s);
			return ret;
		}
		setvbuf(s->trace, NULL, _IOLBF, 0);
		s->pid = (int)getpid();
	}
	pthread_mutex_init(&s->lock, NULL);
	w->ops = &sim_ops;
	w->be = s;
	w->ndev = cfg->ndev;
	w->gang_fd = -1;
	w->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	ret = w->efd < 0 ? -errno : 0;
	/* What the firmware would say in the kernel log goes to ours. */
	s->ui.log_fn = sim_log;
	s->ui.log_arg = s;
	if (!ret) {
		s->isl = pwfw_island_create(&s->ui, &s->spec, &s->mesh,
					    cfg->ndev, SIM_GANG_TIMEOUT_NS);
		ret = s->isl ? 0 : -ENOMEM;
	}
	for (i = 0; i < cfg->ndev; i++)
		pthread_cond_init(&s->dev[i].cond, NULL);
	for (i = 0; !ret && i < cfg->ndev; i++) {
		arg = malloc(sizeof(*arg));
		if (!arg) {
			ret = -ENOMEM;
			break;
		}
		arg->s = s;
		arg->dev = i;
		ret = -pthread_create(&s->dev[i].runner, NULL, runner, arg);
		if (ret)
			free(arg);
		else
			s->dev[i].started = true;
	}
	if (ret) {
		close_sim(w);
		memset(w, 0, sizeof(*w));
	}
	return ret;
}
