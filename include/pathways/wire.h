/* SPDX-License-Identifier: GPL-2.0 */
/*
 * wire.h - every Pathways control message that crosses the DCN, in one
 * header (runtime/net/wire.c encodes and decodes them).
 *
 * Protocol
 * --------
 * One control message is one UDP datagram (kernel sockets or DPDK, the
 * bytes are the same), at most PW_WIRE_MAX_DGRAM bytes and an
 * authentication trailer (below), so that it fits
 * one Ethernet frame without IP fragmentation. A datagram is a 48-byte
 * struct pw_wire_hdr followed by the body of its type. Bodies are fixed
 * size, except PROGRAM, RUN, PLAN, FUNCTION and BUFFER: a fixed part
 * followed by a bounded count of fixed-size records (or bytes); a
 * message holds exactly what it counts, no trailing bytes.
 *
 * Every multi-byte integer is little-endian on the wire. The structs below
 * describe the layout (naturally aligned, no padding: checked by the
 * _Static_asserts) and hold values in host order; wire.c converts each
 * field with htole*()/le*toh(), so the codec is right on any host.
 * Character arrays are NUL-terminated and NUL-padded. Reserved fields and
 * unused array entries are zero. IPv4 addresses are 4 bytes in network
 * order (a.b.c.d as written).
 *
 * Versioning: PW_WIRE_VERSION changes whenever any layout or meaning
 * changes, including a new message type. A receiver drops every datagram
 * of another version (and counts it); there is no negotiation, all nodes
 * of a cluster run one version.
 *
 * Validation: a receiver decodes with pw_wire_decode(), which trusts
 * nothing: a datagram that is short, oversized, of another magic, version
 * or type, whose length field disagrees with its size, whose body size is
 * wrong for its type, whose counts are out of bounds, whose reserved
 * fields are not zero or whose strings are unterminated is rejected with
 * one enum pw_wire_err reason, and callers count drops per reason. A
 * message that decodes re-encodes to the same bytes.
 *
 * Reliability (runtime/net/rchan.c): between two nodes each direction is
 * one ordered stream. Every type but ACK is sequenced: @seq numbers the
 * sender's messages 1, 2, 3... (u32, serial arithmetic) within the
 * sender's @session (one per incarnation: a restarted node uses a session
 * that compares greater, so late datagrams of its old life are dropped).
 * @base is the sender's oldest unacknowledged seq: a receiver that has
 * never heard this session joins the stream there. Acknowledgements ride
 * on every message (flag PW_WIRE_F_ACK): @ack is cumulative (every seq up
 * to and including it received) and @sack selects later ones (bit i: seq
 * ack + 2 + i received), both for the peer's stream @ack_session. A pure
 * ACK (type PW_WIRE_ACK) is sent when no message is going back soon.
 * The sender retransmits what stays unacknowledged after a timeout that
 * doubles up to a cap, or at once when selective acks show a hole; the
 * receiver drops duplicates and delivers in order exactly once.
 *
 * Authentication (version 7): every datagram is the message followed by a
 * PW_WIRE_AUTH_BYTES trailer, which the node layer (runtime/dcn/node.c)
 * adds and checks around the codec: the sender's CLOCK_REALTIME in ns
 * (u64, little-endian), then a 32-byte HMAC-SHA-512-256 tag (libsodium's
 * crypto_auth) over the message and that time, under the cluster's
 * 32-byte key, which every node of the cluster, clients included, reads
 * from a file only its owner may read (runtime/net/auth.h). A datagram
 * whose tag is wrong is dropped and counted as forged, one sent further
 * than PW_AUTH_WINDOW_NS (30 s) from the receiver's clock as stale; a
 * replay within the window is a duplicate sequence number the reliable
 * channel drops and counts, and it neither moves the peer to its source
 * address nor counts as hearing from the peer (an ACK replayed
 * acknowledges nothing new). A replay within the window after the
 * receiver lost the stream's state (the peer was dropped, the receiver
 * restarted) is not caught.
 * Nothing is encrypted: the key proves who sent a message, not secrecy.
 *
 * Clocks: every *_ns timestamp in a message is CLOCK_MONOTONIC of the
 * host that took it; subtract only timestamps of one host.
 */
#ifndef PATHWAYS_WIRE_H
#define PATHWAYS_WIRE_H

#include <stddef.h>
#include <stdint.h>

#define PW_WIRE_VERSION		11
/* The bytes "PWDN" read as a little-endian u32. */
#define PW_WIRE_MAGIC		0x4e445750u

/*
 * Largest message: with its PW_WIRE_AUTH_BYTES trailer 1432 bytes, within
 * 1500 MTU - 20 IP - 8 UDP = 1472.
 */
#define PW_WIRE_MAX_DGRAM	1392
#define PW_WIRE_HDR_SIZE	48
#define PW_WIRE_MAX_BODY	(PW_WIRE_MAX_DGRAM - PW_WIRE_HDR_SIZE)
/* The authentication trailer after every message (version 7). */
#define PW_WIRE_AUTH_BYTES	40

/* Per-type bounds. */
#define PW_WIRE_MAX_DEVICES	64	/* devices of one island */
#define PW_WIRE_MAX_BUFS	16	/* PWTPU_MAX_BUFS: a cmd's bindings */
#define PW_WIRE_MAX_DIMS	4	/* tensor dimensions */
#define PW_WIRE_MESH_LEN	16	/* "2x2x2t" and friends, with NUL */
#define PW_WIRE_NAME_LEN	32	/* client names */
#define PW_WIRE_ERRMSG_LEN	112	/* ERROR text */
#define PW_WIRE_PROG_NODES	13	/* node records in one PROGRAM */
#define PW_WIRE_MAX_PROG_NODES	4096	/* nodes of one program, in all */
#define PW_WIRE_RUN_IDS		64	/* arguments + results of one RUN */
#define PW_WIRE_PLAN_CMDS	13	/* command records in one PLAN */
#define PW_WIRE_MAX_PLAN_CMDS	8192	/* commands of one plan, in all */
#define PW_WIRE_MAX_WINDOW	1024	/* seq - base of any sender */
#define PW_WIRE_MAX_HOSTS	512	/* hosts (islands) of a cluster (v9) */
/* u64 words of a set of hosts, one bit each (PROGRAM_ACK's @hosts). */
#define PW_WIRE_HOST_WORDS	(PW_WIRE_MAX_HOSTS / 64)
#define PW_WIRE_FN_CHUNK	1312	/* payload bytes in one FUNCTION */
#define PW_WIRE_MAX_FN_BYTES	(16u << 20)	/* a function's payload */
#define PW_WIRE_BUF_CHUNK	1296	/* data bytes in one BUFFER */
/* One buffer moved over the control plane (bigger ones are made by runs). */
#define PW_WIRE_MAX_BUF_BYTES	(16u << 20)
/*
 * BUFFER flags. F_DP: the bytes go over the data plane, straight between
 * the client's memory and the buffer (any size @total holds), not in
 * BUFFER parts. (Version 6.)
 */
