// SPDX-License-Identifier: GPL-2.0
/*
 * ctl_lower.c - the controller lowers a client's program once, when its
 * last node arrives. Nodes live on slices (ctl_slice.c): a value of n
 * shards has shard v on virtual device v of its slice. Every value gets a
 * symbolic handle per shard (an argument, a result, or a temporary of the
 * run), and every sharded computation becomes one EXEC per shard on its
 * slice's host; a computation with collectives gets a gang number, the
 * same for all its shards (the worker draws the gang id per run).
 *
 * An input on another placement with as many shards of one signature
 * is moved shard by shard (shard v to virtual device v of the consumer's
 * slice): a COPY_PEER within an island, a DCN_RECV on the consumer's
 * host and a DCN_SEND on the producer's across islands. Each value goes
 * to each (host, device) once. An input sharded otherwise (another
 * number of shards, or another shard shape, of as many bytes of its
 * dtype) is resharded: a value is its shards concatenated, so consumer
 * shard v takes bytes [v * db, (v + 1) * db) of it from the source
 * shards that hold them, gathered by one COPY_PEER on v's device (a
 * source shard on another island moves there whole first; more than 15
 * source shards are gathered in groups first). Runs then only
 * substitute the client's buffer ids for the symbols.
 *
 * A node on a group of slices (ctl_slice.c) is lowered once per member,
 * with the same symbols on every member's host: a value on a group is
 * one buffer id on each. Its inputs must be on groups of as many
 * members, member m's value going to member m (moved as above when the
 * two members differ); a value cannot pass between a group and a slice.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "roles.h"

/* Where a value lives: a host and one device per shard. */
struct place {
	uint16_t host;
	uint8_t n;
	const uint8_t *devs;	/* the slice's: it outlives the lowering */
	uint32_t slice;		/* the slice's id (a group's member's) */
};

/*
 * A value: an argument or one output of a computation. On a group, @at
 * is the member being lowered (set_member()).
 */
struct val {
	struct place at;
	uint32_t slice;		/* its node's slice or group */
	uint16_t members;	/* of the group; 0: a slice */
	bool computed;
	struct pw_wire_sig sig;	/* of one shard */
	uint32_t sym;		/* shard v is sym | v */
};

/*
 * A copy of shard @shard of value @val (of its group's member @member)
 * moved to (@host, @dev), as @sym.
 */
struct moved {
	unsigned int val;
	unsigned int member;
	unsigned int shard;
	uint16_t host;
	uint8_t dev;
	uint32_t sym;
};

struct lowering {
	struct pw_controller *c;
	struct pw_ctl_program *prog;
	struct val *vals;
	unsigned int *first;	/* per node: its first value */
	struct moved *moved;
	unsigned int nmoved;
	unsigned int ntemps;	/* temporaries, each of up to 64 shards */
	unsigned int ngangs;
	unsigned int cap;	/* room in prog->cmds */
	unsigned int *host_cmds;	/* commands per host */
	unsigned int moved_cap;	/* room in moved */
	unsigned int pairs_cap;	/* room in prog->pairs */
	unsigned int member;	/* of the groups being lowered */
	int err;	/* why emit() gave no command */
	/* The members of the group last asked for (node_place()). */
	uint32_t group;
	unsigned int group_members;
	struct pw_ctl_slice **member_slice;
};

/* Inputs a COPY_PEER gathers at most: every binding but its output. */
#define GATHER_MAX	(PW_WIRE_MAX_BUFS - 1)

static bool sig_equal(const struct pw_wire_sig *a, const struct pw_wire_sig *b)
{
	return a->dtype == b->dtype && a->rank == b->rank &&
	       !memcmp(a->shape, b->shape, sizeof(a->shape));
}

static uint32_t new_temp(struct lowering *l)
{
	return PW_WIRE_BUF_TEMP | (l->ntemps++ << PW_WIRE_SHARD_BITS);
}

