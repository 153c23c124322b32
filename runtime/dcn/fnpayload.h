/* SPDX-License-Identifier: GPL-2.0 */
/*
 * fnpayload.h - a compiled function's FUNCTION payload (head, program
 * image, constants) as the client, controller and worker handle it
 * (runtime/dcn/fnpayload.c): cut into FUNCTION parts, put back together
 * from them in order, its head checked once the last part is in.
 */
#ifndef PW_RUNTIME_DCN_FNPAYLOAD_H
#define PW_RUNTIME_DCN_FNPAYLOAD_H

#include <stdbool.h>
#include <stdint.h>

#include <pathways/wire.h>

#include "node.h"

/**
 * struct pw_fn_payload - a payload being received, or received
 * @bytes: @received of @total bytes so far.
 * @total: see @bytes.
 * @received: see @bytes.
 * @complete: every byte came and @desc checked out.
 * @desc: the head.
 */
struct pw_fn_payload {
	uint8_t *bytes;
	uint32_t total;
	uint32_t received;
	bool complete;
	struct pw_wire_fn_desc desc;
};

/*
 * Part @w into @pl: an offset-0 part starts over (a registration replaces
 * the last). 0 while parts are missing, 1 when complete and checked;
 * -EPROTO for a part out of order, -ENOMEM, -EINVAL for a bad head; on
 * any error @pl is emptied.
 */
int pw_fn_payload_add(struct pw_fn_payload *pl,
		      const struct pw_wire_function *w);
void pw_fn_payload_free(struct pw_fn_payload *pl);

struct pw_fn;

/* The head of @fn's payload: its signature and buffer layout. */
void pw_fn_payload_desc(const struct pw_fn *fn, struct pw_wire_fn_desc *d);
/*
 * A payload of head @d, then @d->image_bytes of @image and
 * @d->const_bytes of @consts: malloc'd, *@total bytes; NULL on ENOMEM.
 */
uint8_t *pw_fn_payload_pack(const struct pw_wire_fn_desc *d,
			    const void *image, const void *consts,
			    uint32_t *total);

/*
 * Send @total bytes at @bytes as FUNCTION @fn_id of @client (0 from a
 * client) to @peer, in parts: 0 or -errno of pw_node_send().
 */
int pw_fn_payload_send(struct pw_node *node, struct pw_node_peer *peer,
		       uint32_t fn_id, uint32_t client, const uint8_t *bytes,
		       uint32_t total);

#endif /* PW_RUNTIME_DCN_FNPAYLOAD_H */