#define PW_WIRE_BUF_F_DP	0x1
/* READ with F_DP: @data holds where to write (see struct pw_wire_buffer). */
#define PW_WIRE_BUF_DP_TARGET	32
#define PW_WIRE_DESC_SIZE	24	/* a data-plane region descriptor */

/*
 * Buffer handles in PLAN commands and BUFFER messages (u32). A client's
 * buffer has bit 31 clear and is the client's own id (a worker keys it by
 * client); a run's temporary has it set and lives until the run ends.
 */
#define PW_WIRE_BUF_TEMP	0x80000000u
/*
 * A client's buffer is sharded over a slice (version 4): its id has the
 * low PW_WIRE_SHARD_BITS clear, and shard s is the handle id | s, on
 * virtual device s of the slice. An unsharded buffer is shard 0.
 */
#define PW_WIRE_SHARD_BITS	6
#define PW_WIRE_SHARD_MASK	((1u << PW_WIRE_SHARD_BITS) - 1)
/* SLICE from a client: let the controller's resource manager place it. */
#define PW_WIRE_ANY_HOST	0xffff

/**
 * enum pw_wire_type - message types
 * @PW_WIRE_ACK: acknowledgement only, no body, not sequenced.
 * @PW_WIRE_REGISTER: worker -> controller, HELLO: here is my island.
 * @PW_WIRE_REGISTER_ACK: controller -> worker: accepted or why not.
 * @PW_WIRE_HEARTBEAT: either way, periodically: I am alive.
 * @PW_WIRE_CONNECT: client -> controller: a client joins.
 * @PW_WIRE_CONNECT_ACK: controller -> client: its id, or why not.
 * @PW_WIRE_PROGRAM: client -> controller: (part of) a traced program.
 * @PW_WIRE_PROGRAM_ACK: controller -> client: program registered or not.
 * @PW_WIRE_RUN: client -> controller: run a registered program.
 * @PW_WIRE_PLAN: controller -> worker: (part of) its lowered plan of a run.
 * @PW_WIRE_DONE: worker -> controller and worker -> client: a worker's
 *	part of a run finished; controller -> client: the run ended (its
 *	workers all answered, or the controller ended it). (Version 6: the
 *	workers' DONEs go to the client directly and usually end the run
 *	there before the controller's comes.)
 * @PW_WIRE_ERROR: either way: a request failed.
 * @PW_WIRE_FUNCTION: client -> controller -> worker: (part of) a compiled
 *	function.
 * @PW_WIRE_BUFFER: client -> controller -> worker and back: create, write,
 *	read, free a buffer in a worker's object store; its data.
 * @PW_WIRE_STATUS: controller or worker -> client: how a FUNCTION or
 *	BUFFER request ended.
 * @PW_WIRE_READY: worker -> worker: a run's transfer target is
 *	registered; here is where to write. (Version 6: was relayed by the
 *	controller.)
 * @PW_WIRE_CANCEL: controller -> worker: end a run now, with a status.
 * @PW_WIRE_BYE: client -> controller -> workers: the client has gone
 *	(closed, or the controller gave up on it): forget its objects.
 * @PW_WIRE_SLICE: client -> controller: make or free a slice of devices
 *	(answered by STATUS); controller -> worker: a slice's devices, for
 *	the gangs of computations over it. (Version 4.)
 * @PW_WIRE_ADMIN: client -> controller: set the island schedulers' policy
 *	or a client's weight (answered by STATUS; refused with EPERM unless
 *	the controller lets clients administer it). (Version 5, which also
 *	let COPY_PEER gather byte ranges of several inputs.)
 * @PW_WIRE_PEER: controller -> worker or client: a node it may hear from
 *	and talk to directly (a worker's DONE to a client, READY between
 *	workers). Nodes take no message of another node that the controller
 *	did not introduce. (Version 6.)
 */
enum pw_wire_type {
	PW_WIRE_ACK = 1,
	PW_WIRE_REGISTER,
	PW_WIRE_REGISTER_ACK,
	PW_WIRE_HEARTBEAT,
	PW_WIRE_CONNECT,
	PW_WIRE_CONNECT_ACK,
	PW_WIRE_PROGRAM,
	PW_WIRE_PROGRAM_ACK,
	PW_WIRE_RUN,
	PW_WIRE_PLAN,
	PW_WIRE_DONE,
	PW_WIRE_ERROR,
	PW_WIRE_FUNCTION,
	PW_WIRE_BUFFER,
	PW_WIRE_STATUS,
	PW_WIRE_READY,
	PW_WIRE_CANCEL,
	PW_WIRE_BYE,
	PW_WIRE_SLICE,
	PW_WIRE_ADMIN,
	PW_WIRE_PEER,
	PW_WIRE_NTYPES,
};

/* Header flags; every other bit is zero. */
#define PW_WIRE_F_ACK		0x0001	/* @ack_session, @ack, @sack valid */
#define PW_WIRE_F_RETRANS	0x0002	/* a retransmission (for tracing) */
#define PW_WIRE_F_ALL		(PW_WIRE_F_ACK | PW_WIRE_F_RETRANS)

/**
 * struct pw_wire_hdr - the common header
 * @magic: PW_WIRE_MAGIC ("PWDN").
 * @version: PW_WIRE_VERSION.
 * @type: enum pw_wire_type.
 * @flags: PW_WIRE_F_*.
 * @length: bytes of the whole datagram, header included.
 * @reserved: zero.
 * @src_node: sender's node id.
 * @dst_node: receiver's node id.
 * @session: sender's incarnation, nonzero; a restart picks a greater one
 *	(serial arithmetic).
 * @seq: this message's number in @session's stream; 0 for ACK.
 * @base: oldest seq the sender still waits to have acknowledged
 *	(seq - base < PW_WIRE_MAX_WINDOW); 0 for ACK.
 * @ack_session: with F_ACK: the receiver's session being acknowledged
 *	(nonzero); else 0.
 * @ack: with F_ACK: every seq of @ack_session up to this one received;
 *	else 0.
 * @sack: with F_ACK: bit i set: seq ack + 2 + i received as well; else 0.
 */
struct pw_wire_hdr {
	uint32_t magic;
	uint8_t version;
	uint8_t type;
	uint16_t flags;
	uint16_t length;
	uint16_t reserved;
	uint32_t src_node;
	uint32_t dst_node;
	uint32_t session;
	uint32_t seq;
	uint32_t base;
	uint32_t ack_session;
	uint32_t ack;
	uint64_t sack;
};

/**
 * struct pw_wire_register - REGISTER (HELLO): a worker announces its island
 * @host_id: the worker's host, unique in the cluster.
 * @island_id: its island (sysfs `island`).
 * @ndevices: devices of the island, 1..PW_WIRE_MAX_DEVICES.
 * @data_port: data-plane (RDMA CM or TCP) port; 0: the worker has no data
 *	plane (the in-process one), so no value crosses to or from its island.
 * @has_rdma: 1 if the data plane is RDMA verbs, 0 if TCP.
 * @reserved: zero.
 * @hbm_bytes: HBM of each device.
 * @data_ip: data-plane IPv4 address, network order.
 * @reserved2: zero.
 * @mesh: mesh shape as the module takes it ("2x4", "2x2x2t").
 */
