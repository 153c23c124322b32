// SPDX-License-Identifier: GPL-2.0
/*
 * pwtrace_parse.c - one line of trace text into a struct pwtrace_rec.
 *
 * The three text forms differ before the event name and agree after it:
 *   ftrace:     "  pwtpu0-123  [001] .....  812.345678: pwtpu_start: dev=0 ..."
 *   trace-cmd:  "  pwtpu0-123  [001]  812.345678901: pwtpu_start:  dev=0 ..."
 *   perf script:"  pwtpu0  123 [001]  812.345678: pwtpu:pwtpu_start: dev=0 ..."
 * so the line is found by its event name, and the timestamp is the number
 * just before it. Task names may hold spaces and colons; they come before
 * the timestamp and are never read.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pwtrace.h"

#define MAX_FIELDS	8

struct field {
	const char *key;
	size_t key_len;
	const char *val;
	size_t val_len;
};

static const struct {
	const char *name;
	enum pwtrace_kind kind;
} events[] = {
	{ "pwtpu_submit", PWTRACE_SUBMIT },
	{ "pwtpu_start", PWTRACE_START },
	{ "pwtpu_complete", PWTRACE_COMPLETE },
	{ "pwtpu_link", PWTRACE_LINK },
	{ "pwtpu_coll", PWTRACE_COLL },
};

static const char *const cmd_names[] = {
	"nop", "exec", "copy_to_dev", "copy_from_dev", "copy_peer",
};

static const char *const phase_names[] = {
	[PWTRACE_JOIN] = "join",
	[PWTRACE_COLL_START] = "start",
	[PWTRACE_STEP] = "step",
	[PWTRACE_DONE] = "done",
};

const char *pwtrace_cmd_name(uint32_t cmd)
{
	if (cmd < 0x10 || cmd >= 0x10 + sizeof(cmd_names) / sizeof(*cmd_names))
		return NULL;
	return cmd_names[cmd - 0x10];
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/*
 * The event at @p ("pwtpu_xxx:" or "pwtpu:pwtpu_xxx:"), which must follow
 * "<timestamp>: ". Returns the kind and sets *@fields past the colon, or
 * -1.
 */
static int match_event(const char *line, const char *p, const char **fields)
{
	size_t i, len;

	if (p - line < 3 || p[-1] != ' ' || p[-2] != ':' || !is_digit(p[-3]))
		return -1;
	if (!strncmp(p, "pwtpu:", 6))
		p += 6;
	for (i = 0; i < sizeof(events) / sizeof(*events); i++) {
		len = strlen(events[i].name);
		if (!strncmp(p, events[i].name, len) && p[len] == ':') {
			*fields = p + len + 1;
			return (int)events[i].kind;
		}
	}
	return -1;
}

/*
 * "812.345678" ending just before @end (at "': "): seconds and up to nine
 * decimals, into nanoseconds. -EINVAL if it is not such a number.
 */
static int parse_ts(const char *line, const char *end, uint64_t *ns)
{
	const char *s = end, *dot = NULL;
	uint64_t sec = 0, frac = 0;
	int digits = 0;

	while (s > line && (is_digit(s[-1]) || s[-1] == '.')) {
		s--;
		if (*s == '.') {
			if (dot)
				return -EINVAL;
			dot = s;
		}
	}
	if (!dot || dot == s || dot + 1 == end)
		return -EINVAL;
	for (; s < dot; s++)
		sec = sec * 10 + (uint64_t)(*s - '0');
	for (s = dot + 1; s < end; s++)
		if (digits < 9) {
			frac = frac * 10 + (uint64_t)(*s - '0');
			digits++;
		}
	for (; digits < 9; digits++)
		frac *= 10;
	*ns = sec * 1000000000ull + frac;
	return 0;
}

/* Split "a=1 b=x  c=0x2" into key/value pairs; returns how many. */
static int split_fields(const char *s, struct field *f, int max)
{
	int n = 0;

	for (;;) {
		const char *eq;

		while (*s == ' ' || *s == '\t')
			s++;
		if (!*s || *s == '\n' || *s == '\r' || n == max)
			return n;
		eq = s;
		while (*eq && *eq != '=' && *eq != ' ' && *eq != '\n')
			eq++;
		if (*eq != '=')
			return -EINVAL;
		f[n].key = s;
		f[n].key_len = (size_t)(eq - s);
		f[n].val = eq + 1;
		s = eq + 1;
		while (*s && *s != ' ' && *s != '\t' && *s != '\n' &&
		       *s != '\r')
			s++;
		f[n].val_len = (size_t)(s - f[n].val);
		n++;
	}
}

static const struct field *find(const struct field *f, int n, const char *key)
{
	size_t len = strlen(key);
	int i;

	for (i = 0; i < n; i++)
		if (f[i].key_len == len && !strncmp(f[i].key, key, len))
			return &f[i];
	return NULL;
}

