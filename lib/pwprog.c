// SPDX-License-Identifier: GPL-2.0
/*
 * pwprog.c - build pwtpu program images (include/pwtpu/pwprog.h).
 *
 * The builder only lays out what it is given: it refuses what the image
 * format cannot represent (a rank above PWTPU_MAX_RANK, an operand index
 * that does not fit in 16 bits, more than 5 args) and leaves every other
 * judgement to the verifier, so that tests can build bad programs too.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <pwtpu/pwprog.h>

struct pwprog {
	uint32_t nbufs;
	struct pwtpu_tensor *tensors;
	uint32_t ntensors;
	uint32_t tensors_cap;
	struct pwtpu_insn *insns;
	uint32_t ninsns;
	uint32_t insns_cap;
};

/* Largest count an int result can index. */
#define PWPROG_MAX_ITEMS	(1U << 30)

struct pwprog *pwprog_new(uint32_t nbufs)
{
	struct pwprog *p = calloc(1, sizeof(*p));

	if (p)
		p->nbufs = nbufs;
	return p;
}

void pwprog_free(struct pwprog *p)
{
	if (!p)
		return;
	free(p->tensors);
	free(p->insns);
	free(p);
}

/* Make room for one more item of @size bytes in *@arr. */
static int pwprog_grow(void **arr, uint32_t *cap, uint32_t count, size_t size)
{
	uint32_t ncap;
	void *n;

	if (count < *cap)
		return 0;
	if (count >= PWPROG_MAX_ITEMS)
		return -ENOSPC;
	ncap = *cap ? *cap * 2 : 16;
	n = realloc(*arr, (size_t)ncap * size);
	if (!n)
		return -ENOMEM;
	*arr = n;
	*cap = ncap;
	return 0;
}

int pwprog_tensor(struct pwprog *p, enum pwtpu_dtype dtype, uint32_t rank,
		  const uint32_t *shape, uint32_t buf, uint64_t offset)
{
	struct pwtpu_tensor *t;
	int ret;

	if (!p || rank > PWTPU_MAX_RANK || (rank && !shape) ||
	    (uint32_t)dtype > 0xff)
		return -EINVAL;
	/* Index PWTPU_NO_TENSOR means "no operand": stop below it. */
	if (p->ntensors >= PWTPU_NO_TENSOR)
		return -ENOSPC;
	ret = pwprog_grow((void **)&p->tensors, &p->tensors_cap, p->ntensors,
			  sizeof(*p->tensors));
	if (ret)
		return ret;
	t = &p->tensors[p->ntensors];
	memset(t, 0, sizeof(*t));
	t->dtype = (uint8_t)dtype;
	t->rank = (uint8_t)rank;
	t->buf = buf;
	t->offset = offset;
	if (rank)
		memcpy(t->shape, shape, rank * sizeof(*shape));
	return (int)p->ntensors++;
}

/* An operand as the image stores it, or a negative error. */
static int pwprog_operand(int t)
{
	if (t < 0)
		return t;	/* an error from an earlier call: pass it on */
	if (t > PWTPU_NO_TENSOR)
		return -EINVAL;
	return t;
}

int pwprog_insn(struct pwprog *p, enum pwtpu_op op, uint8_t mode, int dst,
		int src0, int src1, int src2, const uint32_t *args,
		uint32_t nargs)
{
	int ops[4] = { dst, src0, src1, src2 };
	struct pwtpu_insn *in;
	int k, ret;

	if (!p || nargs > 5 || (nargs && !args) || (uint32_t)op > 0xff)
		return -EINVAL;
	for (k = 0; k < 4; k++) {
		ops[k] = pwprog_operand(ops[k]);
		if (ops[k] < 0)
			return ops[k];
	}
	ret = pwprog_grow((void **)&p->insns, &p->insns_cap, p->ninsns,
			  sizeof(*p->insns));
	if (ret)
		return ret;
	in = &p->insns[p->ninsns];
	memset(in, 0, sizeof(*in));
	in->op = (uint8_t)op;
	in->mode = mode;
	in->dst = (uint16_t)ops[0];
	for (k = 0; k < 3; k++)
		in->src[k] = (uint16_t)ops[k + 1];
	if (nargs)
		memcpy(in->arg, args, nargs * sizeof(*args));
	return (int)p->ninsns++;
}

int pwprog_unary(struct pwprog *p, enum pwtpu_op op, int dst, int a)
{
	return pwprog_insn(p, op, 0, dst, a, PWTPU_NO_TENSOR, PWTPU_NO_TENSOR,
			   NULL, 0);
}

int pwprog_binary(struct pwprog *p, enum pwtpu_op op, int dst, int a, int b)
{
	return pwprog_insn(p, op, 0, dst, a, b, PWTPU_NO_TENSOR, NULL, 0);
}

void *pwprog_image(const struct pwprog *p, size_t *size)
{
	struct pwtpu_prog_header h = {
		.magic = PWTPU_PROG_MAGIC,
		.version = PWTPU_PROG_VERSION,
		.ntensors = p->ntensors,
		.ninsns = p->ninsns,
		.nbufs = p->nbufs,
	};
	size_t tbytes = (size_t)p->ntensors * sizeof(*p->tensors);
	size_t ibytes = (size_t)p->ninsns * sizeof(*p->insns);
	size_t total = sizeof(h) + tbytes + ibytes;
	/* malloc's alignment suits the verifier's 8-byte requirement. */
	unsigned char *img = malloc(total);

	if (!img)
		return NULL;
	memcpy(img, &h, sizeof(h));
	if (tbytes)
		memcpy(img + sizeof(h), p->tensors, tbytes);
	if (ibytes)
		memcpy(img + sizeof(h) + tbytes, p->insns, ibytes);
	*size = total;
	return img;
}