/* Group @g's members, found in one pass over the slices. */
static int find_members(struct lowering *l, const struct pw_ctl_slice *g)
{
	if (!l->member_slice) {
		l->member_slice = calloc(PW_MAX_HOSTS,
					 sizeof(*l->member_slice));
		if (!l->member_slice)
			return -ENOMEM;
	}
	/* A member went with its host (its slices were dropped). */
	if (pw_ctl_group_members(l->c, g, l->member_slice) != g->members)
		return -EHOSTDOWN;
	l->group = g->id;
	l->group_members = g->members;
	return 0;
}

/*
 * The place of member @m of slice or group @id of @nshards shards, and
 * its members (0: a slice): -ENOENT, -EHOSTDOWN, -EINVAL or -ENOMEM.
 */
static int node_place(struct lowering *l, uint32_t id, unsigned int nshards,
		      unsigned int m, struct place *at, uint16_t *members)
{
	const struct pw_ctl_slice *s;
	int ret;

	if (l->group && l->group == id) {
		s = l->member_slice[m];
		*members = (uint16_t)l->group_members;
	} else {
		s = pw_ctl_slice_find(l->c, l->prog->client, id);
		if (!s)
			return -ENOENT;
		*members = s->members;
		if (s->members) {
			ret = find_members(l, s);
			if (ret)
				return ret;
			s = l->member_slice[m];
		}
	}
	if (!l->c->isl[s->host].used || !l->c->isl[s->host].up)
		return -EHOSTDOWN;
	if (nshards != s->n)
		return -EINVAL;
	at->host = s->host;
	at->n = s->n;
	at->devs = s->devs;
	at->slice = s->id;
	return 0;
}

/* Value @v as member @m of its group has it (a slice's: as it is). */
static int set_member(struct lowering *l, unsigned int v, unsigned int m)
{
	struct val *val = &l->vals[v];
	uint16_t members;

	if (!val->members)
		return 0;
	return node_place(l, val->slice, val->at.n, m, &val->at, &members);
}

static unsigned int node_outputs(struct lowering *l, unsigned int n)
{
	return l->first[n + 1] - l->first[n];
}

/* The value edge @e of node @n reads, or -EINVAL. */
static int edge_val(struct lowering *l, unsigned int n,
		    const struct pw_wire_edge *e)
{
	if (e->node >= n || e->output >= node_outputs(l, e->node))
		return -EINVAL;
	return (int)(l->first[e->node] + e->output);
}