struct pw_wire_register {
	uint32_t host_id;
	uint32_t island_id;
	uint32_t ndevices;
	uint16_t data_port;
	uint8_t has_rdma;
	uint8_t reserved;
	uint64_t hbm_bytes;
	uint8_t data_ip[4];
	uint32_t reserved2;
	char mesh[PW_WIRE_MESH_LEN];
};

/**
 * struct pw_wire_register_ack - REGISTER_ACK
 * @host_id: the host registered.
 * @status: 0, or the errno why it was refused.
 * @heartbeat_ms: how often the worker sends HEARTBEAT.
 * @down_ms: silence after which the controller marks the worker down.
 */
struct pw_wire_register_ack {
	uint32_t host_id;
	uint32_t status;
	uint32_t heartbeat_ms;
	uint32_t down_ms;
};

/**
 * struct pw_wire_heartbeat - HEARTBEAT
 * @time_ns: sender's clock when sent.
 * @hbm_used: bytes of HBM in use over the sender's devices (0 from the
 *	controller).
 * @inflight: device commands in flight on the sender.
 * @status: 0 when healthy, else an errno describing the trouble.
 */
struct pw_wire_heartbeat {
	uint64_t time_ns;
	uint64_t hbm_used;
	uint32_t inflight;
	uint32_t status;
};

/**
 * struct pw_wire_connect - CONNECT
 * @pid: the client's process id (for diagnostics).
 * @reserved: zero.
 * @name: the client's name.
 */
struct pw_wire_connect {
	uint32_t pid;
	uint32_t reserved;
	char name[PW_WIRE_NAME_LEN];
};

/**
 * struct pw_wire_connect_ack - CONNECT_ACK
 * @status: 0, or the errno why the client was refused.
 * @client_id: the client's id for later messages.
 * @nislands: islands up now.
 * @ndevices: devices over all of them.
 * @host_devices: devices of host i's island, 0 if it has none up.
 */
struct pw_wire_connect_ack {
	uint32_t status;
	uint32_t client_id;
	uint32_t nislands;
	uint32_t ndevices;
	uint8_t host_devices[PW_WIRE_MAX_HOSTS];
};

/* PROGRAM node kinds (enum pw_node_kind of runtime/client/program.h). */
enum pw_wire_node_kind {
	PW_WIRE_NODE_ARG = 1,
	PW_WIRE_NODE_COMPUTE,
	PW_WIRE_NODE_RESULT,
};

#define PW_WIRE_NO_ARG		0xffff	/* @arg_index of a captured arg */

/* Input @in of a node: output @output of node @node. */
struct pw_wire_edge {
	uint16_t node;
	uint16_t output;
};

/**
 * struct pw_wire_prog_node - one node of a traced program
 * @kind: enum pw_wire_node_kind.
 * @nin: inputs (COMPUTE) or results (RESULT), 0..PW_WIRE_MAX_BUFS.
 * @dtype: ARG: element type (enum pwtpu_dtype).
 * @ndims: ARG: dimensions, 0..PW_WIRE_MAX_DIMS.
 * @nshards: ARG, COMPUTE: shards, one per device of @slice.
 * @arg_index: ARG: position among the run's arguments, or PW_WIRE_NO_ARG.
 * @fn_id: COMPUTE: the function (the client's id, from FUNCTION).
 * @slice: ARG, COMPUTE: the client's slice (SLICE) it lives or runs on;
 *	shard v on its virtual device v. (Version 4: was host and device.)
 * @shape: ARG: extents; entries past @ndims zero.
 * @in: @nin edges, each from an earlier node; the rest zero.
 */
struct pw_wire_prog_node {
	uint8_t kind;
	uint8_t nin;
	uint8_t dtype;
	uint8_t ndims;
	uint16_t nshards;
	uint16_t arg_index;
	uint32_t fn_id;
	uint32_t slice;
	uint32_t shape[PW_WIRE_MAX_DIMS];
	struct pw_wire_edge in[PW_WIRE_MAX_BUFS];
};

/**
 * struct pw_wire_program - PROGRAM: nodes @first_node.. of a program; a
 *	program of more than PW_WIRE_PROG_NODES nodes takes several, in order
 * @program_id: the client's id for the program.
 * @nnodes_total: nodes of the program, 1..PW_WIRE_MAX_PROG_NODES.
 * @first_node: index of @nodes[0] in the program.
 * @nnodes: records that follow, 1..PW_WIRE_PROG_NODES;
 *	@first_node + @nnodes <= @nnodes_total.
 * @nargs: arguments bound at run time (<= PW_WIRE_RUN_IDS).
 * @reserved: zero.
 * @nodes: the records (only @nnodes of them are on the wire).
 */
struct pw_wire_program {
	uint32_t program_id;
	uint16_t nnodes_total;
	uint16_t first_node;
	uint16_t nnodes;
	uint16_t nargs;
	uint32_t reserved;
	struct pw_wire_prog_node nodes[PW_WIRE_PROG_NODES];
};

/**
 * struct pw_wire_program_ack - PROGRAM_ACK, once the last part arrived
 * @program_id: the program.
 * @status: 0, or the errno why it was refused.
 * @nnodes: nodes registered.
 * @reserved: zero.
 * @hosts: the hosts whose workers run it, one bit each, host h at bit
 *	h % 64 of word h / 64: the only ones whose DONE a run of it takes
 *	(version 8; version 9: PW_WIRE_MAX_HOSTS bits, was 64).
 */
struct pw_wire_program_ack {
	uint32_t program_id;
	uint32_t status;
	uint32_t nnodes;
	uint32_t reserved;
	uint64_t hosts[PW_WIRE_HOST_WORDS];
};

/**
 * struct pw_wire_run - RUN: run a registered program
 * @program_id: the program.
 * @run_id: the client's id for this run, echoed by DONE.
 * @client_send_ns: client's clock when sent.
 * @nargs: argument buffers, first in @ids.
 * @nresults: result buffers, after them; @nargs + @nresults <=
 *	PW_WIRE_RUN_IDS.
 * @timeout_ms: the run's deadline, counted from when the controller
 *	receives RUN: a run not done by then ends with ETIMEDOUT in its
 *	DONE, and its workers get CANCEL. 0: none. (Version 3.)
 * @ids: buffer handles: the arguments (existing buffers of the client),
 *	then new ids the results take (only @nargs + @nresults on the wire).
 */
struct pw_wire_run {
	uint32_t program_id;
	uint32_t run_id;
	uint64_t client_send_ns;
	uint16_t nargs;
	uint16_t nresults;
	uint32_t timeout_ms;
	uint32_t ids[PW_WIRE_RUN_IDS];
};

/* PLAN command operations. */
enum pw_wire_cmd_op {
	PW_WIRE_CMD_NOP = 1,
	PW_WIRE_CMD_EXEC,
	PW_WIRE_CMD_COPY_TO_DEV,
	PW_WIRE_CMD_COPY_FROM_DEV,
	PW_WIRE_CMD_COPY_PEER,	/* over the island's mesh links */
	PW_WIRE_CMD_DCN_SEND,	/* over the data plane to another host */
	PW_WIRE_CMD_DCN_RECV,
	PW_WIRE_CMD_NOPS,
};

