// SPDX-License-Identifier: GPL-2.0
/*
 * wk_run.c - a worker executing its part of a run. A PLAN says what to
 * do; the worker finds when: a command goes as soon as its inputs are
 * final, or will be by the time its device reaches it (made by a command
 * queued earlier on the same device: a device runs its queue in order),
 * so a chain on one device is queued whole at once, and commands waiting
 * for other devices or hosts go when those finish.
 *
 * Cross-island edges: DCN_RECV makes the target buffer, registers it
 * with the data plane and sends READY straight to the worker of the host
 * that has the value (which keeps it if it overtook that host's PLAN); that host's DCN_SEND writes straight from its
 * buffer into the target (RDMA WRITE, or the TCP fallback) once the value
 * is final, and the target's command completes when the write landed.
 *
 * When the last command is done one DONE goes to the client, and one to
 * the controller, with the worker's timestamps (PLAN arrival, first device start, last device end, DONE
 * departure, all on this host's clock), and the run's temporaries go.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../util/log.h"
#include "../util/slots.h"
#include "roles.h"

#define PW_WK_REAP	64

/* Device completion tags: run slot, command index, run id. */
#define TAG(slot, cmd, id) \
	((uint64_t)(slot) << 48 | (uint64_t)(cmd) << 32 | (id))

static struct pw_wk_run *run_find(struct pw_worker *w, uint32_t run_id)
{
	unsigned int i;

	for (i = 0; i < w->nruns; i++)
		if (w->runs[i].used && w->runs[i].id == run_id)
			return &w->runs[i];
	return NULL;
}

/*
 * DONE of a worker's part of a run: to the controller (under its id: the
 * island windows) and straight to the client (under the client's id).
 */
static void send_done(struct pw_worker *w, struct pw_wire_done *done,
		      unsigned int ncmds, uint32_t client, uint32_t client_run)
{
	struct pw_node_peer *cp = pw_node_find(&w->node, client);
	struct pw_wire_msg m;
	uint64_t now = pw_now_ns();

	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_DONE;
	m.body.done = *done;
	m.body.done.host_id = w->reg.host_id;
	m.body.done.ncmds = ncmds;
	m.body.done.worker_send_ns = now;
	if (cp) {
		m.body.done.run_id = client_run;
		/* Not sent: the controller must answer it instead. */
		if (pw_node_send(&w->node, cp, &m, now) && !m.body.done.status)
			m.body.done.status = EHOSTUNREACH;
		m.body.done.run_id = done->run_id;
	} else {
		/* Not introduced: the controller answers it (status set). */
		pw_log("worker %u: run %u: client node %u was never introduced",
		       w->reg.host_id, done->run_id, client);
		if (!m.body.done.status)
			m.body.done.status = EHOSTUNREACH;
	}
	if (w->ctl)
		pw_node_send(&w->node, w->ctl, &m, now);
}

/* Refuse a PLAN with a DONE carrying @err: the run must not hang. */
static int refuse(struct pw_worker *w, const struct pw_wire_plan *pl, int err,
		  uint64_t now)
{
	struct pw_wire_done d = {
		.run_id = pl->run_id,
		.status = (uint32_t)-err,
		.client_send_ns = pl->client_send_ns,
		.ctrl_recv_ns = pl->ctrl_recv_ns,
		.ctrl_send_ns = pl->ctrl_send_ns,
		.worker_recv_ns = now,
		.nhosts = pl->nhosts,
	};

	send_done(w, &d, 0, pl->client, pl->client_run);
	return err;
}

static void fail(struct pw_wk_run *r, int err)
{
	if (!r->done.status)
		r->done.status = (uint32_t)-err;
}

/* The buffer a handle names in run @r. */
static struct pw_wbuf *lookup(struct pw_worker *w, struct pw_wk_run *r,
			      uint32_t handle)
{
	uint32_t owner = handle & PW_WIRE_BUF_TEMP ? r->id : r->client;

	return pw_wbuf_find(&w->store, owner, handle);
}

/*
 * Buffer @i of command @c: the one pinned when its plan came (a client's
 * buffer a FREE may have unnamed since), else found by its handle.
 */
static struct pw_wbuf *cmd_buf(struct pw_worker *w, struct pw_wk_run *r,
			       const struct pw_wk_cmd *c, unsigned int i)
{
	return c->pin[i] ? c->pin[i] : lookup(w, r, c->c.bufs[i]);
}

/* Pin @c's client buffer @i (an input, or an output just made). */
static void pin(struct pw_wk_cmd *c, unsigned int i, struct pw_wbuf *b)
{
	if (b && !c->pin[i] && !(c->c.bufs[i] & PW_WIRE_BUF_TEMP)) {
		pw_wbuf_get(b);
		c->pin[i] = b;
	}
}

static void unpin(struct pw_worker *w, struct pw_wk_cmd *c)
{
	unsigned int i;

	for (i = 0; i < PW_WIRE_MAX_BUFS; i++) {
		if (c->pin[i])
			pw_wbuf_put(&w->store, c->pin[i]);
		c->pin[i] = NULL;
	}
}

static void hold(struct pw_wk_cmd *c, struct pw_wbuf *b)
{
	pw_wbuf_get(b);
	c->held[c->nheld++] = b;
}

/* The handles command @pc writes: *@n of them. */
static const uint32_t *outputs(const struct pw_wire_plan_cmd *pc,
			       unsigned int *n)
{
	switch (pc->op) {
	case PW_WIRE_CMD_EXEC:
	case PW_WIRE_CMD_COPY_PEER:
	case PW_WIRE_CMD_DCN_RECV:
		*n = pc->nout;
		return &pc->bufs[pc->nin];
	default:
		*n = 0;
		return NULL;
	}
}

/*
 * Command @c ended with @err (0: fine; skipped: -ECANCELED): its outputs
 * are final or failed, its references go.
 */
static void finish(struct pw_worker *w, struct pw_wk_run *r,
		   struct pw_wk_cmd *c, int err)
{
	unsigned int i, nout;

