// SPDX-License-Identifier: GPL-2.0
/*
 * test_wire.c - the DCN control message codec (include/pathways/wire.h):
 * round trips of every type, the byte layout on the wire, each rejection
 * reason from crafted datagrams, truncation at every length, flipped
 * bytes, and a seeded fuzz whose accepted datagrams must re-encode to
 * themselves (so nothing malformed is ever accepted).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kselftest_harness.h"
#include "net_common.h"
#include "pathways/wire.h"

#define H PW_WIRE_HDR_SIZE
#define BODY(type, field) (H + offsetof(type, field))

static int encode_random(uint8_t *buf, unsigned int type, uint64_t *rng)
{
	struct pw_wire_msg m;

	net_gen_msg(&m, type, rng);
	return pw_wire_encode(&m, buf, PW_WIRE_MAX_DGRAM);
}

/*
 * An accepted datagram must be exactly what encoding its decoded message
 * gives: nothing ignored, nothing reinterpreted.
 */
static int canonical(const uint8_t *buf, size_t len)
{
	uint8_t again[PW_WIRE_MAX_DGRAM];
	struct pw_wire_msg m;
	int n;

	if (pw_wire_decode(&m, buf, len) != PW_WIRE_OK)
		return -1;
	n = pw_wire_encode(&m, again, sizeof(again));
	return n == (int)len && !memcmp(again, buf, len);
}

TEST(names)
{
	unsigned int i, j;

	for (i = 0; i < PW_WIRE_NERR; i++) {
		ASSERT_STRNE("?", pw_wire_err_name(i));
		for (j = 0; j < i; j++)
			ASSERT_STRNE(pw_wire_err_name(j), pw_wire_err_name(i));
	}
	ASSERT_STREQ("?", pw_wire_err_name(PW_WIRE_NERR));
	for (i = PW_WIRE_ACK; i < PW_WIRE_NTYPES; i++)
		ASSERT_STRNE("?", pw_wire_type_name(i));
	ASSERT_STREQ("?", pw_wire_type_name(0));
	ASSERT_STREQ("?", pw_wire_type_name(PW_WIRE_NTYPES));
}

TEST(round_trip_every_type)
{
	uint8_t buf[PW_WIRE_MAX_DGRAM];
	struct pw_wire_msg in, out;
	uint64_t rng = 1;
	unsigned int type, i;

	for (type = PW_WIRE_ACK; type < PW_WIRE_NTYPES; type++) {
		for (i = 0; i < 300; i++) {
			int len;

			net_gen_msg(&in, type, &rng);
			len = pw_wire_encode(&in, buf, sizeof(buf));
			ASSERT_EQ(pw_wire_size(&in), len)
				TH_LOG("%s", pw_wire_type_name(type));
			ASSERT_LE(len, PW_WIRE_MAX_DGRAM);
			ASSERT_EQ(PW_WIRE_OK,
				  (int)pw_wire_decode(&out, buf, len))
				TH_LOG("%s: %s", pw_wire_type_name(type),
				       pw_wire_err_name(
					       pw_wire_decode(&out, buf, len)));
			/* Filled in by encode, the rest must come back. */
			in.hdr.magic = PW_WIRE_MAGIC;
			in.hdr.version = PW_WIRE_VERSION;
			in.hdr.length = len;
			ASSERT_EQ(0, memcmp(&in, &out, sizeof(in)))
				TH_LOG("%s #%u", pw_wire_type_name(type), i);
			ASSERT_EQ(1, canonical(buf, len));
		}
	}
}