/* Pass 1: values, their places and symbols; results renamed. */
static int assign_values(struct lowering *l)
{
	struct pw_ctl_program *prog = l->prog;
	unsigned int n, i, nv = 0;
	bool have_result = false;
	uint16_t members;
	struct place at;
	int ret, v;

	for (n = 0; n < prog->nnodes; n++) {
		const struct pw_wire_prog_node *nd = &prog->nodes[n];
		struct pw_ctl_fn *fn;

		l->first[n] = nv;
		switch (nd->kind) {
		case PW_WIRE_NODE_ARG:
			if (nd->arg_index >= prog->nargs)
				return -EINVAL;
			ret = node_place(l, nd->slice, nd->nshards, 0, &at,
					 &members);
			if (ret)
				return ret;
			l->vals[nv] = (struct val){ .at = at,
				.slice = nd->slice, .members = members,
				.sym = PW_CTL_SYM_ARG |
				       nd->arg_index << PW_WIRE_SHARD_BITS };
			l->vals[nv].sig.dtype = nd->dtype;
			l->vals[nv].sig.rank = nd->ndims;
			memcpy(l->vals[nv].sig.shape, nd->shape,
			       sizeof(nd->shape));
			nv++;
			break;
		case PW_WIRE_NODE_COMPUTE:
			fn = pw_ctl_fn_find(l->c, prog->client, nd->fn_id);
			if (!fn || !fn->pl.complete)
				return -ENOENT;
			if (nd->nin != fn->pl.desc.nparams)
				return -EINVAL;
			ret = node_place(l, nd->slice, nd->nshards, 0, &at,
					 &members);
			if (ret)
				return ret;
			/* Collectives shaped for one slice size run on that. */
			if (fn->pl.desc.group_size &&
			    fn->pl.desc.group_size != at.n)
				return -EINVAL;
			for (i = 0; i < fn->pl.desc.nresults; i++)
				l->vals[nv++] = (struct val){
					.at = at, .computed = true,
					.slice = nd->slice, .members = members,
					.sig = fn->pl.desc.sigs[nd->nin + i],
					.sym = new_temp(l) };
			break;
		case PW_WIRE_NODE_RESULT:
			if (have_result)
				return -EINVAL;
			have_result = true;
			l->first[n + 1] = nv;
			for (i = 0; i < nd->nin; i++) {
				v = edge_val(l, n, &nd->in[i]);
				if (v < 0)
					return v;
				/* Results are computed, each value once. */
				if (!l->vals[v].computed ||
				    !(l->vals[v].sym & PW_WIRE_BUF_TEMP))
					return -EINVAL;
				l->vals[v].sym = PW_CTL_SYM_RESULT |
						 i << PW_WIRE_SHARD_BITS;
			}
			prog->nresults = nd->nin;
			break;
		default:
			return -EINVAL;
		}
		l->first[n + 1] = nv;
	}
	return 0;
}

/* Room for one more entry of @tab (@n used of *@cap, @size each). */
static int grow(void **tab, unsigned int n, unsigned int *cap, size_t size)
{
	unsigned int want = *cap ? 2 * *cap : 64;
	void *t;

	if (n < *cap)
		return 0;
	t = realloc(*tab, (size_t)want * size);
	if (!t)
		return -ENOMEM;
	*tab = t;
	*cap = want;
	return 0;
}

/*
 * A new command; the table may move: pointers to earlier ones go stale.
 * NULL when a bound is reached or memory is short (@l->err says which).
 */
static struct pw_ctl_cmd *emit(struct lowering *l, unsigned int host,
			       uint8_t op, unsigned int dev)
{
	struct pw_ctl_program *prog = l->prog;
	struct pw_ctl_cmd *k;

	if (l->host_cmds[host] == PW_WIRE_MAX_PLAN_CMDS ||
	    prog->ncmds >= l->c->program_cmds) {
		l->err = -E2BIG;
		return NULL;
	}
	if (grow((void **)&prog->cmds, prog->ncmds, &l->cap,
		 sizeof(*prog->cmds))) {
		l->err = -ENOMEM;
		return NULL;
	}
	k = &prog->cmds[prog->ncmds++];
	memset(k, 0, sizeof(*k));
	k->host = (uint16_t)host;
	k->c.op = op;
	k->c.dev = (uint8_t)dev;
	l->host_cmds[host]++;
	pw_hostset_add(&prog->hosts, host);
	return k;
}

/* Hosts @a and @b talk in the program's runs (each pair once). */
static int add_pair(struct lowering *l, unsigned int a, unsigned int b)
{
	struct pw_ctl_program *prog = l->prog;
	unsigned int i;

	for (i = 0; i < prog->npairs; i++)
		if ((prog->pairs[i].a == a && prog->pairs[i].b == b) ||
		    (prog->pairs[i].a == b && prog->pairs[i].b == a))
			return 0;
	if (grow((void **)&prog->pairs, prog->npairs, &l->pairs_cap,
		 sizeof(*prog->pairs)))
		return -ENOMEM;
	prog->pairs[prog->npairs++] = (struct pw_ctl_pair){
		.a = (uint16_t)a, .b = (uint16_t)b };
	return 0;
}

