// SPDX-License-Identifier: GPL-2.0
/*
 * The firmware's platform in user space: no FPU sections are needed, a
 * delay is a real sleep, and the vector level is the CPU's best, capped
 * by pwfw_user_simd_cap() or else by PWFW_SIMD in the environment (tests
 * and pwbench compare the paths). An island's host is a struct
 * pwfw_user_island (pwfw_user.h): a mutex, a condition variable on the
 * monotonic clock, and records of the log and traces for tests; a NULL
 * host means one process-wide island that logs to stderr.
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../pwfw_platform.h"
#include "pwfw_user.h"

void pwfw_plat_fpu_begin(void)
{
}

void pwfw_plat_fpu_end(void)
{
}

void pwfw_plat_yield(void)
{
}

void pwfw_plat_delay_ns(u64 ns)
{
	struct timespec ts = {
		.tv_sec = (time_t)(ns / 1000000000ULL),
		.tv_nsec = (long)(ns % 1000000000ULL),
	};

	while (nanosleep(&ts, &ts))
		;
}

enum pwfw_simd pwfw_user_simd_cpu(void)
{
	__builtin_cpu_init();
	/* libgcc checks that the OS saves the YMM state too (XCR0). */
	if (__builtin_cpu_supports("avx2"))
		return PWFW_SIMD_AVX2;
	return PWFW_SIMD_SSE2;
}

static atomic_int simd_cap = -1;

void pwfw_user_simd_cap(int level)
{
	atomic_store(&simd_cap, level);
}

/* PWFW_SIMD: "0" or "scalar", "sse2", "avx2"; anything else is no cap. */
static int simd_env_cap(void)
{
	const char *v = getenv("PWFW_SIMD");

	if (!v)
		return PWFW_SIMD_AVX2;
	if (!strcmp(v, "0") || !strcmp(v, "scalar"))
		return PWFW_SIMD_NONE;
	if (!strcmp(v, "sse2"))
		return PWFW_SIMD_SSE2;
	return PWFW_SIMD_AVX2;
}

enum pwfw_simd pwfw_plat_simd(void)
{
	int cpu = pwfw_user_simd_cpu(), cap = atomic_load(&simd_cap);

	if (cap < 0)
		cap = simd_env_cap();
	return cap < cpu ? (enum pwfw_simd)cap : (enum pwfw_simd)cpu;
}

int pwfw_user_island_init(struct pwfw_user_island *ui)
{
	pthread_condattr_t attr;
	int ret;

	memset(ui, 0, sizeof(*ui));
	ret = pthread_condattr_init(&attr);
	if (ret)
		return ret;
	ret = pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
	if (!ret)
		ret = pthread_cond_init(&ui->cond, &attr);
	pthread_condattr_destroy(&attr);
	if (ret)
		return ret;
	ret = pthread_mutex_init(&ui->lock, NULL);
	if (ret)
		goto err_cond;
	ret = pthread_mutex_init(&ui->rec_lock, NULL);
	if (ret)
		goto err_lock;
	return 0;

err_lock:
	pthread_mutex_destroy(&ui->lock);
err_cond:
	pthread_cond_destroy(&ui->cond);
	return ret;
}

void pwfw_user_island_destroy(struct pwfw_user_island *ui)
{
	pthread_mutex_destroy(&ui->rec_lock);
	pthread_mutex_destroy(&ui->lock);
	pthread_cond_destroy(&ui->cond);
}

unsigned int pwfw_user_island_log(struct pwfw_user_island *ui, char *buf,
				  size_t len)
{
	unsigned int lines;

	pthread_mutex_lock(&ui->rec_lock);
	if (len) {
		size_t n = ui->log_len < len - 1 ? ui->log_len : len - 1;

		memcpy(buf, ui->log, n);
		buf[n] = '\0';
	}
	lines = ui->log_lines;
	pthread_mutex_unlock(&ui->rec_lock);
	return lines;
}

/* The island of a NULL host: for callers that need no records. */
static struct pwfw_user_island default_island;
static pthread_once_t default_once = PTHREAD_ONCE_INIT;

static void default_init(void)
{
	if (pwfw_user_island_init(&default_island))
		abort();
}

