// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_fnpayload.c - libFuzzer harness: the input is a compiled
 * function's FUNCTION payload (head, program image, constants) as a
 * client would ship it, its first byte choosing how it is cut into
 * parts. The worker's and controller's reassembly (runtime/dcn/
 * fnpayload.c) must either refuse it and keep nothing, or hand over a
 * head that holds (sizes add up to the payload, counts in bounds), whose
 * image then goes to the verifier as the worker's PROG_LOAD would send it.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "../../firmware/pwfw.h"
#include "../../runtime/dcn/fnpayload.h"
#include "fuzz.h"

static void check_head(const struct pw_fn_payload *pl)
{
	const struct pw_wire_fn_desc *d = &pl->desc;

	if ((uint64_t)PW_WIRE_FN_DESC_SIZE + d->image_bytes + d->const_bytes !=
	    pl->total || !d->image_bytes || d->nbufs > PW_WIRE_MAX_BUFS ||
	    d->nparams + d->nresults > d->nbufs)
		abort();
}

/* The image, in exactly its bytes, through the device's verifier. */
static void verify_image(const struct pw_fn_payload *pl)
{
	uint32_t n = pl->desc.image_bytes;
	struct pwfw_spec spec;
	struct pwfw_prog prog;
	struct pwfw_verr err;
	void *image = malloc(n);

	if (!image)
		abort();
	memcpy(image, pl->bytes + PW_WIRE_FN_DESC_SIZE, n);
	pwfw_spec_default(&spec);
	pwfw_verify(image, n, &spec, &prog, &err);
	free(image);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pw_fn_payload pl = { 0 };
	struct pw_wire_function w;
	uint32_t chunk, off;
	int ret = 0;

	/* What the codec lets through: total within its bounds. */
	if (size < 1 + PW_WIRE_FN_DESC_SIZE || size - 1 > PW_WIRE_MAX_FN_BYTES)
		return 0;
	chunk = 1 + (data[0] & 0x7f) * 37 % PW_WIRE_FN_CHUNK;
	data++;
	size--;
	memset(&w, 0, sizeof(w));
	w.fn_id = 1;
	w.total = (uint32_t)size;
	for (off = 0; off < size && ret == 0; off += w.nbytes) {
		w.offset = off;
		w.nbytes = (uint16_t)(size - off < chunk ? size - off : chunk);
		memcpy(w.data, data + off, w.nbytes);
		ret = pw_fn_payload_add(&pl, &w);
		if (ret == 0 && pl.received != off + w.nbytes)
			abort();
	}
	if (ret < 0) {
		/* Refused: nothing kept (-EINVAL: a bad head). */
		if (ret != -EINVAL || pl.bytes || pl.total || pl.complete)
			abort();
		return 0;
	}
	if (ret != 1 || !pl.complete || off != size)
		abort();
	check_head(&pl);
	verify_image(&pl);
	/*
	 * The last part again breaks the order: all is dropped (unless it
	 * was the only one: a part at offset 0 starts a new registration).
	 */
	if (w.offset && (pw_fn_payload_add(&pl, &w) != -EPROTO || pl.bytes))
		abort();
	pw_fn_payload_free(&pl);
	return 0;
}