/**
 * struct pw_wire_plan_cmd - one device command of a plan
 * @op: enum pw_wire_cmd_op.
 * @dev: island device whose queue runs it (< PW_WIRE_MAX_DEVICES).
 * @nin: buffers read: @bufs[0..nin).
 * @nout: buffers written: @bufs[nin..nin+nout); nin + nout <=
 *	PW_WIRE_MAX_BUFS.
 * @peer_dev: COPY_PEER, DCN_*: the device at the other end.
 * @reserved: zero.
 * @peer_host: DCN_*: the host at the other end.
 * @fn_id: EXEC: the function (the run's client's id).
 * @gang_id: EXEC with collectives: its computation's number in the plan
 *	(1..), the same in every member's EXEC; the worker draws a gang id
 *	for each (run, number). Else 0.
 * @bytes: copies: bytes moved (COPY_PEER: bytes of its output).
 * @peer_buf: DCN_SEND: the handle written on @peer_host.
 * @skip: COPY_PEER: bytes of its inputs, concatenated in order, skipped
 *	before the first byte of its output (resharding: an output shard
 *	takes its range of the logical value from the source shards that
 *	hold it). Other commands: zero. (Version 5: COPY_PEER reads 1 to
 *	PW_WIRE_MAX_BUFS - 1 inputs.)
 * @slice: EXEC with collectives: the run's client's slice whose devices
 *	are the gang (SLICE told the worker), this member's rank in
 *	@peer_dev; else 0.
 * @bufs: buffer handles (PW_WIRE_BUF_TEMP); entries past nin + nout zero.
 *
 * A worker runs a command once its inputs are final, or will be by the
 * time the device gets to it (made earlier on the same device's queue):
 * plans say what, the worker finds when. DCN_SEND (nin 1) writes
 * @bufs[0] into @peer_buf on @peer_host over the data plane once the
 * target's READY came; DCN_RECV (nout 1) makes @bufs[0] on @dev, sends
 * READY, and completes when the data landed.
 */
struct pw_wire_plan_cmd {
	uint8_t op;
	uint8_t dev;
	uint8_t nin;
	uint8_t nout;
	uint8_t peer_dev;
	uint8_t reserved;
	uint16_t peer_host;
	uint32_t fn_id;
	uint32_t gang_id;
	uint64_t bytes;
	union {
		uint32_t peer_buf;
		uint32_t skip;
	};
	uint32_t slice;
	uint32_t bufs[PW_WIRE_MAX_BUFS];
};

/**
 * struct pw_wire_plan - PLAN: commands @first_cmd.. of one worker's part of
 *	a run; more than PW_WIRE_PLAN_CMDS take several, in order
 * @run_id: the run (the controller's id).
 * @program_id: its program.
 * @client: the client's node id (its buffers and functions).
 * @client_run: the client's id of the run (RUN's @run_id), which the
 *	worker's DONE to the client carries. (Version 6.)
 * @ncmds_total: commands of this worker's part, 1..PW_WIRE_MAX_PLAN_CMDS.
 * @first_cmd: index of @cmds[0].
 * @ncmds: records that follow, 1..PW_WIRE_PLAN_CMDS; @first_cmd + @ncmds
 *	<= @ncmds_total.
 * @nhosts: workers the run has, 1..PW_WIRE_MAX_HOSTS: the DONEs the
 *	client waits for. (Version 6.)
 * @client_send_ns: from RUN.
 * @ctrl_recv_ns: controller's clock when RUN arrived.
 * @ctrl_send_ns: controller's clock when this PLAN left.
 * @cmds: the records (only @ncmds on the wire).
 */
struct pw_wire_plan {
	uint32_t run_id;
	uint32_t program_id;
	uint32_t client;
	uint32_t client_run;
	uint16_t ncmds_total;
	uint16_t first_cmd;
	uint16_t ncmds;
	uint16_t nhosts;
	uint64_t client_send_ns;
	uint64_t ctrl_recv_ns;
	uint64_t ctrl_send_ns;
	struct pw_wire_plan_cmd cmds[PW_WIRE_PLAN_CMDS];
};

/**
 * struct pw_wire_done - DONE: a run (a worker's part, or all of it) ended
 * @run_id: the run: the controller's id (to the controller), the
 *	client's (to the client).
 * @status: 0, or the errno of the first failure.
 * @host_id: the worker; 0 from the controller.
 * @ncmds: device commands completed.
 * @client_send_ns: from RUN (client's clock).
 * @ctrl_recv_ns: controller's clock when RUN arrived.
 * @ctrl_send_ns: controller's clock when PLAN left.
 * @worker_recv_ns: worker's clock when PLAN arrived.
 * @dev_start_ns: worker's clock: first command started on a device.
 * @dev_end_ns: worker's clock: last command ended.
 * @worker_send_ns: worker's clock when DONE left.
 * @nhosts: from a worker: the run's workers (PLAN's @nhosts), whose
 *	DONEs with status 0 together end the run; 0 from the controller,
 *	whose DONE ends the run at once. (Version 6.)
 * @reserved: zero.
 *
 * A client's run ends at DONEs of @nhosts distinct workers, at the first
 * that failed, or at the controller's, whichever comes first; it ignores
 * the rest. The controller sends its DONE for every run.
 */
struct pw_wire_done {
	uint32_t run_id;
	uint32_t status;
	uint32_t host_id;
	uint32_t ncmds;
	uint64_t client_send_ns;
	uint64_t ctrl_recv_ns;
	uint64_t ctrl_send_ns;
	uint64_t worker_recv_ns;
	uint64_t dev_start_ns;
	uint64_t dev_end_ns;
	uint64_t worker_send_ns;
	uint32_t nhosts;
	uint32_t reserved;
};

/**
 * struct pw_wire_error - ERROR: a request failed
 * @err: errno, nonzero.
 * @ref_type: type of the failed request (enum pw_wire_type), or 0.
 * @reserved: zero.
 * @ref_id: its id (program, run, host) or 0.
 * @ref_seq: its seq, or 0.
 * @msg: why, in words.
 */
struct pw_wire_error {
	uint32_t err;
	uint8_t ref_type;
	uint8_t reserved[3];
	uint32_t ref_id;
	uint32_t ref_seq;
	char msg[PW_WIRE_ERRMSG_LEN];
};

/**
 * struct pw_wire_function - FUNCTION: bytes @offset.. of a compiled
 *	function's payload (struct pw_wire_fn_desc, then the program image,
 *	then the constants); parts come in order
 * @fn_id: the client's id for the function, nonzero.
 * @client: the client's node id (set by the controller; 0 from a client).
 * @total: payload bytes, PW_WIRE_FN_DESC_SIZE..PW_WIRE_MAX_FN_BYTES.
 * @offset: of @data[0] in the payload.
 * @nbytes: bytes that follow, 1..PW_WIRE_FN_CHUNK; @offset + @nbytes <=
 *	@total.
 * @reserved: zero.
 * @reserved2: zero.
 * @data: the bytes (only @nbytes on the wire).
 */