	if (err && !r->done.status)
		/* The first failure of a run, for whoever reads the log. */
		pw_log("worker %u: run %u: command %u (op %u on device %u): %s",
		       w->reg.host_id, r->id, (unsigned int)(c - r->cmds),
		       c->c.op, c->c.dev, strerror(-err));
	if (err)
		fail(r, err);
	outputs(&c->c, &nout);
	for (i = 0; i < nout; i++) {
		struct pw_wbuf *b = cmd_buf(w, r, c, c->c.nin + i);

		/* Not another's final buffer an id clash ran into. */
		if (b && b->state != PW_WBUF_READY &&
		    b->state != PW_WBUF_FAILED) {
			b->state = err ? PW_WBUF_FAILED : PW_WBUF_READY;
			b->err = err;
		}
	}
	for (i = 0; i < c->nheld; i++)
		pw_wbuf_put(&w->store, c->held[i]);
	c->nheld = 0;
	unpin(w, c);
	/* A gang member that never went: its gang never will. */
	if (c->state == PW_WK_WAITING && c->c.gang_id)
		pw_wk_gang_forget(w, r, c->c.gang_id);
	free(c->gang);
	c->gang = NULL;
	c->state = PW_WK_DONE;
	r->completed++;
}

/*
 * Whether input @b of a command on @dev can go now: final, or made by a
 * command already queued on @dev (and @on_dev: the command runs there).
 * Outputs exist from their plan's arrival (PENDING), so a buffer that
 * does not exist never will. Sets *@err when the input never will be
 * final.
 */
static bool input_ok(const struct pw_wbuf *b, unsigned int dev, bool on_dev,
		     int *err)
{
	if (!b) {
		*err = -ENOENT;
		return false;
	}
	if (b->state == PW_WBUF_FAILED) {
		/* Readers fail as it did (a device out of service: ENODEV). */
		*err = b->err == -ENODEV ? -ENODEV : -ECANCELED;
		return false;
	}
	if (b->state == PW_WBUF_READY)
		return true;
	return on_dev && b->state == PW_WBUF_QUEUED && b->dev == dev;
}

/* Buffer @i of command @c, an output made when its plan came: QUEUED, held. */
static int take_output(struct pw_worker *w, struct pw_wk_run *r,
		       struct pw_wk_cmd *c, unsigned int i)
{
	struct pw_wbuf *b = cmd_buf(w, r, c, i);

	if (!b || b->state != PW_WBUF_PENDING || b->dev != c->c.dev)
		return -EPROTO;
	b->state = PW_WBUF_QUEUED;
	hold(c, b);
	return 0;
}

/*
 * EXEC up to its queueing: 1 ready (its program and binding count in
 * *@prog, *@nbufs, its buffers held, its gang filled), 0 not yet,
 * -errno failed.
 */
static int prep_exec(struct pw_worker *w, struct pw_wk_run *r,
		     struct pw_wk_cmd *c, uint32_t *prog, unsigned int *nbufs)
{
	bool coll;
	const struct pw_wire_plan_cmd *pc = &c->c;
	struct pw_wfn *fn = pw_wfn_find(&w->store, r->client, pc->fn_id);
	const struct pw_wire_fn_desc *d;
	struct pw_wbuf *in[PW_WIRE_MAX_BUFS];
	uint32_t *bos = c->bos;	/* read by the driver at the next flush */
	unsigned int i;
	int err = 0, ret;

	if (!fn || !fn->pl.complete)
		return -ENOENT;
	d = &fn->pl.desc;
	coll = d->flags & PW_WIRE_FN_COLLECTIVES;
	if (pc->nin != d->nparams || pc->nout != d->nresults ||
	    pc->dev >= w->dev.ndev || coll != !!pc->gang_id)
		return -EINVAL;
	if (coll) {
		c->gang = malloc(sizeof(*c->gang));
		if (!c->gang)
			return -ENOMEM;
		ret = pw_wk_gang_fill(w, r, pc, d->flags & PW_WIRE_FN_PERMUTE,
				      d->permute_shift, c->gang);
		if (ret)
			return ret;
	}
	for (i = 0; i < pc->nin; i++) {
		in[i] = cmd_buf(w, r, c, i);
		if (!input_ok(in[i], pc->dev, true, &err))
			return err;
		if (in[i]->dev != pc->dev ||
		    in[i]->bytes != pw_wire_sig_bytes(&d->sigs[i]))
			return -EINVAL;
	}
	ret = pw_wfn_load(&w->store, fn, pc->dev);
	if (ret)
		return ret;
	for (i = 0; i < pc->nin; i++) {
		hold(c, in[i]);
		bos[i] = in[i]->bo.handle;
	}
	c->nin_held = c->nheld;
	for (i = 0; i < pc->nout; i++) {
		ret = take_output(w, r, c, pc->nin + i);
		if (ret)
			return ret;
		bos[pc->nin + i] = c->held[c->nheld - 1]->bo.handle;
	}
	if (d->scratch_buf >= 0)
		bos[d->scratch_buf] = fn->scratch[pc->dev];
	if (d->const_buf >= 0)
		bos[d->const_buf] = fn->consts[pc->dev];
	*prog = fn->prog[pc->dev];
	*nbufs = d->nbufs;
	return 1;
}

/* Queue a prepared EXEC: 1 issued, -errno failed. */
static int queue_exec(struct pw_worker *w, struct pw_wk_run *r,
		      struct pw_wk_cmd *c, unsigned int idx, uint32_t prog,
		      unsigned int nbufs)
{
	int ret = pw_wdev_exec(&w->dev, c->c.dev, prog, c->bos, nbufs,
			       c->gang, TAG(r - w->runs, idx, r->id));

	return ret ? ret : 1;
}

/* EXEC: 1 issued, 0 not yet, -errno failed. */
static int issue_exec(struct pw_worker *w, struct pw_wk_run *r,
		      struct pw_wk_cmd *c, unsigned int idx)
{
	unsigned int nbufs;
	uint32_t prog;
	int ret = prep_exec(w, r, c, &prog, &nbufs);

	return ret == 1 ? queue_exec(w, r, c, idx, prog, nbufs) : ret;
}

/*
 * COPY_PEER on one island: the output is @bytes of the inputs'
 * concatenation, after @skip of them: one input whole (a move), or a
 * range over several (resharding). Each input's piece is the device's
 * COPY_PEER over the mesh links, in the source device's queue; the
 * output is being written (FILLING) until the last piece is done, since
 * a reader on its device is not ordered behind copies on others.
 */
static int issue_copy(struct pw_worker *w, struct pw_wk_run *r,
		      struct pw_wk_cmd *c, unsigned int idx)
{
	const struct pw_wire_plan_cmd *pc = &c->c;
	uint64_t skip = pc->skip, pos = 0;
	struct pw_wbuf *src, *dst;
	unsigned int i, n = 0;
	int err = 0, ret;