/* The bytes on the wire, independent of the host's byte order. */
TEST(little_endian_layout)
{
	uint8_t buf[PW_WIRE_MAX_DGRAM];
	struct pw_wire_msg m;
	int len;

	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_REGISTER;
	m.hdr.flags = PW_WIRE_F_ACK;
	m.hdr.src_node = 0x04030201;
	m.hdr.dst_node = 7;
	m.hdr.session = 0x11223344;
	m.hdr.seq = 0x100;
	m.hdr.base = 0xff;
	m.hdr.ack_session = 9;
	m.hdr.ack = 0x55;
	m.hdr.sack = 0x0102030405060708ull;
	m.body.reg.ndevices = 8;
	m.body.reg.data_port = 0x1234;
	m.body.reg.hbm_bytes = 64ull << 20;
	m.body.reg.data_ip[0] = 10;
	m.body.reg.data_ip[3] = 2;
	strcpy(m.body.reg.mesh, "2x4");
	len = pw_wire_encode(&m, buf, sizeof(buf));
	ASSERT_EQ(H + 48, len);
	ASSERT_EQ(0, memcmp(buf, "PWDN", 4));
	ASSERT_EQ(PW_WIRE_VERSION, buf[4]);
	ASSERT_EQ(PW_WIRE_REGISTER, buf[5]);
	ASSERT_EQ(1, buf[6]);
	ASSERT_EQ(0, buf[7]);
	ASSERT_EQ(len & 0xff, buf[8]);
	ASSERT_EQ(len >> 8, buf[9]);
	ASSERT_EQ(0x01, buf[12]);
	ASSERT_EQ(0x04, buf[15]);
	ASSERT_EQ(0x44, buf[20]);
	ASSERT_EQ(0x00, buf[24]);
	ASSERT_EQ(0x01, buf[25]);
	ASSERT_EQ(0xff, buf[28]);
	ASSERT_EQ(0x08, buf[40]);
	ASSERT_EQ(0x01, buf[47]);
	ASSERT_EQ(8, buf[H + 8]);
	ASSERT_EQ(0x34, buf[H + 12]);
	ASSERT_EQ(0x12, buf[H + 13]);
	ASSERT_EQ(0x04, buf[H + 16 + 3]);	/* 64 MiB = 0x04000000 */
	ASSERT_EQ(10, buf[H + 24]);
	ASSERT_EQ(2, buf[H + 27]);
	ASSERT_EQ(0, memcmp(&buf[H + 32], "2x4\0", 4));
}

TEST(encode_refuses_invalid)
{
	uint8_t buf[PW_WIRE_MAX_DGRAM];
	struct pw_wire_msg m;
	uint64_t rng = 2;

	net_gen_msg(&m, PW_WIRE_HEARTBEAT, &rng);
	ASSERT_EQ(-ENOSPC, pw_wire_encode(&m, buf, H + 10));
	m.hdr.session = 0;
	ASSERT_EQ(-EINVAL, pw_wire_encode(&m, buf, sizeof(buf)));
	net_gen_msg(&m, PW_WIRE_RUN, &rng);
	m.body.run.nargs = PW_WIRE_RUN_ARGS + 1;
	ASSERT_EQ(-EINVAL, pw_wire_size(&m));
	ASSERT_EQ(-EINVAL, pw_wire_encode(&m, buf, sizeof(buf)));
	m.hdr.type = PW_WIRE_NTYPES;
	ASSERT_EQ(-EINVAL, pw_wire_encode(&m, buf, sizeof(buf)));
	net_gen_msg(&m, PW_WIRE_REGISTER, &rng);
	memset(m.body.reg.mesh, 'x', sizeof(m.body.reg.mesh));
	ASSERT_EQ(-EINVAL, pw_wire_encode(&m, buf, sizeof(buf)));
}

/*
 * Crafted rejections: a valid datagram of @type with one thing wrong.
 * Each fixture case edits the bytes and names the expected reason.
 */
struct craft {
	uint8_t buf[PW_WIRE_MAX_DGRAM + 64];
	int len;
};

static void craft_init(struct craft *c, unsigned int type, uint64_t seed)
{
	struct pw_wire_msg m;
	uint64_t rng = seed;

	memset(c, 0, sizeof(*c));
	net_gen_msg(&m, type, &rng);
	/* Counts and fields the cases below rely on. */
	switch (type) {
	case PW_WIRE_PROGRAM:
		m.body.program.nnodes = 2;
		m.body.program.nnodes_total = 10;
		m.body.program.first_node = 0;
		memset(m.body.program.nodes, 0,
		       2 * sizeof(m.body.program.nodes[0]));
		m.body.program.nodes[0].kind = PW_WIRE_NODE_COMPUTE;
		m.body.program.nodes[0].arg_index = PW_WIRE_NO_ARG;
		m.body.program.nodes[0].nin = 1;
		m.body.program.nodes[0].in[0].node = 1;
		m.body.program.nodes[0].ndims = 1;
		m.body.program.nodes[0].shape[0] = 8;
		m.body.program.nodes[1].kind = PW_WIRE_NODE_ARG;
		m.body.program.nodes[1].arg_index = PW_WIRE_NO_ARG;
		break;
	case PW_WIRE_PLAN:
		m.body.plan.ncmds = 2;
		m.body.plan.ncmds_total = 2;
		m.body.plan.first_cmd = 0;
		m.body.plan.cmds[0].nin = 1;
		m.body.plan.cmds[0].nout = 1;
		m.body.plan.cmds[0].wait = 0;
		memset(&m.body.plan.cmds[0].bufs[2], 0,
		       sizeof(m.body.plan.cmds[0].bufs) - 8);
		memset(&m.body.plan.cmds[1], 0, sizeof(m.body.plan.cmds[1]));
		m.body.plan.cmds[1].op = PW_WIRE_CMD_NOP;
		break;
	case PW_WIRE_RUN:
		m.body.run.nargs = 3;
		break;
	case PW_WIRE_ERROR:
		memset(m.body.error.msg, 0, sizeof(m.body.error.msg));
		strcpy(m.body.error.msg, "no");
		break;
	}
	c->len = pw_wire_encode(&m, c->buf, PW_WIRE_MAX_DGRAM);
}