struct pw_wire_function {
	uint32_t fn_id;
	uint32_t client;
	uint32_t total;
	uint32_t offset;
	uint16_t nbytes;
	uint16_t reserved;
	uint32_t reserved2;
	uint8_t data[PW_WIRE_FN_CHUNK];
};

/* dtype and shape of a parameter or result, in a function's payload. */
struct pw_wire_sig {
	uint8_t dtype;
	uint8_t rank;
	uint16_t reserved;
	uint32_t shape[PW_WIRE_MAX_DIMS];
};

/**
 * struct pw_wire_fn_desc - the head of a FUNCTION payload (little-endian
 *	like every wire struct; pw_wire_fn_desc_pack()/_unpack())
 * @nparams: parameters, then @nresults results: @sigs[0..nparams+nresults).
 * @nresults: see @nparams; nparams + nresults <= @nbufs.
 * @nbufs: bindings of an EXEC, <= PW_WIRE_MAX_BUFS: parameters, results,
 *	then scratch and constants where present.
 * @scratch_buf: binding of the scratch buffer, or -1.
 * @const_buf: binding of the constants, or -1.
 * @image_bytes: program image bytes after this head, nonzero.
 * @scratch_bytes: scratch buffer size (0 iff @scratch_buf is -1).
 * @const_bytes: constant bytes after the image (0 iff @const_buf is -1).
 * @flags: PW_WIRE_FN_* (version 4).
 * @group_size: the slice size its collectives' shapes need, 0 for any.
 * @permute_shift: PW_WIRE_FN_PERMUTE: virtual device v receives from
 *	(v - shift) mod n; else 0.
 * @reserved: zero.
 * @sigs: signatures; entries past nparams + nresults zero.
 */
struct pw_wire_fn_desc {
	uint32_t nparams;
	uint32_t nresults;
	uint32_t nbufs;
	int32_t scratch_buf;
	int32_t const_buf;
	uint32_t image_bytes;
	uint64_t scratch_bytes;
	uint64_t const_bytes;
	uint32_t flags;
	uint32_t group_size;
	int32_t permute_shift;
	uint32_t reserved;
	struct pw_wire_sig sigs[PW_WIRE_MAX_BUFS];
};

#define PW_WIRE_FN_DESC_SIZE	376
/* The function has collectives: every EXEC of it runs in a gang. */
#define PW_WIRE_FN_COLLECTIVES	0x1
/* It has a COLLECTIVE_PERMUTE by @permute_shift. */
#define PW_WIRE_FN_PERMUTE	0x2
#define PW_WIRE_FN_FLAGS	(PW_WIRE_FN_COLLECTIVES | PW_WIRE_FN_PERMUTE)

/* BUFFER operations. */
enum pw_wire_buf_op {
	PW_WIRE_BUF_CREATE = 1,	/* make it, with its first bytes */
	PW_WIRE_BUF_WRITE,	/* more bytes */
	PW_WIRE_BUF_READ,	/* send its bytes back as DATA */
	PW_WIRE_BUF_DATA,	/* some of its bytes, worker -> client */
	PW_WIRE_BUF_FREE,	/* drop it */
	PW_WIRE_BUF_NOPS,
};

/**
 * struct pw_wire_buffer - BUFFER: a buffer of a worker's object store
 * @op: enum pw_wire_buf_op.
 * @dtype: CREATE: element type.
 * @rank: CREATE: dimensions, 0..PW_WIRE_MAX_DIMS.
 * @dev: CREATE: the island device that holds it.
 * @host: the host whose worker holds it (the controller fills @dev and
 *	@host from @slice when that is set).
 * @flags: PW_WIRE_BUF_F_*, only on CREATE and READ. (Version 6.)
 * @client: the owner's node id (set by the controller; 0 from a client).
 * @id: the client's handle (PW_WIRE_BUF_TEMP clear).
 * @total: CREATE, WRITE, DATA: the buffer's bytes
 *	(1..PW_WIRE_MAX_BUF_BYTES, what dtype and shape make; any nonzero
 *	size with F_DP); else 0.
 * @offset: CREATE (0), WRITE, DATA: of @data[0] in the buffer.
 * @nbytes: CREATE, WRITE, DATA: bytes that follow, 1..PW_WIRE_BUF_CHUNK,
 *	@offset + @nbytes <= @total (CREATE with F_DP: 0); READ with F_DP:
 *	PW_WIRE_BUF_DP_TARGET; else 0.
 * @reserved2: zero.
 * @shape: CREATE: extents; entries past @rank zero.
 * @slice: from a client: 0, or the slice whose virtual device
 *	(@id & PW_WIRE_SHARD_MASK) holds this shard, and @host, @dev zero;
 *	the controller resolves it and sends 0 on. (Version 4.)
 * @data: the bytes (only @nbytes on the wire); READ with F_DP: the
 *	client's region (pw_dp_desc_pack(), PW_WIRE_DESC_SIZE bytes), its
 *	data-plane IPv4 address (4) and port (2, little-endian), 2 zero.
 *
 * The worker answers STATUS when the last byte of a CREATE/WRITE series
 * arrived (or at the first failure), DATA parts in order for a READ (a
 * STATUS if it fails), nothing for FREE. With F_DP, a CREATE is answered
 * by READY straight to the client (run 0: where to write the bytes), and
 * STATUS once they landed; a READ by the bytes written into the client's
 * region over the data plane, then STATUS with their count.
 */
struct pw_wire_buffer {
	uint8_t op;
	uint8_t dtype;
	uint8_t rank;
	uint8_t dev;
	uint16_t host;
	uint16_t flags;
	uint32_t client;
	uint32_t id;
	uint32_t total;
	uint32_t offset;
	uint16_t nbytes;
	uint16_t reserved2;
	uint32_t shape[PW_WIRE_MAX_DIMS];
	uint32_t slice;
	uint8_t data[PW_WIRE_BUF_CHUNK];
};

/**
 * struct pw_wire_status - STATUS: a FUNCTION, BUFFER, SLICE or ADMIN request
 *	ended
 * @ref_type: PW_WIRE_FUNCTION, PW_WIRE_BUFFER, PW_WIRE_SLICE or PW_WIRE_ADMIN.
 * @reserved: zero.
 * @status: 0, or the errno why it failed.
 * @client: the client's node id (how the controller forwards it).
 * @ref_id: the function's, buffer's, slice's or ADMIN request's id.
 * @value: bytes received; SLICE: the host whose island holds it.
 */
struct pw_wire_status {
	uint8_t ref_type;
	uint8_t reserved[3];
	uint32_t status;
	uint32_t client;
	uint32_t ref_id;
	uint64_t value;
};

/**
 * struct pw_wire_ready - READY: a run's transfer target is registered
 * @run_id: the run (the controller's id); 0: the target of a client's
 *	BUFFER CREATE with F_DP, sent to the client. (Version 6.)
 * @src_host: the host that writes (DCN_SEND).
 * @dst_host: the host written to (DCN_RECV), the sender of READY.
 * @handle: the target buffer's handle on @dst_host (run 0: the
 *	client's buffer id).
 * @cookie: what the write carries, so the target knows what landed.
 * @data_ip: @dst_host's data-plane address (its REGISTER's).
 * @data_port: its port.
 * @reserved: zero.
 * @desc: the target region's descriptor (pw_dp_desc_pack()).
 */
