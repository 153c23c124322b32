// SPDX-License-Identifier: GPL-2.0
/*
 * pwtpu_gang.c - gang files: the capability to meet in collectives.
 *
 * Members of a gang meet in the firmware's rendezvous by (scope, gang id).
 * The scope is the serial number of a gang file, which only the kernel
 * hands out, so a process can join a gang only by holding the very file
 * its members pass (fork, SCM_RIGHTS); a gang id learnt any other way
 * meets nobody. The serial is read when a command is submitted: the file
 * may be closed while the command waits, and a serial is never reused.
 */
#include <linux/anon_inodes.h>
#include <linux/file.h>
#include <linux/fs.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "pwtpu.h"

struct pwtpu_gang_file {
	u64 serial;
};

static atomic64_t pwtpu_gang_serial = ATOMIC64_INIT(0);

static int pwtpu_gang_release(struct inode *inode, struct file *file)
{
	kfree(file->private_data);
	return 0;
}

static const struct file_operations pwtpu_gang_fops = {
	.owner = THIS_MODULE,
	.release = pwtpu_gang_release,
	.llseek = noop_llseek,
};

int pwtpu_gang_create(struct pwtpu_ctx *ctx,
		      struct pwtpu_gang_create __user *uarg)
{
	struct pwtpu_gang_create arg;
	struct pwtpu_gang_file *gf;
	int fd;

	if (copy_from_user(&arg, uarg, sizeof(arg)))
		return -EFAULT;
	if (arg.flags || arg.reserved || arg.serial)
		return -EINVAL;
	gf = kzalloc(sizeof(*gf), GFP_KERNEL_ACCOUNT);
	if (!gf)
		return -ENOMEM;
	gf->serial = atomic64_inc_return(&pwtpu_gang_serial);
	arg.serial = gf->serial;
	/* Tell the serial first: once the fd exists it cannot be taken back. */
	if (copy_to_user(uarg, &arg, sizeof(arg))) {
		kfree(gf);
		return -EFAULT;
	}
	fd = anon_inode_getfd("[pwtpu-gang]", &pwtpu_gang_fops, gf,
			      O_RDWR | O_CLOEXEC);
	if (fd < 0)
		kfree(gf);
	return fd;
}

int pwtpu_gang_scope(int fd, u64 *scope)
{
	struct file *file = fget(fd);
	int ret = 0;

	if (!file)
		return -EBADF;
	if (file->f_op == &pwtpu_gang_fops)
		*scope = ((struct pwtpu_gang_file *)file->private_data)->serial;
	else
		ret = -EINVAL;
	fput(file);
	return ret;
}