/* Change the datagram's size, keeping the length field consistent. */
static void craft_resize(struct craft *c, int len)
{
	c->len = len;
	net_put16(c->buf + 8, len);
}

static int craft_decode(const struct craft *c)
{
	struct pw_wire_msg m;

	return pw_wire_decode(&m, c->buf, c->len);
}

/* A valid datagram to start from. */
#define CRAFT(c, type, seed) do { \
	craft_init(c, type, seed); \
	ASSERT_GT((c)->len, 0) TH_LOG("%s", pw_wire_type_name(type)); \
} while (0)

#define REJECT(c, err) \
	ASSERT_EQ(err, craft_decode(c)) \
		TH_LOG("got %s", pw_wire_err_name(craft_decode(c)))

TEST(reject_each_reason)
{
	struct craft c;
	int i;

	/* short */
	CRAFT(&c, PW_WIRE_ACK, 1);
	for (i = 0; i < H; i++) {
		c.len = i;
		REJECT(&c, PW_WIRE_E_SHORT);
	}
	/* oversize */
	CRAFT(&c, PW_WIRE_HEARTBEAT, 1);
	craft_resize(&c, PW_WIRE_MAX_DGRAM + 1);
	REJECT(&c, PW_WIRE_E_OVERSIZE);
	/* magic, version, type */
	CRAFT(&c, PW_WIRE_HEARTBEAT, 1);
	c.buf[3] = 'M';
	REJECT(&c, PW_WIRE_E_MAGIC);
	CRAFT(&c, PW_WIRE_HEARTBEAT, 1);
	c.buf[4] = PW_WIRE_VERSION + 1;
	REJECT(&c, PW_WIRE_E_VERSION);
	c.buf[4] = 0;
	REJECT(&c, PW_WIRE_E_VERSION);
	CRAFT(&c, PW_WIRE_HEARTBEAT, 1);
	c.buf[5] = 0;
	REJECT(&c, PW_WIRE_E_TYPE);
	c.buf[5] = PW_WIRE_NTYPES;
	REJECT(&c, PW_WIRE_E_TYPE);
	c.buf[5] = 0xff;
	REJECT(&c, PW_WIRE_E_TYPE);
	/* length field against the datagram */
	CRAFT(&c, PW_WIRE_HEARTBEAT, 1);
	c.len++;
	REJECT(&c, PW_WIRE_E_LENGTH);
	c.len -= 2;
	REJECT(&c, PW_WIRE_E_LENGTH);
	/* flags */
	CRAFT(&c, PW_WIRE_HEARTBEAT, 1);
	c.buf[6] |= 0x04;
	REJECT(&c, PW_WIRE_E_FLAGS);
	CRAFT(&c, PW_WIRE_HEARTBEAT, 1);
	c.buf[7] = 0x80;
	REJECT(&c, PW_WIRE_E_FLAGS);
	/* sequencing */
	CRAFT(&c, PW_WIRE_HEARTBEAT, 1);
	net_put32(c.buf + 20, 0);			/* session 0 */
	REJECT(&c, PW_WIRE_E_SEQ);
	CRAFT(&c, PW_WIRE_HEARTBEAT, 1);
	net_put32(c.buf + 24, 5000);			/* seq - base */
	net_put32(c.buf + 28, 5000 - PW_WIRE_MAX_WINDOW);
	REJECT(&c, PW_WIRE_E_SEQ);
	net_put32(c.buf + 28, 5001);			/* base past seq */
	REJECT(&c, PW_WIRE_E_SEQ);
	CRAFT(&c, PW_WIRE_ACK, 1);
	net_put32(c.buf + 24, 1);			/* ACK with a seq */
	REJECT(&c, PW_WIRE_E_SEQ);
	CRAFT(&c, PW_WIRE_ACK, 1);
	c.buf[6] = 0;					/* ACK without F_ACK */
	REJECT(&c, PW_WIRE_E_SEQ);
	CRAFT(&c, PW_WIRE_ACK, 1);
	net_put32(c.buf + 32, 0);			/* ack_session 0 */
	REJECT(&c, PW_WIRE_E_SEQ);
	CRAFT(&c, PW_WIRE_HEARTBEAT, 1);
	c.buf[6] &= ~PW_WIRE_F_ACK;		/* ack fields, no flag */
	net_put32(c.buf + 36, 1);
	REJECT(&c, PW_WIRE_E_SEQ);
	/* body size */
	CRAFT(&c, PW_WIRE_HEARTBEAT, 1);
	craft_resize(&c, c.len - 1);
	REJECT(&c, PW_WIRE_E_BODY_SIZE);
	CRAFT(&c, PW_WIRE_ACK, 1);
	craft_resize(&c, c.len + 8);
	REJECT(&c, PW_WIRE_E_BODY_SIZE);
	CRAFT(&c, PW_WIRE_PROGRAM, 1);		/* count 2, one node */
	craft_resize(&c, c.len - sizeof(struct pw_wire_prog_node));
	REJECT(&c, PW_WIRE_E_BODY_SIZE);
	CRAFT(&c, PW_WIRE_RUN, 1);			/* fixed part cut */
	craft_resize(&c, H + 10);
	REJECT(&c, PW_WIRE_E_BODY_SIZE);
	/* counts */
	CRAFT(&c, PW_WIRE_RUN, 1);
	net_put16(c.buf + BODY(struct pw_wire_run, nargs),
		  PW_WIRE_RUN_ARGS + 1);
	REJECT(&c, PW_WIRE_E_COUNT);
	CRAFT(&c, PW_WIRE_PLAN, 1);
	net_put16(c.buf + BODY(struct pw_wire_plan, ncmds), 0);
	craft_resize(&c, H + offsetof(struct pw_wire_plan, cmds));
	REJECT(&c, PW_WIRE_E_COUNT);
	CRAFT(&c, PW_WIRE_PLAN, 1);
	net_put16(c.buf + BODY(struct pw_wire_plan, first_cmd), 1);
	REJECT(&c, PW_WIRE_E_COUNT);
	CRAFT(&c, PW_WIRE_PLAN, 1);
	c.buf[BODY(struct pw_wire_plan, cmds[0].nout)] = PW_WIRE_MAX_BUFS;
	REJECT(&c, PW_WIRE_E_COUNT);
	CRAFT(&c, PW_WIRE_PLAN, 1);
	c.buf[BODY(struct pw_wire_plan, cmds[0].wait)] = 2;
	REJECT(&c, PW_WIRE_E_COUNT);
	CRAFT(&c, PW_WIRE_PROGRAM, 1);
	net_put16(c.buf + BODY(struct pw_wire_program, nnodes_total), 1);
	REJECT(&c, PW_WIRE_E_COUNT);
	CRAFT(&c, PW_WIRE_PROGRAM, 1);
	c.buf[BODY(struct pw_wire_program, nodes[1].ndims)] = 5;
	REJECT(&c, PW_WIRE_E_COUNT);
	/* reserved */
	CRAFT(&c, PW_WIRE_HEARTBEAT, 1);
	c.buf[11] = 1;
	REJECT(&c, PW_WIRE_E_RESERVED);
	CRAFT(&c, PW_WIRE_REGISTER, 1);
	c.buf[BODY(struct pw_wire_register, reserved)] = 1;
	REJECT(&c, PW_WIRE_E_RESERVED);
	CRAFT(&c, PW_WIRE_RUN, 1);
	c.buf[BODY(struct pw_wire_run, reserved2) + 3] = 1;
	REJECT(&c, PW_WIRE_E_RESERVED);
	CRAFT(&c, PW_WIRE_PLAN, 1);
	c.buf[BODY(struct pw_wire_plan, cmds[0].bufs[5])] = 1;
	REJECT(&c, PW_WIRE_E_RESERVED);
	CRAFT(&c, PW_WIRE_PROGRAM, 1);
	c.buf[BODY(struct pw_wire_program, nodes[0].shape[3])] = 1;
	REJECT(&c, PW_WIRE_E_RESERVED);
	CRAFT(&c, PW_WIRE_ERROR, 1);
	c.buf[BODY(struct pw_wire_error, reserved[1])] = 1;
	REJECT(&c, PW_WIRE_E_RESERVED);
	/* strings */
	CRAFT(&c, PW_WIRE_REGISTER, 1);
	memset(c.buf + BODY(struct pw_wire_register, mesh), '2',
	       PW_WIRE_MESH_LEN);
	REJECT(&c, PW_WIRE_E_STRING);
	CRAFT(&c, PW_WIRE_ERROR, 1);
	c.buf[BODY(struct pw_wire_error, msg) + 50] = 'x';	/* after NUL */
	REJECT(&c, PW_WIRE_E_STRING);
	CRAFT(&c, PW_WIRE_CONNECT, 1);
	memset(c.buf + BODY(struct pw_wire_connect, name), 'n',
	       PW_WIRE_NAME_LEN);
	REJECT(&c, PW_WIRE_E_STRING);
	/* values */
	CRAFT(&c, PW_WIRE_REGISTER, 1);
	net_put32(c.buf + BODY(struct pw_wire_register, ndevices), 0);
	REJECT(&c, PW_WIRE_E_VALUE);
	net_put32(c.buf + BODY(struct pw_wire_register, ndevices),
		  PW_WIRE_MAX_DEVICES + 1);
	REJECT(&c, PW_WIRE_E_VALUE);
	CRAFT(&c, PW_WIRE_REGISTER, 1);
	c.buf[BODY(struct pw_wire_register, has_rdma)] = 2;
	REJECT(&c, PW_WIRE_E_VALUE);
	CRAFT(&c, PW_WIRE_REGISTER, 1);
	memset(c.buf + BODY(struct pw_wire_register, mesh), 0,
	       PW_WIRE_MESH_LEN);
	REJECT(&c, PW_WIRE_E_VALUE);
	CRAFT(&c, PW_WIRE_PLAN, 1);
	c.buf[BODY(struct pw_wire_plan, cmds[1].op)] = 0;
	REJECT(&c, PW_WIRE_E_VALUE);
	c.buf[BODY(struct pw_wire_plan, cmds[1].op)] = PW_WIRE_CMD_NOPS;
	REJECT(&c, PW_WIRE_E_VALUE);
	CRAFT(&c, PW_WIRE_PLAN, 1);
	c.buf[BODY(struct pw_wire_plan, cmds[0].dev)] = PW_WIRE_MAX_DEVICES;
	REJECT(&c, PW_WIRE_E_VALUE);
	CRAFT(&c, PW_WIRE_PROGRAM, 1);
	c.buf[BODY(struct pw_wire_program, nodes[1].kind)] = 9;
	REJECT(&c, PW_WIRE_E_VALUE);
	CRAFT(&c, PW_WIRE_PROGRAM, 1);
	net_put16(c.buf + BODY(struct pw_wire_program, nodes[0].in[0].node),
		  10);
	REJECT(&c, PW_WIRE_E_VALUE);
	CRAFT(&c, PW_WIRE_ERROR, 1);
	net_put32(c.buf + BODY(struct pw_wire_error, err), 0);
	REJECT(&c, PW_WIRE_E_VALUE);
	CRAFT(&c, PW_WIRE_REGISTER_ACK, 1);
	net_put32(c.buf + BODY(struct pw_wire_register_ack, status), 0);
	net_put32(c.buf + BODY(struct pw_wire_register_ack, down_ms), 0);
	REJECT(&c, PW_WIRE_E_VALUE);
}