/* The handle of shard @s of value @v on (@host, @dev), moving it there. */
static int shard_at(struct lowering *l, unsigned int v, unsigned int s,
		    unsigned int host, unsigned int dev, uint32_t tmp,
		    uint32_t *sym)
{
	const struct val *src = &l->vals[v];
	uint64_t bytes = pw_wire_sig_bytes(&src->sig);
	unsigned int sdev = src->at.devs[s], i, recv;
	struct pw_ctl_cmd *k, *snd;
	int ret;

	if (src->at.host == host && sdev == dev) {
		*sym = src->sym | s;
		return 0;
	}
	for (i = 0; i < l->nmoved; i++)
		if (l->moved[i].val == v && l->moved[i].shard == s &&
		    l->moved[i].member == l->member &&
		    l->moved[i].host == host && l->moved[i].dev == dev) {
			*sym = l->moved[i].sym;
			return 0;
		}
	if (grow((void **)&l->moved, l->nmoved, &l->moved_cap,
		 sizeof(*l->moved)))
		return -ENOMEM;
	*sym = tmp | s;
	l->moved[l->nmoved++] = (struct moved){ .val = v, .shard = s,
		.member = l->member,
		.host = (uint16_t)host, .dev = (uint8_t)dev, .sym = *sym };
	if (src->at.host == host) {
		k = emit(l, host, PW_WIRE_CMD_COPY_PEER, dev);
		if (!k)
			return l->err;
		k->c.peer_dev = (uint8_t)sdev;
		k->c.nin = 1;
		k->c.nout = 1;
		k->c.bytes = bytes;
		k->c.bufs[0] = src->sym | s;
		k->c.bufs[1] = *sym;
		return 0;
	}
	/* Both ends need a data plane (an in-process worker has none). */
	if (!l->c->isl[host].reg.data_port ||
	    !l->c->isl[src->at.host].reg.data_port)
		return -EOPNOTSUPP;
	ret = add_pair(l, host, src->at.host);
	if (ret)
		return ret;
	/* The target first: its READY can go while the value is made. */
	k = emit(l, host, PW_WIRE_CMD_DCN_RECV, dev);
	if (!k)
		return l->err;
	recv = (unsigned int)(k - l->prog->cmds);
	snd = emit(l, src->at.host, PW_WIRE_CMD_DCN_SEND, sdev);
	if (!snd)
		return l->err;
	k = &l->prog->cmds[recv];	/* the table may have moved */
	k->c.peer_dev = (uint8_t)sdev;
	k->c.peer_host = src->at.host;
	k->c.nout = 1;
	k->c.bytes = bytes;
	k->c.bufs[0] = *sym;
	snd->c.peer_dev = (uint8_t)dev;
	snd->c.peer_host = (uint16_t)host;
	snd->c.nin = 1;
	snd->c.bytes = bytes;
	snd->c.bufs[0] = src->sym | s;
	snd->c.peer_buf = *sym;
	return 0;
}

/*
 * Shard @s of value @v readable on @host: where it is, or moved there
 * once (to @dev, the first consumer's device, when it lives elsewhere).
 */
static int shard_on_host(struct lowering *l, unsigned int v, unsigned int s,
			 unsigned int host, unsigned int dev, uint32_t tmp,
			 uint32_t *sym)
{
	unsigned int i;

	if (l->vals[v].at.host == host) {
		*sym = l->vals[v].sym | s;
		return 0;
	}
	for (i = 0; i < l->nmoved; i++)
		if (l->moved[i].val == v && l->moved[i].shard == s &&
		    l->moved[i].member == l->member &&
		    l->moved[i].host == host) {
			*sym = l->moved[i].sym;
			return 0;
		}
	return shard_at(l, v, s, host, dev, tmp, sym);
}