struct pw_wire_ready {
	uint32_t run_id;
	uint16_t src_host;
	uint16_t dst_host;
	uint32_t handle;
	uint32_t cookie;
	uint8_t data_ip[4];
	uint16_t data_port;
	uint16_t reserved;
	uint8_t desc[PW_WIRE_DESC_SIZE];
};

/**
 * struct pw_wire_peer - PEER: a node the receiver may talk to directly
 * @node: its node id.
 * @host: a worker's host id, or PW_WIRE_ANY_HOST for a client.
 * @port: its control-plane port.
 * @ip: its control-plane IPv4 address.
 * @flags: PW_WIRE_PEER_F_*: a worker's data plane, what a client's own
 *	must be to move host data with it.
 *
 * Sent when a worker registers (to every client) and when a client
 * connects (to every worker), before anything that makes the two talk;
 * and to two workers, of each other, before the plans of the first run
 * that moves a value between their hosts (again after either registered
 * again, came back, or answered a run with EHOSTUNREACH). A READY can
 * still overtake the PEER that allows it (the two come on different
 * channels): it is dropped as a stranger's and its sender's channel
 * resends it. A later PEER of the same node gives its new address (a
 * worker that registered again).
 */
struct pw_wire_peer {
	uint32_t node;
	uint16_t host;
	uint16_t port;
	uint8_t ip[4];
	uint32_t flags;
};

#define PW_WIRE_PEER_F_DP	0x1	/* the worker has a data plane */
#define PW_WIRE_PEER_F_RDMA	0x2	/* ... of RDMA verbs (else TCP) */
#define PW_WIRE_PEER_F_ALL	(PW_WIRE_PEER_F_DP | PW_WIRE_PEER_F_RDMA)

/**
 * struct pw_wire_cancel - CANCEL: a run ended elsewhere (a host failed or
 *	went down): finish the commands on devices, skip the rest, free its
 *	temporaries, answer DONE with @status
 * @run_id: the run (the controller's id).
 * @status: its errno, nonzero.
 */
struct pw_wire_cancel {
	uint32_t run_id;
	uint32_t status;
};

/**
 * struct pw_wire_bye - BYE: a client has gone; its runs end, its buffers
 *	and functions are freed, its programs forgotten
 * @client: the client's node id (set by the controller; 0 from a client).
 * @reserved: zero.
 */
struct pw_wire_bye {
	uint32_t client;
	uint32_t reserved;
};

/* SLICE operations. */
enum pw_wire_slice_op {
	PW_WIRE_SLICE_MAKE = 1,
	PW_WIRE_SLICE_FREE,
	PW_WIRE_SLICE_GROUP,	/* version 10 */
	PW_WIRE_SLICE_NOPS,
};

/* SLICE flags. */
#define PW_WIRE_SLICE_PINNED	0x1	/* MAKE on exactly @host, @devices */
#define PW_WIRE_SLICE_NEAR	0x2	/* MAKE on @host's island first (v11) */

/**
 * struct pw_wire_slice - SLICE: a client's slice of an island's devices,
 *	or a group of such slices on distinct islands
 * @op: enum pw_wire_slice_op.
 * @flags: PW_WIRE_SLICE_*; zero in FREE, GROUP and from the controller.
 * @n: MAKE, GROUP: devices (of each member), 1..PW_WIRE_MAX_DEVICES;
 *	else 0.
 * @ndims: MAKE, GROUP from a client: mesh shape dimensions (0: any @n
 *	devices, neighbours preferred), 0..PW_WIRE_MAX_DIMS; else 0.
 * @members: GROUP: its slices, 2..PW_WIRE_MAX_HOSTS; else zero.
 *	(Version 10: was reserved.)
 * @host: MAKE: PW_WIRE_ANY_HOST (the resource manager chooses) or, when
 *	pinned or near, the host; from the controller, the host that
 *	holds it.
 * @client: the owner's node id (set by the controller; 0 from a client).
 * @id: the client's id for it, nonzero.
 * @shape: MAKE from a client: extents; entries past @ndims zero.
 * @devices: MAKE from the controller, or pinned: the island device of
 *	each virtual device (@n entries, distinct); the rest zero.
 * @hbm_bytes: MAKE from the controller: HBM of each device of the
 *	island; else zero. (Version 5.)
 *
 * The controller answers a client's MAKE with STATUS (the host in
 * @value) once it has placed the slice, and tells that host's worker.
 * A MAKE flagged NEAR (version 11) is placed on @host's island if @n of
 * its devices are free (no slice on them), else as any MAKE, least
 * loaded first: a pipeline's stages asked each near the one before fill
 * an island before they cross to another. NEAR and PINNED do not go
 * together, and NEAR names a host (not PW_WIRE_ANY_HOST).
 *
 * GROUP (version 10) asks for @members slices of @n devices (of @shape)
 * on as many distinct islands, placed as MAKE places one, least loaded
 * first: a group. Member m is the client's slice @id + 1 + m (every id
 * of @id .. @id + @members must be free). The controller tells each
 * member's worker and the client each member (MAKE, as for one slice),
 * then answers STATUS (@members in @value); all or none are made. A
 * program node on the group stands for one node on each member, with
 * the same buffer handles on every member's host (docs/dcn.md, "Slice
 * groups"); a BUFFER FREE naming the group frees the shard on every
 * member. FREE of the group frees it and its members.
 */
struct pw_wire_slice {
	uint8_t op;
	uint8_t flags;
	uint8_t n;
	uint8_t ndims;
	uint16_t members;
	uint16_t host;
	uint32_t client;
	uint32_t id;
	uint32_t shape[PW_WIRE_MAX_DIMS];
	uint8_t devices[PW_WIRE_MAX_DEVICES];
	uint64_t hbm_bytes;
};

/* ADMIN operations. */
enum pw_wire_admin_op {
	PW_WIRE_ADMIN_WEIGHT = 1,
	PW_WIRE_ADMIN_POLICY,
	PW_WIRE_ADMIN_DEVICE_OUT,
	PW_WIRE_ADMIN_DEVICE_IN,
	PW_WIRE_ADMIN_NOPS,
};

/* Island scheduling policies (enum pw_sched_policy of pathways.h). */
enum pw_wire_sched {
	PW_WIRE_SCHED_FIFO,
	PW_WIRE_SCHED_SHARE,
	PW_WIRE_SCHED_NPOLICIES,
};

#define PW_WIRE_MAX_WEIGHT	1000	/* proportional-share weights: 1.. */
#define PW_WIRE_MAX_SHARE_WINDOW 4096	/* runs in flight on an island */