	if (!pc->nin || pc->nin >= PW_WIRE_MAX_BUFS || pc->nout != 1 ||
	    pc->dev >= w->dev.ndev)
		return -EINVAL;
	/*
	 * Each piece goes in its input's device queue, so an input made by
	 * a command already queued there can go now, right behind its
	 * maker. Waiting for it to be final would queue the copy behind
	 * the work queued on that device meanwhile: a pipeline's next
	 * stage would wait for the whole of this stage's later work.
	 */
	for (i = 0; i < pc->nin; i++) {
		struct pw_wbuf *in = cmd_buf(w, r, c, i);

		/* Its piece runs on its own device: that is the one to ask. */
		if (!input_ok(in, in ? in->dev : 0, true, &err))
			return err;
	}
	/* All pieces or none: room on the ring for each (else: later). */
	if (pw_wdev_reserve(&w->dev, pc->nin))
		return 0;
	for (i = 0; i < pc->nin; i++)
		hold(c, cmd_buf(w, r, c, i));
	c->nin_held = pc->nin;
	ret = take_output(w, r, c, pc->nin);
	if (ret)
		return ret;
	dst = c->held[pc->nin];
	src = c->held[0];
	if (pc->nin == 1 && !skip && src->bytes == pc->bytes)
		dst->sig = src->sig;
	/* Check the plan whole before any piece goes. */
	for (i = 0; i < pc->nin && pos < pc->bytes; i++) {
		src = c->held[i];
		if (skip >= src->bytes) {
			skip -= src->bytes;
			continue;
		}
		pos += src->bytes - skip < pc->bytes - pos ?
		       src->bytes - skip : pc->bytes - pos;
		skip = 0;
	}
	/* Inputs shorter than the range, or one not used: a bad plan. */
	if (pos != pc->bytes || i != pc->nin || pc->bytes > dst->bytes)
		return -EINVAL;
	n = 0;
	dst->state = PW_WBUF_FILLING;
	c->pieces = 0;
	c->pieces_err = 0;
	for (i = 0, pos = 0, skip = pc->skip; i < pc->nin; i++) {
		uint64_t len;

		src = c->held[i];
		if (skip >= src->bytes) {
			skip -= src->bytes;
			continue;
		}
		len = src->bytes - skip;
		if (len > pc->bytes - pos)
			len = pc->bytes - pos;
		ret = pw_wdev_copy_peer(&w->dev, src->dev, src->bo.handle,
					skip, len, pc->dev, dst->bo.handle,
					pos, TAG(r - w->runs, idx, r->id));
		if (ret)
			break;
		n++;
		pos += len;
		skip = 0;
	}
	/* Pieces queued before a failure complete, unwaited for. */
	if (ret)
		return ret;
	c->pieces = (uint16_t)n;
	return 1;
}

/*
 * Our data-plane connection to host @h at w->conn_addr[h] (its last
 * READY's), started on first need: it comes up in the background, sends
 * wait (-EAGAIN) until it has, and fail with its reason if it never does
 * (sends_to_host_fail()). One that ended after coming up is made again.
 */
static int conn_to(struct pw_worker *w, unsigned int h)
{
	int ret;

	if (w->conn[h])
		return 0;
	ret = pw_dp_connect(w->dp, &w->conn_addr[h], &w->conn[h]);
	if (!ret)
		w->conn_up[h] = false;
	return ret;
}

static struct pw_wk_xfer *xfer_slot(struct pw_wk_xfer *tab, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++)
		if (!tab[i].used)
			return &tab[i];
	return NULL;
}

/* DCN_SEND: 1 issued, 0 not yet, -errno failed. */
static int issue_send(struct pw_worker *w, struct pw_wk_run *r,
		      struct pw_wk_cmd *c, unsigned int idx)
{
	const struct pw_wire_plan_cmd *pc = &c->c;
	struct pw_wbuf *src = cmd_buf(w, r, c, 0);
	struct pw_wk_xfer *x;
	int err = 0, ret;

	if (!c->have_target)
		return 0;
	if (!input_ok(src, pc->dev, false, &err))
		return err;
	if (src->bytes != pc->bytes || pc->peer_host >= PW_MAX_HOSTS)
		return -EINVAL;
	x = xfer_slot(w->send, PW_WK_MAX_SEND);
	if (!x)
		return 0;	/* when a write in flight ends */
	/* Ours may have ended after it was up: connect again. */
	ret = conn_to(w, pc->peer_host);
	if (ret)
		return ret;
	ret = pw_wbuf_register(&w->store, src);
	if (ret)
		return ret;
	ret = pw_dp_write(w->conn[pc->peer_host], src->region, 0, &c->target,
			  0, pc->bytes, c->cookie);
	/* Not up yet, full, or ended with its CLOSED still queued. */
	if (ret == -EAGAIN || ret == -ENOTCONN)
		return 0;
	if (ret)
		return ret;
	hold(c, src);
	c->nin_held = 1;
	*x = (struct pw_wk_xfer){ .used = true, .run = (unsigned int)(r - w->runs),
				  .cmd = idx, .cookie = c->cookie,
				  .conn = w->conn[pc->peer_host] };
	return 1;
}

/* DCN_RECV: make the target, register it, tell the sender (READY). */
static int issue_recv(struct pw_worker *w, struct pw_wk_run *r,
		      struct pw_wk_cmd *c, unsigned int idx)
{
	const struct pw_wire_plan_cmd *pc = &c->c;
	struct pw_node_peer *sender;
	struct pw_wire_ready *rd;
	struct pw_dp_desc desc;
	struct pw_wk_xfer *x;
	struct pw_wire_msg m;
	int ret;

	if (pc->nin != 0 || pc->nout != 1 || !pc->bytes ||
	    pc->peer_host >= PW_MAX_HOSTS)
		return -EINVAL;
	x = xfer_slot(w->recv, PW_WK_MAX_RECV);
	if (!x)
		return -EBUSY;
	ret = take_output(w, r, c, 0);
	if (ret)
		return ret;
	c->held[0]->state = PW_WBUF_FILLING;
	ret = pw_wbuf_register(&w->store, c->held[0]);
	if (ret)
		return ret;
	/* The controller introduced the two before the run's plans. */
	sender = pw_node_find(&w->node, PW_NODE_WORKER_BASE + pc->peer_host);
	if (!sender)
		return -EHOSTUNREACH;
	pw_dp_region_desc(c->held[0]->region, &desc);
	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_READY;
	rd = &m.body.ready;
	rd->run_id = r->id;
	rd->src_host = pc->peer_host;
	rd->dst_host = (uint16_t)w->reg.host_id;
	rd->handle = pc->bufs[0];
	rd->cookie = pw_wk_cookie_new(w);
	memcpy(rd->data_ip, w->reg.data_ip, 4);
	rd->data_port = w->reg.data_port;
	pw_dp_desc_pack(&desc, rd->desc);
	ret = pw_node_send(&w->node, sender, &m, pw_now_ns());
	if (ret)
		return ret;
	/* Waiting for the data only once the sender can know where to put it. */
	*x = (struct pw_wk_xfer){ .used = true, .run = (unsigned int)(r - w->runs),
				  .cmd = idx, .cookie = rd->cookie };
	return 1;
}

