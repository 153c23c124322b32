// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_wire.c - libFuzzer harness: the input is one datagram off the
 * DCN. pw_wire_decode() trusts nothing (include/pathways/wire.h): it
 * must reject it with a named reason, or accept a message that re-encodes
 * to the very same bytes, whose size pw_wire_size() agrees with, and
 * that a retransmission's ack patch leaves decodable.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <pathways/wire.h>
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t out[PW_WIRE_MAX_DGRAM];
	struct pw_wire_msg msg, again;
	enum pw_wire_err err;
	uint8_t *dgram;
	int len;

	dgram = fuzz_dup(data, size);
	err = pw_wire_decode(&msg, dgram, size);
	if (err != PW_WIRE_OK) {
		if (!strcmp(pw_wire_err_name(err), "?"))
			abort();	/* every reason has a name to count by */
		free(dgram);
		return 0;
	}
	if (pw_wire_size(&msg) != (int)size)
		abort();
	len = pw_wire_encode(&msg, out, sizeof(out));
	if (len != (int)size || memcmp(out, dgram, size))
		abort();	/* "a message that decodes re-encodes the same" */
	if (msg.hdr.type != PW_WIRE_ACK) {
		/* A retransmission carries the current ack: still valid. */
		pw_wire_patch_ack(dgram, PW_WIRE_F_ACK, msg.hdr.seq,
				  msg.hdr.session, msg.hdr.seq, 5);
		if (pw_wire_decode(&again, dgram, size) != PW_WIRE_OK)
			abort();
	}
	free(dgram);
	return 0;
}