/* Every proper prefix of every type is rejected, length field or not. */
TEST(truncation_at_every_length)
{
	uint8_t buf[PW_WIRE_MAX_DGRAM], cut[PW_WIRE_MAX_DGRAM];
	struct pw_wire_msg m;
	uint64_t rng = 3;
	unsigned int type, rep;
	int len, l;

	for (type = PW_WIRE_ACK; type < PW_WIRE_NTYPES; type++) {
		for (rep = 0; rep < 4; rep++) {
			len = encode_random(buf, type, &rng);
			ASSERT_GT(len, 0);
			for (l = 0; l < len; l++) {
				ASSERT_NE(PW_WIRE_OK,
					  (int)pw_wire_decode(&m, buf, l))
					TH_LOG("%s cut at %d",
					       pw_wire_type_name(type), l);
				/* A consistent length field does not help. */
				memcpy(cut, buf, l);
				if (l >= 10)
					net_put16(cut + 8, l);
				ASSERT_NE(PW_WIRE_OK,
					  (int)pw_wire_decode(&m, cut, l))
					TH_LOG("%s cut at %d, length fixed",
					       pw_wire_type_name(type), l);
			}
		}
	}
}

/* Every byte flipped: rejected, or accepted as a well-formed message. */
TEST(flipped_bytes)
{
	static const uint8_t masks[] = { 0x01, 0x10, 0x80, 0xff };
	uint8_t buf[PW_WIRE_MAX_DGRAM], bad[PW_WIRE_MAX_DGRAM];
	unsigned int type, k, rejected = 0, accepted = 0;
	uint64_t rng = 4;
	int len, i;

	for (type = PW_WIRE_ACK; type < PW_WIRE_NTYPES; type++) {
		len = encode_random(buf, type, &rng);
		for (i = 0; i < len; i++) {
			for (k = 0; k < sizeof(masks); k++) {
				int c;

				memcpy(bad, buf, len);
				bad[i] ^= masks[k];
				c = canonical(bad, len);
				ASSERT_NE(0, c) TH_LOG("%s byte %d ^ %#x",
						       pw_wire_type_name(type),
						       i, masks[k]);
				if (c < 0)
					rejected++;
				else
					accepted++;
			}
		}
	}
	/* Header bytes alone make many flips fatal. */
	ASSERT_GT(rejected, 1000u);
	ASSERT_GT(accepted, 1000u);
}