/**
 * struct pw_wire_admin - ADMIN: the operator sets how islands schedule,
 *	and takes devices out of service and back (client -> controller;
 *	the controller passes DEVICE_OUT and DEVICE_IN on to the island's
 *	worker)
 * @op: enum pw_wire_admin_op.
 * @host: DEVICE_*: the island's host; else zero.
 * @id: the request's id, nonzero; STATUS answers with it in @ref_id.
 * @value: WEIGHT: the weight, 1..PW_WIRE_MAX_WEIGHT; POLICY: enum
 *	pw_wire_sched; DEVICE_*: the island's device.
 * @window: POLICY: runs of SHARE in flight on each island at once,
 *	0..PW_WIRE_MAX_SHARE_WINDOW (0: leave it); else zero.
 * @name: WEIGHT: the clients it applies to, by their CONNECT name, now
 *	and when they connect later ("": the sender only); else zero.
 */
struct pw_wire_admin {
	uint16_t op;
	uint16_t host;
	uint32_t id;
	uint32_t value;
	uint32_t window;
	char name[PW_WIRE_NAME_LEN];
};

/**
 * struct pw_wire_msg - a decoded message (host order), or one to encode
 * @hdr: the header.
 * @body: the body of @hdr.type; PROGRAM, RUN, PLAN, FUNCTION and BUFFER
 *	hold up to their bounds and only what they count goes on the wire.
 */
struct pw_wire_msg {
	struct pw_wire_hdr hdr;
	union {
		struct pw_wire_register reg;
		struct pw_wire_register_ack reg_ack;
		struct pw_wire_heartbeat heartbeat;
		struct pw_wire_connect connect;
		struct pw_wire_connect_ack connect_ack;
		struct pw_wire_program program;
		struct pw_wire_program_ack program_ack;
		struct pw_wire_run run;
		struct pw_wire_plan plan;
		struct pw_wire_done done;
		struct pw_wire_error error;
		struct pw_wire_function function;
		struct pw_wire_buffer buffer;
		struct pw_wire_status status;
		struct pw_wire_ready ready;
		struct pw_wire_cancel cancel;
		struct pw_wire_bye bye;
		struct pw_wire_slice slice;
		struct pw_wire_admin admin;
		struct pw_wire_peer peer;
		uint8_t raw[PW_WIRE_MAX_BODY];
	} body;
};

