/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * pwtpu.h - user ABI of pwtpu.ko, the emulated TPU device, and the program
 * format its firmware executes.
 *
 * Everything a process exchanges with /dev/pwtpuN is defined here: ioctl
 * and io_uring command numbers, their argument structs, the layout of the
 * extra CQE32 word, and the executable program format. All structs have a
 * fixed layout with explicit padding; every reserved field, every flags
 * field without defined bits and every output field (but struct
 * pwtpu_cmd's start_ns and end_ns, which are ignored) must be zero on
 * input, or the call fails with -EINVAL. Handles are per open file and
 * allocated cyclically, so a destroyed handle is not soon reused.
 * Incompatible changes bump PWTPU_UAPI_VERSION (reported by
 * PWTPU_IOCTL_INFO) and, for programs, PWTPU_PROG_VERSION. Additions an
 * older module would refuse (a flag, a dtype) bump PWTPU_UAPI_VERSION
 * only: programs that were valid stay valid, in the same version.
 */
#ifndef _UAPI_PWTPU_H
#define _UAPI_PWTPU_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define PWTPU_UAPI_VERSION	6
#define PWTPU_IOC_MAGIC		0xE7

/* Mesh and tensor rank limits. */
#define PWTPU_MESH_MAX_DIMS	3
#define PWTPU_MAX_RANK		4

/**
 * enum pwtpu_timing_mode - how a device spends time
 * @PWTPU_TIMING_NATIVE: commands complete as fast as the emulation runs.
 * @PWTPU_TIMING_MODELED: a command completes no earlier than its modelled
 *	duration after it started.
 * @PWTPU_TIMING_SKIP: the arithmetic is skipped (results are unspecified),
 *	the modelled time is still spent; for scheduling studies.
 */
enum pwtpu_timing_mode {
	PWTPU_TIMING_NATIVE = 0,
	PWTPU_TIMING_MODELED = 1,
	PWTPU_TIMING_SKIP = 2,
};

#define PWTPU_NO_DEVICE		0xffffffffU

/* pwtpu_info.mesh_flags */
#define PWTPU_MESH_TORUS	(1U << 0)

/**
 * struct pwtpu_info - PWTPU_IOCTL_INFO: what a device is
 * @uapi_version: PWTPU_UAPI_VERSION of the running module.
 * @index: N of /dev/pwtpuN.
 * @island: island this device belongs to (one module = one island).
 * @ndevices: devices in the island.
 * @mesh_ndims: dimensions of the island's mesh (1..3).
 * @mesh_flags: PWTPU_MESH_* bits.
 * @mesh_shape: extent of each mesh dimension; unused entries are 0.
 * @mesh_coords: this device's coordinates; unused entries are 0.
 * @array_dim: systolic array is array_dim x array_dim.
 * @clock_mhz: core clock of the timing model.
 * @hbm_mbps: HBM bandwidth of the timing model, MB/s.
 * @host_mbps: host link ("PCIe") bandwidth of the timing model, MB/s.
 * @ici_mbps: bandwidth of one mesh link, MB/s.
 * @timing_mode: enum pwtpu_timing_mode.
 * @hbm_total: HBM capacity in bytes.
 * @hbm_used: HBM bytes held by buffer objects now.
 * @cmds_completed: commands this device has completed.
 * @busy_ns: time the device spent executing commands.
 * @max_bufs: largest number of buffer bindings of one program.
 * @max_tensors: largest number of tensors in one program.
 * @max_insns: largest number of instructions in one program.
 * @neighbors: device linked to this one along each mesh dimension, in the
 *	minus [0] and plus [1] direction, or PWTPU_NO_DEVICE.
 * @reserved0: zero.
 * @reserved: zero.
 */
struct pwtpu_info {
	__u32 uapi_version;
	__u32 index;
	__u32 island;
	__u32 ndevices;
	__u32 mesh_ndims;
	__u32 mesh_flags;
	__u32 mesh_shape[PWTPU_MESH_MAX_DIMS];
	__u32 mesh_coords[PWTPU_MESH_MAX_DIMS];
	__u32 array_dim;
	__u32 clock_mhz;
	__u32 hbm_mbps;
	__u32 host_mbps;
	__u32 ici_mbps;
	__u32 timing_mode;
	__u64 hbm_total;
	__u64 hbm_used;
	__u64 cmds_completed;
	__u64 busy_ns;
	__u32 max_bufs;
	__u32 max_tensors;
	__u32 max_insns;
	__u32 neighbors[PWTPU_MESH_MAX_DIMS][2];
	__u32 reserved0;
	__u64 reserved[3];
};

/**
 * struct pwtpu_bo_create - PWTPU_IOCTL_BO_CREATE: a zeroed buffer in HBM
 * @size: bytes, 1..hbm_total; rounded up to whole pages for accounting.
 * @flags: zero.
 * @handle: out: handle, valid in this open file only.
 * @mmap_offset: out: pass to mmap(2) (MAP_SHARED) to map the buffer, or
 *	add a page multiple to map a part of it (ordinary pages, so
 *	ibv_reg_mr() can pin them).
 * @reserved: zero.
 *
 * Fails with -ENOSPC when the device's HBM cannot hold it.
 */
struct pwtpu_bo_create {
	__u64 size;
	__u32 flags;
	__u32 handle;
	__u64 mmap_offset;
	__u64 reserved[2];
};

/**
 * struct pwtpu_handle_arg - PWTPU_IOCTL_BO_DESTROY, PWTPU_IOCTL_PROG_UNLOAD
 * @handle: what to destroy. Work already queued keeps what it uses alive
 *	until it completes.
 * @reserved: zero.
 */
struct pwtpu_handle_arg {
	__u32 handle;
	__u32 reserved;
};

/**
 * struct pwtpu_prog_load - PWTPU_IOCTL_PROG_LOAD: copy, verify, store
 * @prog_ptr: user address of the program image (see struct
 *	pwtpu_prog_header).
 * @prog_size: bytes at @prog_ptr.
 * @handle: out: program handle, valid in this open file only.
 * @log_ptr: optional user buffer for the verifier's message (NUL ended).
 * @log_size: bytes at @log_ptr, 0 for none.
 * @verr: out: enum pwtpu_verr; PWTPU_VERR_OK on success.
 * @err_insn: out: index of the offending instruction, or
 *	PWTPU_VERR_NO_INSN when the fault is not in an instruction.
 * @modeled_ns: out: duration of one execution in the timing model (with
 *	bounded loops, of one that runs each for all its trips: a bound).
 * @flags: zero.
 * @reserved: zero.
 *
 * A program that fails verification fails the ioctl with -EINVAL and
 * @verr, @err_insn and the log say which rule was broken where. An image
 * larger than the format's limits allow fails with -E2BIG before it is
 * read.
 */
struct pwtpu_prog_load {
	__u64 prog_ptr;
	__u32 prog_size;
	__u32 handle;
	__u64 log_ptr;
	__u32 log_size;
	__s32 verr;
	__u32 err_insn;
	__u32 flags;
	__u64 modeled_ns;
	__u64 reserved[2];
};

#define PWTPU_VERR_NO_INSN	0xffffffffU

/**
 * struct pwtpu_cmd - a device command, 80 bytes: the whole command area
 * of a 128-byte SQE, and the argument of the synchronous ioctl path.
 * Fields a command does not use must be zero.
 * @flags: PWTPU_CMD_F_* bits, or zero.
 * @handle: EXEC: program handle; COPY_*: buffer object handle (the source
 *	of COPY_PEER).
 * @nbufs: EXEC: number of buffer handles at @bufs_ptr; must equal the
 *	program's header nbufs. A buffer may appear once per command.
 * @peer_fd: COPY_PEER: an open file of the destination device, held by
 *	the caller (the same device is allowed).
 * @peer_handle: COPY_PEER: destination buffer object, a handle of
 *	@peer_fd's file.
 * @bufs_ptr: EXEC: user address of __u32 buffer handles, binding order.
 * @host_ptr: COPY_TO_DEV, COPY_FROM_DEV: user address of the host side.
 * @offset: COPY_*: byte offset in the (source) buffer object.
 * @length: COPY_*: bytes to copy; the range must lie in the buffer(s).
 * @start_ns: out, ioctl path only: CLOCK_MONOTONIC time the device
 *	started the command. Ignored on input.
 * @end_ns: out, ioctl path only: time the device finished it.
 * @gang_ptr: EXEC: user address of a struct pwtpu_gang when the program
 *	has collectives, else 0.
 * @peer_offset: COPY_PEER: byte offset in the destination buffer object.
 *
 * The io_uring path reports times in the CQE32 extra word instead; see
 * PWTPU_CQE_QUEUE_NS().
 */
struct pwtpu_cmd {
	__u32 flags;
	__u32 handle;
	union {
		__u32 nbufs;
		__s32 peer_fd;
	};
	__u32 peer_handle;
	__u64 bufs_ptr;
	__u64 host_ptr;
	__u64 offset;
	__u64 length;
	__u64 start_ns;
	__u64 end_ns;
	__u64 gang_ptr;
	__u64 peer_offset;
};

#define PWTPU_MAX_GANG		64
#define PWTPU_NO_RANK		0xffffffffU

/**
 * struct pwtpu_gang - who takes part in the collectives of one EXEC
 * @gang_id: nonzero and the same in every member's EXEC; tells apart the
 *	gangs that use one gang file at once (a run counter will do).
 * @ndevices: members, 1..PWTPU_MAX_GANG.
 * @rank: which member this EXEC is; @devices[@rank] is its device.
 * @flags: zero.
 * @gang_fd: a gang file (PWTPU_IOCTL_GANG_CREATE) of this device's island,
 *	held by the caller: the capability to meet. Members meet only when
 *	they pass the same gang file (one process's, or shared by fork(2) or
 *	SCM_RIGHTS) and the same @gang_id; knowing the id of a gang without
 *	its file joins nothing. Looked up when the driver receives the
 *	command (in io_uring_enter(), or later from io-wq for an SQE that
 *	io_uring defers: IOSQE_ASYNC, drains, links); closing the file after
 *	that does not affect the command. Not a gang file: -EINVAL; not
 *	open: -EBADF.
 * @devices: island index of each member's device, all distinct.
 * @group: replica group id of each member: a collective runs among the
 *	members whose id equals this member's, in rank order ("group rank").
 * @permute: COLLECTIVE_PERMUTE: the gang rank each member sends to (a
 *	member of its own group; no two members send to the same rank), or
 *	PWTPU_NO_RANK. Fill it with PWTPU_NO_RANK when the program has no
 *	COLLECTIVE_PERMUTE.
 *
 * Entries past @ndevices are zero. Every member passes the same struct
 * but for @rank (and the number of its gang file, which may differ); a
 * member whose collective disagrees with its peers' (op, mode, dtype,
 * shapes, gang) fails with -EINVAL, and a collective whose peers do not
 * all arrive within the module's gang_timeout_ms fails with -ETIMEDOUT;
 * the driver logs (rate-limited) which devices waited, naming gangs by
 * their gang file's serial, never by @gang_id. When two gangs wait for
 * each other (members enqueued in inconsistent orders), at least one
 * fails on all its members; none half-succeeds.
 */
struct pwtpu_gang {
	__u64 gang_id;
	__u32 ndevices;
	__u32 rank;
	__u32 flags;
	__s32 gang_fd;
	__u32 devices[PWTPU_MAX_GANG];
	__u32 group[PWTPU_MAX_GANG];
	__u32 permute[PWTPU_MAX_GANG];
};

/**
 * struct pwtpu_gang_create - PWTPU_IOCTL_GANG_CREATE: a new gang file
 * @flags: zero.
 * @reserved: zero.
 * @serial: out: the gang file's number, unique while the module is loaded
 *	and never 0; kernel log lines name the gang by it.
 *
 * On any device of an island, returns a new file descriptor (close-on-
 * exec) for the island's collectives: see struct pwtpu_gang. Its memory
 * is charged to the caller's memory cgroup, and it counts against
 * RLIMIT_NOFILE like any file.
 */
struct pwtpu_gang_create {
	__u32 flags;
	__u32 reserved;
	__u64 serial;
};

/*
 * Control: ioctl only.
 */
/*
 * BOs, and programs, one open file may hold at once; one more is refused
 * with -EDQUOT. Their kernel memory is charged to the caller's memory
 * cgroup.
 */
#define PWTPU_MAX_HANDLES	65536

#define PWTPU_IOCTL_INFO	_IOR(PWTPU_IOC_MAGIC, 0x00, struct pwtpu_info)
#define PWTPU_IOCTL_BO_CREATE	_IOWR(PWTPU_IOC_MAGIC, 0x01, struct pwtpu_bo_create)
#define PWTPU_IOCTL_BO_DESTROY	_IOW(PWTPU_IOC_MAGIC, 0x02, struct pwtpu_handle_arg)
#define PWTPU_IOCTL_PROG_LOAD	_IOWR(PWTPU_IOC_MAGIC, 0x03, struct pwtpu_prog_load)
#define PWTPU_IOCTL_PROG_UNLOAD	_IOW(PWTPU_IOC_MAGIC, 0x04, struct pwtpu_handle_arg)
/* Returns the new gang file's descriptor. */
#define PWTPU_IOCTL_GANG_CREATE	_IOWR(PWTPU_IOC_MAGIC, 0x05, struct pwtpu_gang_create)

/*
 * Device commands: io_uring IORING_OP_URING_CMD (the ring must be set up
 * with IORING_SETUP_SQE128 | IORING_SETUP_CQE32; sqe->cmd_op is one of
 * these, sqe->uring_cmd_flags is 0 (IORING_URING_CMD_FIXED is refused
 * with -EINVAL: host copies take a user address, not a registered
 * buffer) and the SQE command area holds a struct pwtpu_cmd) or the same
 * number as a synchronous ioctl. Each device runs its queue in order.
 * Completion: cqe->res is 0 or a negative errno. A device executes its
 * commands in the order they reach the driver (SQ order, except that an
 * IOSQE_ASYNC SQE goes through io-wq and may reach it out of order;
 * links and drains wait for completions), but CQEs may be posted in
 * another order: match them by user_data. Host copies read or write the host buffer when the device
 * runs them, like DMA: it must stay valid and, for COPY_TO_DEV,
 * unchanged until the command completes. An open file has at most the
 * module's max_inflight commands queued or running; more are refused with
 * -EBUSY. A device has at most PWTPU_MAX_RUNNERS files whose io_uring
 * commands have been queued (each has a runner thread until it is
 * closed): a queued command of one more file is refused with -EBUSY.
 * A command the device reaches after its submitter's process began
 * to exit (or was killed) is not run, and a running one stops at its next
 * safe point: either completes with -ECANCELED. A command (an EXEC
 * without collectives, a copy) still running the module's watchdog_ms
 * past twice its modelled time stops with -ETIME. An EXEC whose bounded
 * loop runs all its trips without a WHILE leaving it stops there with
 * -ELOOP (see PWTPU_OP_LOOP).
 *
 * Inline execution: a short command (a NOP; an EXEC without collectives
 * of at most PWTPU_INLINE_MAX_INSNS instructions run (loops unrolled),
 * whose real work fits one of the firmware's uninterrupted pieces and
 * whose modelled time is at most the module's inline_us; a host copy of
 * at most PWTPU_INLINE_COPY_MAX bytes and inline_us of modelled time)
 * that reaches an idle device (nothing queued, nothing running) runs at
 * once in the submitting context, the ioctl or io_uring's issue of the
 * SQE, and is complete when that returns; every other command is queued,
 * and run when its turn comes by its ioctl caller or, for io_uring, by
 * its file's runner thread (in the submitter's cgroups). Order is the
 * same either way. An SQE's issue then lasts as long as the command:
 * PWTPU_CMD_F_QUEUED asks for the queue always. On a ring set up with
 * IORING_SETUP_IOPOLL a queued command is completed by the runner
 * without task work or a wake-up of the submitter, which finds it by
 * polling.
 */
#define PWTPU_CMD_F_QUEUED	(1U << 0)	/* never inline */
#define PWTPU_CMD_F_ALL		PWTPU_CMD_F_QUEUED
#define PWTPU_INLINE_COPY_MAX	65536
#define PWTPU_INLINE_MAX_INSNS	256
#define PWTPU_MAX_RUNNERS	64
#define PWTPU_CMD_NOP		_IOWR(PWTPU_IOC_MAGIC, 0x10, struct pwtpu_cmd)
#define PWTPU_CMD_EXEC		_IOWR(PWTPU_IOC_MAGIC, 0x11, struct pwtpu_cmd)
#define PWTPU_CMD_COPY_TO_DEV	_IOWR(PWTPU_IOC_MAGIC, 0x12, struct pwtpu_cmd)
#define PWTPU_CMD_COPY_FROM_DEV	_IOWR(PWTPU_IOC_MAGIC, 0x13, struct pwtpu_cmd)
/*
 * Device to device over the mesh links, dimension-ordered routing; runs
 * in the source device's queue, charged to every link it crosses.
 */
#define PWTPU_CMD_COPY_PEER	_IOWR(PWTPU_IOC_MAGIC, 0x14, struct pwtpu_cmd)

/*
 * CQE32 extra word (cqe->big_cqe[0]) of a completed command: nanoseconds
 * from submission to device start (low half) and from device start to
 * device end (high half), each saturating at 0xffffffff.
 */
#define PWTPU_CQE_QUEUE_NS(x)	((__u32)((__u64)(x) & 0xffffffffU))
#define PWTPU_CQE_EXEC_NS(x)	((__u32)((__u64)(x) >> 32))

/*
 * Program format, version 1. An image is a struct pwtpu_prog_header,
 * then ntensors struct pwtpu_tensor, then ninsns struct pwtpu_insn,
 * nothing else; all little-endian. Tensors are dense, row major, at a
 * byte offset (aligned to the element size) inside one of the nbufs
 * buffers bound at exec time.
 */
#define PWTPU_PROG_MAGIC	0x57465750U	/* "PWFW" */
#define PWTPU_PROG_VERSION	1

#define PWTPU_MAX_BUFS		16
#define PWTPU_MAX_TENSORS	1024
#define PWTPU_MAX_INSNS		4096
#define PWTPU_MAX_ELEMS		(1U << 26)	/* per tensor */
#define PWTPU_MAX_OFFSET	(1ULL << 32)	/* tensor end in its buffer */
#define PWTPU_MAX_LOOP_DEPTH	4
#define PWTPU_MAX_TRIPS		(1U << 20)	/* per loop */
#define PWTPU_MAX_DYN_INSNS	(1U << 22)	/* instructions per exec */
#define PWTPU_MAX_DELAY_NS	1000000000ULL	/* per delay instruction */
#define PWTPU_MAX_PROG_NS	10000000000ULL	/* modelled time per exec */
/*
 * Real work, whatever the model says: multiply-adds of a matmul, elements
 * read or written by the other instructions (16 per element for exp, log,
 * tanh, rsqrt and the f32, bf16 and f16 math of CBRT..POW and float REM,
 * 512 for their f64 math), summed over loop trips.
 */
#define PWTPU_MAX_INSN_WORK	(1ULL << 32)	/* per instruction */
#define PWTPU_MAX_WORK		(1ULL << 34)	/* per exec */

/**
 * struct pwtpu_prog_header - start of a program image
 * @magic: PWTPU_PROG_MAGIC.
 * @version: PWTPU_PROG_VERSION.
 * @flags: zero.
 * @ntensors: tensor descriptors that follow, 1..PWTPU_MAX_TENSORS.
 * @ninsns: instructions after the tensors, 0..PWTPU_MAX_INSNS.
 * @nbufs: buffers bound at exec time, 1..PWTPU_MAX_BUFS (every tensor
 *	lives in one).
 * @reserved: zero.
 */
struct pwtpu_prog_header {
	__u32 magic;
	__u16 version;
	__u16 flags;
	__u32 ntensors;
	__u32 ninsns;
	__u32 nbufs;
	__u32 reserved[3];
};

/**
 * enum pwtpu_dtype - element types
 * @PWTPU_DT_F32: IEEE binary32.
 * @PWTPU_DT_BF16: bfloat16 (top half of a binary32).
 * @PWTPU_DT_I8: two's complement 8 bit; also the predicate type (0 or 1).
 * @PWTPU_DT_I32: two's complement 32 bit; arithmetic wraps.
 * @PWTPU_DT_F16: IEEE binary16, with subnormals, infinities and NaNs.
 * @PWTPU_DT_F64: IEEE binary64.
 * @PWTPU_DT_I16: two's complement 16 bit.
 * @PWTPU_DT_I64: two's complement 64 bit.
 * @PWTPU_DT_U8: unsigned 8 bit; arithmetic is modulo 2^8.
 * @PWTPU_DT_U16: unsigned 16 bit, modulo 2^16.
 * @PWTPU_DT_U32: unsigned 32 bit, modulo 2^32.
 * @PWTPU_DT_U64: unsigned 64 bit, modulo 2^64.
 *
 * Elements are little endian, aligned to their size. Signed integer
 * arithmetic wraps like unsigned (two's complement). F16 to U64 were
 * added in PWTPU_UAPI_VERSION 4; an older module refuses them with
 * PWTPU_VERR_DTYPE.
 */
enum pwtpu_dtype {
	PWTPU_DT_F32 = 1,
	PWTPU_DT_BF16 = 2,
	PWTPU_DT_I8 = 3,
	PWTPU_DT_I32 = 4,
	PWTPU_DT_F16 = 5,
	PWTPU_DT_F64 = 6,
	PWTPU_DT_I16 = 7,
	PWTPU_DT_I64 = 8,
	PWTPU_DT_U8 = 9,
	PWTPU_DT_U16 = 10,
	PWTPU_DT_U32 = 11,
	PWTPU_DT_U64 = 12,
};

/* Bytes of one element of @dtype; 0 for an unknown dtype. */
static inline __u32 pwtpu_dtype_size(__u32 dtype)
{
	switch (dtype) {
	case PWTPU_DT_I8:
	case PWTPU_DT_U8:
		return 1;
	case PWTPU_DT_BF16:
	case PWTPU_DT_F16:
	case PWTPU_DT_I16:
	case PWTPU_DT_U16:
		return 2;
	case PWTPU_DT_F32:
	case PWTPU_DT_I32:
	case PWTPU_DT_U32:
		return 4;
	case PWTPU_DT_F64:
	case PWTPU_DT_I64:
	case PWTPU_DT_U64:
		return 8;
	default:
		return 0;
	}
}

/*
 * Short name of @dtype ("f32", "bf16", "i8", "i32", "f16", "f64", "i16",
 * "i64", "u8", "u16", "u32", "u64"); NULL if unknown.
 */
static inline const char *pwtpu_dtype_name(__u32 dtype)
{
	switch (dtype) {
	case PWTPU_DT_F32:
		return "f32";
	case PWTPU_DT_BF16:
		return "bf16";
	case PWTPU_DT_I8:
		return "i8";
	case PWTPU_DT_I32:
		return "i32";
	case PWTPU_DT_F16:
		return "f16";
	case PWTPU_DT_F64:
		return "f64";
	case PWTPU_DT_I16:
		return "i16";
	case PWTPU_DT_I64:
		return "i64";
	case PWTPU_DT_U8:
		return "u8";
	case PWTPU_DT_U16:
		return "u16";
	case PWTPU_DT_U32:
		return "u32";
	case PWTPU_DT_U64:
		return "u64";
	default:
		return NULL;
	}
}

/**
 * struct pwtpu_tensor - a tensor descriptor
 * @dtype: enum pwtpu_dtype.
 * @rank: 0..PWTPU_MAX_RANK; rank 0 is a scalar.
 * @flags: zero.
 * @buf: binding index, < nbufs.
 * @offset: byte offset in the bound buffer, a multiple of the element size.
 * @shape: extents, each >= 1 for the first @rank entries, 0 after.
 */
struct pwtpu_tensor {
	__u8 dtype;
	__u8 rank;
	__u16 flags;
	__u32 buf;
	__u64 offset;
	__u32 shape[PWTPU_MAX_RANK];
};

#define PWTPU_NO_TENSOR		0xffff

/**
 * enum pwtpu_op - instructions
 *
 * Operands are tensor indices; unused operands are PWTPU_NO_TENSOR and
 * unused args are 0. Unless said otherwise, operands and result have the
 * same dtype and shape. The result of ADD..RSQRT and of AND..REDUCE_PRECISION
 * but BITCAST may be one of its operands exactly (same buffer, offset,
 * dtype and shape), as may SELECT's with b or c, and SCATTER's with a;
 * otherwise a result must not overlap any operand. BROADCAST, RESHAPE,
 * TRANSPOSE, SLICE, SELECT and BITCAST take any dtype and move its
 * elements bit for bit.
 *
 * Integer ops (AND..CLZ) take the integer dtypes, signed and unsigned,
 * and work on the dtype's n bits (8, 16, 32 or 64); floats are refused
 * with PWTPU_VERR_DTYPE. Float ops (FLOOR..ATAN2, REDUCE_PRECISION) take
 * f32, bf16, f16 and f64 (integers: PWTPU_VERR_DTYPE); POW and REM take
 * every dtype. On floats, f32, bf16 and f16
 * are computed from the exact value of a (and b) in binary64 and rounded
 * once, to nearest even, to the dtype; f64 is computed in double-double
 * (about 104 bits) and rounded once to binary64. FLOOR..ROUND_AFZ, SQRT,
 * REM and REDUCE_PRECISION are exact (correctly rounded) for every dtype.
 * CBRT..POW give the correctly rounded f32, bf16 and f16 result but for
 * exact values within about 2^-50 (POW: 2^-45) of a rounding boundary,
 * and are then 1 ulp off at most; f64 results are within 1 ulp, and
 * correctly rounded but for values within about 2^-95 of a boundary.
 * Special values (signed zeros, infinities, NaN, subnormals) follow C99
 * Annex F; a NaN operand gives a quiet NaN (the first NaN operand,
 * quieted) and an invalid operation the default NaN (sign set, quiet).
 *
 * @PWTPU_OP_MATMUL: dst[M,N] = a[M,K] x b[K,N] on the systolic array. a and
 *	b are both f32 or both bf16 (dst f32), or both i8 (dst i32); no
 *	other dtype. dst must not overlap a or b.
 * @PWTPU_OP_ADD: dst = a + b, any dtype. @PWTPU_OP_SUB, @PWTPU_OP_MUL,
 *	@PWTPU_OP_DIV, @PWTPU_OP_MAX, @PWTPU_OP_MIN likewise. Floats: IEEE
 *	operations rounded to nearest even (f64 in binary64; f32, bf16 and
 *	f16 computed in binary32 and rounded once to the dtype, which for
 *	these four ops is the correctly rounded bf16 or f16 result).
 *	Integers wrap: signed ones in two's complement, unsigned ones modulo
 *	2^n. Integer division truncates toward zero; x / 0 is all ones (-1
 *	signed, the maximum unsigned); signed MIN / -1 is MIN.
 * @PWTPU_OP_SUB: see ADD.
 * @PWTPU_OP_MUL: see ADD.
 * @PWTPU_OP_DIV: see ADD.
 * @PWTPU_OP_MAX: see ADD; unsigned integers in unsigned order; for
 *	floats a NaN operand gives NaN (the first NaN operand, quieted) and
 *	-0 is below +0.
 * @PWTPU_OP_MIN: see MAX.
 * @PWTPU_OP_NEG: dst = -a, any dtype: floats flip the sign bit (NaN too);
 *	integers wrap (unsigned: 2^n - a, 0 for 0).
 * @PWTPU_OP_ABS: dst = |a|, any dtype: floats clear the sign bit; the
 *	most negative signed value is its own ABS; unsigned ABS is a.
 * @PWTPU_OP_EXP: dst = e^a; floats (bf16 and f16 are computed in f32
 *	and rounded to nearest even; f32 in binary64, rounded once: 1 ulp
 *	at most, correctly rounded but for values within about 1e-13 of a
 *	rounding boundary). f64 is computed in double-double (about 104
 *	bits) and rounded once: within 1 ulp, correctly rounded but for
 *	values within about 2^-95 of a boundary; overflow gives +inf,
 *	underflow subnormals and then +0 (e^-inf = +0, e^+-0 = 1).
 *	f64 came with PWTPU_UAPI_VERSION 6 (for EXP, LOG, TANH and RSQRT);
 *	an older module refuses it with PWTPU_VERR_DTYPE.
 * @PWTPU_OP_LOG: dst = ln a, dtypes and accuracy as EXP: ln(+-0) =
 *	-inf, a < 0 gives NaN (the default NaN), ln(+inf) = +inf.
 * @PWTPU_OP_TANH: dst = tanh a, dtypes and accuracy as EXP: +-0 kept,
 *	+-inf give +-1.
 * @PWTPU_OP_RSQRT: dst = 1 / sqrt(a), dtypes as EXP; f64 is the binary64
 *	square root, then the binary64 division (rounded twice, as
 *	StableHLO's reference interpreter computes it): -0 gives -inf, a < 0
 *	NaN, +inf +0.
 * @PWTPU_OP_COMPARE: dst (i8, 0 or 1) = a <mode> b, mode is enum
 *	pwtpu_cmp; a and b of one dtype, any: floats compare as IEEE (every
 *	comparison with a NaN is false but NE; -0 == +0), signed integers
 *	in signed order, unsigned ones in unsigned order.
 * @PWTPU_OP_SELECT: dst = a (i8 predicate) ? b : c; b, c and dst share
 *	dtype (any) and shape with a's shape.
 * @PWTPU_OP_CONVERT: dst = (dst dtype) a, same shape, any pair of
 *	dtypes. To a float type: rounds the exact value once to nearest
 *	even (f64 to f16 or bf16 directly, never through f32; integers,
 *	i64 and u64 included, from their exact value), overflowing to inf; a
 *	NaN stays a NaN (quiet, sign and top payload bits kept; bf16 and f16
 *	to f32 keep its bits as they are). Float to integer truncates
 *	toward zero and saturates to the dtype's range, NaN gives 0.
 *	Integer to integer keeps the low bits of the two's complement value
 *	(sign extended from a signed source).
 * @PWTPU_OP_BROADCAST: dst = a broadcast numpy style: a's shape aligned
 *	to the right of dst's, each a extent equal to dst's or 1.
 * @PWTPU_OP_RESHAPE: dst = a with another shape of the same element count.
 * @PWTPU_OP_TRANSPOSE: dst[i_perm(0)..] = a[i0..]: dst.shape[k] =
 *	a.shape[arg[k]]; arg[0..rank-1] is a permutation.
 * @PWTPU_OP_SLICE: dst = a[arg[k] .. arg[k] + dst.shape[k]] per dimension,
 *	same rank.
 * @PWTPU_OP_REDUCE: dst = reduce a over the dimensions in bit mask arg[0]
 *	(mode is enum pwtpu_reduce: SUM, MAX or MIN); dst's shape is a's
 *	without those dimensions. Any dtype. Reduction runs in ascending
 *	index order: f32 rounds after every step, f64 folds in binary64,
 *	bf16 and f16 accumulate in f32 and round to the dtype once at the
 *	end, integers wrap (MAX and MIN in the dtype's order).
 * @PWTPU_OP_LOOP: run the next arg[1] instructions arg[0] times
 *	(1..PWTPU_MAX_TRIPS); loops nest up to PWTPU_MAX_LOOP_DEPTH and a body
 *	lies wholly inside its enclosing body. mode is enum pwtpu_loop:
 *	COUNTED (0) runs every trip; BOUNDED (1) runs at most arg[0] trips
 *	and is left by a WHILE of its own body (not of a loop inside it),
 *	which it must have. A bounded loop whose arg[0] trips all end
 *	without a WHILE leaving it ends the execution there: the command
 *	fails with -ELOOP (buffers hold what was written so far). The limits
 *	on instructions, time and work count a bounded loop at arg[0] trips;
 *	the modelled time of an execution is that of the instructions it
 *	ran. In PWTPU_TIMING_SKIP, where nothing is computed, a WHILE never
 *	leaves and a bounded loop runs its arg[0] trips without error.
 *	Collectives in a bounded loop must run as often on every member of
 *	the gang, or the gang fails as when members disagree.
 * @PWTPU_OP_DELAY: synthetic compute of arg[0] | (u64)arg[1] << 32
 *	nanoseconds, at most PWTPU_MAX_DELAY_NS.
 * @PWTPU_OP_ALL_REDUCE: dst = a reduced (mode is enum pwtpu_reduce, PROD
 *	allowed) over the members of this device's replica group (struct
 *	pwtpu_gang); f32, bf16 or i32; the order of the reduction is fixed
 *	(docs/collectives.md). The collectives take f32, bf16, i8 and i32
 *	only (ALL_REDUCE and REDUCE_SCATTER not i8).
 * @PWTPU_OP_ALL_GATHER: dst = the members' a concatenated along
 *	dimension 0 in group-rank order: dst.shape[0] = n * a.shape[0].
 * @PWTPU_OP_REDUCE_SCATTER: dst = block (group rank) of a reduced over
 *	the group, split along dimension 0: a.shape[0] = n * dst.shape[0].
 * @PWTPU_OP_COLLECTIVE_PERMUTE: dst = a of the member whose permute
 *	target is this one, or zeros if none.
 * @PWTPU_OP_SCATTER: dst = a (the operand) with the windows of c (the
 *	updates) combined in at the start indices in b, as StableHLO's
 *	scatter of one input; mode is enum pwtpu_scatter, the combiner, and
 *	arg[0..1] the dimension numbers (PWTPU_GS_*, below). a, c and dst
 *	share one dtype, any; b's dtype is any integer one, read as signed
 *	or unsigned as it is. dst has a's shape; it may be a exactly (in
 *	place) and is disjoint from b and c. See "Scatter and gather".
 * @PWTPU_OP_GATHER: dst = the slices of a (the operand) that start at the
 *	indices in b, as StableHLO's gather; mode is 0 and arg[0..1] the
 *	dimension numbers (PWTPU_GS_*). dst has a's dtype, any; b is of any
 *	integer dtype; dst is disjoint from a and b. Start indices are
 *	clamped so that each slice lies inside a. The slice sizes are not
 *	encoded: StableHLO fixes them to 1 on the collapsed and batching
 *	dimensions, and the other dimensions of a, in order, are dst's
 *	offset dimensions, in order, so dst's shape gives them. SCATTER and
 *	GATHER came with PWTPU_UAPI_VERSION 5; an older module refuses them
 *	with PWTPU_VERR_OPCODE.
 * @PWTPU_OP_AND: dst = a & b, bitwise, integers. @PWTPU_OP_OR,
 *	@PWTPU_OP_XOR likewise.
 * @PWTPU_OP_OR: see AND.
 * @PWTPU_OP_XOR: see AND. (On the i8 predicate, XOR with 1 is "not".)
 * @PWTPU_OP_NOT: dst = ~a, every bit flipped, integers (on the i8
 *	predicate 0 and 1 give -1 and -2).
 * @PWTPU_OP_SHL: dst = a << b, integers: b (of a's dtype) is taken as an
 *	unsigned count; zeros come in; a count >= n (n: the dtype's bits;
 *	a negative b is a huge count) gives 0.
 * @PWTPU_OP_SHR_LOGICAL: dst = a >> b with zeros coming in at the top (a's
 *	bits read as unsigned); a count >= n gives 0.
 * @PWTPU_OP_SHR_ARITH: dst = a >> b with copies of a's top bit coming in
 *	(of an unsigned a too: its bits read as two's complement); a count
 *	>= n gives n copies of the top bit (0, or all ones).
 * @PWTPU_OP_POPCNT: dst = the number of one bits of a's n bits.
 * @PWTPU_OP_CLZ: dst = the number of zero bits above a's highest one bit
 *	(n for 0, 0 for a negative signed a).
 * @PWTPU_OP_FLOOR: dst = the largest integral value <= a, floats, exact:
 *	+-0 and +-inf are kept (floor(-0.5) = -1, floor(0.5) = +0).
 * @PWTPU_OP_CEIL: dst = the least integral value >= a (ceil(-0.5) = -0).
 * @PWTPU_OP_ROUND_EVEN: dst = the integral value nearest a, ties to even
 *	(-0.5 gives -0, 2.5 gives 2, -2.5 gives -2).
 * @PWTPU_OP_ROUND_AFZ: dst = the integral value nearest a, ties away from
 *	zero (-0.5 gives -1, 0.49999997 gives +0, 2.5 gives 3).
 * @PWTPU_OP_SQRT: dst = sqrt(a), correctly rounded: sqrt(-0) = -0, a < 0
 *	and -inf give NaN, +inf gives +inf.
 * @PWTPU_OP_CBRT: dst = the real cube root of a: cbrt(-a) = -cbrt(a),
 *	+-0 and +-inf kept.
 * @PWTPU_OP_SIN: dst = sin a, a in radians; any finite a is reduced
 *	modulo pi/2 to about 2^-200 (320 bits of 2/pi, from where its
 *	exponent needs them), so huge arguments are accurate too; +-inf
 *	gives NaN; sin(+-0) = +-0.
 * @PWTPU_OP_COS: dst = cos a, as SIN; cos(+-0) = 1.
 * @PWTPU_OP_TAN: dst = tan a, as SIN; tan(+-0) = +-0.
 * @PWTPU_OP_LOG1P: dst = ln(1 + a): +-0 kept, -1 gives -inf, below -1
 *	NaN, +inf +inf.
 * @PWTPU_OP_EXPM1: dst = e^a - 1: +-0 kept, -inf gives -1, overflow +inf.
 * @PWTPU_OP_LOGISTIC: dst = 1 / (1 + e^-a): +inf gives 1, -inf +0, +-0
 *	0.5; results below the least subnormal are +0.
 * @PWTPU_OP_ATAN2: dst = atan2(a, b), the angle of the point (x = b,
 *	y = a), in [-pi, pi]: C99 atan2 with its signed zeros and
 *	infinities (atan2(+-0, -0) = +-pi, atan2(+-inf, -inf) = +-3pi/4).
 * @PWTPU_OP_POW: dst = a^b. Floats: C99 pow (pow(a, +-0) = 1 and
 *	pow(1, b) = 1, NaN or not; a finite a < 0 with a non-integer b gives
 *	NaN; pow(-1, +-inf) = 1; odd integer b keeps the sign of a; overflow
 *	to +-inf, underflow to +-0). Integers: by repeated squaring, wrapping;
 *	on signed dtypes a b < 0 gives 1 for a = 1, 1 or -1 (by b's parity)
 *	for a = -1 and 0 otherwise; 0^0 = 1.
 * @PWTPU_OP_REM: dst = the remainder of a / b with a's sign. Floats: C
 *	fmod, exact: a - trunc(a / b) * b (+-0 kept for a = +-0; b = +-0 or
 *	a = +-inf gives NaN; b = +-inf gives a). Integers (any dtype): a - (a /
 *	b) * b with DIV's rules, so a % 0 = a and MIN % -1 = 0.
 * @PWTPU_OP_BITCAST: dst = a's bytes read as dst's dtype (any two
 *	dtypes). Of the same width: the same shape. dst's elements k times
 *	as wide as a's: a's shape is dst's and a last dimension of k; k
 *	times narrower: dst's shape is a's and a last dimension of k. Little
 *	endian: the first narrow element is the low bits of the wide one.
 *	dst must not overlap a.
 * @PWTPU_OP_REDUCE_PRECISION: dst = a rounded to a float format of arg[0]
 *	(>= 1) exponent bits and arg[1] fraction bits and back, floats, as
 *	StableHLO defines it on a's own bits: if arg[1] is below the dtype's
 *	fraction bits, the fraction is rounded to nearest there, a tie to
 *	the even last kept bit (for arg[1] = 0, the exponent's: 0.75 to
 *	0.5), and a carry may reach the exponent, up to inf; then, if
 *	arg[0] is below the dtype's exponent bits, values past the format's
 *	largest exponent become +-inf and values at or below its least
 *	normal exponent +-0 (the format has no subnormals). A NaN stays that
 *	NaN, bit for bit; with arg[1] = 0 (a format without NaN) it gives
 *	+inf.
 * @PWTPU_OP_WHILE: go on while a is non-zero: when a (a rank-0 tensor of
 *	an integer dtype, signed or unsigned; the i8 predicate among them)
 *	is zero, leave the innermost loop at once, going on after its body;
 *	else go on with the next instruction. No dst, mode 0, no args. Only
 *	in the body of a BOUNDED loop, at that loop's own depth (inside a
 *	COUNTED loop or outside every loop it is refused with
 *	PWTPU_VERR_LOOP). A WHILE before the rest of the body is a loop that
 *	tests first and may run the rest zero times. WHILE and the BOUNDED
 *	mode of LOOP came with PWTPU_UAPI_VERSION 6; an older module refuses
 *	WHILE with PWTPU_VERR_OPCODE and a LOOP of mode 1 with
 *	PWTPU_VERR_RESERVED.
 * @PWTPU_OP_COUNT: one past the largest opcode; not an instruction.
 *
 * Scatter and gather. Both name the dimensions of three tensors: the
 * operand a, the indices b and the one that holds the windows (SCATTER:
 * the updates c; GATHER: the result dst), called w here. Every
 * dimension of w is a window dimension (its bit set in the window mask
 * of arg[0]) or a batch dimension; the batch dimensions, in order, are
 * b's dimensions but the index vector dimension V, in order, with their
 * extents. Every dimension of a is inserted (SCATTER's
 * inserted_window_dims, GATHER's collapsed_slice_dims: mask I),
 * batching (mask B) or a window dimension, and a's window dimensions
 * are w's window dimensions, in order, each of w's extent at most a's
 * (GATHER: equal to the slice size). An element of w at index u reads
 * the index vector of its batch indices s: b[s] with V inserted, its
 * n entries along V (n = b.shape[V], at most 4; V = rank(b) is the
 * implicit trailing dimension of extent 1: n = 1, b[s]). Entry j is the
 * start on a's dimension M[j] (the index map); the i-th set bit of B,
 * in ascending order, is a's dimension that takes s's index on b's
 * dimension S[i] (the batching pairs); a's window dimensions take u's
 * window indices; the rest take 0. The element of a is the sum.
 *
 * SCATTER walks c in row-major order. A start vector whose window (c's
 * window extents on a's window dimensions, 1 elsewhere) does not lie
 * wholly inside a skips every element of that window, as XLA does
 * (StableHLO's reference interpreter skips only the elements outside);
 * nothing is clamped. Every other element combines into dst in that
 * order: dst[i] = mode(dst[i], c[u]), so repeated indices give one
 * result, row-major order's. SET replaces; ADD, MUL, MIN and MAX are the
 * instructions of those names on one element of the dtype (integers
 * wrap, f32, bf16 and f16 round once to the dtype, f64 is binary64, MIN
 * and MAX propagate NaN and order -0 below +0).
 *
 * GATHER: dst[u] = a at that sum, each start first clamped to
 * [0, a.shape[M[j]] - slice size] (negative starts to 0, in b's own
 * signedness: a u64 of 2^64 - 1 is large, an i64 -1 is negative).
 *
 * The verifier checks StableHLO's constraints: masks below their
 * tensor's rank, I and B disjoint, a's rank the number of window, I and
 * B dimensions; V <= rank(b); M's n entries distinct, below a's rank and
 * not in B; S's entries (as many as B has bits) distinct, below
 * rank(b) and not V, with b.shape[S[i]] equal to a's extent on the
 * batching dimension it pairs with; w's rank and extents as above.
 */
enum pwtpu_op {
	PWTPU_OP_MATMUL = 1,
	PWTPU_OP_ADD,
	PWTPU_OP_SUB,
	PWTPU_OP_MUL,
	PWTPU_OP_DIV,
	PWTPU_OP_MAX,
	PWTPU_OP_MIN,
	PWTPU_OP_NEG,
	PWTPU_OP_ABS,
	PWTPU_OP_EXP,
	PWTPU_OP_LOG,
	PWTPU_OP_TANH,
	PWTPU_OP_RSQRT,
	PWTPU_OP_COMPARE,
	PWTPU_OP_SELECT,
	PWTPU_OP_CONVERT,
	PWTPU_OP_BROADCAST,
	PWTPU_OP_RESHAPE,
	PWTPU_OP_TRANSPOSE,
	PWTPU_OP_SLICE,
	PWTPU_OP_REDUCE,
	PWTPU_OP_LOOP,
	PWTPU_OP_DELAY,
	PWTPU_OP_ALL_REDUCE,
	PWTPU_OP_ALL_GATHER,
	PWTPU_OP_REDUCE_SCATTER,
	PWTPU_OP_COLLECTIVE_PERMUTE,
	PWTPU_OP_SCATTER = 28,
	PWTPU_OP_GATHER = 29,
	PWTPU_OP_AND = 30,
	PWTPU_OP_OR = 31,
	PWTPU_OP_XOR = 32,
	PWTPU_OP_NOT = 33,
	PWTPU_OP_SHL = 34,
	PWTPU_OP_SHR_LOGICAL = 35,
	PWTPU_OP_SHR_ARITH = 36,
	PWTPU_OP_POPCNT = 37,
	PWTPU_OP_CLZ = 38,
	PWTPU_OP_FLOOR = 39,
	PWTPU_OP_CEIL = 40,
	PWTPU_OP_ROUND_EVEN = 41,
	PWTPU_OP_ROUND_AFZ = 42,
	PWTPU_OP_SQRT = 43,
	PWTPU_OP_CBRT = 44,
	PWTPU_OP_SIN = 45,
	PWTPU_OP_COS = 46,
	PWTPU_OP_TAN = 47,
	PWTPU_OP_LOG1P = 48,
	PWTPU_OP_EXPM1 = 49,
	PWTPU_OP_LOGISTIC = 50,
	PWTPU_OP_ATAN2 = 51,
	PWTPU_OP_POW = 52,
	PWTPU_OP_REM = 53,
	PWTPU_OP_BITCAST = 54,
	PWTPU_OP_REDUCE_PRECISION = 55,
	PWTPU_OP_WHILE = 56,
	PWTPU_OP_COUNT,
};

/* pwtpu_insn.mode of PWTPU_OP_LOOP */
enum pwtpu_loop {
	PWTPU_LOOP_COUNTED = 0,	/* every one of arg[0] trips */
	PWTPU_LOOP_BOUNDED,	/* until a WHILE leaves, at most arg[0] trips */
};

/* pwtpu_insn.mode of PWTPU_OP_COMPARE */
enum pwtpu_cmp {
	PWTPU_CMP_EQ = 0,
	PWTPU_CMP_NE,
	PWTPU_CMP_LT,
	PWTPU_CMP_LE,
	PWTPU_CMP_GT,
	PWTPU_CMP_GE,
};

/* pwtpu_insn.mode of PWTPU_OP_REDUCE */
enum pwtpu_reduce {
	PWTPU_REDUCE_SUM = 0,
	PWTPU_REDUCE_MAX,
	PWTPU_REDUCE_MIN,
	PWTPU_REDUCE_PROD,	/* collectives only */
};

/* pwtpu_insn.mode of PWTPU_OP_SCATTER: how an update meets dst */
enum pwtpu_scatter {
	PWTPU_SCATTER_SET = 0,
	PWTPU_SCATTER_ADD,
	PWTPU_SCATTER_MUL,
	PWTPU_SCATTER_MIN,
	PWTPU_SCATTER_MAX,
};

/*
 * Dimension numbers of SCATTER and GATHER (see "Scatter and gather"
 * above), in arg[0] and arg[1]; arg[2..4] are 0, as is every bit not
 * named here.
 *   arg[0] bits 0-3:   window mask W, over w's dimensions (SCATTER:
 *                      update_window_dims; GATHER: offset_dims)
 *          bits 8-11:  inserted mask I, over a's dimensions (SCATTER:
 *                      inserted_window_dims; GATHER: collapsed_slice_dims)
 *          bits 16-19: batching mask B, over a's dimensions (SCATTER:
 *                      input_batching_dims; GATHER: operand_batching_dims)
 *          bits 24-26: V, the index vector dimension, 0..rank(b)
 *   arg[1] bits 2i..2i+1 (i < 4): S[i], b's dimension paired with B's
 *                      i-th set bit (scatter_indices_batching_dims,
 *                      start_indices_batching_dims); past B's count, 0
 *          bits 16+2j..17+2j (j < 4): M[j], a's dimension of index
 *                      vector entry j (scatter_dims_to_operand_dims,
 *                      start_index_map); past n, 0
 * StableHLO lists I and B sorted (B's pairs in that order), so masks
 * lose nothing.
 */
#define PWTPU_GS_ARG0(w, i, b, v)					\
	(((__u32)(w) & 0xf) | ((__u32)(i) & 0xf) << 8 |		\
	 ((__u32)(b) & 0xf) << 16 | ((__u32)(v) & 0x7) << 24)
#define PWTPU_GS_WINDOW(arg0)		((arg0) & 0xf)
#define PWTPU_GS_INSERTED(arg0)		(((arg0) >> 8) & 0xf)
#define PWTPU_GS_BATCHING(arg0)		(((arg0) >> 16) & 0xf)
#define PWTPU_GS_VECTOR_DIM(arg0)	(((arg0) >> 24) & 0x7)
#define PWTPU_GS_ARG0_BITS		0x070f0f0fU
/* arg[1] field of S[i] = d and of M[j] = d, to be or-ed together. */
#define PWTPU_GS_PAIR(i, d)		(((__u32)(d) & 3) << (2 * (i)))
#define PWTPU_GS_MAP(j, d)		(((__u32)(d) & 3) << (16 + 2 * (j)))
#define PWTPU_GS_PAIR_DIM(arg1, i)	(((arg1) >> (2 * (i))) & 3)
#define PWTPU_GS_MAP_DIM(arg1, j)	(((arg1) >> (16 + 2 * (j))) & 3)
#define PWTPU_GS_ARG1_BITS		0x00ff00ffU

/**
 * struct pwtpu_insn - one instruction, 32 bytes
 * @op: enum pwtpu_op.
 * @mode: sub-operation (enum pwtpu_cmp, enum pwtpu_reduce, enum
 *	pwtpu_scatter, enum pwtpu_loop), else 0.
 * @flags: zero.
 * @dst: result tensor index (PWTPU_NO_TENSOR for LOOP, DELAY and WHILE).
 * @src: operand tensor indices.
 * @arg: immediate arguments, as the op defines; unused ones 0.
 */
struct pwtpu_insn {
	__u8 op;
	__u8 mode;
	__u16 flags;
	__u16 dst;
	__u16 src[3];
	__u32 arg[5];
};

/**
 * enum pwtpu_verr - why the verifier rejected a program
 * @PWTPU_VERR_OK: accepted.
 * @PWTPU_VERR_TRUNCATED: image shorter than its header says, or not the
 *	exact size.
 * @PWTPU_VERR_MAGIC: bad magic.
 * @PWTPU_VERR_VERSION: unsupported version.
 * @PWTPU_VERR_RESERVED: a reserved or flags field is not zero, or an unused
 *	operand or arg is set.
 * @PWTPU_VERR_LIMIT: a count past its PWTPU_MAX_* limit, or a DELAY
 *	longer than PWTPU_MAX_DELAY_NS.
 * @PWTPU_VERR_DTYPE: unknown dtype, or a dtype the op does not accept
 *	(MATMUL: f32, bf16, i8; EXP..RSQRT: f32, bf16, f16; AND..CLZ:
 *	integers; FLOOR..ATAN2 and REDUCE_PRECISION: floats; collectives:
 *	f32, bf16, i8, i32; the indices of SCATTER and GATHER: integers).
 * @PWTPU_VERR_SHAPE: bad rank or extent, or too many elements.
 * @PWTPU_VERR_BUFFER: binding index out of range, misaligned offset, or a
 *	tensor that ends past PWTPU_MAX_OFFSET.
 * @PWTPU_VERR_OPCODE: unknown op (28, 29 among them) or mode.
 * @PWTPU_VERR_OPERAND: tensor index out of range or missing.
 * @PWTPU_VERR_MISMATCH: operand and result shapes or dtypes inconsistent.
 * @PWTPU_VERR_ARG: bad permutation, axis mask, slice window,
 *	dimension numbers of SCATTER or GATHER, or REDUCE_PRECISION
 *	exponent width (0).
 * @PWTPU_VERR_OVERLAP: result partially overlaps an operand.
 * @PWTPU_VERR_LOOP: loop body outside the program or its enclosing body,
 *	zero or too many trips, nesting too deep, a bounded loop without a
 *	WHILE of its own, or a WHILE outside a bounded loop's body.
 * @PWTPU_VERR_BOUND: dynamic instruction count, real work or modelled time past the
 *	limits.
 */
enum pwtpu_verr {
	PWTPU_VERR_OK = 0,
	PWTPU_VERR_TRUNCATED,
	PWTPU_VERR_MAGIC,
	PWTPU_VERR_VERSION,
	PWTPU_VERR_RESERVED,
	PWTPU_VERR_LIMIT,
	PWTPU_VERR_DTYPE,
	PWTPU_VERR_SHAPE,
	PWTPU_VERR_BUFFER,
	PWTPU_VERR_OPCODE,
	PWTPU_VERR_OPERAND,
	PWTPU_VERR_MISMATCH,
	PWTPU_VERR_ARG,
	PWTPU_VERR_OVERLAP,
	PWTPU_VERR_LOOP,
	PWTPU_VERR_BOUND,
};

#endif /* _UAPI_PWTPU_H */
