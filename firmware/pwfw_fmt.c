// SPDX-License-Identifier: GPL-2.0
/*
 * pwfw_fmt.c - the firmware's string builder; see pwfw_fmt.h.
 */
#include "pwfw_fmt.h"

void pwfw_fmt_init(struct pwfw_fmt *f, char *buf, u32 size)
{
	f->buf = buf;
	f->size = buf ? size : 0;
	f->len = 0;
	if (f->size)
		f->buf[0] = '\0';
}

void pwfw_fmt_char(struct pwfw_fmt *f, char c)
{
	/* Keep room for the NUL; past that, drop characters. */
	if (f->len + 1 >= f->size)
		return;
	f->buf[f->len++] = c;
	f->buf[f->len] = '\0';
}

void pwfw_fmt_strn(struct pwfw_fmt *f, const char *s, u32 n)
{
	u32 i;

	for (i = 0; i < n && s[i]; i++)
		pwfw_fmt_char(f, s[i]);
}

void pwfw_fmt_str(struct pwfw_fmt *f, const char *s)
{
	while (*s)
		pwfw_fmt_char(f, *s++);
}

void pwfw_fmt_u64(struct pwfw_fmt *f, u64 v)
{
	char digits[20];	/* 2^64 - 1 has 20 decimal digits */
	u32 n = 0;

	do {
		digits[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		pwfw_fmt_char(f, digits[--n]);
}

void pwfw_fmt_s64(struct pwfw_fmt *f, s64 v)
{
	if (v < 0) {
		pwfw_fmt_char(f, '-');
		/* Negate in unsigned arithmetic: S64_MIN has no positive twin. */
		pwfw_fmt_u64(f, 0 - (u64)v);
		return;
	}
	pwfw_fmt_u64(f, (u64)v);
}
