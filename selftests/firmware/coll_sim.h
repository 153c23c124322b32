/* SPDX-License-Identifier: GPL-2.0 */
/*
 * coll_sim.h - simulated islands for the collective tests: an island of
 * the firmware with the user-space host (firmware/user/pwfw_user.h), one
 * pthread per device running pwfw_exec() like a device queue would, and
 * builders for one-collective programs and gangs.
 */
#ifndef COLL_SIM_H
#define COLL_SIM_H

#include <stddef.h>

#include "../../firmware/pwfw_island.h"
#include "../../firmware/user/pwfw_user.h"
#include "fw_testprog.h"

#define SIM_MAX_DEV	8
#define SIM_MAX_EXECS	4	/* per device thread */
#define SIM_POISON	0xa5

/**
 * struct sim - one island
 * @ui: its user-space host.
 * @isl: the island.
 * @spec: the device spec it was made with (default).
 * @ndev: devices.
 */
struct sim {
	struct pwfw_user_island ui;
	struct pwfw_island *isl;
	struct pwfw_spec spec;
	u32 ndev;
};

/* 0, or -1 with a message on stderr. */
int sim_init(struct sim *s, const char *mesh, u32 ndev, u64 timeout_ms);
void sim_fini(struct sim *s);

/**
 * struct sim_prog - a verified program of one collective
 * @tp: the builder, which holds the image.
 * @prog: the verified program.
 * @a_off: byte offset of a in binding 0.
 * @d_off: byte offset of dst.
 * @a_elems: elements of a.
 * @d_elems: elements of dst.
 * @esize: bytes per element.
 * @bytes: size binding 0 needs.
 */
struct sim_prog {
	struct tp *tp;
	struct pwfw_prog prog;
	u64 a_off;
	u64 d_off;
	u64 a_elems;
	u64 d_elems;
	u32 esize;
	size_t bytes;
};

/*
 * dst = @op (@mode) of a, dtype @dtype, a of shape @ashape and dst of
 * @dshape (ranks @arank, @drank). 0, or -1 when it does not verify.
 */
int sim_prog_coll(struct sim_prog *sp, u32 op, u32 mode, u32 dtype,
		  u32 arank, const u32 *ashape, u32 drank, const u32 *dshape);
/* Verify the program built in sp->tp (tensors in binding 0). */
int sim_prog_verify(struct sim_prog *sp);
void sim_prog_free(struct sim_prog *sp);

/*
 * A gang of @n members on devices @devs, replica groups @group (NULL:
 * all 0), permute targets @permute (gang ranks; NULL: none), as rank 0.
 */
void sim_gang(struct pwtpu_gang *g, u64 id, u32 n, const u32 *devs,
	      const u32 *group, const u32 *permute);
/* A fresh gang id, never used before in this process. */
u64 sim_gang_id(void);

/**
 * struct sim_exec - one EXEC of one device
 * @prog: the program; NULL: this slot is empty.
 * @mem: binding 0.
 * @size: its bytes.
 * @gang: the gang, rank set for this member.
 * @env: island, device, gang, compute; link_ns comes back here.
 * @ret: pwfw_exec()'s result.
 */
struct sim_exec {
	const struct pwfw_prog *prog;
	void *mem;
	size_t size;
	struct pwtpu_gang gang;
	struct pwfw_exec_env env;
	int ret;
};

/*
 * Run @nthreads device threads at once; thread t runs its execs
 * x[t][0..SIM_MAX_EXECS) in order, skipping empty ones. 0, or -1 when a
 * thread could not be started.
 */
int sim_run(struct sim_exec x[][SIM_MAX_EXECS], u32 nthreads);

/*
 * Fill @x for a member of gang @g at gang rank @rank running @sp over
 * @mem (poisoned, SIM_POISON) in the island of @s.
 */
void sim_exec_init(struct sim_exec *x, struct sim *s,
		   const struct sim_prog *sp, void *mem,
		   const struct pwtpu_gang *g, u32 rank);

#endif /* COLL_SIM_H */
