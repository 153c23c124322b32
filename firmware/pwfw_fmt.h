/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pwfw_fmt.h - a tiny string builder for the firmware's messages. The
 * firmware has no libc (no snprintf): messages are built by appending
 * pieces. The text is always NUL ended and silently truncated to fit.
 */
#ifndef PWFW_FMT_H
#define PWFW_FMT_H

#include "pwfw_types.h"

/**
 * struct pwfw_fmt - an append cursor over a caller's buffer
 * @buf: the buffer.
 * @size: its size in bytes, the NUL included; 0 means nothing is written.
 * @len: characters written so far, always < @size when @size > 0.
 */
struct pwfw_fmt {
	char *buf;
	u32 size;
	u32 len;
};

/* Start an empty string in @buf (which may be 0 when @size is 0). */
void pwfw_fmt_init(struct pwfw_fmt *f, char *buf, u32 size);
void pwfw_fmt_char(struct pwfw_fmt *f, char c);
void pwfw_fmt_str(struct pwfw_fmt *f, const char *s);
/* At most @n characters of @s, stopping early at a NUL. */
void pwfw_fmt_strn(struct pwfw_fmt *f, const char *s, u32 n);
void pwfw_fmt_u64(struct pwfw_fmt *f, u64 v);
void pwfw_fmt_s64(struct pwfw_fmt *f, s64 v);

#endif /* PWFW_FMT_H */