/* Layout checks: sizes, and the offsets readers of raw bytes rely on. */
#define PW_WIRE_SIZE(t, n) _Static_assert(sizeof(t) == (n), #t " size")
#define PW_WIRE_OFF(t, f, n) \
	_Static_assert(offsetof(t, f) == (n), #t "." #f " offset")

PW_WIRE_SIZE(struct pw_wire_hdr, PW_WIRE_HDR_SIZE);
PW_WIRE_OFF(struct pw_wire_hdr, version, 4);
PW_WIRE_OFF(struct pw_wire_hdr, type, 5);
PW_WIRE_OFF(struct pw_wire_hdr, flags, 6);
PW_WIRE_OFF(struct pw_wire_hdr, length, 8);
PW_WIRE_OFF(struct pw_wire_hdr, src_node, 12);
PW_WIRE_OFF(struct pw_wire_hdr, dst_node, 16);
PW_WIRE_OFF(struct pw_wire_hdr, session, 20);
PW_WIRE_OFF(struct pw_wire_hdr, seq, 24);
PW_WIRE_OFF(struct pw_wire_hdr, base, 28);
PW_WIRE_OFF(struct pw_wire_hdr, ack_session, 32);
PW_WIRE_OFF(struct pw_wire_hdr, ack, 36);
PW_WIRE_OFF(struct pw_wire_hdr, sack, 40);

PW_WIRE_SIZE(struct pw_wire_register, 48);
PW_WIRE_OFF(struct pw_wire_register, data_port, 12);
PW_WIRE_OFF(struct pw_wire_register, hbm_bytes, 16);
PW_WIRE_OFF(struct pw_wire_register, data_ip, 24);
PW_WIRE_OFF(struct pw_wire_register, mesh, 32);
PW_WIRE_SIZE(struct pw_wire_register_ack, 16);
PW_WIRE_SIZE(struct pw_wire_heartbeat, 24);
PW_WIRE_OFF(struct pw_wire_heartbeat, inflight, 16);
PW_WIRE_SIZE(struct pw_wire_connect, 40);
PW_WIRE_OFF(struct pw_wire_connect, name, 8);
PW_WIRE_SIZE(struct pw_wire_connect_ack, 16 + PW_WIRE_MAX_HOSTS);

PW_WIRE_SIZE(struct pw_wire_edge, 4);
PW_WIRE_SIZE(struct pw_wire_prog_node, 96);
PW_WIRE_OFF(struct pw_wire_prog_node, nshards, 4);
PW_WIRE_OFF(struct pw_wire_prog_node, fn_id, 8);
PW_WIRE_OFF(struct pw_wire_prog_node, slice, 12);
PW_WIRE_OFF(struct pw_wire_prog_node, shape, 16);
PW_WIRE_OFF(struct pw_wire_prog_node, in, 32);
PW_WIRE_OFF(struct pw_wire_program, nnodes, 8);
PW_WIRE_OFF(struct pw_wire_program, nodes, 16);
PW_WIRE_OFF(struct pw_wire_program_ack, hosts, 16);
PW_WIRE_SIZE(struct pw_wire_program_ack, 16 + 8 * PW_WIRE_HOST_WORDS);

PW_WIRE_OFF(struct pw_wire_run, client_send_ns, 8);
PW_WIRE_OFF(struct pw_wire_run, nargs, 16);
PW_WIRE_OFF(struct pw_wire_run, ids, 24);

PW_WIRE_SIZE(struct pw_wire_plan_cmd, 96);
PW_WIRE_OFF(struct pw_wire_plan_cmd, peer_host, 6);
PW_WIRE_OFF(struct pw_wire_plan_cmd, fn_id, 8);
PW_WIRE_OFF(struct pw_wire_plan_cmd, bytes, 16);
PW_WIRE_OFF(struct pw_wire_plan_cmd, peer_buf, 24);
PW_WIRE_OFF(struct pw_wire_plan_cmd, bufs, 32);
PW_WIRE_OFF(struct pw_wire_plan, ncmds, 20);
PW_WIRE_OFF(struct pw_wire_plan, client_send_ns, 24);
PW_WIRE_OFF(struct pw_wire_plan, cmds, 48);

PW_WIRE_SIZE(struct pw_wire_done, 80);
PW_WIRE_OFF(struct pw_wire_done, nhosts, 72);
PW_WIRE_OFF(struct pw_wire_done, client_send_ns, 16);
PW_WIRE_OFF(struct pw_wire_done, worker_send_ns, 64);
PW_WIRE_SIZE(struct pw_wire_error, 128);
PW_WIRE_OFF(struct pw_wire_error, msg, 16);

PW_WIRE_OFF(struct pw_wire_function, nbytes, 16);
PW_WIRE_OFF(struct pw_wire_function, data, 24);
PW_WIRE_SIZE(struct pw_wire_sig, 20);
PW_WIRE_SIZE(struct pw_wire_fn_desc, PW_WIRE_FN_DESC_SIZE);
PW_WIRE_OFF(struct pw_wire_fn_desc, scratch_bytes, 24);
PW_WIRE_OFF(struct pw_wire_fn_desc, flags, 40);
PW_WIRE_OFF(struct pw_wire_fn_desc, sigs, 56);
PW_WIRE_OFF(struct pw_wire_buffer, client, 8);
PW_WIRE_OFF(struct pw_wire_buffer, nbytes, 24);
PW_WIRE_OFF(struct pw_wire_buffer, shape, 28);
PW_WIRE_OFF(struct pw_wire_buffer, slice, 44);
PW_WIRE_OFF(struct pw_wire_buffer, data, 48);
PW_WIRE_SIZE(struct pw_wire_status, 24);
PW_WIRE_SIZE(struct pw_wire_ready, 48);
PW_WIRE_OFF(struct pw_wire_ready, desc, 24);
PW_WIRE_SIZE(struct pw_wire_cancel, 8);
PW_WIRE_SIZE(struct pw_wire_peer, 16);
PW_WIRE_SIZE(struct pw_wire_bye, 8);
PW_WIRE_SIZE(struct pw_wire_slice, 104);
PW_WIRE_OFF(struct pw_wire_slice, devices, 32);
PW_WIRE_OFF(struct pw_wire_slice, hbm_bytes, 96);
PW_WIRE_SIZE(struct pw_wire_admin, 48);
PW_WIRE_OFF(struct pw_wire_admin, name, 16);

/* The largest message of every type fits one datagram. */
_Static_assert(sizeof(struct pw_wire_program) <= PW_WIRE_MAX_BODY,
	       "PROGRAM too big");
_Static_assert(sizeof(struct pw_wire_run) <= PW_WIRE_MAX_BODY,
	       "RUN too big");
_Static_assert(sizeof(struct pw_wire_connect_ack) <= PW_WIRE_MAX_BODY,
	       "CONNECT_ACK too big");
_Static_assert(PW_WIRE_MAX_HOSTS % 64 == 0, "hosts fill whole words");
_Static_assert(sizeof(struct pw_wire_plan) <= PW_WIRE_MAX_BODY,
	       "PLAN too big");
_Static_assert(sizeof(struct pw_wire_function) <= PW_WIRE_MAX_BODY,
	       "FUNCTION too big");
_Static_assert(sizeof(struct pw_wire_buffer) <= PW_WIRE_MAX_BODY,
	       "BUFFER too big");
_Static_assert(offsetof(struct pw_wire_msg, body) == PW_WIRE_HDR_SIZE,
	       "body follows the header");
_Static_assert(sizeof(struct pw_wire_msg) == PW_WIRE_MAX_DGRAM,
	       "a message image is one datagram");
_Static_assert(PW_WIRE_MAX_PROG_NODES <= 0xffff &&
	       PW_WIRE_MAX_PLAN_CMDS <= 0xffff, "counts fit u16");

/**
 * enum pw_wire_err - why pw_wire_decode() rejected a datagram
 * @PW_WIRE_OK: accepted.
 * @PW_WIRE_E_SHORT: shorter than the header.
 * @PW_WIRE_E_OVERSIZE: longer than PW_WIRE_MAX_DGRAM.
 * @PW_WIRE_E_MAGIC: not "PWDN".
 * @PW_WIRE_E_VERSION: another PW_WIRE_VERSION.
 * @PW_WIRE_E_TYPE: unknown type.
 * @PW_WIRE_E_LENGTH: header length differs from the datagram's size.
 * @PW_WIRE_E_FLAGS: unknown flag bits.
 * @PW_WIRE_E_SEQ: session/seq/base/ack fields inconsistent for the type.
 * @PW_WIRE_E_BODY_SIZE: body size wrong for the type (and its counts).
 * @PW_WIRE_E_COUNT: a count out of its bounds.
 * @PW_WIRE_E_RESERVED: a reserved field or unused entry not zero.
 * @PW_WIRE_E_STRING: a string unterminated or not NUL-padded.
 * @PW_WIRE_E_VALUE: a field outside its defined values.
 * @PW_WIRE_NERR: number of values, for counter arrays.
 */
enum pw_wire_err {
	PW_WIRE_OK,
	PW_WIRE_E_SHORT,
	PW_WIRE_E_OVERSIZE,
	PW_WIRE_E_MAGIC,
	PW_WIRE_E_VERSION,
	PW_WIRE_E_TYPE,
	PW_WIRE_E_LENGTH,
	PW_WIRE_E_FLAGS,
	PW_WIRE_E_SEQ,
	PW_WIRE_E_BODY_SIZE,
	PW_WIRE_E_COUNT,
	PW_WIRE_E_RESERVED,
	PW_WIRE_E_STRING,
	PW_WIRE_E_VALUE,
	PW_WIRE_NERR,
};

/* "short", "magic", ...; "?" for a value out of range. */
const char *pw_wire_err_name(enum pw_wire_err err);
/* "ACK", "REGISTER", ...; "?" for an unknown type. */
const char *pw_wire_type_name(unsigned int type);

/*
 * Bytes @msg takes on the wire (header included), from its type and
 * counts, or -EINVAL for an unknown type or a count past its bound.
 */
int pw_wire_size(const struct pw_wire_msg *msg);

/*
 * Encode @msg into @buf. The header's magic, version and length are
 * filled in here; everything else comes from @msg. Returns the datagram's
 * length, -EINVAL if @msg is not a message pw_wire_decode() would accept,
 * -ENOSPC if @cap is too small.
 */
int pw_wire_encode(const struct pw_wire_msg *msg, void *buf, size_t cap);

/*
 * Decode and validate the datagram @buf of @len bytes into @msg (zeroed
 * first; on rejection its contents are unspecified). Returns PW_WIRE_OK
 * or why not.
 */
enum pw_wire_err pw_wire_decode(struct pw_wire_msg *msg, const void *buf,
				size_t len);

/*
 * Rewrite the acknowledgement fields and flags of the encoded datagram
 * @buf in place (a retransmission carries the current ack). @flags
 * replaces the header's flags; without PW_WIRE_F_ACK the ack fields are
 * zeroed. The caller knows @buf holds a valid message.
 */
void pw_wire_patch_ack(void *buf, uint16_t flags, uint32_t base,
		       uint32_t ack_session, uint32_t ack, uint64_t sack);

/*
 * A function payload's head to and from its PW_WIRE_FN_DESC_SIZE
 * little-endian bytes. Unpack checks it: counts and bindings in bounds,
 * scratch/constant bindings distinct and after the results, sizes
 * consistent, reserved and unused entries zero, dtypes and ranks known,
 * image + constants within @payload_bytes - PW_WIRE_FN_DESC_SIZE exactly;
 * -EINVAL otherwise.
 */
/*
 * Bytes of a tensor of @s: dtype size times extents; 0 for a bad dtype or
 * a product past 64 bits.
 */
uint64_t pw_wire_sig_bytes(const struct pw_wire_sig *s);

void pw_wire_fn_desc_pack(const struct pw_wire_fn_desc *d,
			  uint8_t out[PW_WIRE_FN_DESC_SIZE]);
int pw_wire_fn_desc_unpack(const uint8_t *in, uint32_t payload_bytes,
			   struct pw_wire_fn_desc *d);

#endif /* PATHWAYS_WIRE_H */
