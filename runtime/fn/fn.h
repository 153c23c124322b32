/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fn.h - a compiled function inside libpathways: the program image the
 * builder made (runtime/fn/), its signature and buffer layout, and the
 * per-device state the worker loads lazily (runtime/worker/).
 *
 * Buffer bindings of the image, in this order:
 *   0 .. nparams-1                 one per parameter (a shard each)
 *   nparams .. nparams+nresults-1  one per result
 *   scratch_buf                    intermediates, if any (else -1)
 *   const_buf                      constants, if any (else -1)
 * Every tensor of a parameter or result starts at offset 0 of its
 * binding; scratch and constants are packed at 64-byte aligned offsets.
 */
#ifndef PW_RUNTIME_FN_H
#define PW_RUNTIME_FN_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include <pathways/pathways.h>

/**
 * struct pw_sig - dtype and shape of a parameter or result shard
 * @dtype: enum pwtpu_dtype.
 * @rank: 0..PW_MAX_RANK.
 * @shape: extents; entries past @rank are 0.
 */
struct pw_sig {
	uint32_t dtype;
	uint32_t rank;
	uint32_t shape[PW_MAX_RANK];
};

/* Bytes of one tensor of @sig. */
uint64_t pw_sig_bytes(const struct pw_sig *sig);
bool pw_sig_equal(const struct pw_sig *a, const struct pw_sig *b);
/* "f32[2,3]" into @buf; returns @buf. */
const char *pw_sig_format(const struct pw_sig *sig, char *buf, size_t size);
/* A checked signature; -EINVAL with a message naming what is wrong. */
int pw_sig_make(struct pw_sig *sig, enum pwtpu_dtype dtype,
		unsigned int rank, const uint32_t *shape);

/**
 * struct pw_fn_dev - the function loaded on one device (worker-owned)
 * @loaded: the fields below are valid.
 * @gen: generation of the controller (worker) that loaded it; state
 *	loaded by a controller that has since gone is stale, not valid
 *	(generations never repeat, addresses may).
 * @prog: program handle in the worker's file of the device.
 * @scratch_bo: buffer object for intermediates (0 if none).
 * @const_bo: buffer object holding the constants (0 if none).
 */
struct pw_fn_dev {
	bool loaded;
	uint64_t gen;
	uint32_t prog;
	uint32_t scratch_bo;
	uint32_t const_bo;
};

/**
 * struct pw_fn - a compiled function
 * @refs: references; the last pw_fn_put() unloads and frees it.
 * @id: unique in the process.
 * @name: the builder's name.
 * @image: the program image (include/uapi/pwtpu.h format), @image_size
 *	bytes; compiled once, loaded on every device that runs it (all
 *	devices of an island are one kind).
 * @nparams: parameters; @params their signatures.
 * @nresults: results; @results their signatures.
 * @nbufs: bindings of an EXEC (see the layout above).
 * @scratch_buf: binding of the scratch buffer, or -1.
 * @scratch_bytes: its size.
 * @const_buf: binding of the constants, or -1.
 * @const_data: their bytes (@const_bytes), uploaded at load.
 * @collectives: the function has collectives: every EXEC needs a gang.
 * @group_size: slice size the collectives' shapes require, 0 for any.
 * @has_permute: the function has a COLLECTIVE_PERMUTE by @permute_shift.
 * @permute_shift: virtual device v receives from (v - shift) mod n.
 * @lock: guards @dev.
 * @dev: per-device state, indexed by island device.
 * @owner: the client that built it (NULL while only a builder's), for
 *	collection at disconnect.
 */
struct pw_fn {
	atomic_int refs;
	uint64_t id;
	char name[64];
	void *image;
	size_t image_size;
	unsigned int nparams;
	unsigned int nresults;
	struct pw_sig *params;
	struct pw_sig *results;
	unsigned int nbufs;
	int scratch_buf;
	uint64_t scratch_bytes;
	int const_buf;
	void *const_data;
	uint64_t const_bytes;
	bool collectives;
	unsigned int group_size;
	bool has_permute;
	int permute_shift;
	pthread_mutex_t lock;
	struct pw_fn_dev dev[PW_RM_MAX_DEVICES];
	struct pw_client *owner;
};

struct pw_fn *pw_fn_get(struct pw_fn *fn);

/*
 * Worker side (runtime/worker/): release what @fn loaded on devices.
 * Called by the last pw_fn_put() before it frees @fn.
 */
void pw_worker_unload_fn(struct pw_fn *fn);

/*
 * Require of every slice @b's function is called on @n devices (what a
 * StableHLO module's replica groups say), as ALL_GATHER's shapes do:
 * -EINVAL, sticky, when another collective already requires another n.
 */
int pw_fn_builder_require_group(struct pw_fn_builder *b, unsigned int n);
/* Value @v's dtype and shape: 0, or -EINVAL when @b has no such value. */
int pw_fn_builder_sig(const struct pw_fn_builder *b, pw_val v,
		      struct pw_sig *sig);

/*
 * Bytes binding @b of an EXEC of @fn holds (the layout above), or 0
 * for a binding the layout does not name.
 */
uint64_t pw_fn_binding_bytes(const struct pw_fn *fn, unsigned int b);

/* Thread-local error message (runtime/util/error.c). */
int pw_fail(int err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* PW_RUNTIME_FN_H */
