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

/*
 * A retransmission carries the current ack (pw_wire_patch_ack(), as
 * rchan.c does it): with or without an ack, marked or not, and the
 * oldest base the window allows, it still decodes, to the same message.
 */
static void patch_ack_keeps_it(const struct pw_wire_msg *msg,
			       const uint8_t *data, size_t size)
{
	static const uint16_t flags[] = {
		PW_WIRE_F_ACK, PW_WIRE_F_ACK | PW_WIRE_F_RETRANS,
		PW_WIRE_F_RETRANS, 0,
	};
	uint8_t patched[PW_WIRE_MAX_DGRAM];
	struct pw_wire_msg again;
	uint64_t sack = 0;
	unsigned int i;

	memcpy(&sack, data, size < sizeof(sack) ? size : sizeof(sack));
	for (i = 0; i < sizeof(flags) / sizeof(flags[0]); i++) {
		memcpy(patched, data, size);
		pw_wire_patch_ack(patched, flags[i],
				  msg->hdr.seq - (PW_WIRE_MAX_WINDOW - 1),
				  msg->hdr.session, msg->hdr.seq, sack);
		if (pw_wire_decode(&again, patched, size) != PW_WIRE_OK ||
		    again.hdr.type != msg->hdr.type ||
		    again.hdr.seq != msg->hdr.seq ||
		    again.hdr.session != msg->hdr.session ||
		    memcmp(&again.body, &msg->body, sizeof(msg->body)))
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static uint8_t out[PW_WIRE_MAX_DGRAM];
	struct pw_wire_msg msg;
	enum pw_wire_err err;
	int len;

	err = pw_wire_decode(&msg, data, size);
	if (err != PW_WIRE_OK) {
		if (!strcmp(pw_wire_err_name(err), "?"))
			abort();	/* every reason has a name to count by */
		return 0;
	}
	if (pw_wire_size(&msg) != (int)size)
		abort();
	len = pw_wire_encode(&msg, out, sizeof(out));
	if (len != (int)size || memcmp(out, data, size))
		abort();	/* "a message that decodes re-encodes the same" */
	if (msg.hdr.type != PW_WIRE_ACK)
		patch_ack_keeps_it(&msg, data, size);
	return 0;
}