/* COPY_PEER on @dev of @host: @bytes of @in[@n] concatenated, after @skip. */
static int gather(struct lowering *l, unsigned int host, unsigned int dev,
		  const uint32_t *in, unsigned int n, uint64_t skip,
		  uint64_t bytes, uint32_t out)
{
	struct pw_ctl_cmd *k;

	if (skip > UINT32_MAX)
		return -E2BIG;	/* a shard of 4 GiB and more */
	k = emit(l, host, PW_WIRE_CMD_COPY_PEER, dev);
	if (!k)
		return l->err;
	k->c.peer_dev = (uint8_t)dev;
	k->c.nin = (uint8_t)n;
	k->c.nout = 1;
	k->c.bytes = bytes;
	k->c.skip = (uint32_t)skip;
	memcpy(k->c.bufs, in, n * sizeof(in[0]));
	k->c.bufs[n] = out;
	return 0;
}

/*
 * Shard @d of @db bytes on @at, from value @v sharded otherwise: its
 * range of the value, gathered from the source shards that hold it.
 */
static int reshard(struct lowering *l, unsigned int v, unsigned int d,
		   const struct place *at, uint64_t db, uint32_t tmp,
		   uint32_t *sym)
{
	const struct val *src = &l->vals[v];
	uint64_t sb = pw_wire_sig_bytes(&src->sig), lo = d * db;
	unsigned int s0 = (unsigned int)(lo / sb);
	unsigned int s1 = (unsigned int)((lo + db - 1) / sb);
	unsigned int host = at->host, dev = at->devs[d], n = 0, s, j, k;
	bool grouped = s1 - s0 + 1 > GATHER_MAX;
	uint32_t in[GATHER_MAX], grp[GATHER_MAX];
	int ret;

	if (!sb || s1 >= src->at.n)
		return -EINVAL;
	/* One whole source shard (another shape of its bytes): a move. */
	if (s0 == s1 && lo == s0 * sb && db == sb)
		return shard_at(l, v, s0, host, dev, tmp, sym);
	for (s = s0; s <= s1; s += k) {
		k = s1 + 1 - s < GATHER_MAX ? s1 + 1 - s : GATHER_MAX;
		for (j = 0; j < k; j++) {
			ret = shard_on_host(l, v, s + j, host, dev, tmp,
					    grouped ? &grp[j] : &in[n++]);
			if (ret)
				return ret;
		}
		if (!grouped)
			break;
		/* Too many for one copy: groups of whole shards first. */
		if (n == GATHER_MAX)
			return -E2BIG;
		in[n] = new_temp(l) | d;
		ret = gather(l, host, dev, grp, k, 0, k * sb, in[n]);
		if (ret)
			return ret;
		n++;
	}
	*sym = new_temp(l) | d;
	return gather(l, host, dev, in, n, lo - s0 * sb, db, *sym);
}

/*
 * A device binds a buffer once per command: a shard passed twice (x + x)
 * gets a copy on the device for its second use.
 */
static int unalias(struct lowering *l, const struct place *at, unsigned int s,
		   uint64_t bytes, uint32_t *in, unsigned int i)
{
	struct pw_ctl_cmd *k;
	unsigned int j;

	for (j = 0; j < i && in[j] != in[i]; j++)
		;
	if (j == i)
		return 0;
	k = emit(l, at->host, PW_WIRE_CMD_COPY_PEER, at->devs[s]);
	if (!k)
		return l->err;
	k->c.peer_dev = at->devs[s];
	k->c.nin = 1;
	k->c.nout = 1;
	k->c.bytes = bytes;
	k->c.bufs[0] = in[i];
	k->c.bufs[1] = new_temp(l) | s;
	in[i] = k->c.bufs[1];
	return 0;
}