/* A whole-field integer (decimal, or 0x hex); -EINVAL otherwise. */
static int get_int(const struct field *f, int n, const char *key, bool sign,
		   uint64_t *val)
{
	const struct field *x = find(f, n, key);
	char buf[32], *end;

	if (!x || !x->val_len || x->val_len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, x->val, x->val_len);
	buf[x->val_len] = '\0';
	errno = 0;
	if (sign)
		*val = (uint64_t)strtoll(buf, &end, 0);
	else if (buf[0] == '-')
		return -EINVAL;
	else
		*val = strtoull(buf, &end, 0);
	return errno || *end ? -EINVAL : 0;
}

static int get_u32(const struct field *f, int n, const char *key,
		   uint32_t *val)
{
	uint64_t v;
	int ret = get_int(f, n, key, false, &v);

	if (!ret && v > UINT32_MAX)
		ret = -EINVAL;
	*val = (uint32_t)v;
	return ret;
}

/* "exec", or "0x11" as __print_symbolic prints an unknown value. */
static int get_cmd(const struct field *f, int n, uint32_t *cmd)
{
	const struct field *x = find(f, n, "cmd");
	uint32_t i;

	if (!x)
		return -EINVAL;
	for (i = 0; i < sizeof(cmd_names) / sizeof(*cmd_names); i++)
		if (strlen(cmd_names[i]) == x->val_len &&
		    !strncmp(cmd_names[i], x->val, x->val_len)) {
			*cmd = 0x10 + i;
			return 0;
		}
	return get_u32(f, n, "cmd", cmd);
}

static int get_phase(const struct field *f, int n, enum pwtrace_phase *phase)
{
	const struct field *x = find(f, n, "phase");
	uint32_t i;

	if (!x)
		return -EINVAL;
	for (i = 0; i < sizeof(phase_names) / sizeof(*phase_names); i++)
		if (strlen(phase_names[i]) == x->val_len &&
		    !strncmp(phase_names[i], x->val, x->val_len)) {
			*phase = (enum pwtrace_phase)i;
			return 0;
		}
	return -EINVAL;
}

static int parse_fields(const char *s, struct pwtrace_rec *r)
{
	struct field f[MAX_FIELDS];
	int n = split_fields(s, f, MAX_FIELDS);
	uint64_t v = 0;

	if (n < 0 || get_u32(f, n, "dev", &r->dev))
		return -EINVAL;
	switch (r->kind) {
	case PWTRACE_SUBMIT:
	case PWTRACE_START:
		return get_int(f, n, "id", false, &r->id) ||
		       get_cmd(f, n, &r->cmd) ? -EINVAL : 0;
	case PWTRACE_COMPLETE:
		if (get_int(f, n, "id", false, &r->id) ||
		    get_cmd(f, n, &r->cmd) ||
		    get_int(f, n, "result", true, &v) ||
		    get_int(f, n, "queue_ns", false, &r->queue_ns) ||
		    get_int(f, n, "exec_ns", false, &r->exec_ns))
			return -EINVAL;
		r->result = (int32_t)v;
		return 0;
	case PWTRACE_LINK:
		return get_u32(f, n, "to", &r->to) ||
		       get_int(f, n, "bytes", false, &r->bytes) ||
		       get_int(f, n, "model_ns", false, &r->model_ns) ?
		       -EINVAL : 0;
	case PWTRACE_COLL:
		if (get_int(f, n, "gang", false, &r->gang) ||
		    get_u32(f, n, "seq", &r->seq) ||
		    get_u32(f, n, "op", &r->op) ||
		    get_phase(f, n, &r->phase) ||
		    get_int(f, n, "arg", true, &v))
			return -EINVAL;
		r->result = (int32_t)v;
		return 0;
	}
	return -EINVAL;
}

int pwtrace_parse_line(const char *line, struct pwtrace_rec *rec)
{
	const char *p = line, *fields = NULL;
	int kind = -1;

	while ((p = strstr(p, "pwtpu"))) {
		kind = match_event(line, p, &fields);
		if (kind >= 0)
			break;
		p++;
	}
	if (kind < 0)
		return 0;
	memset(rec, 0, sizeof(*rec));
	rec->kind = (enum pwtrace_kind)kind;
	if (parse_ts(line, p - 2, &rec->ts_ns))
		return -EINVAL;
	return parse_fields(fields, rec) ? -EINVAL : 1;
}

/*
 * Every line of @in into @c; pwtpu event lines that do not parse are
 * counted in *@bad_lines.
 */
int pwtrace_read(FILE *in, struct pwtrace_conv *c, uint32_t island,
		 uint64_t *bad_lines)
{
	struct pwtrace_rec rec;
	size_t cap = 0;
	char *line = NULL;
	int ret = 0;

	c->island = island;
	while (!ret && getline(&line, &cap, in) >= 0) {
		int got = pwtrace_parse_line(line, &rec);

		if (got < 0)
			(*bad_lines)++;
		else if (got > 0)
			ret = pwtrace_conv_add(c, &rec);
	}
	free(line);
	if (!ret && ferror(in))
		ret = -EIO;
	return ret ? ret : pwtrace_conv_finish(c);
}