/* Whether EXEC @c's inputs can go now; *@err when they never will. */
static bool exec_inputs_ready(struct pw_worker *w, struct pw_wk_run *r,
			      const struct pw_wk_cmd *c, int *err)
{
	unsigned int i;

	for (i = 0; i < c->c.nin; i++)
		if (!input_ok(cmd_buf(w, r, c, i), c->c.dev, true, err))
			return false;
	return true;
}

/* The members of gang @num, from @idx on: all go together or none. */
static void try_issue_gang(struct pw_worker *w, struct pw_wk_run *r,
			   unsigned int idx)
{
	unsigned int i, n = 0, m[PW_WIRE_MAX_DEVICES], nbufs[PW_WIRE_MAX_DEVICES];
	uint32_t num = r->cmds[idx].c.gang_id, prog[PW_WIRE_MAX_DEVICES];
	int err = 0, ret;

	ret = pw_wk_gang_may_go(w, r, num);
	/* Every member, earlier ones too: before r->next none waits. */
	for (i = r->next; ret > 0 && i < r->received; i++) {
		struct pw_wk_cmd *c = &r->cmds[i];

		if (c->c.op != PW_WIRE_CMD_EXEC || c->c.gang_id != num ||
		    c->state != PW_WK_WAITING)
			continue;
		/* Past a parked run's HBM wait, outputs are not made yet. */
		if (r->parked && i >= r->park_at)
			return;
		if (n == PW_WIRE_MAX_DEVICES) {
			ret = -EPROTO;
		} else if (w->dev_out & (1ull << c->c.dev)) {
			ret = -ENODEV;
		} else if (!exec_inputs_ready(w, r, c, &err)) {
			if (!err)
				return;	/* a member waits: the gang waits */
			ret = err;
		} else {
			m[n++] = i;
		}
	}
	/* All its members arrived (may_go): each must be here, waiting. */
	if (ret > 0 && n != pw_wk_gang_size(w, r, num))
		ret = -EPROTO;
	if (ret < 0) {
		/* No member may sit in a device waiting for the others. */
		for (i = r->next; i < r->received; i++)
			if (r->cmds[i].c.op == PW_WIRE_CMD_EXEC &&
			    r->cmds[i].c.gang_id == num &&
			    r->cmds[i].state == PW_WK_WAITING)
				finish(w, r, &r->cmds[i], ret);
		return;
	}
	if (!ret)
		return;
	/*
	 * All or none: the ring has room for every member (else they wait
	 * for the next pass) and every member is prepared (what can fail:
	 * its function, its outputs, its gang) before any is queued, so no
	 * member waits on a device for one that never comes.
	 */
	if (pw_wdev_reserve(&w->dev, n))
		return;
	pw_wk_gang_forget(w, r, num);
	ret = 0;
	for (i = 0; i < n && !ret; i++) {
		ret = prep_exec(w, r, &r->cmds[m[i]], &prog[i], &nbufs[i]);
		ret = ret == 1 ? 0 : ret ? ret : -EPROTO;
	}
	for (i = 0; i < n; i++) {
		struct pw_wk_cmd *c = &r->cmds[m[i]];

		if (!ret)
			ret = queue_exec(w, r, c, m[i], prog[i], nbufs[i]);
		c->issue_ns = pw_now_ns();
		if (ret < 0)
			finish(w, r, c, ret);
		else
			c->state = PW_WK_ISSUED;
		ret = ret < 0 ? ret : 0;
	}
}

/* Issue command @idx of @r if it can go: a command never blocks. */
static void try_issue(struct pw_worker *w, struct pw_wk_run *r,
		      unsigned int idx)
{
	struct pw_wk_cmd *c = &r->cmds[idx];
	int ret;

	if (r->cancelled || r->done.status) {
		/* A failed run skips what it has not started. */
		finish(w, r, c, -ECANCELED);
		return;
	}
	if (c->c.op == PW_WIRE_CMD_EXEC && c->c.gang_id) {
		try_issue_gang(w, r, idx);
		return;
	}
	/* Taken out of service: what has not reached it never will. */
	if (w->dev_out & (1ull << c->c.dev)) {
		finish(w, r, c, -ENODEV);
		return;
	}
	switch (c->c.op) {
	case PW_WIRE_CMD_EXEC:
	case PW_WIRE_CMD_NOP:
		ret = c->c.op == PW_WIRE_CMD_NOP ?
			pw_wdev_exec(&w->dev, c->c.dev, 0, NULL, 0, NULL,
				     TAG(r - w->runs, idx, r->id)) ?: 1 :
			issue_exec(w, r, c, idx);
		break;
	case PW_WIRE_CMD_COPY_PEER:
		ret = issue_copy(w, r, c, idx);
		break;
	case PW_WIRE_CMD_DCN_SEND:
		ret = issue_send(w, r, c, idx);
		break;
	case PW_WIRE_CMD_DCN_RECV:
		ret = issue_recv(w, r, c, idx);
		break;
	default:
		ret = -EOPNOTSUPP;
	}
	c->issue_ns = pw_now_ns();
	if (ret < 0)
		finish(w, r, c, ret);
	else if (ret == 2)
		finish(w, r, c, 0);
	else if (ret == 1)
		c->state = PW_WK_ISSUED;
}

static void unpark(struct pw_worker *w, struct pw_wk_run *r)
{
	if (r->parked) {
		r->parked = false;
		w->nparked--;
	}
}

static void run_free(struct pw_worker *w, struct pw_wk_run *r)
{
	unsigned int i;

	unpark(w, r);
	pw_wk_gangs_forget_run(w, r);
	for (i = 0; i < r->received; i++)
		free(r->cmds[i].gang);
	w->runs_ended++;
	pw_wstore_release_owner(&w->store, r->id);
	free(r->cmds);
	memset(r, 0, sizeof(*r));
}

/*
 * A failed run's transfer targets still waiting: whoever was to write
 * them may be waiting on this run too, so they end now, and the run with
 * them (CANCEL reaches the other hosts through the controller).
 */