/* The commands of shard @s of computation @n (gang number @gang or 0). */
static int emit_shard(struct lowering *l, unsigned int n, unsigned int s,
		      const struct pw_ctl_fn *fn, const struct place *at,
		      const uint32_t *tmp, uint32_t gang)
{
	const struct pw_wire_prog_node *nd = &l->prog->nodes[n];
	uint32_t in[PW_WIRE_MAX_BUFS];
	unsigned int i, nout = node_outputs(l, n);
	struct pw_ctl_cmd *k;
	int ret, v;

	for (i = 0; i < nd->nin; i++) {
		v = edge_val(l, n, &nd->in[i]);
		if (l->vals[v].at.n == at->n &&
		    sig_equal(&l->vals[v].sig, &fn->pl.desc.sigs[i]))
			ret = shard_at(l, (unsigned int)v, s, at->host,
				       at->devs[s], tmp[i], &in[i]);
		else
			ret = reshard(l, (unsigned int)v, s, at,
				      pw_wire_sig_bytes(&fn->pl.desc.sigs[i]),
				      tmp[i], &in[i]);
		if (!ret)
			ret = unalias(l, at, s,
				      pw_wire_sig_bytes(&fn->pl.desc.sigs[i]),
				      in, i);
		if (ret)
			return ret;
	}
	k = emit(l, at->host, PW_WIRE_CMD_EXEC, at->devs[s]);
	if (!k)
		return l->err;
	k->c.fn_id = nd->fn_id;
	k->c.nin = nd->nin;
	k->c.nout = (uint8_t)nout;
	memcpy(k->c.bufs, in, nd->nin * sizeof(in[0]));
	for (i = 0; i < nout; i++)
		k->c.bufs[nd->nin + i] = l->vals[l->first[n] + i].sym | s;
	if (gang) {
		k->c.gang_id = gang;
		k->c.slice = at->slice;
		k->c.peer_dev = (uint8_t)s;	/* its rank */
	}
	return 0;
}

/*
 * The commands of computation @n on member @m of its group (of the
 * slice it is on, m 0): every input as that member has it.
 */
static int emit_member(struct lowering *l, unsigned int n, unsigned int m,
		       const struct pw_ctl_fn *fn, const uint32_t *tmp,
		       uint32_t gang)
{
	const struct pw_wire_prog_node *nd = &l->prog->nodes[n];
	uint16_t members;
	struct place at;
	unsigned int i, s;
	int ret;

	l->member = m;
	ret = node_place(l, nd->slice, nd->nshards, m, &at, &members);
	for (i = 0; !ret && i < nd->nin; i++)
		ret = set_member(l, (unsigned int)edge_val(l, n, &nd->in[i]),
				 m);
	for (s = 0; !ret && s < at.n; s++)
		ret = emit_shard(l, n, s, fn, &at, tmp, gang);
	return ret;
}

/*
 * Pass 2: the commands, in program order, every shard of a node
 * together (on a group, member after member).
 */
static int emit_commands(struct lowering *l)
{
	struct pw_ctl_program *prog = l->prog;
	uint32_t tmp[PW_WIRE_MAX_BUFS];
	unsigned int n, i, m;
	struct pw_ctl_fn *fn;
	uint16_t members;
	struct place at;
	uint32_t gang;
	int ret, v;

	for (n = 0; n < prog->nnodes; n++) {
		const struct pw_wire_prog_node *nd = &prog->nodes[n];

		if (nd->kind != PW_WIRE_NODE_COMPUTE)
			continue;
		fn = pw_ctl_fn_find(l->c, prog->client, nd->fn_id);
		ret = node_place(l, nd->slice, nd->nshards, 0, &at, &members);
		if (ret)
			return ret;
		for (i = 0; i < nd->nin; i++) {
			v = edge_val(l, n, &nd->in[i]);
			if (v < 0)
				return v;
			/* As many bytes of one dtype, however sharded. */
			if (l->vals[v].sig.dtype != fn->pl.desc.sigs[i].dtype ||
			    l->vals[v].at.n *
			    pw_wire_sig_bytes(&l->vals[v].sig) !=
			    at.n * pw_wire_sig_bytes(&fn->pl.desc.sigs[i]))
				return -EINVAL;
			/* Member m's value goes to member m. */
			if (l->vals[v].members != members)
				return -EINVAL;
			/* One temporary per moved input, its shards | v. */
			tmp[i] = new_temp(l);
		}
		gang = fn->pl.desc.flags & PW_WIRE_FN_COLLECTIVES ?
		       ++l->ngangs : 0;
		for (m = 0; m < (members ? members : 1u); m++) {
			ret = emit_member(l, n, m, fn, tmp, gang);
			if (ret)
				return ret;
		}
	}
	return 0;
}

