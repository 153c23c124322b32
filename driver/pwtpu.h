/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pwtpu.h - internal structures of pwtpu.ko.
 *
 * One module instance is one island of ndev devices. Each device has an
 * HBM budget, a command queue whose commands have the device one at a
 * time in submission order, each run in a context of its submitter (its
 * ioctl or io_uring issue, or its file's runner thread), and counters.
 * Each open file is a context that owns buffer objects and programs by
 * handle; commands hold references on what they use, so destroying a
 * handle never frees memory a queued command still touches.
 */
#ifndef PWTPU_H
#define PWTPU_H

#include <linux/cdev.h>
#include <linux/completion.h>
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/kref.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/spinlock.h>
#include <linux/wait.h>
#include <linux/xarray.h>

#include "../include/uapi/pwtpu.h"
#include "../firmware/pwfw.h"
#include "../firmware/pwfw_cmd.h"
#include "../firmware/pwfw_island.h"

#define PWTPU_MAX_DEVICES	64
#define PWTPU_MAX_HBM_MIB	4096

/*
 * mmap offsets: a BO's pages start at handle << PWTPU_MMAP_SHIFT bytes,
 * so a BO (at most PWTPU_MAX_HBM_MIB) can be mapped in part as well.
 */
#define PWTPU_MMAP_SHIFT	32

struct pwtpu_island {
	u32 ndev;
	u32 island;
	u64 hbm_bytes;
	u32 timing;			/* enum pwtpu_timing_mode */
	u32 poll_us;
	u32 max_inflight;		/* commands per open file */
	u64 gang_timeout_ns;
	struct pwfw_spec spec;
	struct pwfw_mesh mesh;
	struct pwtpu_dev *devs[PWTPU_MAX_DEVICES];

	/* The firmware's shared island state (links, gang rendezvous). */
	struct pwfw_island *fw;
	struct mutex fw_lock;		/* pwfw_plat_lock(): guards *fw */
	wait_queue_head_t fw_wait;	/* pwfw_plat_wait(), wake_all() */
};

#define PWTPU_LINK_FIELDS	4

/* sysfs attribute of one link counter; see pwtpu_sysfs.c. */
struct pwtpu_link_attr {
	struct device_attribute attr;
	u8 axis;
	u8 dir;
	u8 field;
};

struct pwtpu_link_sysfs {
	struct pwtpu_link_attr attrs[PWTPU_LINK_FIELDS];
	struct attribute *ptrs[PWTPU_LINK_FIELDS + 1];
	struct attribute_group group;
	char name[16];
};

struct pwtpu_dev {
	struct device dev;
	struct cdev cdev;
	struct pwtpu_island *isl;
	u32 index;
	u32 coords[PWTPU_MESH_MAX_DIMS];
	/* This device's sysfs groups: the common one and its links'. */
	const struct attribute_group *groups[2 + 2 * PWTPU_MESH_MAX_DIMS];
	struct pwtpu_link_sysfs links[PWTPU_MESH_MAX_DIMS][2];

	atomic64_t hbm_used;
	atomic_t runners;		/* files' runner threads, at most 64 */
	atomic64_t cmds_cancelled;
	atomic64_t next_job_id;
	/*
	 * Written only by the one command running (@busy), so no atomics:
	 * readers take them with READ_ONCE().
	 */
	u64 cmds_completed;
	u64 cmds_aborted;
	u64 cmds_inline;
	u64 busy_ns;

	spinlock_t qlock;	/* protects queue, queued, busy, ctx->turn */
	struct list_head queue;
	u32 queued;
	bool busy;			/* a command has the device */
};

struct pwtpu_bo {
	struct kref ref;
	struct pwtpu_dev *pdev;
	void *vaddr;
	u64 size;
	u64 charged;			/* whole pages held in HBM */
};

struct pwtpu_prog {
	struct kref ref;
	void *image;
	struct pwfw_prog fw;
};

/*
 * An open file. Its jobs hold references on it and @jobs counts them
 * against the island's max_inflight. @runner runs its queued io_uring
 * commands.
 */
struct pwtpu_ctx {
	struct kref ref;
	atomic_t jobs;
	atomic_t nbos;			/* handles, at most PWTPU_MAX_HANDLES */
	atomic_t nprogs;
	struct pwtpu_dev *pdev;
	struct xarray bos;		/* handle -> struct pwtpu_bo */
	struct xarray progs;		/* handle -> struct pwtpu_prog */
	u32 next_bo;			/* cyclic: a stale handle stays stale */
	u32 next_prog;
	struct mutex runner_lock;	/* making @runner */
	struct task_struct *runner;	/* made at the first queued command */
	wait_queue_head_t rwait;	/* @runner waits here for @turn */
	struct pwtpu_job *turn;		/* given the device, for @runner */
};

/* A host copy this short pins its pages into the job: no allocation. */
#define PWTPU_JOB_PAGES		(PWTPU_INLINE_COPY_MAX / PAGE_SIZE + 1)

/*
 * A command. It is prepared in its submitter's stack frame; one that
 * runs inline ends there. A queued one is moved to the heap, and owned
 * by its submission path alone: the uring path frees it before
 * io_uring_cmd_done(), the ioctl caller when it returns.
 */
struct pwtpu_job {
	struct list_head node;		/* empty once taken off the queue */
	struct pwtpu_dev *pdev;
	/*
	 * A queued job holds a reference on its file's context and on its
	 * submitter, and is one of the context's @jobs; an inline one needs
	 * none, since its submitter and the file are there until it ends.
	 */
	struct pwtpu_ctx *ctx;
	struct task_struct *task;	/* the submitter: is its process dying? */
	u64 id;
	u32 nr;				/* _IOC_NR of the PWTPU_CMD_* */
	u32 flags;			/* PWTPU_CMD_F_* */
	struct pwtpu_prog *prog;
	struct pwtpu_gang *gang;	/* EXEC with collectives */
	u64 gang_scope;			/* its gang file's serial */
	void *scratch;			/* its collectives', charged at submit */
	u32 nbos;			/* of @bos */
	struct pwtpu_dev *peer;		/* COPY_PEER: destination device */
	u64 offset;
	u64 peer_offset;
	u64 length;
	u64 host_ptr;
	/* Host copies: the host buffer's pages, pinned at submit. */
	struct page **pages;		/* small_pages, or allocated */
	unsigned long npages;
	bool wrote_host;		/* COPY_FROM_DEV ran: dirty the pages */
	u64 submit_ns;
	u64 start_ns;
	u64 end_ns;
	int result;
	struct io_uring_cmd *ioucmd;	/* uring path, else NULL */
	bool polled;			/* its ring is IORING_SETUP_IOPOLL */
	/* Not zeroed by pwtpu_job_init(): the arrays up to their counts. */
	struct pwtpu_bo *bos[PWTPU_MAX_BUFS];	/* up to @nbos */
	struct page *small_pages[PWTPU_JOB_PAGES];	/* up to @npages */
	struct completion turn;		/* ioctl path: given the device */
};

extern struct pwtpu_island pwtpu_isl;
extern unsigned int pwtpu_watchdog_ms;
extern unsigned int pwtpu_inline_us;
extern const struct file_operations pwtpu_fops;

/* pwtpu_sysfs.c */
void pwtpu_sysfs_groups(struct pwtpu_dev *pdev);

/* pwtpu_drv.c */
const char *pwtpu_timing_name(u32 mode);

/* pwtpu_ctx.c */
int pwtpu_open(struct inode *inode, struct file *file);
int pwtpu_release(struct inode *inode, struct file *file);
void pwtpu_ctx_put(struct pwtpu_ctx *ctx);
int pwtpu_ctx_runner(struct pwtpu_ctx *ctx);
int pwtpu_ctx_count_get(atomic_t *count);
struct pwtpu_bo *pwtpu_ctx_get_bo(struct pwtpu_ctx *ctx, u32 handle);
struct pwtpu_prog *pwtpu_ctx_get_prog(struct pwtpu_ctx *ctx, u32 handle);

/* pwtpu_bo.c */
int pwtpu_bo_create(struct pwtpu_ctx *ctx, struct pwtpu_bo_create __user *uarg);
int pwtpu_bo_destroy(struct pwtpu_ctx *ctx, struct pwtpu_handle_arg __user *uarg);
void pwtpu_bo_put(struct pwtpu_bo *bo);
int pwtpu_mmap(struct file *file, struct vm_area_struct *vma);

/* pwtpu_prog.c */
int pwtpu_prog_load(struct pwtpu_ctx *ctx, struct pwtpu_prog_load __user *uarg);
int pwtpu_prog_unload(struct pwtpu_ctx *ctx, struct pwtpu_handle_arg __user *uarg);
void pwtpu_prog_put(struct pwtpu_prog *prog);

/* pwtpu_gang.c */
int pwtpu_gang_create(struct pwtpu_ctx *ctx,
		      struct pwtpu_gang_create __user *uarg);
/* The serial of gang file @fd: 0, -EBADF, or -EINVAL for another file. */
int pwtpu_gang_scope(int fd, u64 *scope);

/* pwtpu_job.c */
int pwtpu_job_prepare(struct pwtpu_job *job, struct pwtpu_ctx *ctx,
		      u32 cmd_op, const struct pwtpu_cmd *cmd);
struct pwtpu_job *pwtpu_job_start(struct pwtpu_job *job);
void pwtpu_job_release(struct pwtpu_job *job);
void pwtpu_job_host_copy(struct pwfw_cmd *cmd);
void pwtpu_job_free(struct pwtpu_job *job);

/* pwtpu_queue.c */
bool pwtpu_queue_run_inline(struct pwtpu_job *job);
void pwtpu_queue_submit(struct pwtpu_job *job);
bool pwtpu_queue_unlink(struct pwtpu_job *job);
void pwtpu_queue_run_turn(struct pwtpu_job *job);
int pwtpu_queue_runner(void *data);

/* pwtpu_ioctl.c */
long pwtpu_ioctl(struct file *file, unsigned int cmd, unsigned long arg);

/* pwtpu_uring.c */
int pwtpu_uring_cmd(struct io_uring_cmd *ioucmd, unsigned int issue_flags);
int pwtpu_uring_iopoll(struct io_uring_cmd *ioucmd, struct io_comp_batch *iob,
		       unsigned int poll_flags);
void pwtpu_uring_complete(struct pwtpu_job *job);

#endif /* PWTPU_H */