/*
 * 100k datagrams: random bytes, and valid messages with random bytes
 * changed, cut or extended. Nothing crashes (run under ASan/UBSan too),
 * nothing malformed is accepted.
 */
TEST(fuzz)
{
	unsigned int by_err[PW_WIRE_NERR + 1] = { 0 };
	uint8_t buf[PW_WIRE_MAX_DGRAM + 128];
	struct pw_wire_msg m;
	uint64_t rng = 5;
	unsigned int i, k, reasons = 0;

	for (i = 0; i < 100000; i++) {
		size_t len;
		int err;

		if (net_chance(&rng, 200)) {
			len = net_below(&rng, sizeof(buf) + 1);
			for (k = 0; k < len; k++)
				buf[k] = net_rand(&rng);
		} else {
			unsigned int type = net_below(&rng, PW_WIRE_NTYPES + 1);
			unsigned int nflips = net_below(&rng, 4);

			if (type == 0 || type == PW_WIRE_NTYPES)
				type = PW_WIRE_PLAN;
			len = encode_random(buf, type, &rng);
			for (k = 0; k < nflips; k++)
				buf[net_below(&rng, len)] = net_rand(&rng);
			if (net_chance(&rng, 200)) {
				size_t nlen = net_below(&rng, sizeof(buf) + 1);

				for (k = len; k < nlen; k++)
					buf[k] = net_chance(&rng, 500) ?
						 0 : net_rand(&rng);
				len = nlen;
				if (net_chance(&rng, 500) && len >= 10)
					net_put16(buf + 8, len);
			}
		}
		err = pw_wire_decode(&m, buf, len);
		ASSERT_TRUE(err >= 0 && err < PW_WIRE_NERR);
		by_err[err < PW_WIRE_NERR ? err : PW_WIRE_NERR]++;
		if (err == PW_WIRE_OK)
			ASSERT_EQ(1, canonical(buf, len))
				TH_LOG("datagram %u", i);
	}
	for (i = 0; i < PW_WIRE_NERR; i++) {
		TH_LOG("%-10s %u", pw_wire_err_name(i), by_err[i]);
		reasons += by_err[i] != 0;
	}
	/* The mutations reach most of the decoder's checks. */
	ASSERT_GE(reasons, 10u);
}

TEST_HARNESS_MAIN
