// SPDX-License-Identifier: GPL-2.0
/*
 * fault.c - allocation failures on demand (fault.h), by the linker's
 * --wrap: our objects' calls of malloc() come to __wrap_malloc(), which
 * calls the real one (__real_malloc()) unless the thread's budget is
 * spent.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <liburing.h>

#include "fault.h"

void *__real_malloc(size_t size);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t size);
void *__wrap_malloc(size_t size);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t size);
int __real_ioctl(int fd, unsigned long req, ...);
int __wrap_ioctl(int fd, unsigned long req, ...);
void *__real_mmap(void *addr, size_t len, int prot, int flags, int fd,
		  off_t off);
void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd,
		  off_t off);
int __real_io_uring_submit(struct io_uring *ring);
int __wrap_io_uring_submit(struct io_uring *ring);

static _Thread_local long budget = -1;
static _Thread_local unsigned long failed;

void fault_fail_after(long n)
{
	budget = n;
	failed = 0;
}

unsigned long fault_failed(void)
{
	return failed;
}

/* Whether this allocation is to fail: the one the budget runs out at. */
static int spend(void)
{
	if (budget < 0)
		return 0;
	if (budget > 0) {
		budget--;
		return 0;
	}
	budget = -1;	/* once: the calls after it succeed */
	failed++;
	errno = ENOMEM;
	return 1;
}

void *__wrap_malloc(size_t size)
{
	return spend() ? NULL : __real_malloc(size);
}

void *__wrap_calloc(size_t n, size_t size)
{
	return spend() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t size)
{
	return spend() ? NULL : __real_realloc(p, size);
}

static atomic_long dev_budget = -1;
static atomic_ulong dev_failed;

void fault_dev_fail_after(long n)
{
	atomic_store(&dev_budget, n);
	atomic_store(&dev_failed, 0);
}

unsigned long fault_dev_failed(void)
{
	return atomic_load(&dev_failed);
}

/* Whether @fd is one of the devices (/dev/pwtpu*). */
static int is_device(int fd)
{
	char path[32], target[16];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	n = readlink(path, target, sizeof(target));
	return n >= 10 && !memcmp(target, "/dev/pwtpu", 10);
}

/* Whether this device call is to fail (any thread may make it). */
static int dev_spend(void)
{
	long b = atomic_load(&dev_budget);

	/* Down by one while positive; the call that finds 0 fails, once. */
	while (b >= 0 && !atomic_compare_exchange_weak(&dev_budget, &b,
						       b ? b - 1 : -1))
		;
	if (b != 0)
		return 0;	/* unarmed (-1), or spent one of the budget */
	atomic_fetch_add(&dev_failed, 1);
	return 1;
}

int __wrap_ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	void *arg;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	if (atomic_load(&dev_budget) >= 0 && is_device(fd) && dev_spend()) {
		errno = EIO;
		return -1;
	}
	return __real_ioctl(fd, req, arg);
}

void *__wrap_mmap(void *addr, size_t len, int prot, int flags, int fd,
		  off_t off)
{
	if (atomic_load(&dev_budget) >= 0 && fd >= 0 && is_device(fd) &&
	    dev_spend()) {
		errno = EIO;
		return MAP_FAILED;
	}
	return __real_mmap(addr, len, prot, flags, fd, off);
}

/*
 * A ring of device commands: uring_cmd's 80-byte payload needs 128-byte
 * entries, which the network's rings (runtime/net/udp.c) do not use.
 */
int __wrap_io_uring_submit(struct io_uring *ring)
{
	if ((ring->flags & IORING_SETUP_SQE128) && dev_spend())
		return -EIO;
	return __real_io_uring_submit(ring);
}
