// SPDX-License-Identifier: GPL-2.0
/*
 * test_wire.c - the DCN control message codec (include/pathways/wire.h):
 * round trips of every type (and of bodies at their bounds), the byte
 * layout on the wire, each rejection reason from crafted datagrams,
 * truncation at every length, flipped bytes, a seeded fuzz whose accepted
 * datagrams must re-encode to themselves (so nothing malformed is ever
 * accepted), and the function payload head (struct pw_wire_fn_desc).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kselftest_harness.h"
#include "net_common.h"
#include "pathways/wire.h"
#include "uapi/pwtpu.h"

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

/* A message of @type with a valid header and an all-zero body. */
static void hdr_init(struct pw_wire_msg *m, unsigned int type)
{
	memset(m, 0, sizeof(*m));
	m->hdr.type = type;
	m->hdr.src_node = 1;
	m->hdr.dst_node = 2;
	m->hdr.session = 3;
	m->hdr.seq = 4;
	m->hdr.base = 4;
}

/*
 * @in encodes to @want bytes, decodes to itself and is canonical: 0, or
 * the step that failed.
 */
static int round_trips(const struct pw_wire_msg *in, int want)
{
	uint8_t buf[PW_WIRE_MAX_DGRAM];
	struct pw_wire_msg exp = *in, out;
	int len = pw_wire_encode(in, buf, sizeof(buf));

	if (len != want || pw_wire_size(in) != want)
		return 1;
	if (pw_wire_decode(&out, buf, len) != PW_WIRE_OK)
		return 2;
	exp.hdr.magic = PW_WIRE_MAGIC;
	exp.hdr.version = PW_WIRE_VERSION;
	exp.hdr.length = len;
	if (memcmp(&exp, &out, sizeof(out)))
		return 3;
	return canonical(buf, len) == 1 ? 0 : 4;
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
	ASSERT_STREQ("FUNCTION", pw_wire_type_name(PW_WIRE_FUNCTION));
	ASSERT_STREQ("BUFFER", pw_wire_type_name(PW_WIRE_BUFFER));
	ASSERT_STREQ("STATUS", pw_wire_type_name(PW_WIRE_STATUS));
	ASSERT_STREQ("READY", pw_wire_type_name(PW_WIRE_READY));
	ASSERT_STREQ("CANCEL", pw_wire_type_name(PW_WIRE_CANCEL));
	ASSERT_STREQ("BYE", pw_wire_type_name(PW_WIRE_BYE));
	ASSERT_STREQ("SLICE", pw_wire_type_name(PW_WIRE_SLICE));
	ASSERT_STREQ("ADMIN", pw_wire_type_name(PW_WIRE_ADMIN));
	ASSERT_STREQ("PEER", pw_wire_type_name(PW_WIRE_PEER));
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

/* Each variable body at its largest and smallest, the new types too. */
TEST(round_trip_at_bounds)
{
	struct pw_wire_msg m;
	unsigned int i, k;

	/* FUNCTION: a full chunk, the last of the largest payload. */
	hdr_init(&m, PW_WIRE_FUNCTION);
	m.body.function.fn_id = 0xffffffff;
	m.body.function.client = 12;
	m.body.function.total = PW_WIRE_MAX_FN_BYTES;
	m.body.function.nbytes = PW_WIRE_FN_CHUNK;
	m.body.function.offset = PW_WIRE_MAX_FN_BYTES - PW_WIRE_FN_CHUNK;
	for (i = 0; i < PW_WIRE_FN_CHUNK; i++)
		m.body.function.data[i] = i * 7 + 1;
	ASSERT_EQ(0, round_trips(&m, H + 24 + PW_WIRE_FN_CHUNK));
	/* One byte, the last of the smallest payload. */
	hdr_init(&m, PW_WIRE_FUNCTION);
	m.body.function.fn_id = 1;
	m.body.function.total = PW_WIRE_FN_DESC_SIZE;
	m.body.function.offset = PW_WIRE_FN_DESC_SIZE - 1;
	m.body.function.nbytes = 1;
	m.body.function.data[0] = 0xee;
	ASSERT_EQ(0, round_trips(&m, H + 24 + 1));

	/* BUFFER DATA: a full chunk fills the largest datagram. */
	hdr_init(&m, PW_WIRE_BUFFER);
	m.body.buffer.op = PW_WIRE_BUF_DATA;
	m.body.buffer.host = PW_WIRE_MAX_HOSTS - 1;
	m.body.buffer.client = 0xfffffffe;
	m.body.buffer.id = ~PW_WIRE_BUF_TEMP;
	m.body.buffer.total = PW_WIRE_MAX_BUF_BYTES;
	m.body.buffer.nbytes = PW_WIRE_BUF_CHUNK;
	m.body.buffer.offset = PW_WIRE_MAX_BUF_BYTES - PW_WIRE_BUF_CHUNK;
	for (i = 0; i < PW_WIRE_BUF_CHUNK; i++)
		m.body.buffer.data[i] = i * 13 + 5;
	ASSERT_EQ(0, round_trips(&m, PW_WIRE_MAX_DGRAM));
	/* CREATE of every dimension, all of it in one chunk. */
	m.body.buffer.op = PW_WIRE_BUF_CREATE;
	m.body.buffer.dtype = PWTPU_DT_BF16;
	m.body.buffer.rank = PW_WIRE_MAX_DIMS;
	m.body.buffer.dev = PW_WIRE_MAX_DEVICES - 1;
	m.body.buffer.total = PW_WIRE_BUF_CHUNK;
	m.body.buffer.offset = 0;
	for (k = 0; k < PW_WIRE_MAX_DIMS; k++)
		m.body.buffer.shape[k] = 0x01020304 + k;
	ASSERT_EQ(0, round_trips(&m, PW_WIRE_MAX_DGRAM));
	/* READ and FREE carry nothing but the handle. */
	hdr_init(&m, PW_WIRE_BUFFER);
	m.body.buffer.op = PW_WIRE_BUF_READ;
	m.body.buffer.host = 5;
	m.body.buffer.id = 77;
	ASSERT_EQ(0, round_trips(&m, H + 48));
	m.body.buffer.op = PW_WIRE_BUF_FREE;
	ASSERT_EQ(0, round_trips(&m, H + 48));

	hdr_init(&m, PW_WIRE_STATUS);
	m.body.status.ref_type = PW_WIRE_FUNCTION;
	m.body.status.status = 22;
	m.body.status.client = 0x01020304;
	m.body.status.ref_id = 0xfedcba98;
	m.body.status.value = 0x1122334455667788ull;
	ASSERT_EQ(0, round_trips(&m, H + 24));
	m.body.status.ref_type = PW_WIRE_BUFFER;
	m.body.status.status = 0;
	ASSERT_EQ(0, round_trips(&m, H + 24));

	hdr_init(&m, PW_WIRE_READY);
	m.body.ready.run_id = 0xabcdef01;
	m.body.ready.src_host = PW_WIRE_MAX_HOSTS - 1;
	m.body.ready.dst_host = 0;
	m.body.ready.handle = PW_WIRE_BUF_TEMP | 3;
	m.body.ready.cookie = 0xffffffff;
	memcpy(m.body.ready.data_ip, "\x0a\x00\x00\x03", 4);
	m.body.ready.data_port = 0xffff;
	/* Opaque to the codec: any bytes at all. */
	memset(m.body.ready.desc, 0xff, PW_WIRE_DESC_SIZE);
	ASSERT_EQ(0, round_trips(&m, H + 48));

	hdr_init(&m, PW_WIRE_CANCEL);
	m.body.cancel.run_id = 9;
	m.body.cancel.status = 0xffffffff;
	ASSERT_EQ(0, round_trips(&m, H + 8));

	hdr_init(&m, PW_WIRE_BYE);
	m.body.bye.client = 0x80001234;
	ASSERT_EQ(0, round_trips(&m, H + 8));

	hdr_init(&m, PW_WIRE_CONNECT_ACK);
	m.body.connect_ack.client_id = 4;
	for (i = 0; i < PW_WIRE_MAX_HOSTS; i++)
		m.body.connect_ack.host_devices[i] = i % 2 ?
			PW_WIRE_MAX_DEVICES : i % PW_WIRE_MAX_DEVICES;
	ASSERT_EQ(0, round_trips(&m, H + 16 + PW_WIRE_MAX_HOSTS));

	/* PROGRAM_ACK: every host of the largest cluster. */
	hdr_init(&m, PW_WIRE_PROGRAM_ACK);
	memset(m.body.program_ack.hosts, 0xff,
	       sizeof(m.body.program_ack.hosts));
	ASSERT_EQ(0, round_trips(&m, H + 16 + PW_WIRE_MAX_HOSTS / 8));

	/* RUN: every id slot, arguments and results; and none at all. */
	hdr_init(&m, PW_WIRE_RUN);
	m.body.run.nargs = 40;
	m.body.run.nresults = PW_WIRE_RUN_IDS - 40;
	for (i = 0; i < PW_WIRE_RUN_IDS; i++)
		m.body.run.ids[i] = 0x10000 * i + 1;
	m.body.run.timeout_ms = 0xffffffff;	/* the longest deadline */
	ASSERT_EQ(0, round_trips(&m, H + 24 + 4 * PW_WIRE_RUN_IDS));
	m.body.run.nargs = 0;
	m.body.run.nresults = PW_WIRE_RUN_IDS;
	ASSERT_EQ(0, round_trips(&m, H + 24 + 4 * PW_WIRE_RUN_IDS));
	hdr_init(&m, PW_WIRE_RUN);
	ASSERT_EQ(0, round_trips(&m, H + 24));

	/* PLAN: every record, each with every binding. */
	hdr_init(&m, PW_WIRE_PLAN);
	m.body.plan.client = 7;
	m.body.plan.nhosts = PW_WIRE_MAX_HOSTS;
	m.body.plan.ncmds = PW_WIRE_PLAN_CMDS;
	m.body.plan.ncmds_total = PW_WIRE_MAX_PLAN_CMDS;
	m.body.plan.first_cmd = PW_WIRE_MAX_PLAN_CMDS - PW_WIRE_PLAN_CMDS;
	for (i = 0; i < PW_WIRE_PLAN_CMDS; i++) {
		struct pw_wire_plan_cmd *c = &m.body.plan.cmds[i];

		c->op = PW_WIRE_CMD_NOP + i % (PW_WIRE_CMD_NOPS - 1);
		c->dev = PW_WIRE_MAX_DEVICES - 1;
		c->nin = i % (PW_WIRE_MAX_BUFS + 1);
		c->nout = PW_WIRE_MAX_BUFS - c->nin;
		if (c->op == PW_WIRE_CMD_COPY_PEER) {
			/* A gather of every binding but its output. */
			c->nin = PW_WIRE_MAX_BUFS - 1;
			c->nout = 1;
			c->skip = 0xffffffff;
		}
		c->peer_dev = i;
		c->peer_host = 0xffff;
		c->fn_id = i;
		c->bytes = ~0ull;
		if (c->op == PW_WIRE_CMD_DCN_SEND)
			c->peer_buf = 0xffffffff;
		for (k = 0; k < PW_WIRE_MAX_BUFS; k++)
			c->bufs[k] = PW_WIRE_BUF_TEMP | (i << 8 | k);
	}
	ASSERT_EQ(0, round_trips(&m, H + 48 + 96 * PW_WIRE_PLAN_CMDS));

	/* PROGRAM: every record, each with every edge (from earlier). */
	hdr_init(&m, PW_WIRE_PROGRAM);
	m.body.program.nnodes = PW_WIRE_PROG_NODES;
	m.body.program.nnodes_total = PW_WIRE_MAX_PROG_NODES;
	m.body.program.first_node = PW_WIRE_MAX_PROG_NODES -
				    PW_WIRE_PROG_NODES;
	m.body.program.nargs = PW_WIRE_RUN_IDS;
	for (i = 0; i < PW_WIRE_PROG_NODES; i++) {
		struct pw_wire_prog_node *n = &m.body.program.nodes[i];

		n->kind = PW_WIRE_NODE_COMPUTE;
		n->nin = PW_WIRE_MAX_BUFS;
		n->arg_index = i % 2 ? PW_WIRE_NO_ARG : PW_WIRE_RUN_IDS - 1;
		n->fn_id = 0x80000000u + i;
		n->slice = 0xfffffff0u + i;
		n->nshards = 1;
		for (k = 0; k < PW_WIRE_MAX_BUFS; k++) {
			n->in[k].node = m.body.program.first_node + i - 1 - k;
			n->in[k].output = k;
		}
	}
	ASSERT_EQ(0, round_trips(&m, H + 16 + 96 * PW_WIRE_PROG_NODES));
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

/* Where the new types' fields land, from the documented offsets. */
TEST(little_endian_layout_v2)
{
	uint8_t buf[PW_WIRE_MAX_DGRAM];
	struct pw_wire_msg m;
	int len;

	hdr_init(&m, PW_WIRE_BUFFER);
	m.body.buffer.op = PW_WIRE_BUF_CREATE;
	m.body.buffer.dtype = PWTPU_DT_I32;
	m.body.buffer.rank = 2;
	m.body.buffer.dev = 9;
	m.body.buffer.host = 0x3f;
	m.body.buffer.client = 0x0a0b0c0d;
	m.body.buffer.id = 0x01020304;
	m.body.buffer.total = 0x00123456;
	m.body.buffer.nbytes = 0x0203;
	m.body.buffer.shape[0] = 0x11223344;
	m.body.buffer.shape[1] = 0x55;
	m.body.buffer.data[0] = 0xd0;
	m.body.buffer.data[0x202] = 0xd1;
	len = pw_wire_encode(&m, buf, sizeof(buf));
	ASSERT_EQ(H + 48 + 0x203, len);
	ASSERT_EQ(PW_WIRE_BUFFER, buf[5]);
	ASSERT_EQ(PW_WIRE_BUF_CREATE, buf[H + 0]);
	ASSERT_EQ(PWTPU_DT_I32, buf[H + 1]);
	ASSERT_EQ(2, buf[H + 2]);
	ASSERT_EQ(9, buf[H + 3]);
	ASSERT_EQ(0, memcmp(&buf[H + 4], "\x3f\x00\x00\x00", 4));
	ASSERT_EQ(0, memcmp(&buf[H + 8], "\x0d\x0c\x0b\x0a", 4));
	ASSERT_EQ(0, memcmp(&buf[H + 12], "\x04\x03\x02\x01", 4));
	ASSERT_EQ(0, memcmp(&buf[H + 16], "\x56\x34\x12\x00", 4));
	ASSERT_EQ(0, memcmp(&buf[H + 20], "\x00\x00\x00\x00", 4));
	ASSERT_EQ(0, memcmp(&buf[H + 24], "\x03\x02\x00\x00", 4));
	ASSERT_EQ(0, memcmp(&buf[H + 28], "\x44\x33\x22\x11\x55\x00", 6));
	ASSERT_EQ(0xd0, buf[H + 48]);
	ASSERT_EQ(0xd1, buf[H + 48 + 0x202]);

	hdr_init(&m, PW_WIRE_FUNCTION);
	m.body.function.fn_id = 0x11223344;
	m.body.function.client = 0x0a0b0c0d;
	m.body.function.total = 0x00abcdef;
	m.body.function.offset = 0x00012345;
	m.body.function.nbytes = 0x0102;
	m.body.function.data[0] = 0xf0;
	m.body.function.data[0x101] = 0xf1;
	len = pw_wire_encode(&m, buf, sizeof(buf));
	ASSERT_EQ(H + 24 + 0x102, len);
	ASSERT_EQ(PW_WIRE_FUNCTION, buf[5]);
	ASSERT_EQ(0, memcmp(&buf[H + 0], "\x44\x33\x22\x11", 4));
	ASSERT_EQ(0, memcmp(&buf[H + 4], "\x0d\x0c\x0b\x0a", 4));
	ASSERT_EQ(0, memcmp(&buf[H + 8], "\xef\xcd\xab\x00", 4));
	ASSERT_EQ(0, memcmp(&buf[H + 12], "\x45\x23\x01\x00", 4));
	ASSERT_EQ(0, memcmp(&buf[H + 16], "\x02\x01\x00\x00", 4));
	ASSERT_EQ(0xf0, buf[H + 24]);
	ASSERT_EQ(0xf1, buf[H + 24 + 0x101]);

	hdr_init(&m, PW_WIRE_RUN);
	m.body.run.nargs = 1;
	m.body.run.nresults = 0x0102 - 0xff;	/* 3 */
	m.body.run.ids[1] = 0xa1b2c3d4;
	m.body.run.timeout_ms = 0x0a0b0c0d;	/* v3: the run's deadline */
	len = pw_wire_encode(&m, buf, sizeof(buf));
	ASSERT_EQ(H + 24 + 4 * 4, len);
	ASSERT_EQ(0, memcmp(&buf[H + 16], "\x01\x00\x03\x00", 4));
	ASSERT_EQ(0, memcmp(&buf[H + 20], "\x0d\x0c\x0b\x0a", 4));
	ASSERT_EQ(0, memcmp(&buf[H + 28], "\xd4\xc3\xb2\xa1", 4));

	hdr_init(&m, PW_WIRE_PLAN);
	m.body.plan.client = 0x01020304;
	m.body.plan.client_run = 0x0d0c0b0a;
	m.body.plan.ncmds = 1;
	m.body.plan.ncmds_total = 0x0201;
	m.body.plan.nhosts = 0x0003;
	m.body.plan.cmds[0].op = PW_WIRE_CMD_DCN_SEND;
	m.body.plan.cmds[0].nin = 1;
	m.body.plan.cmds[0].peer_dev = 5;
	m.body.plan.cmds[0].peer_host = 0x0a0b;
	m.body.plan.cmds[0].peer_buf = 0x11223344;
	m.body.plan.cmds[0].bufs[0] = PW_WIRE_BUF_TEMP | 6;
	len = pw_wire_encode(&m, buf, sizeof(buf));
	ASSERT_EQ(H + 48 + 96, len);
	ASSERT_EQ(0, memcmp(&buf[H + 8], "\x04\x03\x02\x01", 4));
	ASSERT_EQ(0, memcmp(&buf[H + 12], "\x0a\x0b\x0c\x0d", 4));
	ASSERT_EQ(0, memcmp(&buf[H + 16], "\x01\x02\x00\x00\x01\x00\x03\x00",
			    8));
	ASSERT_EQ(PW_WIRE_CMD_DCN_SEND, buf[H + 48]);
	ASSERT_EQ(5, buf[H + 48 + 4]);
	ASSERT_EQ(0, memcmp(&buf[H + 48 + 6], "\x0b\x0a", 2));
	ASSERT_EQ(0, memcmp(&buf[H + 48 + 24], "\x44\x33\x22\x11", 4));
	ASSERT_EQ(0, memcmp(&buf[H + 48 + 32], "\x06\x00\x00\x80", 4));

	hdr_init(&m, PW_WIRE_READY);
	m.body.ready.src_host = 0x21;
	m.body.ready.dst_host = 0x3e;
	m.body.ready.handle = 0x80000102;
	m.body.ready.data_port = 0x1f90;
	memcpy(m.body.ready.desc, "descriptor bytes, as-is!",
	       PW_WIRE_DESC_SIZE);
	len = pw_wire_encode(&m, buf, sizeof(buf));
	ASSERT_EQ(H + 48, len);
	ASSERT_EQ(0, memcmp(&buf[H + 4], "\x21\x00\x3e\x00", 4));
	ASSERT_EQ(0, memcmp(&buf[H + 8], "\x02\x01\x00\x80", 4));
	ASSERT_EQ(0, memcmp(&buf[H + 20], "\x90\x1f", 2));
	ASSERT_EQ(0, memcmp(&buf[H + 24], "descriptor bytes, as-is!",
			    PW_WIRE_DESC_SIZE));

	hdr_init(&m, PW_WIRE_STATUS);
	m.body.status.ref_type = PW_WIRE_BUFFER;
	m.body.status.value = 0x0102030405060708ull;
	len = pw_wire_encode(&m, buf, sizeof(buf));
	ASSERT_EQ(H + 24, len);
	ASSERT_EQ(PW_WIRE_BUFFER, buf[H + 0]);
	ASSERT_EQ(0x08, buf[H + 16]);
	ASSERT_EQ(0x01, buf[H + 23]);

	hdr_init(&m, PW_WIRE_CONNECT_ACK);
	m.body.connect_ack.ndevices = 0x0102;
	m.body.connect_ack.host_devices[0] = 8;
	m.body.connect_ack.host_devices[PW_WIRE_MAX_HOSTS - 1] = 64;
	len = pw_wire_encode(&m, buf, sizeof(buf));
	ASSERT_EQ(H + 16 + PW_WIRE_MAX_HOSTS, len);
	ASSERT_EQ(0, memcmp(&buf[H + 12], "\x02\x01\x00\x00\x08", 5));
	ASSERT_EQ(64, buf[H + 16 + PW_WIRE_MAX_HOSTS - 1]);

	/* v9: host h is bit h % 64 of little-endian word h / 64. */
	hdr_init(&m, PW_WIRE_PROGRAM_ACK);
	m.body.program_ack.hosts[0] = 1ull << 0 | 1ull << 9;
	m.body.program_ack.hosts[1] = 1ull << 1;		/* host 65 */
	m.body.program_ack.hosts[PW_WIRE_HOST_WORDS - 1] = 1ull << 63;
	len = pw_wire_encode(&m, buf, sizeof(buf));
	ASSERT_EQ(H + 16 + PW_WIRE_MAX_HOSTS / 8, len);
	ASSERT_EQ(0, memcmp(&buf[H + 16], "\x01\x02\0\0\0\0\0\0\x02", 9));
	ASSERT_EQ(0x80, buf[H + 16 + PW_WIRE_MAX_HOSTS / 8 - 1]);
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
	m.body.run.nargs = PW_WIRE_RUN_IDS + 1;
	m.body.run.nresults = 0;
	ASSERT_EQ(-EINVAL, pw_wire_size(&m));
	ASSERT_EQ(-EINVAL, pw_wire_encode(&m, buf, sizeof(buf)));
	/* Each fits alone, not both. */
	m.body.run.nargs = PW_WIRE_RUN_IDS / 2;
	m.body.run.nresults = PW_WIRE_RUN_IDS / 2 + 1;
	ASSERT_EQ(-EINVAL, pw_wire_size(&m));
	ASSERT_EQ(-EINVAL, pw_wire_encode(&m, buf, sizeof(buf)));
	m.hdr.type = PW_WIRE_NTYPES;
	ASSERT_EQ(-EINVAL, pw_wire_encode(&m, buf, sizeof(buf)));
	net_gen_msg(&m, PW_WIRE_REGISTER, &rng);
	memset(m.body.reg.mesh, 'x', sizeof(m.body.reg.mesh));
	ASSERT_EQ(-EINVAL, pw_wire_encode(&m, buf, sizeof(buf)));

	/* More bytes than a datagram holds: no size, no encoding. */
	hdr_init(&m, PW_WIRE_FUNCTION);
	m.body.function.fn_id = 1;
	m.body.function.total = PW_WIRE_MAX_FN_BYTES;
	m.body.function.nbytes = PW_WIRE_FN_CHUNK + 1;
	ASSERT_EQ(-EINVAL, pw_wire_size(&m));
	ASSERT_EQ(-EINVAL, pw_wire_encode(&m, buf, sizeof(buf)));
	m.body.function.nbytes = PW_WIRE_FN_CHUNK;
	ASSERT_EQ(H + 24 + PW_WIRE_FN_CHUNK,
		  pw_wire_encode(&m, buf, sizeof(buf)));
	m.body.function.fn_id = 0;
	ASSERT_EQ(-EINVAL, pw_wire_encode(&m, buf, sizeof(buf)));
	hdr_init(&m, PW_WIRE_BUFFER);
	m.body.buffer.op = PW_WIRE_BUF_WRITE;
	m.body.buffer.total = PW_WIRE_MAX_BUF_BYTES;
	m.body.buffer.nbytes = PW_WIRE_BUF_CHUNK + 1;
	ASSERT_EQ(-EINVAL, pw_wire_size(&m));
	ASSERT_EQ(-EINVAL, pw_wire_encode(&m, buf, sizeof(buf)));
	m.body.buffer.nbytes = PW_WIRE_BUF_CHUNK;
	ASSERT_EQ(PW_WIRE_MAX_DGRAM, pw_wire_encode(&m, buf, sizeof(buf)));
	m.body.buffer.id = PW_WIRE_BUF_TEMP;	/* a run's, not a client's */
	ASSERT_EQ(-EINVAL, pw_wire_encode(&m, buf, sizeof(buf)));
	m.body.buffer.id = 0;
	m.body.buffer.op = 0;
	ASSERT_EQ(-EINVAL, pw_wire_encode(&m, buf, sizeof(buf)));
	hdr_init(&m, PW_WIRE_CANCEL);
	ASSERT_EQ(-EINVAL, pw_wire_encode(&m, buf, sizeof(buf)));
	hdr_init(&m, PW_WIRE_STATUS);
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

/* A valid message of @type whose counts and fields the cases rely on. */
static void craft_msg(struct pw_wire_msg *m, unsigned int type,
		      uint64_t seed)
{
	uint64_t rng = seed;
	unsigned int i;

	net_gen_msg(m, type, &rng);
	switch (type) {
	case PW_WIRE_PROGRAM:
		/* An argument, then a computation that reads it. */
		m->body.program.nnodes = 2;
		m->body.program.nnodes_total = 10;
		m->body.program.first_node = 0;
		memset(m->body.program.nodes, 0,
		       2 * sizeof(m->body.program.nodes[0]));
		m->body.program.nodes[0].kind = PW_WIRE_NODE_ARG;
		m->body.program.nodes[0].arg_index = PW_WIRE_NO_ARG;
		m->body.program.nodes[0].ndims = 1;
		m->body.program.nodes[0].shape[0] = 8;
		m->body.program.nodes[1].kind = PW_WIRE_NODE_COMPUTE;
		m->body.program.nodes[1].arg_index = PW_WIRE_NO_ARG;
		m->body.program.nodes[1].nin = 1;
		m->body.program.nodes[1].in[0].node = 0;
		m->body.program.nodes[1].slice = 3;
		break;
	case PW_WIRE_PLAN:
		m->body.plan.ncmds = 2;
		m->body.plan.ncmds_total = 2;
		m->body.plan.first_cmd = 0;
		m->body.plan.cmds[0].op = PW_WIRE_CMD_EXEC;
		m->body.plan.cmds[0].nin = 1;
		m->body.plan.cmds[0].nout = 1;
		m->body.plan.cmds[0].peer_buf = 0;
		memset(&m->body.plan.cmds[0].bufs[2], 0,
		       sizeof(m->body.plan.cmds[0].bufs) - 8);
		memset(&m->body.plan.cmds[1], 0, sizeof(m->body.plan.cmds[1]));
		m->body.plan.cmds[1].op = PW_WIRE_CMD_NOP;
		break;
	case PW_WIRE_RUN:
		m->body.run.nargs = 3;
		m->body.run.nresults = 2;
		break;
	case PW_WIRE_ERROR:
		memset(m->body.error.msg, 0, sizeof(m->body.error.msg));
		strcpy(m->body.error.msg, "no");
		break;
	case PW_WIRE_CONNECT_ACK:
		memset(m->body.connect_ack.host_devices, 0,
		       PW_WIRE_MAX_HOSTS);
		m->body.connect_ack.host_devices[0] = 8;
		break;
	case PW_WIRE_FUNCTION: {
		struct pw_wire_function *b = &m->body.function;

		memset(b, 0, sizeof(*b));
		b->fn_id = 7;
		b->total = 1000;
		b->offset = 100;
		b->nbytes = 100;
		for (i = 0; i < b->nbytes; i++)
			b->data[i] = i;
		break;
	}
	case PW_WIRE_BUFFER: {
		struct pw_wire_buffer *b = &m->body.buffer;

		/* CREATE of a 4x8 f32: 128 bytes in one part. */
		memset(b, 0, sizeof(*b));
		b->op = PW_WIRE_BUF_CREATE;
		b->dtype = PWTPU_DT_F32;
		b->rank = 2;
		b->dev = 1;
		b->host = 3;
		b->id = 5;
		b->shape[0] = 4;
		b->shape[1] = 8;
		b->total = 128;
		b->nbytes = 128;
		for (i = 0; i < b->nbytes; i++)
			b->data[i] = i;
		break;
	}
	case PW_WIRE_STATUS:
		memset(&m->body.status, 0, sizeof(m->body.status));
		m->body.status.ref_type = PW_WIRE_BUFFER;
		m->body.status.client = 9;
		m->body.status.ref_id = 5;
		m->body.status.value = 128;
		break;
	case PW_WIRE_READY:
		m->body.ready.src_host = 2;
		m->body.ready.dst_host = 3;
		break;
	case PW_WIRE_SLICE: {
		struct pw_wire_slice *b = &m->body.slice;

		/* MAKE of a 2x2 slice the controller places. */
		memset(b, 0, sizeof(*b));
		b->op = PW_WIRE_SLICE_MAKE;
		b->n = 4;
		b->ndims = 2;
		b->shape[0] = 2;
		b->shape[1] = 2;
		b->host = PW_WIRE_ANY_HOST;
		b->id = 64;
		break;
	}
	case PW_WIRE_ADMIN:
		/* The operator weights clients called "trainer" 4. */
		memset(&m->body.admin, 0, sizeof(m->body.admin));
		m->body.admin.op = PW_WIRE_ADMIN_WEIGHT;
		m->body.admin.id = 7;
		m->body.admin.value = 4;
		strcpy(m->body.admin.name, "trainer");
		break;
	}
}

static void craft_init(struct craft *c, unsigned int type, uint64_t seed)
{
	struct pw_wire_msg m;

	memset(c, 0, sizeof(*c));
	craft_msg(&m, type, seed);
	c->len = pw_wire_encode(&m, c->buf, PW_WIRE_MAX_DGRAM);
}

/* A valid BUFFER of @op (READ or FREE) to start from. */
static void craft_buf_nodata(struct craft *c, unsigned int op)
{
	struct pw_wire_msg m;

	memset(c, 0, sizeof(*c));
	hdr_init(&m, PW_WIRE_BUFFER);
	m.body.buffer.op = op;
	m.body.buffer.host = 3;
	m.body.buffer.id = 5;
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
		  PW_WIRE_RUN_IDS + 1);
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
	c.buf[BODY(struct pw_wire_plan, cmds[0].nin)] = PW_WIRE_MAX_BUFS;
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
	/* No data plane (port 0) cannot be an RDMA one. */
	CRAFT(&c, PW_WIRE_REGISTER, 1);
	c.buf[BODY(struct pw_wire_register, has_rdma)] = 1;
	c.buf[BODY(struct pw_wire_register, data_port)] = 0;
	c.buf[BODY(struct pw_wire_register, data_port) + 1] = 0;
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
	net_put16(c.buf + BODY(struct pw_wire_program, nodes[1].in[0].node),
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

/* The v2 fields of the older types. */
TEST(reject_v2_fields)
{
	struct craft c;

	/* Edges only from earlier nodes: not itself, not a later one. */
	CRAFT(&c, PW_WIRE_PROGRAM, 1);
	net_put16(c.buf + BODY(struct pw_wire_program, nodes[1].in[0].node),
		  1);
	REJECT(&c, PW_WIRE_E_VALUE);
	CRAFT(&c, PW_WIRE_PROGRAM, 1);
	net_put16(c.buf + BODY(struct pw_wire_program, nodes[1].in[0].node),
		  2);
	REJECT(&c, PW_WIRE_E_VALUE);
	/* Node indexes count from first_node: node 0 is now index 5. */
	CRAFT(&c, PW_WIRE_PROGRAM, 1);
	net_put16(c.buf + BODY(struct pw_wire_program, first_node), 5);
	net_put16(c.buf + BODY(struct pw_wire_program, nodes[1].in[0].node),
		  5);
	REJECT(&c, PW_WIRE_OK);
	net_put16(c.buf + BODY(struct pw_wire_program, nodes[1].in[0].node),
		  6);
	REJECT(&c, PW_WIRE_E_VALUE);
	CRAFT(&c, PW_WIRE_PROGRAM, 1);
	net_put16(c.buf + BODY(struct pw_wire_program, nargs),
		  PW_WIRE_RUN_IDS + 1);
	REJECT(&c, PW_WIRE_E_COUNT);

	/* RUN: arguments and results share the ids. */
	CRAFT(&c, PW_WIRE_RUN, 1);
	net_put16(c.buf + BODY(struct pw_wire_run, nargs),
		  PW_WIRE_RUN_IDS / 2);
	net_put16(c.buf + BODY(struct pw_wire_run, nresults),
		  PW_WIRE_RUN_IDS / 2 + 1);
	REJECT(&c, PW_WIRE_E_COUNT);
	CRAFT(&c, PW_WIRE_RUN, 1);
	net_put16(c.buf + BODY(struct pw_wire_run, nresults),
		  PW_WIRE_RUN_IDS + 1);
	REJECT(&c, PW_WIRE_E_COUNT);
	CRAFT(&c, PW_WIRE_RUN, 1);			/* a result more */
	net_put16(c.buf + BODY(struct pw_wire_run, nresults), 3);
	REJECT(&c, PW_WIRE_E_BODY_SIZE);
	craft_resize(&c, c.len + 4);
	REJECT(&c, PW_WIRE_OK);
	craft_resize(&c, c.len + 4);			/* trailing bytes */
	REJECT(&c, PW_WIRE_E_BODY_SIZE);
	CRAFT(&c, PW_WIRE_RUN, 1);			/* any deadline is one */
	c.buf[BODY(struct pw_wire_run, timeout_ms) + 3] = 0x80;
	REJECT(&c, PW_WIRE_OK);

	/* PLAN and its commands. */
	CRAFT(&c, PW_WIRE_PLAN, 1);			/* no worker answers */
	net_put16(c.buf + BODY(struct pw_wire_plan, nhosts), 0);
	REJECT(&c, PW_WIRE_E_COUNT);
	CRAFT(&c, PW_WIRE_PLAN, 1);
	net_put16(c.buf + BODY(struct pw_wire_plan, nhosts),
		  PW_WIRE_MAX_HOSTS + 1);
	REJECT(&c, PW_WIRE_E_COUNT);
	CRAFT(&c, PW_WIRE_PLAN, 1);			/* any client run id */
	c.buf[BODY(struct pw_wire_plan, client_run) + 3] = 0xff;
	REJECT(&c, PW_WIRE_OK);
	CRAFT(&c, PW_WIRE_PLAN, 1);
	c.buf[BODY(struct pw_wire_plan, cmds[0].reserved)] = 1;
	REJECT(&c, PW_WIRE_E_RESERVED);
	/* More shards than an island has devices. */
	CRAFT(&c, PW_WIRE_PROGRAM, 1);
	net_put16(c.buf + BODY(struct pw_wire_program, nodes[0].nshards),
		  PW_WIRE_MAX_DEVICES + 1);
	REJECT(&c, PW_WIRE_E_COUNT);
	/* A gang's slice without the gang, and a gang on a NOP. */
	CRAFT(&c, PW_WIRE_PLAN, 1);
	c.buf[BODY(struct pw_wire_plan, cmds[0].slice) + 3] = 1;
	REJECT(&c, PW_WIRE_E_RESERVED);
	CRAFT(&c, PW_WIRE_PLAN, 1);
	c.buf[BODY(struct pw_wire_plan, cmds[1].slice)] = 1;
	c.buf[BODY(struct pw_wire_plan, cmds[1].gang_id)] = 1;
	REJECT(&c, PW_WIRE_E_RESERVED);
	/* peer_buf is DCN_SEND's; its place is COPY_PEER's skip. */
	CRAFT(&c, PW_WIRE_PLAN, 1);
	net_put32(c.buf + BODY(struct pw_wire_plan, cmds[0].peer_buf), 9);
	REJECT(&c, PW_WIRE_E_RESERVED);
	c.buf[BODY(struct pw_wire_plan, cmds[0].op)] = PW_WIRE_CMD_DCN_RECV;
	REJECT(&c, PW_WIRE_E_RESERVED);
	c.buf[BODY(struct pw_wire_plan, cmds[0].op)] = PW_WIRE_CMD_DCN_SEND;
	REJECT(&c, PW_WIRE_OK);
	c.buf[BODY(struct pw_wire_plan, cmds[0].op)] = PW_WIRE_CMD_COPY_PEER;
	REJECT(&c, PW_WIRE_OK);
	/* A copy has one output and at least one input. */
	c.buf[BODY(struct pw_wire_plan, cmds[0].nout)] = 2;
	REJECT(&c, PW_WIRE_E_COUNT);
	c.buf[BODY(struct pw_wire_plan, cmds[0].nout)] = 1;
	c.buf[BODY(struct pw_wire_plan, cmds[0].nin)] = 0;
	net_put32(c.buf + BODY(struct pw_wire_plan, cmds[0].bufs[1]), 0);
	REJECT(&c, PW_WIRE_E_COUNT);
	CRAFT(&c, PW_WIRE_PLAN, 1);
	c.buf[BODY(struct pw_wire_plan, cmds[1].peer_dev)] =
		PW_WIRE_MAX_DEVICES;
	REJECT(&c, PW_WIRE_E_VALUE);
	/* Records are 96 bytes now: one record's worth more is a count. */
	CRAFT(&c, PW_WIRE_PLAN, 1);
	craft_resize(&c, c.len + 88);
	REJECT(&c, PW_WIRE_E_BODY_SIZE);

	/*
	 * CONNECT_ACK: 16 + PW_WIRE_MAX_HOSTS bytes, no island past
	 * PW_WIRE_MAX_DEVICES, the last host's too.
	 */
	CRAFT(&c, PW_WIRE_CONNECT_ACK, 1);
	c.buf[BODY(struct pw_wire_connect_ack,
		   host_devices[PW_WIRE_MAX_HOSTS - 1])] = PW_WIRE_MAX_DEVICES;
	REJECT(&c, PW_WIRE_OK);
	c.buf[BODY(struct pw_wire_connect_ack,
		   host_devices[PW_WIRE_MAX_HOSTS - 1])] =
		PW_WIRE_MAX_DEVICES + 1;
	REJECT(&c, PW_WIRE_E_VALUE);
	CRAFT(&c, PW_WIRE_CONNECT_ACK, 1);
	craft_resize(&c, H + 16);			/* v1's body */
	REJECT(&c, PW_WIRE_E_BODY_SIZE);
}

TEST(reject_function)
{
	struct craft c;

	CRAFT(&c, PW_WIRE_FUNCTION, 1);
	REJECT(&c, PW_WIRE_OK);
	net_put32(c.buf + BODY(struct pw_wire_function, fn_id), 0);
	REJECT(&c, PW_WIRE_E_VALUE);
	/* total */
	CRAFT(&c, PW_WIRE_FUNCTION, 1);
	net_put32(c.buf + BODY(struct pw_wire_function, offset), 0);
	net_put32(c.buf + BODY(struct pw_wire_function, total),
		  PW_WIRE_FN_DESC_SIZE - 1);
	REJECT(&c, PW_WIRE_E_COUNT);
	net_put32(c.buf + BODY(struct pw_wire_function, total),
		  PW_WIRE_FN_DESC_SIZE);
	REJECT(&c, PW_WIRE_OK);
	net_put32(c.buf + BODY(struct pw_wire_function, total),
		  PW_WIRE_MAX_FN_BYTES);
	REJECT(&c, PW_WIRE_OK);
	net_put32(c.buf + BODY(struct pw_wire_function, total),
		  PW_WIRE_MAX_FN_BYTES + 1);
	REJECT(&c, PW_WIRE_E_COUNT);
	/* offset + nbytes, wrap included */
	CRAFT(&c, PW_WIRE_FUNCTION, 1);
	net_put32(c.buf + BODY(struct pw_wire_function, offset), 900);
	REJECT(&c, PW_WIRE_OK);
	net_put32(c.buf + BODY(struct pw_wire_function, offset), 901);
	REJECT(&c, PW_WIRE_E_COUNT);
	net_put32(c.buf + BODY(struct pw_wire_function, offset), 0xffffffb0);
	REJECT(&c, PW_WIRE_E_COUNT);
	/* nbytes: none, more than a chunk, other than what follows */
	CRAFT(&c, PW_WIRE_FUNCTION, 1);
	net_put16(c.buf + BODY(struct pw_wire_function, nbytes), 0);
	craft_resize(&c, H + 24);
	REJECT(&c, PW_WIRE_E_COUNT);
	CRAFT(&c, PW_WIRE_FUNCTION, 1);
	net_put32(c.buf + BODY(struct pw_wire_function, total),
		  PW_WIRE_MAX_FN_BYTES);
	net_put16(c.buf + BODY(struct pw_wire_function, nbytes),
		  PW_WIRE_FN_CHUNK + 1);
	craft_resize(&c, H + 24 + PW_WIRE_FN_CHUNK + 1);
	REJECT(&c, PW_WIRE_E_COUNT);
	CRAFT(&c, PW_WIRE_FUNCTION, 1);
	craft_resize(&c, c.len - 1);
	REJECT(&c, PW_WIRE_E_BODY_SIZE);
	craft_resize(&c, c.len + 2);
	REJECT(&c, PW_WIRE_E_BODY_SIZE);
	craft_resize(&c, H + 20);			/* fixed part cut */
	REJECT(&c, PW_WIRE_E_BODY_SIZE);
	/* reserved */
	CRAFT(&c, PW_WIRE_FUNCTION, 1);
	c.buf[BODY(struct pw_wire_function, reserved) + 1] = 1;
	REJECT(&c, PW_WIRE_E_RESERVED);
	CRAFT(&c, PW_WIRE_FUNCTION, 1);
	c.buf[BODY(struct pw_wire_function, reserved2) + 3] = 0x80;
	REJECT(&c, PW_WIRE_E_RESERVED);
}

TEST(reject_buffer)
{
	struct craft c;
	int k;

	CRAFT(&c, PW_WIRE_BUFFER, 1);
	REJECT(&c, PW_WIRE_OK);
	/* op */
	c.buf[BODY(struct pw_wire_buffer, op)] = 0;
	REJECT(&c, PW_WIRE_E_VALUE);
	c.buf[BODY(struct pw_wire_buffer, op)] = PW_WIRE_BUF_NOPS;
	REJECT(&c, PW_WIRE_E_VALUE);
	/* id: a client's handle, never a run's temporary */
	CRAFT(&c, PW_WIRE_BUFFER, 1);
	c.buf[BODY(struct pw_wire_buffer, id) + 3] = 0x80;
	REJECT(&c, PW_WIRE_E_VALUE);
	/* host */
	CRAFT(&c, PW_WIRE_BUFFER, 1);
	net_put16(c.buf + BODY(struct pw_wire_buffer, host),
		  PW_WIRE_MAX_HOSTS - 1);
	REJECT(&c, PW_WIRE_OK);
	net_put16(c.buf + BODY(struct pw_wire_buffer, host),
		  PW_WIRE_MAX_HOSTS);
	REJECT(&c, PW_WIRE_E_VALUE);
	/* total */
	CRAFT(&c, PW_WIRE_BUFFER, 1);
	net_put32(c.buf + BODY(struct pw_wire_buffer, total), 0);
	REJECT(&c, PW_WIRE_E_COUNT);
	net_put32(c.buf + BODY(struct pw_wire_buffer, total),
		  PW_WIRE_MAX_BUF_BYTES + 1);
	REJECT(&c, PW_WIRE_E_COUNT);
	net_put32(c.buf + BODY(struct pw_wire_buffer, total), 127);
	REJECT(&c, PW_WIRE_E_COUNT);
	/* offset: CREATE starts at 0; WRITE anywhere that fits */
	CRAFT(&c, PW_WIRE_BUFFER, 1);
	net_put32(c.buf + BODY(struct pw_wire_buffer, total), 1024);
	net_put32(c.buf + BODY(struct pw_wire_buffer, offset), 128);
	REJECT(&c, PW_WIRE_E_COUNT);
	c.buf[BODY(struct pw_wire_buffer, op)] = PW_WIRE_BUF_WRITE;
	c.buf[BODY(struct pw_wire_buffer, dtype)] = 0;
	c.buf[BODY(struct pw_wire_buffer, rank)] = 0;
	c.buf[BODY(struct pw_wire_buffer, dev)] = 0;
	memset(c.buf + BODY(struct pw_wire_buffer, shape), 0, 16);
	REJECT(&c, PW_WIRE_OK);
	net_put32(c.buf + BODY(struct pw_wire_buffer, offset), 1024 - 128);
	REJECT(&c, PW_WIRE_OK);
	net_put32(c.buf + BODY(struct pw_wire_buffer, offset), 1024 - 127);
	REJECT(&c, PW_WIRE_E_COUNT);
	net_put32(c.buf + BODY(struct pw_wire_buffer, offset), 0xffffffc0);
	REJECT(&c, PW_WIRE_E_COUNT);			/* would wrap */
	/* DATA is held to the same bounds */
	c.buf[BODY(struct pw_wire_buffer, op)] = PW_WIRE_BUF_DATA;
	REJECT(&c, PW_WIRE_E_COUNT);
	net_put32(c.buf + BODY(struct pw_wire_buffer, offset), 0);
	REJECT(&c, PW_WIRE_OK);
	/* nbytes: none, more than a chunk, other than what follows */
	CRAFT(&c, PW_WIRE_BUFFER, 1);
	net_put16(c.buf + BODY(struct pw_wire_buffer, nbytes), 0);
	craft_resize(&c, H + 48);
	REJECT(&c, PW_WIRE_E_COUNT);
	CRAFT(&c, PW_WIRE_BUFFER, 1);
	net_put32(c.buf + BODY(struct pw_wire_buffer, total),
		  PW_WIRE_MAX_BUF_BYTES);
	net_put16(c.buf + BODY(struct pw_wire_buffer, nbytes),
		  PW_WIRE_BUF_CHUNK + 1);
	craft_resize(&c, PW_WIRE_MAX_DGRAM);		/* all that fits */
	REJECT(&c, PW_WIRE_E_COUNT);
	CRAFT(&c, PW_WIRE_BUFFER, 1);
	craft_resize(&c, c.len - 1);
	REJECT(&c, PW_WIRE_E_BODY_SIZE);
	craft_resize(&c, c.len + 2);
	REJECT(&c, PW_WIRE_E_BODY_SIZE);
	craft_resize(&c, H + 40);			/* fixed part cut */
	REJECT(&c, PW_WIRE_E_BODY_SIZE);
	/* rank and shape */
	CRAFT(&c, PW_WIRE_BUFFER, 1);
	c.buf[BODY(struct pw_wire_buffer, rank)] = PW_WIRE_MAX_DIMS;
	REJECT(&c, PW_WIRE_OK);
	c.buf[BODY(struct pw_wire_buffer, rank)] = PW_WIRE_MAX_DIMS + 1;
	REJECT(&c, PW_WIRE_E_COUNT);
	CRAFT(&c, PW_WIRE_BUFFER, 1);
	c.buf[BODY(struct pw_wire_buffer, shape[2])] = 1;
	REJECT(&c, PW_WIRE_E_RESERVED);
	/* flags: only F_DP is one */
	CRAFT(&c, PW_WIRE_BUFFER, 1);
	c.buf[BODY(struct pw_wire_buffer, flags) + 1] = 1;
	REJECT(&c, PW_WIRE_E_RESERVED);
	CRAFT(&c, PW_WIRE_BUFFER, 1);
	c.buf[BODY(struct pw_wire_buffer, flags)] = 2;
	REJECT(&c, PW_WIRE_E_RESERVED);
	CRAFT(&c, PW_WIRE_BUFFER, 1);
	c.buf[BODY(struct pw_wire_buffer, reserved2)] = 1;
	REJECT(&c, PW_WIRE_E_RESERVED);
	/* A shard named by its slice names no host or device too. */
	CRAFT(&c, PW_WIRE_BUFFER, 1);
	c.buf[BODY(struct pw_wire_buffer, slice) + 2] = 1;
	REJECT(&c, PW_WIRE_E_VALUE);
	/* What only CREATE describes: not in a WRITE. */
	CRAFT(&c, PW_WIRE_BUFFER, 1);
	c.buf[BODY(struct pw_wire_buffer, op)] = PW_WIRE_BUF_WRITE;
	REJECT(&c, PW_WIRE_E_RESERVED);		/* dtype, rank, shape */
	c.buf[BODY(struct pw_wire_buffer, dtype)] = 0;
	c.buf[BODY(struct pw_wire_buffer, rank)] = 0;
	REJECT(&c, PW_WIRE_E_RESERVED);		/* shape past rank 0 */
	memset(c.buf + BODY(struct pw_wire_buffer, shape), 0, 16);
	REJECT(&c, PW_WIRE_E_RESERVED);		/* dev */
	c.buf[BODY(struct pw_wire_buffer, dev)] = 0;
	REJECT(&c, PW_WIRE_OK);
	c.buf[BODY(struct pw_wire_buffer, dtype)] = PWTPU_DT_F32;
	REJECT(&c, PW_WIRE_E_RESERVED);

	/* READ and FREE: a handle, no data, no sizes. */
	for (k = PW_WIRE_BUF_READ; k <= PW_WIRE_BUF_FREE;
	     k += PW_WIRE_BUF_FREE - PW_WIRE_BUF_READ) {
		craft_buf_nodata(&c, k);
		ASSERT_EQ(H + 48, c.len);
		REJECT(&c, PW_WIRE_OK);
		net_put32(c.buf + BODY(struct pw_wire_buffer, total), 1);
		REJECT(&c, PW_WIRE_E_RESERVED);
		craft_buf_nodata(&c, k);
		net_put32(c.buf + BODY(struct pw_wire_buffer, offset), 1);
		REJECT(&c, PW_WIRE_E_RESERVED);
		craft_buf_nodata(&c, k);
		net_put16(c.buf + BODY(struct pw_wire_buffer, nbytes), 1);
		REJECT(&c, PW_WIRE_E_BODY_SIZE);
		craft_resize(&c, c.len + 1);		/* with its byte */
		REJECT(&c, PW_WIRE_E_COUNT);
		craft_buf_nodata(&c, k);
		c.buf[BODY(struct pw_wire_buffer, dtype)] = PWTPU_DT_F32;
		REJECT(&c, PW_WIRE_E_RESERVED);
		craft_buf_nodata(&c, k);
		c.buf[BODY(struct pw_wire_buffer, dev)] = 1;
		REJECT(&c, PW_WIRE_E_RESERVED);
		craft_buf_nodata(&c, k);
		c.buf[BODY(struct pw_wire_buffer, rank)] = 1;
		REJECT(&c, PW_WIRE_E_RESERVED);
		craft_buf_nodata(&c, k);
		c.buf[BODY(struct pw_wire_buffer, id) + 3] = 0x80;
		REJECT(&c, PW_WIRE_E_VALUE);
	}
}

TEST(reject_status_ready_cancel)
{
	struct craft c;

	/* STATUS answers FUNCTION and BUFFER only. */
	CRAFT(&c, PW_WIRE_STATUS, 1);
	c.buf[BODY(struct pw_wire_status, ref_type)] = PW_WIRE_FUNCTION;
	REJECT(&c, PW_WIRE_OK);
	c.buf[BODY(struct pw_wire_status, ref_type)] = 0;
	REJECT(&c, PW_WIRE_E_VALUE);
	c.buf[BODY(struct pw_wire_status, ref_type)] = PW_WIRE_RUN;
	REJECT(&c, PW_WIRE_E_VALUE);
	c.buf[BODY(struct pw_wire_status, ref_type)] = PW_WIRE_NTYPES;
	REJECT(&c, PW_WIRE_E_VALUE);
	CRAFT(&c, PW_WIRE_STATUS, 1);
	c.buf[BODY(struct pw_wire_status, reserved[2])] = 1;
	REJECT(&c, PW_WIRE_E_RESERVED);
	CRAFT(&c, PW_WIRE_STATUS, 1);
	craft_resize(&c, c.len - 8);
	REJECT(&c, PW_WIRE_E_BODY_SIZE);

	/* READY: hosts in range; the descriptor is the data plane's. */
	CRAFT(&c, PW_WIRE_READY, 1);
	memset(c.buf + BODY(struct pw_wire_ready, desc), 0xa5,
	       PW_WIRE_DESC_SIZE);
	REJECT(&c, PW_WIRE_OK);
	net_put16(c.buf + BODY(struct pw_wire_ready, src_host),
		  PW_WIRE_MAX_HOSTS);
	REJECT(&c, PW_WIRE_E_VALUE);
	CRAFT(&c, PW_WIRE_READY, 1);
	net_put16(c.buf + BODY(struct pw_wire_ready, dst_host),
		  PW_WIRE_MAX_HOSTS);
	REJECT(&c, PW_WIRE_E_VALUE);
	CRAFT(&c, PW_WIRE_READY, 1);
	c.buf[BODY(struct pw_wire_ready, reserved) + 1] = 1;
	REJECT(&c, PW_WIRE_E_RESERVED);
	CRAFT(&c, PW_WIRE_READY, 1);
	craft_resize(&c, c.len + 1);
	REJECT(&c, PW_WIRE_E_BODY_SIZE);

	/* CANCEL says why. */
	CRAFT(&c, PW_WIRE_CANCEL, 1);
	net_put32(c.buf + BODY(struct pw_wire_cancel, status), 0);
	REJECT(&c, PW_WIRE_E_VALUE);
	CRAFT(&c, PW_WIRE_CANCEL, 1);
	craft_resize(&c, c.len - 4);
	REJECT(&c, PW_WIRE_E_BODY_SIZE);

	/* BYE: its reserved word is zero, its size fixed. */
	CRAFT(&c, PW_WIRE_BYE, 1);
	c.buf[BODY(struct pw_wire_bye, reserved)] = 1;
	REJECT(&c, PW_WIRE_E_RESERVED);
	CRAFT(&c, PW_WIRE_BYE, 1);
	craft_resize(&c, c.len + 4);
	REJECT(&c, PW_WIRE_E_BODY_SIZE);
}

/* Tensor bytes from a signature: what buffers and transfers are sized by. */
TEST(sig_bytes)
{
	struct pw_wire_sig s = { .dtype = PWTPU_DT_F32, .rank = 2,
				 .shape = { 2, 3 } };

	ASSERT_EQ(24u, pw_wire_sig_bytes(&s));
	s.dtype = PWTPU_DT_BF16;
	ASSERT_EQ(12u, pw_wire_sig_bytes(&s));
	s.rank = 0;	/* a scalar */
	ASSERT_EQ(2u, pw_wire_sig_bytes(&s));
	s.dtype = 0;	/* no such dtype */
	ASSERT_EQ(0u, pw_wire_sig_bytes(&s));
}

/* A version 1 node's datagrams are dropped as such, whatever they hold. */
TEST(reject_v1)
{
	uint8_t v1[H + 16];
	struct pw_wire_msg m;
	struct craft c;
	unsigned int type;

	/* A v1 CONNECT_ACK as a v1 node sent it: its 16-byte body. */
	memset(v1, 0, sizeof(v1));
	memcpy(v1, "PWDN", 4);
	v1[4] = 1;
	v1[5] = PW_WIRE_CONNECT_ACK;
	net_put16(v1 + 8, sizeof(v1));
	net_put32(v1 + 20, 1);				/* session */
	net_put32(v1 + 24, 1);				/* seq */
	net_put32(v1 + 28, 1);				/* base */
	net_put32(v1 + H + 4, 42);			/* client_id */
	ASSERT_EQ(PW_WIRE_E_VERSION, (int)pw_wire_decode(&m, v1, sizeof(v1)));
	/* The same bytes as v2 would be judged on their size. */
	v1[4] = PW_WIRE_VERSION;
	ASSERT_EQ(PW_WIRE_E_BODY_SIZE,
		  (int)pw_wire_decode(&m, v1, sizeof(v1)));
	/* Every v2 message relabelled v1, even a well-formed one. */
	for (type = PW_WIRE_ACK; type < PW_WIRE_NTYPES; type++) {
		CRAFT(&c, type, 3);
		c.buf[4] = 1;
		REJECT(&c, PW_WIRE_E_VERSION);
	}
}

/* A good payload head: 2 parameters, 1 result, scratch, constants. */
static void good_desc(struct pw_wire_fn_desc *d, uint32_t *payload)
{
	memset(d, 0, sizeof(*d));
	d->nparams = 2;
	d->nresults = 1;
	d->nbufs = 5;
	d->scratch_buf = 3;
	d->const_buf = 4;
	d->image_bytes = 1000;
	d->scratch_bytes = 4096;
	d->const_bytes = 64;
	d->sigs[0].dtype = PWTPU_DT_F32;
	d->sigs[0].rank = 2;
	d->sigs[0].shape[0] = 4;
	d->sigs[0].shape[1] = 8;
	d->sigs[1].dtype = PWTPU_DT_I32;
	d->sigs[2].dtype = PWTPU_DT_BF16;
	d->sigs[2].rank = PW_WIRE_MAX_DIMS;
	d->sigs[2].shape[0] = 1;
	d->sigs[2].shape[1] = 2;
	d->sigs[2].shape[2] = 3;
	d->sigs[2].shape[3] = 0x01020304;
	*payload = PW_WIRE_FN_DESC_SIZE + 1000 + 64;
}

/* Pack @d, unpack what came out: unpack's verdict, and the same @d back. */
static int desc_trip(const struct pw_wire_fn_desc *d, uint32_t payload)
{
	uint8_t bytes[PW_WIRE_FN_DESC_SIZE], again[PW_WIRE_FN_DESC_SIZE];
	struct pw_wire_fn_desc out;
	int ret;

	pw_wire_fn_desc_pack(d, bytes);
	ret = pw_wire_fn_desc_unpack(bytes, payload, &out);
	if (ret)
		return ret;
	pw_wire_fn_desc_pack(&out, again);
	if (memcmp(d, &out, sizeof(out)) || memcmp(bytes, again, sizeof(bytes)))
		return 1;
	return 0;
}

TEST(fn_desc_round_trip)
{
	uint8_t b[PW_WIRE_FN_DESC_SIZE];
	struct pw_wire_fn_desc d;
	uint32_t payload;
	unsigned int i;

	good_desc(&d, &payload);
	ASSERT_EQ(0, desc_trip(&d, payload));

	/* Little-endian at the struct's offsets. */
	d.scratch_buf = -1;
	d.scratch_bytes = 0;
	d.const_buf = 3;
	d.nbufs = 4;
	d.const_bytes = 0x0102030405ull;
	pw_wire_fn_desc_pack(&d, b);
	ASSERT_EQ(0, memcmp(b + 0, "\x02\x00\x00\x00\x01\x00\x00\x00", 8));
	ASSERT_EQ(0, memcmp(b + 8, "\x04\x00\x00\x00\xff\xff\xff\xff", 8));
	ASSERT_EQ(0, memcmp(b + 16, "\x03\x00\x00\x00\xe8\x03\x00\x00", 8));
	ASSERT_EQ(0, memcmp(b + 24, "\x00\x00\x00\x00\x00\x00\x00\x00", 8));
	ASSERT_EQ(0, memcmp(b + 32, "\x05\x04\x03\x02\x01\x00\x00\x00", 8));
	/* flags, group_size, permute_shift, reserved (version 4): none. */
	for (i = 40; i < 56; i++)
		ASSERT_EQ(0, b[i]);
	ASSERT_EQ(PWTPU_DT_F32, b[56]);
	ASSERT_EQ(2, b[57]);
	ASSERT_EQ(0, memcmp(b + 60, "\x04\x00\x00\x00\x08\x00\x00\x00", 8));
	ASSERT_EQ(PWTPU_DT_I32, b[76]);
	ASSERT_EQ(PWTPU_DT_BF16, b[96]);
	ASSERT_EQ(0, memcmp(b + 112, "\x04\x03\x02\x01", 4));
	for (i = 116; i < PW_WIRE_FN_DESC_SIZE; i++)
		ASSERT_EQ(0, b[i]);

	/* Neither scratch nor constants; nothing but an image. */
	good_desc(&d, &payload);
	d.nbufs = 3;
	d.scratch_buf = d.const_buf = -1;
	d.scratch_bytes = d.const_bytes = 0;
	ASSERT_EQ(0, desc_trip(&d, PW_WIRE_FN_DESC_SIZE + 1000));
	memset(&d, 0, sizeof(d));
	d.scratch_buf = d.const_buf = -1;
	d.image_bytes = 1;
	ASSERT_EQ(0, desc_trip(&d, PW_WIRE_FN_DESC_SIZE + 1));

	/* Every binding used, constants before scratch. */
	memset(&d, 0, sizeof(d));
	d.nparams = 8;
	d.nresults = PW_WIRE_MAX_BUFS - 10;
	d.nbufs = PW_WIRE_MAX_BUFS;
	d.const_buf = PW_WIRE_MAX_BUFS - 2;
	d.scratch_buf = PW_WIRE_MAX_BUFS - 1;
	d.scratch_bytes = ~0ull;
	d.const_bytes = PW_WIRE_MAX_FN_BYTES;
	d.image_bytes = 0xffffffff - PW_WIRE_FN_DESC_SIZE -
			PW_WIRE_MAX_FN_BYTES;
	for (i = 0; i < PW_WIRE_MAX_BUFS - 2; i++) {
		d.sigs[i].dtype = PWTPU_DT_I8;
		d.sigs[i].rank = i % (PW_WIRE_MAX_DIMS + 1);
		if (d.sigs[i].rank)
			d.sigs[i].shape[d.sigs[i].rank - 1] = 0xffffffff;
	}
	ASSERT_EQ(0, desc_trip(&d, 0xffffffff));
}

/* @d differs from a good head in one rule: unpack refuses it. */
#define DESC_BAD(d, payload) \
	ASSERT_EQ(-EINVAL, desc_trip(d, payload))

TEST(fn_desc_rejects)
{
	struct pw_wire_fn_desc d;
	uint32_t p;
	unsigned int i;

	/* Bindings past PW_WIRE_MAX_BUFS, all else consistent. */
	memset(&d, 0, sizeof(d));
	d.nparams = PW_WIRE_MAX_BUFS - 1;
	d.nbufs = PW_WIRE_MAX_BUFS + 1;
	d.scratch_buf = PW_WIRE_MAX_BUFS - 1;
	d.const_buf = PW_WIRE_MAX_BUFS;
	d.scratch_bytes = d.const_bytes = 1;
	d.image_bytes = 1;
	for (i = 0; i < PW_WIRE_MAX_BUFS - 1; i++)
		d.sigs[i].dtype = PWTPU_DT_F32;
	DESC_BAD(&d, PW_WIRE_FN_DESC_SIZE + 2);
	d.nparams--;
	d.nbufs--;
	d.scratch_buf--;
	d.const_buf--;
	d.sigs[PW_WIRE_MAX_BUFS - 2].dtype = 0;
	ASSERT_EQ(0, desc_trip(&d, PW_WIRE_FN_DESC_SIZE + 2));

	/* More parameters and results than bindings, wrapping or not. */
	good_desc(&d, &p);
	d.nparams = 5;
	d.sigs[3].dtype = d.sigs[4].dtype = PWTPU_DT_F32;
	DESC_BAD(&d, p);
	good_desc(&d, &p);
	d.nparams = 0xffffffff;
	d.nresults = 4;			/* the sum wraps to 3 */
	DESC_BAD(&d, p);
	good_desc(&d, &p);
	d.nresults = 0xfffffffe;
	DESC_BAD(&d, p);

	/* scratch_buf and const_buf: -1 or after the results, distinct */
	good_desc(&d, &p);
	d.scratch_buf = -2;
	DESC_BAD(&d, p);
	d.scratch_buf = 2;		/* the result */
	DESC_BAD(&d, p);
	d.scratch_buf = 5;		/* == nbufs */
	DESC_BAD(&d, p);
	d.scratch_buf = INT32_MIN;
	DESC_BAD(&d, p);
	/* Not counted as a binding, sized as one: only -1 means none. */
	good_desc(&d, &p);
	d.scratch_buf = -2;
	d.const_buf = 3;
	d.nbufs = 4;
	DESC_BAD(&d, p);
	good_desc(&d, &p);
	d.const_buf = -3;
	d.nbufs = 4;
	DESC_BAD(&d, p);
	good_desc(&d, &p);
	d.const_buf = 0;
	DESC_BAD(&d, p);
	d.const_buf = 3;		/* the scratch's */
	DESC_BAD(&d, p);
	d.const_buf = PW_WIRE_MAX_BUFS;
	DESC_BAD(&d, p);

	/* nbufs is exactly what it binds */
	good_desc(&d, &p);
	d.nbufs = 6;
	DESC_BAD(&d, p);
	good_desc(&d, &p);
	d.scratch_buf = -1;
	d.scratch_bytes = 0;
	d.const_buf = 3;		/* nbufs 5 binds 4 */
	DESC_BAD(&d, p);
	d.nbufs = 4;
	ASSERT_EQ(0, desc_trip(&d, p));

	/* scratch_bytes 0 iff no scratch binding */
	good_desc(&d, &p);
	d.scratch_bytes = 0;
	DESC_BAD(&d, p);
	good_desc(&d, &p);
	d.scratch_buf = -1;
	d.const_buf = 3;
	d.nbufs = 4;			/* scratch_bytes left 4096 */
	DESC_BAD(&d, p);

	/* const_bytes 0 iff no constants binding */
	good_desc(&d, &p);
	d.const_bytes = 0;
	DESC_BAD(&d, p - 64);
	good_desc(&d, &p);
	d.const_buf = -1;
	d.nbufs = 4;			/* const_bytes left 64 */
	DESC_BAD(&d, p);

	/* an image, nonzero */
	good_desc(&d, &p);
	d.image_bytes = 0;
	DESC_BAD(&d, p - 1000);

	/* head + image + constants is the payload, to the byte */
	good_desc(&d, &p);
	DESC_BAD(&d, p - 1);
	DESC_BAD(&d, p + 1);
	DESC_BAD(&d, 0);
	DESC_BAD(&d, PW_WIRE_FN_DESC_SIZE);
	/* constants so large the 64-bit sum wraps back to the payload */
	d.const_bytes = 0 - (uint64_t)d.image_bytes;
	DESC_BAD(&d, PW_WIRE_FN_DESC_SIZE);
	d.const_bytes = 1ull << 32;
	DESC_BAD(&d, PW_WIRE_FN_DESC_SIZE + 1000);

	/* signatures: known dtype, rank in bounds, nothing unused set */
	good_desc(&d, &p);
	d.sigs[1].dtype = 0;
	DESC_BAD(&d, p);
	d.sigs[1].dtype = PWTPU_DT_U64 + 1;
	DESC_BAD(&d, p);
	/* Every dtype of the device is known, the last one included. */
	d.sigs[1].dtype = PWTPU_DT_U64;
	ASSERT_EQ(0, desc_trip(&d, p));
	d.sigs[1].dtype = 0xff;
	DESC_BAD(&d, p);
	good_desc(&d, &p);
	d.sigs[2].rank = PW_WIRE_MAX_DIMS + 1;
	DESC_BAD(&d, p);
	good_desc(&d, &p);
	d.sigs[0].shape[2] = 1;		/* past rank 2 */
	DESC_BAD(&d, p);
	good_desc(&d, &p);
	d.sigs[1].shape[0] = 1;		/* a scalar's */
	DESC_BAD(&d, p);
	good_desc(&d, &p);
	d.sigs[2].reserved = 0x100;
	DESC_BAD(&d, p);
	/* entries past nparams + nresults: all zero */
	good_desc(&d, &p);
	d.sigs[3].dtype = PWTPU_DT_F32;
	DESC_BAD(&d, p);
	good_desc(&d, &p);
	d.sigs[PW_WIRE_MAX_BUFS - 1].shape[3] = 1;
	DESC_BAD(&d, p);
	good_desc(&d, &p);
	d.sigs[7].reserved = 1;
	DESC_BAD(&d, p);
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

/* SLICE (version 4): every field that must be refused is. */
TEST(reject_slice_fields)
{
	struct craft c;

	CRAFT(&c, PW_WIRE_SLICE, 1);
	ASSERT_LT(0, c.len);
	/* op */
	c.buf[BODY(struct pw_wire_slice, op)] = PW_WIRE_SLICE_NOPS;
	REJECT(&c, PW_WIRE_E_VALUE);
	/* counts */
	CRAFT(&c, PW_WIRE_SLICE, 1);
	c.buf[BODY(struct pw_wire_slice, n)] = PW_WIRE_MAX_DEVICES + 1;
	REJECT(&c, PW_WIRE_E_COUNT);
	CRAFT(&c, PW_WIRE_SLICE, 1);
	c.buf[BODY(struct pw_wire_slice, ndims)] = PW_WIRE_MAX_DIMS + 1;
	REJECT(&c, PW_WIRE_E_COUNT);
	CRAFT(&c, PW_WIRE_SLICE, 1);
	c.buf[BODY(struct pw_wire_slice, n)] = 0;
	REJECT(&c, PW_WIRE_E_VALUE);
	/* reserved, unknown flags, extents and devices past the counts */
	CRAFT(&c, PW_WIRE_SLICE, 1);
	c.buf[BODY(struct pw_wire_slice, members)] = 1;
	REJECT(&c, PW_WIRE_E_RESERVED);
	CRAFT(&c, PW_WIRE_SLICE, 1);
	c.buf[BODY(struct pw_wire_slice, flags)] = 4;
	REJECT(&c, PW_WIRE_E_RESERVED);
	CRAFT(&c, PW_WIRE_SLICE, 1);
	c.buf[BODY(struct pw_wire_slice, shape[2])] = 1;
	REJECT(&c, PW_WIRE_E_RESERVED);
	CRAFT(&c, PW_WIRE_SLICE, 1);
	c.buf[BODY(struct pw_wire_slice, devices[4])] = 1;
	REJECT(&c, PW_WIRE_E_RESERVED);
	/* values: no id, a host past the cluster, a device past an island */
	CRAFT(&c, PW_WIRE_SLICE, 1);
	net_put32(c.buf + BODY(struct pw_wire_slice, id), 0);
	REJECT(&c, PW_WIRE_E_VALUE);
	CRAFT(&c, PW_WIRE_SLICE, 1);
	net_put16(c.buf + BODY(struct pw_wire_slice, host), PW_WIRE_MAX_HOSTS);
	REJECT(&c, PW_WIRE_E_VALUE);
	CRAFT(&c, PW_WIRE_SLICE, 1);
	c.buf[BODY(struct pw_wire_slice, devices[1])] = PW_WIRE_MAX_DEVICES;
	REJECT(&c, PW_WIRE_E_VALUE);
	/* FREE carries only the id */
	CRAFT(&c, PW_WIRE_SLICE, 1);
	c.buf[BODY(struct pw_wire_slice, op)] = PW_WIRE_SLICE_FREE;
	REJECT(&c, PW_WIRE_E_RESERVED);
	/* ...not even an island's HBM (version 5), which MAKE may carry. */
	CRAFT(&c, PW_WIRE_SLICE, 1);
	c.buf[BODY(struct pw_wire_slice, hbm_bytes) + 7] = 1;
	REJECT(&c, PW_WIRE_OK);
	c.buf[BODY(struct pw_wire_slice, op)] = PW_WIRE_SLICE_FREE;
	c.buf[BODY(struct pw_wire_slice, n)] = 0;
	c.buf[BODY(struct pw_wire_slice, ndims)] = 0;
	memset(c.buf + BODY(struct pw_wire_slice, shape), 0,
	       sizeof(((struct pw_wire_slice *)0)->shape));
	REJECT(&c, PW_WIRE_E_RESERVED);
	c.buf[BODY(struct pw_wire_slice, hbm_bytes) + 7] = 0;
	REJECT(&c, PW_WIRE_OK);
}

/* SLICE MAKE near a host (version 11): a host named, never pinned too. */
TEST(reject_slice_near_fields)
{
	struct craft c;

	CRAFT(&c, PW_WIRE_SLICE, 1);
	c.buf[BODY(struct pw_wire_slice, flags)] = PW_WIRE_SLICE_NEAR;
	net_put16(c.buf + BODY(struct pw_wire_slice, host), 3);
	REJECT(&c, PW_WIRE_OK);
	net_put16(c.buf + BODY(struct pw_wire_slice, host), PW_WIRE_ANY_HOST);
	REJECT(&c, PW_WIRE_E_VALUE);
	net_put16(c.buf + BODY(struct pw_wire_slice, host), 3);
	c.buf[BODY(struct pw_wire_slice, flags)] =
		PW_WIRE_SLICE_NEAR | PW_WIRE_SLICE_PINNED;
	REJECT(&c, PW_WIRE_E_VALUE);
}

/* SLICE GROUP (version 10): members, any host, ids that fit, no pins. */
TEST(reject_slice_group_fields)
{
	struct craft c;

	CRAFT(&c, PW_WIRE_SLICE, 1);
	c.buf[BODY(struct pw_wire_slice, op)] = PW_WIRE_SLICE_GROUP;
	net_put16(c.buf + BODY(struct pw_wire_slice, members), 2);
	net_put16(c.buf + BODY(struct pw_wire_slice, host), PW_WIRE_ANY_HOST);
	c.buf[BODY(struct pw_wire_slice, flags)] = 0;
	memset(c.buf + BODY(struct pw_wire_slice, hbm_bytes), 0, 8);
	net_put32(c.buf + BODY(struct pw_wire_slice, id), 7);
	REJECT(&c, PW_WIRE_OK);
	/* one member, or more than a cluster's hosts */
	net_put16(c.buf + BODY(struct pw_wire_slice, members), 1);
	REJECT(&c, PW_WIRE_E_COUNT);
	net_put16(c.buf + BODY(struct pw_wire_slice, members),
		  PW_WIRE_MAX_HOSTS + 1);
	REJECT(&c, PW_WIRE_E_COUNT);
	net_put16(c.buf + BODY(struct pw_wire_slice, members),
		  PW_WIRE_MAX_HOSTS);
	REJECT(&c, PW_WIRE_OK);
	/* pinned, near a host, or on a host */
	c.buf[BODY(struct pw_wire_slice, flags)] = PW_WIRE_SLICE_PINNED;
	REJECT(&c, PW_WIRE_E_RESERVED);
	c.buf[BODY(struct pw_wire_slice, flags)] = PW_WIRE_SLICE_NEAR;
	REJECT(&c, PW_WIRE_E_RESERVED);
	c.buf[BODY(struct pw_wire_slice, flags)] = 0;
	net_put16(c.buf + BODY(struct pw_wire_slice, host), 3);
	REJECT(&c, PW_WIRE_E_VALUE);
	net_put16(c.buf + BODY(struct pw_wire_slice, host), PW_WIRE_ANY_HOST);
	/* member ids past the client's id space */
	net_put32(c.buf + BODY(struct pw_wire_slice, id),
		  PW_WIRE_BUF_TEMP - PW_WIRE_MAX_HOSTS);
	REJECT(&c, PW_WIRE_E_VALUE);
	net_put32(c.buf + BODY(struct pw_wire_slice, id),
		  PW_WIRE_BUF_TEMP - PW_WIRE_MAX_HOSTS - 1);
	REJECT(&c, PW_WIRE_OK);
	/* no devices */
	c.buf[BODY(struct pw_wire_slice, n)] = 0;
	REJECT(&c, PW_WIRE_E_VALUE);
}

/* ADMIN (version 5): every field that must be refused is. */
TEST(reject_admin_fields)
{
	struct craft c;

	CRAFT(&c, PW_WIRE_ADMIN, 1);
	ASSERT_LT(0, c.len);
	net_put16(c.buf + BODY(struct pw_wire_admin, op), PW_WIRE_ADMIN_NOPS);
	REJECT(&c, PW_WIRE_E_VALUE);
	CRAFT(&c, PW_WIRE_ADMIN, 1);
	net_put16(c.buf + BODY(struct pw_wire_admin, host), 1);
	REJECT(&c, PW_WIRE_E_RESERVED);
	/* DEVICE_OUT: a host and device in range, no name (version 5). */
	net_put16(c.buf + BODY(struct pw_wire_admin, op),
		  PW_WIRE_ADMIN_DEVICE_OUT);
	REJECT(&c, PW_WIRE_E_RESERVED);
	memset(c.buf + BODY(struct pw_wire_admin, name), 0, PW_WIRE_NAME_LEN);
	REJECT(&c, PW_WIRE_OK);
	net_put32(c.buf + BODY(struct pw_wire_admin, value),
		  PW_WIRE_MAX_DEVICES);
	REJECT(&c, PW_WIRE_E_VALUE);
	net_put32(c.buf + BODY(struct pw_wire_admin, value), 3);
	net_put16(c.buf + BODY(struct pw_wire_admin, host),
		  PW_WIRE_MAX_HOSTS);
	REJECT(&c, PW_WIRE_E_VALUE);
	/* no id; weights 0 and past the bound */
	CRAFT(&c, PW_WIRE_ADMIN, 1);
	net_put32(c.buf + BODY(struct pw_wire_admin, id), 0);
	REJECT(&c, PW_WIRE_E_VALUE);
	CRAFT(&c, PW_WIRE_ADMIN, 1);
	net_put32(c.buf + BODY(struct pw_wire_admin, value), 0);
	REJECT(&c, PW_WIRE_E_VALUE);
	CRAFT(&c, PW_WIRE_ADMIN, 1);
	net_put32(c.buf + BODY(struct pw_wire_admin, value),
		  PW_WIRE_MAX_WEIGHT + 1);
	REJECT(&c, PW_WIRE_E_VALUE);
	/* a weight has no window; a name must be a padded string */
	CRAFT(&c, PW_WIRE_ADMIN, 1);
	net_put32(c.buf + BODY(struct pw_wire_admin, window), 1);
	REJECT(&c, PW_WIRE_E_RESERVED);
	CRAFT(&c, PW_WIRE_ADMIN, 1);
	c.buf[BODY(struct pw_wire_admin, name[20])] = 'x';
	REJECT(&c, PW_WIRE_E_STRING);
	/* POLICY: a known policy, a window in bounds, no name */
	CRAFT(&c, PW_WIRE_ADMIN, 1);
	net_put16(c.buf + BODY(struct pw_wire_admin, op), PW_WIRE_ADMIN_POLICY);
	REJECT(&c, PW_WIRE_E_RESERVED);
	memset(c.buf + BODY(struct pw_wire_admin, name), 0, PW_WIRE_NAME_LEN);
	net_put32(c.buf + BODY(struct pw_wire_admin, value),
		  PW_WIRE_SCHED_SHARE);
	REJECT(&c, PW_WIRE_OK);
	net_put32(c.buf + BODY(struct pw_wire_admin, value),
		  PW_WIRE_SCHED_NPOLICIES);
	REJECT(&c, PW_WIRE_E_VALUE);
	net_put32(c.buf + BODY(struct pw_wire_admin, value),
		  PW_WIRE_SCHED_FIFO);
	net_put32(c.buf + BODY(struct pw_wire_admin, window),
		  PW_WIRE_MAX_SHARE_WINDOW + 1);
	REJECT(&c, PW_WIRE_E_COUNT);
}

/*
 * BUFFER over the data plane (version 6): a CREATE carries no bytes and
 * may name any size; a READ carries exactly the client's target; nothing
 * else may be flagged.
 */
TEST(buffer_over_the_data_plane)
{
	uint8_t buf[PW_WIRE_MAX_DGRAM];
	struct pw_wire_msg m, out;
	int len;

	memset(&m, 0, sizeof(m));
	m.hdr.type = PW_WIRE_BUFFER;
	m.hdr.src_node = 1;
	m.hdr.dst_node = 2;
	m.hdr.session = 1;
	m.hdr.seq = 1;
	m.hdr.base = 1;
	m.body.buffer.op = PW_WIRE_BUF_CREATE;
	m.body.buffer.flags = PW_WIRE_BUF_F_DP;
	m.body.buffer.dtype = 1;
	m.body.buffer.rank = 1;
	m.body.buffer.shape[0] = 1u << 28;
	m.body.buffer.id = 64;
	m.body.buffer.total = 1u << 30;	/* past PW_WIRE_MAX_BUF_BYTES */
	len = pw_wire_encode(&m, buf, sizeof(buf));
	ASSERT_EQ(H + 48, len);
	ASSERT_EQ(PW_WIRE_OK, (int)pw_wire_decode(&out, buf, len));
	ASSERT_EQ(PW_WIRE_BUF_F_DP, out.body.buffer.flags);
	m.body.buffer.nbytes = 1;		/* bytes ride the data plane */
	EXPECT_EQ(-EINVAL, pw_wire_encode(&m, buf, sizeof(buf)));
	m.body.buffer.nbytes = 0;
	m.body.buffer.total = 0;
	EXPECT_EQ(-EINVAL, pw_wire_encode(&m, buf, sizeof(buf)));

	memset(&m.body.buffer, 0, sizeof(m.body.buffer));
	m.body.buffer.op = PW_WIRE_BUF_READ;
	m.body.buffer.flags = PW_WIRE_BUF_F_DP;
	m.body.buffer.id = 64;
	m.body.buffer.nbytes = PW_WIRE_BUF_DP_TARGET;
	memset(m.body.buffer.data, 0xab, PW_WIRE_BUF_DP_TARGET - 2);
	len = pw_wire_encode(&m, buf, sizeof(buf));
	ASSERT_EQ(H + 48 + PW_WIRE_BUF_DP_TARGET, len);
	ASSERT_EQ(PW_WIRE_OK, (int)pw_wire_decode(&out, buf, len));
	m.body.buffer.data[PW_WIRE_BUF_DP_TARGET - 1] = 1;
	EXPECT_EQ(-EINVAL, pw_wire_encode(&m, buf, sizeof(buf)));
	m.body.buffer.data[PW_WIRE_BUF_DP_TARGET - 1] = 0;
	m.body.buffer.nbytes = PW_WIRE_BUF_DP_TARGET - 1;
	EXPECT_EQ(-EINVAL, pw_wire_encode(&m, buf, sizeof(buf)));

	/* WRITE, DATA and FREE never go over the data plane. */
	memset(&m.body.buffer, 0, sizeof(m.body.buffer));
	m.body.buffer.op = PW_WIRE_BUF_FREE;
	m.body.buffer.flags = PW_WIRE_BUF_F_DP;
	m.body.buffer.id = 64;
	EXPECT_EQ(-EINVAL, pw_wire_encode(&m, buf, sizeof(buf)));
}

/* PEER and DONE's worker count (version 6). */
TEST(reject_peer_done_fields)
{
	struct craft c;

	CRAFT(&c, PW_WIRE_PEER, 1);
	ASSERT_LT(0, c.len);
	net_put32(c.buf + BODY(struct pw_wire_peer, node), 0);
	REJECT(&c, PW_WIRE_E_VALUE);
	CRAFT(&c, PW_WIRE_PEER, 1);
	net_put16(c.buf + BODY(struct pw_wire_peer, port), 0);
	REJECT(&c, PW_WIRE_E_VALUE);
	CRAFT(&c, PW_WIRE_PEER, 1);
	net_put16(c.buf + BODY(struct pw_wire_peer, host), PW_WIRE_MAX_HOSTS);
	REJECT(&c, PW_WIRE_E_VALUE);
	net_put16(c.buf + BODY(struct pw_wire_peer, host), PW_WIRE_ANY_HOST);
	REJECT(&c, PW_WIRE_OK);			/* a client */
	c.buf[BODY(struct pw_wire_peer, flags)] = PW_WIRE_PEER_F_ALL;
	REJECT(&c, PW_WIRE_OK);			/* an RDMA data plane */
	c.buf[BODY(struct pw_wire_peer, flags)] = PW_WIRE_PEER_F_RDMA;
	REJECT(&c, PW_WIRE_E_RESERVED);		/* RDMA, of no data plane */
	c.buf[BODY(struct pw_wire_peer, flags)] = 4;
	REJECT(&c, PW_WIRE_E_RESERVED);

	CRAFT(&c, PW_WIRE_DONE, 1);
	net_put32(c.buf + BODY(struct pw_wire_done, nhosts),
		  PW_WIRE_MAX_HOSTS + 1);
	REJECT(&c, PW_WIRE_E_COUNT);
	net_put32(c.buf + BODY(struct pw_wire_done, nhosts), 0);
	REJECT(&c, PW_WIRE_OK);			/* the controller's */
	c.buf[BODY(struct pw_wire_done, reserved) + 2] = 1;
	REJECT(&c, PW_WIRE_E_RESERVED);
}

/* The FUNCTION head's version-4 fields: collectives and permute. */
TEST(fn_desc_collective_fields)
{
	uint8_t raw[PW_WIRE_FN_DESC_SIZE + 8];
	struct pw_wire_fn_desc d, back;

	memset(&d, 0, sizeof(d));
	d.nparams = 1;
	d.nresults = 1;
	d.nbufs = 2;
	d.scratch_buf = -1;
	d.const_buf = -1;
	d.image_bytes = 8;
	d.sigs[0].dtype = PWTPU_DT_F32;
	d.sigs[0].rank = 1;
	d.sigs[0].shape[0] = 4;
	d.sigs[1] = d.sigs[0];
	d.flags = PW_WIRE_FN_COLLECTIVES | PW_WIRE_FN_PERMUTE;
	d.group_size = 4;
	d.permute_shift = -1;
	pw_wire_fn_desc_pack(&d, raw);
	ASSERT_EQ(0, pw_wire_fn_desc_unpack(raw, PW_WIRE_FN_DESC_SIZE + 8,
					    &back));
	EXPECT_EQ(d.flags, back.flags);
	EXPECT_EQ(4u, back.group_size);
	EXPECT_EQ(-1, back.permute_shift);
	/* A permute without collectives, a shift without a permute. */
	d.flags = PW_WIRE_FN_PERMUTE;
	pw_wire_fn_desc_pack(&d, raw);
	EXPECT_EQ(-EINVAL, pw_wire_fn_desc_unpack(raw, PW_WIRE_FN_DESC_SIZE + 8,
						  &back));
	d.flags = PW_WIRE_FN_COLLECTIVES;
	pw_wire_fn_desc_pack(&d, raw);
	EXPECT_EQ(-EINVAL, pw_wire_fn_desc_unpack(raw, PW_WIRE_FN_DESC_SIZE + 8,
						  &back));
	d.permute_shift = 0;
	d.flags = 0x80;
	pw_wire_fn_desc_pack(&d, raw);
	EXPECT_EQ(-EINVAL, pw_wire_fn_desc_unpack(raw, PW_WIRE_FN_DESC_SIZE + 8,
						  &back));
}

TEST_HARNESS_MAIN
