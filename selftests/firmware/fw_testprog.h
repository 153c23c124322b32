/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fw_testprog.h - program images for the firmware unit tests, built by
 * filling the UAPI structs directly: the tests do not depend on the
 * user-space builder (lib/pwprog.c) they are meant to check against.
 */
#ifndef FW_TESTPROG_H
#define FW_TESTPROG_H

#include <stdlib.h>
#include <string.h>

#include "../../firmware/pwfw.h"

#define NO PWTPU_NO_TENSOR

/* One past every limit, so tests can build programs just over them. */
#define TP_TENSORS	(PWTPU_MAX_TENSORS + 1)
#define TP_INSNS	(PWTPU_MAX_INSNS + 1)
#define TP_IMAGE_BYTES	(sizeof(struct pwtpu_prog_header) + \
			 TP_TENSORS * sizeof(struct pwtpu_tensor) + \
			 TP_INSNS * sizeof(struct pwtpu_insn) + 64)

/**
 * struct tp - a program under construction
 * @nbufs: header nbufs.
 * @nt: tensors so far.
 * @ni: instructions so far.
 * @next: next free offset in binding 0 for tp_t().
 * @t: tensors.
 * @in: instructions.
 * @img: the image tp_image() lays out (u64: 8-byte aligned).
 */
struct tp {
	u32 nbufs;
	u32 nt;
	u32 ni;
	u64 next;
	struct pwtpu_tensor t[TP_TENSORS];
	struct pwtpu_insn in[TP_INSNS];
	u64 img[TP_IMAGE_BYTES / 8];
};

static inline void tp_reset(struct tp *p, u32 nbufs)
{
	p->nbufs = nbufs;
	p->nt = 0;
	p->ni = 0;
	p->next = 0;
	memset(p->t, 0, sizeof(p->t));
	memset(p->in, 0, sizeof(p->in));
}

/* A tensor at @off in binding @buf; returns its index. */
static inline u16 tp_at(struct tp *p, u32 dtype, u32 buf, u64 off,
			u32 rank, const u32 *shape)
{
	struct pwtpu_tensor *t = &p->t[p->nt];
	u32 k;

	t->dtype = (u8)dtype;
	t->rank = (u8)rank;
	t->buf = buf;
	t->offset = off;
	for (k = 0; k < rank && k < PWTPU_MAX_RANK; k++)
		t->shape[k] = shape[k];
	return (u16)p->nt++;
}

/* A tensor in binding 0 after all earlier tp_new() ones. */
static inline u16 tp_new(struct tp *p, u32 dtype, u32 rank,
			 const u32 *shape)
{
	u16 i = tp_at(p, dtype, 0, p->next, rank, shape);

	/* 64-byte steps keep every dtype aligned. */
	p->next += (pwfw_tensor_elems(&p->t[i]) * pwfw_dtype_size(dtype) +
		    63) & ~63ULL;
	return i;
}

#define TP_SHAPE(...) (const u32[]){ __VA_ARGS__ }
#define TP_RANK(...) (u32)(sizeof(TP_SHAPE(__VA_ARGS__)) / sizeof(u32))
/* TP_T(p, PWTPU_DT_F32, 2, 3) is a new f32 [2,3] tensor. */
#define TP_T(p, dtype, ...) \
	tp_new(p, dtype, TP_RANK(__VA_ARGS__), TP_SHAPE(__VA_ARGS__))
#define TP_AT(p, dtype, buf, off, ...) \
	tp_at(p, dtype, buf, off, TP_RANK(__VA_ARGS__), TP_SHAPE(__VA_ARGS__))
#define TP_SCALAR(p, dtype) tp_new(p, dtype, 0, NULL)

/* An instruction; returns it for setting mode and args. */
static inline struct pwtpu_insn *tp_op(struct tp *p, u32 op, u16 dst,
				       u16 a, u16 b, u16 c)
{
	struct pwtpu_insn *in = &p->in[p->ni++];

	in->op = (u8)op;
	in->dst = dst;
	in->src[0] = a;
	in->src[1] = b;
	in->src[2] = c;
	return in;
}

static inline struct pwtpu_insn *tp_loop(struct tp *p, u32 trips, u32 len)
{
	struct pwtpu_insn *in = tp_op(p, PWTPU_OP_LOOP, NO, NO, NO, NO);

	in->arg[0] = trips;
	in->arg[1] = len;
	return in;
}

static inline struct pwtpu_insn *tp_delay(struct tp *p, u64 ns)
{
	struct pwtpu_insn *in = tp_op(p, PWTPU_OP_DELAY, NO, NO, NO, NO);

	in->arg[0] = (u32)ns;
	in->arg[1] = (u32)(ns >> 32);
	return in;
}

static inline struct pwtpu_prog_header *tp_hdr(struct tp *p)
{
	return (struct pwtpu_prog_header *)p->img;
}

/* Lay the program out in p->img; returns the image size. */
static inline size_t tp_image(struct tp *p)
{
	struct pwtpu_prog_header *h = tp_hdr(p);
	char *at = (char *)(h + 1);

	memset(p->img, 0, sizeof(p->img));
	h->magic = PWTPU_PROG_MAGIC;
	h->version = PWTPU_PROG_VERSION;
	h->ntensors = p->nt;
	h->ninsns = p->ni;
	h->nbufs = p->nbufs;
	memcpy(at, p->t, p->nt * sizeof(p->t[0]));
	at += p->nt * sizeof(p->t[0]);
	memcpy(at, p->in, p->ni * sizeof(p->in[0]));
	at += p->ni * sizeof(p->in[0]);
	return (size_t)(at - (char *)p->img);
}

static inline int tp_verify(struct tp *p, struct pwfw_prog *prog,
			    struct pwfw_verr *err)
{
	struct pwfw_spec spec;
	size_t size = tp_image(p);

	pwfw_spec_default(&spec);
	return pwfw_verify(p->img, size, &spec, prog, err);
}

#endif /* FW_TESTPROG_H */