static struct pwfw_user_island *user_island(void *host)
{
	if (host)
		return host;
	pthread_once(&default_once, default_init);
	return &default_island;
}

void pwfw_plat_lock(void *host)
{
	pthread_mutex_lock(&user_island(host)->lock);
}

void pwfw_plat_unlock(void *host)
{
	pthread_mutex_unlock(&user_island(host)->lock);
}

bool pwfw_plat_wait(void *host, u64 deadline_ns)
{
	struct pwfw_user_island *ui = user_island(host);
	struct timespec ts = {
		.tv_sec = (time_t)(deadline_ns / 1000000000ULL),
		.tv_nsec = (long)(deadline_ns % 1000000000ULL),
	};

	if (pwfw_plat_now_ns() >= deadline_ns)
		return false;
	/* A wakeup, spurious or not, is true: the caller looks again. */
	return pthread_cond_timedwait(&ui->cond, &ui->lock, &ts) != ETIMEDOUT;
}

void pwfw_plat_wake_all(void *host)
{
	pthread_cond_broadcast(&user_island(host)->cond);
}

static atomic_bool clock_frozen;
static atomic_ullong clock_frozen_ns;

void pwfw_user_clock_freeze(u64 ns)
{
	atomic_store(&clock_frozen_ns, ns);
	atomic_store(&clock_frozen, true);
}

void pwfw_user_clock_thaw(void)
{
	atomic_store(&clock_frozen, false);
}

u64 pwfw_plat_now_ns(void)
{
	struct timespec ts;

	if (atomic_load(&clock_frozen))
		return atomic_load(&clock_frozen_ns);
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ULL + (u64)ts.tv_nsec;
}

static atomic_long zalloc_ok = -1;

void pwfw_user_zalloc_fail_after(long ok)
{
	atomic_store(&zalloc_ok, ok);
}

void *pwfw_plat_zalloc(u64 bytes)
{
	long ok = atomic_load(&zalloc_ok);

	/* Count down successes until 0, then fail; negative: never fail. */
	while (ok > 0 && !atomic_compare_exchange_weak(&zalloc_ok, &ok, ok - 1))
		;
	if (!ok || bytes > SIZE_MAX)
		return NULL;
	return calloc(1, (size_t)bytes);
}

void pwfw_plat_free(void *p)
{
	free(p);
}

void pwfw_plat_log(void *host, const char *msg)
{
	struct pwfw_user_island *ui;
	size_t len = strlen(msg);

	if (!host) {
		fprintf(stderr, "pwfw: %s\n", msg);
		return;
	}
	ui = host;
	pthread_mutex_lock(&ui->rec_lock);
	if (ui->log_len + len + 1 < sizeof(ui->log)) {
		memcpy(ui->log + ui->log_len, msg, len);
		ui->log_len += len;
		ui->log[ui->log_len++] = '\n';
		ui->log[ui->log_len] = '\0';
	}
	ui->log_lines++;
	if (ui->log_fn)
		ui->log_fn(ui->log_arg, msg);
	pthread_mutex_unlock(&ui->rec_lock);
}

void pwfw_plat_trace_link(void *host, u32 from, u32 to, u64 bytes,
			  u64 model_ns)
{
	struct pwfw_user_island *ui = host;

	if (!ui)
		return;
	pthread_mutex_lock(&ui->rec_lock);
	if (ui->nhops < PWFW_USER_HOPS)
		ui->hops[ui->nhops] = (struct pwfw_user_hop){
			.from = from, .to = to, .bytes = bytes,
			.model_ns = model_ns,
		};
	ui->nhops++;
	pthread_mutex_unlock(&ui->rec_lock);
}

void pwfw_plat_trace_coll(void *host, u32 dev, u64 gang_id, u32 seq,
			  u32 op, u32 phase, s32 arg)
{
	struct pwfw_user_island *ui = host;

	(void)dev;
	(void)gang_id;
	(void)seq;
	(void)op;
	(void)arg;
	if (!ui || phase > PWFW_COLL_DONE)
		return;
	pthread_mutex_lock(&ui->rec_lock);
	ui->coll[phase]++;
	pthread_mutex_unlock(&ui->rec_lock);
}