static void drop_targets(struct pw_worker *w, struct pw_wk_run *r)
{
	unsigned int i;

	for (i = 0; i < PW_WK_MAX_RECV; i++) {
		struct pw_wk_xfer *x = &w->recv[i];

		if (x->used && &w->runs[x->run] == r) {
			x->used = false;
			finish(w, r, &r->cmds[x->cmd], -ECANCELED);
		}
	}
}

/* Issue what can go; when every command is done, answer and clean up. */
static void progress(struct pw_worker *w, struct pw_wk_run *r)
{
	unsigned int i, end = r->received;
	bool issued = false;

	if (r->done.status || r->cancelled)
		unpark(w, r);	/* what waits for HBM is skipped now */
	if (r->parked)
		end = r->park_at;
	if (r->done.status)
		drop_targets(w, r);
	for (i = r->next; i < end; i++) {
		if (r->cmds[i].state == PW_WK_WAITING) {
			try_issue(w, r, i);
			issued |= r->cmds[i].state == PW_WK_ISSUED;
		}
		if (i == r->next && r->cmds[i].state != PW_WK_WAITING)
			r->next++;
	}
	/* Its first command's submission (a flush may carry others'). */
	if (issued && !r->submit_ns) {
		uint64_t t = pw_now_ns();

		if (pw_wdev_flush(&w->dev) > 0) {
			r->submit_ns = t;
			r->submitted_ns = pw_now_ns();
		}
	} else {
		pw_wdev_flush(&w->dev);
	}
	if (r->received < r->total || r->completed < r->total)
		return;
	/* Cancelled: the controller has answered the client already. */
	if (!r->cancelled) {
		send_done(w, &r->done, r->completed, r->client, r->client_run);
		pw_wk_stages_add(w, r, pw_now_ns());
	}
	run_free(w, r);
}

/* The bytes and signature output @i of @pc will have; 0 if unknown. */
static uint64_t output_bytes(struct pw_worker *w, struct pw_wk_run *r,
			     const struct pw_wire_plan_cmd *pc, unsigned int i,
			     const struct pw_wire_sig **sig)
{
	struct pw_wfn *fn;

	*sig = NULL;
	if (pc->op != PW_WIRE_CMD_EXEC)
		return pc->bytes;
	fn = pw_wfn_find(&w->store, r->client, pc->fn_id);
	if (!fn || !fn->pl.complete || pc->nin + i >= fn->pl.desc.nparams +
	    fn->pl.desc.nresults)
		return 0;
	*sig = &fn->pl.desc.sigs[pc->nin + i];
	return pw_wire_sig_bytes(*sig);
}

/*
 * Whether a run other than @r is under way: when it ends, its temporaries
 * free HBM. Runs waiting for HBM themselves do not count: they free
 * nothing until it comes.
 */
static bool hbm_may_come_free(struct pw_worker *w, const struct pw_wk_run *r)
{
	unsigned int i;

	for (i = 0; i < w->nruns; i++)
		if (w->runs[i].used && &w->runs[i] != r && !w->runs[i].parked)
			return true;
	return false;
}

/*
 * Whether @r, with no run under way, still waits for FREEs in flight:
 * until its grace ends (the worker looks again then).
 */
static bool frees_may_come(struct pw_worker *w, struct pw_wk_run *r)
{
	uint64_t now = pw_now_ns();

	if (!r->grace_end_ns)
		r->grace_end_ns = now + PW_WK_HBM_GRACE_MS * 1000000ull;
	if (now >= r->grace_end_ns)
		return false;
	if (!w->grace_due_ns || r->grace_end_ns < w->grace_due_ns)
		w->grace_due_ns = r->grace_end_ns;
	return true;
}

static void park(struct pw_worker *w, struct pw_wk_run *r, unsigned int at)
{
	r->parked = true;
	r->park_at = at;
	w->nparked++;
	if (!r->waited)
		w->hbm_waits++;
	r->waited = true;
}

bool pw_wk_free_unmade(struct pw_worker *w, uint32_t client, uint32_t id)
{
	unsigned int i, j, k, nout;
	const uint32_t *out;

	for (i = 0; i < w->nruns; i++) {
		struct pw_wk_run *r = &w->runs[i];

		if (!r->used || !r->parked || r->client != client)
			continue;
		for (j = r->park_at; j < r->received; j++) {
			struct pw_wk_cmd *c = &r->cmds[j];

			out = outputs(&c->c, &nout);
			for (k = c->outs_made; k < nout; k++)
				if (out[k] == id) {
					c->free_out |= 1u << k;
					return true;
				}
		}
	}
	return false;
}

/*
 * Output @b of @r's command @c, made late (its run waited for HBM):
 * commands that read it arrived before it existed and hold nothing, so
 * they pin it now; a FREE that came meanwhile takes effect, the pins
 * keeping it for them.
 */
static void made_late(struct pw_worker *w, struct pw_wk_run *r,
		      struct pw_wk_cmd *c, unsigned int k, struct pw_wbuf *b)
{
	unsigned int i, j, in;

	if (b->handle & PW_WIRE_BUF_TEMP)
		return;	/* a run's own: its readers find it by handle */
	for (i = 0; i < w->nruns; i++) {
		struct pw_wk_run *rr = &w->runs[i];

		if (!rr->used || rr->client != r->client)
			continue;
		for (j = rr->next; j < rr->received; j++) {
			struct pw_wk_cmd *rc = &rr->cmds[j];

			if (rc->state != PW_WK_WAITING)
				continue;
			for (in = 0; in < rc->c.nin && in < PW_WIRE_MAX_BUFS;
			     in++)
				if (rc->c.bufs[in] == b->handle)
					pin(rc, in, b);
		}
	}
	if (c->free_out & (1u << k))
		pw_wbuf_release(&w->store, b);
}

/*
 * Make the outputs of commands @first.. of @r at once, PENDING: a later
 * command, or a later run of the client, that reads one waits for it
 * instead of finding nothing, and memory is claimed when work arrives.
 * HBM full (-ENOSPC) is back-pressure: the run waits at that command,
 * in line behind earlier runs, until runs under way end and free theirs;
 * with none under way only a client's FREE can, so it waits up to
 * PW_WK_HBM_GRACE_MS for one, then the command fails with -ENOMEM.
 * Returns false when the run waits.
 */