/*
 * Group @l's commands by host, each host's in their order (a stable
 * counting sort), and note where each host's part is: a run then sends
 * each host its part without passing over the others'.
 */
static int group_by_host(struct lowering *l)
{
	struct pw_ctl_program *prog = l->prog;
	struct pw_ctl_cmd *sorted;
	unsigned int h, i, at = 0, p = 0;

	sorted = malloc(prog->ncmds * sizeof(*sorted));
	prog->nparts = pw_hostset_count(&prog->hosts);
	prog->parts = calloc(prog->nparts, sizeof(*prog->parts));
	if (!sorted || !prog->parts) {
		free(sorted);
		return -ENOMEM;
	}
	pw_hostset_for_each(h, &prog->hosts) {
		prog->parts[p++] = (struct pw_ctl_part){
			.host = h, .first = at, .n = l->host_cmds[h] };
		l->host_cmds[h] = at;	/* now where its next one goes */
		at += prog->parts[p - 1].n;
	}
	for (i = 0; i < prog->ncmds; i++)
		sorted[l->host_cmds[prog->cmds[i].host]++] = prog->cmds[i];
	free(prog->cmds);
	prog->cmds = sorted;
	return 0;
}

int pw_ctl_lower(struct pw_controller *c, struct pw_ctl_program *prog)
{
	struct lowering l = { .c = c, .prog = prog };
	unsigned int n, nvals = 0, shards = 0;
	int ret = -ENOMEM;

	for (n = 0; n < prog->nnodes; n++) {
		nvals += prog->nodes[n].kind == PW_WIRE_NODE_COMPUTE ?
			PW_WIRE_MAX_BUFS : 1;
		shards += prog->nodes[n].kind == PW_WIRE_NODE_COMPUTE ?
			  prog->nodes[n].nshards : 0;
	}
	/* Commands and moves grow as they come; a guess to start with. */
	l.cap = shards + 1;
	l.vals = calloc(nvals, sizeof(*l.vals));
	l.first = calloc(prog->nnodes + 1, sizeof(*l.first));
	l.host_cmds = calloc(PW_MAX_HOSTS, sizeof(*l.host_cmds));
	prog->cmds = calloc(l.cap, sizeof(*prog->cmds));
	if (l.vals && l.first && l.host_cmds && prog->cmds)
		ret = assign_values(&l);
	if (!ret)
		ret = emit_commands(&l);
	if (!ret && !prog->ncmds)
		ret = -EINVAL;	/* nothing to run */
	/* Temporaries' numbers must stay below the symbol bits. */
	if (!ret && (uint64_t)l.ntemps << PW_WIRE_SHARD_BITS >= PW_WIRE_BUF_TEMP)
		ret = -E2BIG;
	if (!ret)
		ret = group_by_host(&l);
	free(l.vals);
	free(l.first);
	free(l.moved);
	free(l.host_cmds);
	free(l.member_slice);
	if (ret) {
		free(prog->cmds);
		free(prog->parts);
		free(prog->pairs);
		prog->cmds = NULL;
		prog->parts = NULL;
		prog->pairs = NULL;
		prog->npairs = 0;
		prog->ncmds = 0;
		prog->nparts = 0;
		pw_hostset_clear(&prog->hosts);
		return ret;
	}
	prog->lowered = true;
	return 0;
}