static bool plan_outputs(struct pw_worker *w, struct pw_wk_run *r,
			 unsigned int first)
{
	const struct pw_wire_sig *sig;
	const uint32_t *out;
	struct pw_wbuf *b;
	unsigned int i, nout;
	uint64_t bytes;
	bool others;
	int ret;

	for (i = first; i < r->received; i++) {
		struct pw_wk_cmd *c = &r->cmds[i];

		out = outputs(&c->c, &nout);
		for (ret = 0; c->outs_made < nout && !ret; c->outs_made++) {
			unsigned int k = c->outs_made;
			uint32_t owner = out[k] & PW_WIRE_BUF_TEMP ? r->id :
								     r->client;

			bytes = output_bytes(w, r, &c->c, k, &sig);
			ret = bytes ? pw_wbuf_create(&w->store, owner, out[k],
						     c->c.dev, bytes, &b) :
				      -ENOENT;
			if (ret)
				break;
			b->state = PW_WBUF_PENDING;
			if (sig)
				b->sig = *sig;
			pin(c, c->c.nin + k, b);
			if (r->waited)
				made_late(w, r, c, k, b);
		}
		others = ret == -ENOSPC && hbm_may_come_free(w, r);
		if (others)
			r->grace_end_ns = 0;	/* it starts when none runs */
		if (ret == -ENOSPC && !r->done.status && !r->cancelled &&
		    (others || frees_may_come(w, r))) {
			park(w, r, i);
			return false;
		}
		if (ret == -ENOSPC) {
			pw_log("worker %u: run %u: %llu bytes on device %u: HBM is full and no run under way or FREE within %u ms freed it",
			       w->reg.host_id, r->id,
			       (unsigned long long)bytes, c->c.dev,
			       PW_WK_HBM_GRACE_MS);
			ret = -ENOMEM;
		}
		if (!ret)
			r->grace_end_ns = 0;
		if (ret) {
			/* Its outputs, made or not, fail with it. */
			c->outs_made = nout;
			finish(w, r, c, ret);
		}
	}
	return true;
}

static struct pw_wk_run *oldest_parked(struct pw_worker *w)
{
	struct pw_wk_run *oldest = NULL;
	unsigned int i;

	for (i = 0; i < w->nruns; i++)
		if (w->runs[i].used && w->runs[i].parked &&
		    (!oldest || w->runs[i].arrival < oldest->arrival))
			oldest = &w->runs[i];
	return oldest;
}

/*
 * Runs waiting for HBM, oldest first, once memory may have come free (a
 * buffer object was freed or a run ended): each goes on, or waits again
 * (and the ones behind it with it), or fails if nothing can free HBM.
 */
static void unpark_runs(struct pw_worker *w)
{
	struct pw_wk_run *r;

	bool grace_due = w->grace_due_ns && pw_now_ns() >= w->grace_due_ns;

	if (!w->nparked || (w->store.freed == w->seen_freed &&
			    w->runs_ended == w->seen_ended && !grace_due))
		return;
	w->seen_freed = w->store.freed;
	w->seen_ended = w->runs_ended;
	w->grace_due_ns = 0;	/* set again by runs still waiting */
	while ((r = oldest_parked(w))) {
		unpark(w, r);
		if (!plan_outputs(w, r, r->park_at))
			return;
		progress(w, r);
	}
}

/*
 * READY @rd for run @r: the DCN_SEND among its commands received so far
 * that writes the target takes it (and connects to the target's host).
 * 1 if one did, 0 if none is it (yet).
 */
static int ready_apply(struct pw_worker *w, struct pw_wk_run *r,
		       const struct pw_wire_ready *rd)
{
	struct sockaddr_in addr = { .sin_family = AF_INET };
	unsigned int i;
	int ret;

	for (i = 0; i < r->received; i++) {
		struct pw_wk_cmd *c = &r->cmds[i];

		if (c->c.op != PW_WIRE_CMD_DCN_SEND || c->have_target ||
		    c->c.peer_host != rd->dst_host ||
		    c->c.peer_buf != rd->handle)
			continue;
		memcpy(&addr.sin_addr, rd->data_ip, 4);
		addr.sin_port = htons(rd->data_port);
		ret = pw_dp_desc_unpack(rd->desc, &c->target);
		if (!ret && w->dp) {
			w->conn_addr[rd->dst_host] = addr;
			ret = conn_to(w, rd->dst_host);
		} else if (!ret) {
			ret = -ENOTCONN;
		}
		if (ret) {
			if (c->state == PW_WK_WAITING)
				finish(w, r, c, ret);
		} else {
			c->have_target = true;
			c->cookie = rd->cookie;
		}
		return 1;
	}
	return 0;
}

/*
 * A READY that came early could not be kept: remember its run, whose PLAN
 * will then fail it with @err (its DCN_SEND was told its target once and
 * will not be again). Never silent: logged and counted.
 */
static void early_lost(struct pw_worker *w, uint32_t run_id, int err)
{
	struct pw_wk_lost *l = &w->lost[w->lost_next];

	if (l->run_id) {
		w->lost_forgotten++;
		pw_log("worker %u: more than %u runs lost early READYs: run %u's forgotten (if its PLAN is still to come, the run waits for its deadline)",
		       w->reg.host_id, PW_WK_MAX_LOST, l->run_id);
	} else {
		w->nlost++;
	}
	*l = (struct pw_wk_lost){ .run_id = run_id, .err = err };
	w->lost_next = (w->lost_next + 1) % PW_WK_MAX_LOST;
	w->early_lost++;
	pw_log("worker %u: READY of run %u not kept (%s): the run fails if its PLAN comes",
	       w->reg.host_id, run_id, strerror(-err));
}

/* Run @run_id lost an early READY: that error (once), else 0. */
static int early_lost_take(struct pw_worker *w, uint32_t run_id)
{
	unsigned int i;
	int err;

	for (i = 0; w->nlost && i < PW_WK_MAX_LOST; i++) {
		if (w->lost[i].run_id != run_id)
			continue;
		err = w->lost[i].err;
		w->lost[i].run_id = 0;
		w->nlost--;
		return err;
	}
	return 0;
}

/* Kept READYs older than PW_WK_EARLY_NS: their runs are lost. */
static void early_expire(struct pw_worker *w, uint64_t now)
{
	unsigned int i;

	for (i = 0; w->nearly && i < PW_WK_MAX_EARLY; i++) {
		struct pw_wk_early *e = &w->early[i];

		if (!e->used || now - e->at_ns <= PW_WK_EARLY_NS)
			continue;
		e->used = false;
		w->nearly--;
		early_lost(w, e->rd.run_id, -ETIMEDOUT);
	}
}

/*
 * Keep a READY that came before the PLAN part holding its DCN_SEND: it
 * comes straight from the target's worker, the PLAN through the
 * controller, so it may overtake it. Kept PW_WK_EARLY_NS at most; when
 * all are taken, the oldest goes. Either way its run is lost.
 */
static int early_keep(struct pw_worker *w, const struct pw_wire_ready *rd,
		      uint64_t now)
{
	struct pw_wk_early *e, *slot = NULL;
	unsigned int i;

	if (!w->early) {
		w->early = calloc(PW_WK_MAX_EARLY, sizeof(*w->early));
		if (!w->early) {
			early_lost(w, rd->run_id, -ENOMEM);
			return -ENOMEM;
		}
	}
	early_expire(w, now);
	for (i = 0; i < PW_WK_MAX_EARLY; i++) {
		e = &w->early[i];
		if (!slot || !e->used || (slot->used && e->at_ns < slot->at_ns))
			slot = slot && !slot->used ? slot : e;
	}
	if (slot->used) {
		w->nearly--;
		early_lost(w, slot->rd.run_id, -ENOBUFS);
	}
	*slot = (struct pw_wk_early){ .used = true, .at_ns = now, .rd = *rd };
	w->nearly++;
	w->early_kept++;
	return 0;
}

/*
 * A PLAN part of @r came: fail @r if one of its READYs was lost, else
 * apply the READYs kept for it that now match.
 */
static void early_apply(struct pw_worker *w, struct pw_wk_run *r,
			uint64_t now)
{
	unsigned int i;
	int err;

	if (w->nearly)
		early_expire(w, now);
	err = early_lost_take(w, r->id);
	if (err) {
		pw_log("worker %u: run %u fails: a READY for it was lost (%s)",
		       w->reg.host_id, r->id, strerror(-err));
		fail(r, err);
	}
	for (i = 0; w->nearly && i < PW_WK_MAX_EARLY; i++) {
		struct pw_wk_early *e = &w->early[i];

		if (e->used && e->rd.run_id == r->id && ready_apply(w, r, &e->rd)) {
			e->used = false;
			w->nearly--;
		}
	}
}

void pw_wk_early_reset(struct pw_worker *w)
{
	if (w->early)
		memset(w->early, 0, PW_WK_MAX_EARLY * sizeof(*w->early));
	w->nearly = 0;
	memset(w->lost, 0, sizeof(w->lost));
	w->nlost = 0;
	w->lost_next = 0;
}

int pw_wk_on_plan(struct pw_worker *w, const struct pw_wire_msg *msg,
		  uint64_t now)
{
	const struct pw_wire_plan *pl = &msg->body.plan;
	struct pw_wk_run *r = run_find(w, pl->run_id);
	unsigned int i, first;
	int ret;

	if (!r) {
		if (pl->first_cmd)
			return refuse(w, pl, -EPROTO, now);
		/* The table grows; only the tag's 16 bits bound it. */
		ret = pw_slot_take((void **)&w->runs, &w->nruns,
				   sizeof(*w->runs), PW_WK_MAX_RUNS);
		if (ret < 0)
			return refuse(w, pl, ret == -ENOSPC ? -EBUSY : ret,
				      now);
		r = &w->runs[ret];
		r->cmds = calloc(pl->ncmds_total, sizeof(*r->cmds));
		if (!r->cmds)
			return refuse(w, pl, -ENOMEM, now);
		r->used = true;
		r->arrival = ++w->arrivals;
		r->id = pl->run_id;
		r->client = pl->client;
		r->total = pl->ncmds_total;
		r->done.run_id = pl->run_id;
		r->done.client_send_ns = pl->client_send_ns;
		r->done.ctrl_recv_ns = pl->ctrl_recv_ns;
		r->done.ctrl_send_ns = pl->ctrl_send_ns;
		r->done.worker_recv_ns = now;
		r->done.nhosts = pl->nhosts;
		r->client_run = pl->client_run;
	} else if (pl->first_cmd != r->received ||
		   pl->ncmds_total != r->total || pl->client != r->client) {
		/* Parts arrive in order on one channel: a clash of run ids. */
		return refuse(w, pl, -EPROTO, now);
	}
	first = r->received;
	for (i = 0; i < pl->ncmds; i++) {
		struct pw_wk_cmd *c = &r->cmds[r->received++];
		unsigned int k;

		c->c = pl->cmds[i];
		/* Inputs that exist: a FREE from now on cannot unname them. */
		for (k = 0; k < c->c.nin && k < PW_WIRE_MAX_BUFS; k++)
			pin(c, k, lookup(w, r, c->c.bufs[k]));
		/* In arrival order: the order every device meets gangs in. */
		if (pl->cmds[i].op == PW_WIRE_CMD_EXEC && pl->cmds[i].gang_id &&
		    pw_wk_gang_note(w, r, &pl->cmds[i]))
			fail(r, -ENOMEM);
	}
	early_apply(w, r, now);
	if (r->parked)
		return 0;	/* its new part waits behind the old */
	if (!first && w->nparked)
		park(w, r, 0);	/* in line behind runs waiting for HBM */
	else
		plan_outputs(w, r, first);
	progress(w, r);
	return 0;
}

int pw_wk_on_admin(struct pw_worker *w, const struct pw_wire_admin *a)
{
	unsigned int i;

	if (a->value >= w->dev.ndev || a->host != w->reg.host_id)
		return -ENODEV;
	if (a->op == PW_WIRE_ADMIN_DEVICE_OUT)
		w->dev_out |= 1ull << a->value;
	else if (a->op == PW_WIRE_ADMIN_DEVICE_IN)
		w->dev_out &= ~(1ull << a->value);
	else
		return -EPROTO;
	/* What waits for that device fails now. */
	for (i = 0; i < w->nruns; i++)
		if (w->runs[i].used)
			progress(w, &w->runs[i]);
	return 0;
}

int pw_wk_on_ready(struct pw_worker *w, const struct pw_node_peer *p,
		   const struct pw_wire_ready *rd)
{
	struct pw_wk_run *r = run_find(w, rd->run_id);

	/* Only the target's own worker says where its target is. */
	if (rd->dst_host >= PW_MAX_HOSTS ||
	    p->id != PW_NODE_WORKER_BASE + rd->dst_host ||
	    rd->src_host != w->reg.host_id || !rd->run_id)
		return -EPROTO;
	if (r && ready_apply(w, r, rd)) {
		progress(w, r);
		return 0;
	}
	if (r && r->received == r->total)
		return -ENOENT;	/* no such transfer in the run */
	return early_keep(w, rd, pw_now_ns());
}

int pw_wk_on_cancel(struct pw_worker *w, const struct pw_wire_cancel *cn)
{
	struct pw_wk_run *r = run_find(w, cn->run_id);

	if (!r)
		return 0;	/* it ended here already */
	r->cancelled = true;
	fail(r, -(int)cn->status);
	/*
	 * The controller sent every part it could before CANCEL, on this
	 * same channel: parts still missing will never come.
	 */
	r->total = r->received;
	progress(w, r);
	return 0;
}

void pw_wk_runs_forget_client(struct pw_worker *w, uint32_t client)
{
	struct pw_wire_cancel cn = { .status = ECANCELED };
	unsigned int i;

	for (i = 0; i < w->nruns; i++) {
		if (!w->runs[i].used || w->runs[i].client != client)
			continue;
		cn.run_id = w->runs[i].id;
		pw_wk_on_cancel(w, &cn);
	}
}

/*
 * A device runs its queue whatever became of earlier commands: an input
 * queued behind a producer that failed was garbage, and so is the output.
 */
static int inputs_failed(const struct pw_wk_cmd *c)
{
	unsigned int i;

	for (i = 0; i < c->nin_held; i++)
		if (c->held[i]->state == PW_WBUF_FAILED)
			return -ECANCELED;
	return 0;
}

static void on_device_done(struct pw_worker *w, const struct pw_wdev_done *d)
{
	unsigned int slot = (unsigned int)(d->tag >> 48);
	unsigned int idx = (unsigned int)(d->tag >> 32) & 0xffff;
	struct pw_wk_run *r = &w->runs[slot];
	struct pw_wk_cmd *c;
	uint64_t start, end;
	int err;

	if (slot >= w->nruns || !r->used ||
	    r->id != (uint32_t)d->tag || idx >= r->received ||
	    r->cmds[idx].state != PW_WK_ISSUED)
		return;
	c = &r->cmds[idx];
	r->reaped_ns = pw_now_ns();
	start = c->issue_ns + d->queue_ns;
	end = start + d->exec_ns;
	if (!r->done.dev_start_ns || start < r->done.dev_start_ns)
		r->done.dev_start_ns = start;
	if (end > r->done.dev_end_ns)
		r->done.dev_end_ns = end;
	err = d->res ? d->res : c->pieces_err;
	/* A COPY_PEER of several pieces ends with its last. */
	if (c->pieces > 1) {
		c->pieces--;
		c->pieces_err = err;
		return;
	}
	finish(w, r, c, err ? err : inputs_failed(c));
}

/*
 * Our connection to host @h never came up: what waits to be written over
 * it ends too, with its reason (writes in flight end with their own
 * events). Had it been up, the next send connects again instead.
 */
static void sends_to_host_fail(struct pw_worker *w, unsigned int h,
			       int status)
{
	unsigned int i, j;

	for (i = 0; i < w->nruns; i++) {
		struct pw_wk_run *r = &w->runs[i];

		for (j = 0; r->used && j < r->received; j++) {
			struct pw_wk_cmd *c = &r->cmds[j];

			if (c->c.op == PW_WIRE_CMD_DCN_SEND &&
			    c->state == PW_WK_WAITING && c->have_target &&
			    c->c.peer_host == h)
				finish(w, r, c, status ? status : -ECONNRESET);
		}
	}
}

/* After CONNECTED, pw_wk_reap() looks at every run: sends go then. */
static void on_dp_event(struct pw_worker *w, const struct pw_dp_event *ev)
{
	struct pw_wk_xfer *x = NULL;
	unsigned int i, h;

	if (pw_wk_host_dp_event(w, ev))
		return;
	if (ev->type == PW_DP_EV_CONNECTED) {
		for (h = 0; h < PW_MAX_HOSTS; h++)
			if (w->conn[h] == ev->conn)
				w->conn_up[h] = true;
		return;
	}
	if (ev->type == PW_DP_EV_LANDED) {
		/* The sender writes a DCN_RECV's bytes in one write. */
		x = pw_wk_recv_of(w, ev->cookie);
		if (!x || ev->len !=
		    w->runs[x->run].cmds[x->cmd].c.bytes) {
			pw_wk_stray_landing(w, ev);
			return;
		}
	} else if (ev->type == PW_DP_EV_WRITE_DONE) {
		for (i = 0; i < PW_WK_MAX_SEND && !x; i++)
			if (w->send[i].used && w->send[i].conn == ev->conn &&
			    w->send[i].cookie == ev->cookie)
				x = &w->send[i];
	} else if (ev->type == PW_DP_EV_CLOSED) {
		for (h = 0; h < PW_MAX_HOSTS; h++)
			if (w->conn[h] == ev->conn) {
				w->conn[h] = NULL;
				if (!w->conn_up[h])
					sends_to_host_fail(w, h, ev->status);
			}
		/* Writes in flight on it end with an error. */
		for (i = 0; i < PW_WK_MAX_SEND; i++) {
			x = &w->send[i];
			if (x->used && x->conn == ev->conn) {
				x->used = false;
				finish(w, &w->runs[x->run],
				       &w->runs[x->run].cmds[x->cmd], -ECONNRESET);
			}
		}
		/*
		 * Ours, or one a peer made to us (its writes land by cookie:
		 * nothing here points at it). Either way its slot is freed.
		 */
		pw_dp_conn_close(ev->conn);
		return;
	}
	if (!x)
		return;
	x->used = false;
	finish(w, &w->runs[x->run], &w->runs[x->run].cmds[x->cmd], ev->status);
}

void pw_wk_reap(struct pw_worker *w)
{
	struct pw_wdev_done d[PW_WK_REAP];
	struct pw_dp_event ev[PW_WK_REAP];
	unsigned int i;
	int n, k;

	do {
		n = pw_wdev_reap(&w->dev, d, PW_WK_REAP);
		for (k = 0; k < n; k++)
			on_device_done(w, &d[k]);
	} while (n == PW_WK_REAP);
	if (w->dp) {
		do {
			n = pw_dp_poll(w->dp, ev, PW_WK_REAP);
			for (k = 0; k < n; k++)
				on_dp_event(w, &ev[k]);
		} while (n == PW_WK_REAP);
	}
	/* Completions free inputs of waiting commands: look again. */
	for (i = 0; i < w->nruns; i++)
		if (w->runs[i].used)
			progress(w, &w->runs[i]);
	unpark_runs(w);
}

void pw_wk_runs_fini(struct pw_worker *w)
{
	unsigned int i, j;

	for (i = 0; i < w->nruns; i++) {
		struct pw_wk_run *r = &w->runs[i];

		if (!r->used)
			continue;
		for (j = 0; j < r->received; j++) {
			while (r->cmds[j].nheld)
				pw_wbuf_put(&w->store,
					    r->cmds[j].held[--r->cmds[j].nheld]);
			unpin(w, &r->cmds[j]);
		}
		run_free(w, r);
	}
}
