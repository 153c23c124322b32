// SPDX-License-Identifier: GPL-2.0
/*
 * pwfw_spec.c - device specs: defaults, "key=value,..." parsing and the
 * canonical text form. See docs/firmware.md for the keys.
 */
#include "pwfw.h"
#include "pwfw_fmt.h"

/**
 * struct spec_key - one field of struct pwfw_spec as text
 * @name: key, the field's name.
 * @offset: the field's offset in struct pwfw_spec.
 * @min: smallest accepted value.
 * @max: largest accepted value.
 */
struct spec_key {
	const char *name;
	u32 offset;
	u32 min;
	u32 max;
};

#define SPEC_KEY(field, lo, hi) \
	{ #field, __builtin_offsetof(struct pwfw_spec, field), lo, hi }

/*
 * In the order of struct pwfw_spec, which is also the canonical order.
 * Rates must not be 0 (the timing model divides by them); the fixed
 * costs may be, for an idealised device.
 */
static const struct spec_key spec_keys[] = {
	SPEC_KEY(array_dim, 8, 1024),
	SPEC_KEY(clock_mhz, 1, 0xffffffffU),
	SPEC_KEY(hbm_mbps, 1, 0xffffffffU),
	SPEC_KEY(host_mbps, 1, 0xffffffffU),
	SPEC_KEY(ici_mbps, 1, 0xffffffffU),
	SPEC_KEY(vector_lanes, 1, 0xffffffffU),
	SPEC_KEY(host_latency_ns, 0, 0xffffffffU),
	SPEC_KEY(insn_overhead_ns, 0, 0xffffffffU),
	SPEC_KEY(ici_latency_ns, 0, 0xffffffffU),
	{ 0 }
};

/* Roughly one TPU v4 TensorCore; docs/firmware.md says where from. */
void pwfw_spec_default(struct pwfw_spec *spec)
{
	spec->array_dim = 128;
	spec->clock_mhz = 1050;
	spec->hbm_mbps = 1200000;
	spec->host_mbps = 16000;
	spec->ici_mbps = 45000;
	spec->vector_lanes = 1024;
	spec->host_latency_ns = 1000;
	spec->insn_overhead_ns = 50;
	spec->ici_latency_ns = 1000;
}

static u32 *spec_field(struct pwfw_spec *spec, const struct spec_key *key)
{
	return (u32 *)((char *)spec + key->offset);
}

static u32 spec_get(const struct pwfw_spec *spec, const struct spec_key *key)
{
	return *(const u32 *)((const char *)spec + key->offset);
}

static u32 span(const char *s, char stop)
{
	u32 n = 0;

	while (s[n] && s[n] != stop && s[n] != ',')
		n++;
	return n;
}

static const struct spec_key *find_key(const char *name, u32 len)
{
	const struct spec_key *key;
	u32 j;

	for (key = spec_keys; key->name; key++) {
		for (j = 0; j < len && key->name[j] == name[j]; j++)
			;
		if (j == len && !key->name[len])
			return key;
	}
	return NULL;
}

/* "spec <key>=<value> " with the input's own text, for messages. */
static void fmt_item(struct pwfw_fmt *f, const char *key, u32 klen,
		     const char *val, u32 vlen)
{
	pwfw_fmt_str(f, "spec ");
	pwfw_fmt_strn(f, key, klen);
	pwfw_fmt_char(f, '=');
	pwfw_fmt_strn(f, val, vlen);
	pwfw_fmt_char(f, ' ');
}

/* One "key=value" of @len characters at @item into @spec. */
static int parse_item(struct pwfw_spec *spec, u32 *seen, const char *item,
		      u32 len, struct pwfw_fmt *f)
{
	const struct spec_key *key;
	u32 klen = span(item, '=');
	const char *val = item + klen + 1;
	u32 vlen, i, bit;
	u64 v = 0;

	if (klen == len) {
		pwfw_fmt_str(f, "spec item '");
		pwfw_fmt_strn(f, item, len);
		pwfw_fmt_str(f, "' is not key=value");
		return -PWFW_EINVAL;
	}
	key = find_key(item, klen);
	if (!key) {
		pwfw_fmt_str(f, "unknown spec key '");
		pwfw_fmt_strn(f, item, klen);
		pwfw_fmt_char(f, '\'');
		return -PWFW_EINVAL;
	}
	vlen = len - klen - 1;
	if (!vlen) {
		pwfw_fmt_str(f, "spec key ");
		pwfw_fmt_str(f, key->name);
		pwfw_fmt_str(f, " has an empty value");
		return -PWFW_EINVAL;
	}
	for (i = 0; i < vlen; i++) {
		if (val[i] < '0' || val[i] > '9') {
			fmt_item(f, item, klen, val, vlen);
			pwfw_fmt_str(f, "is not a decimal number");
			return -PWFW_EINVAL;
		}
		/* Past the maximum the value only needs to stay past it. */
		if (v <= key->max)
			v = v * 10 + (u64)(val[i] - '0');
	}
	if (v < key->min || v > key->max) {
		fmt_item(f, item, klen, val, vlen);
		pwfw_fmt_str(f, "is outside ");
		pwfw_fmt_u64(f, key->min);
		pwfw_fmt_str(f, "..");
		pwfw_fmt_u64(f, key->max);
		return -PWFW_EINVAL;
	}
	bit = 1U << (u32)(key - spec_keys);
	if (*seen & bit) {
		pwfw_fmt_str(f, "spec key ");
		pwfw_fmt_str(f, key->name);
		pwfw_fmt_str(f, " is given twice");
		return -PWFW_EINVAL;
	}
	*seen |= bit;
	*spec_field(spec, key) = (u32)v;
	return 0;
}

int pwfw_spec_parse(struct pwfw_spec *spec, const char *str,
		    char *err, u32 errlen)
{
	struct pwfw_spec parsed;
	struct pwfw_fmt f;
	u32 seen = 0;
	const char *p = str;
	int ret;

	pwfw_fmt_init(&f, err, errlen);
	pwfw_spec_default(&parsed);
	while (p && *p) {
		u32 len = span(p, ',');

		if (!len) {
			pwfw_fmt_str(&f, "spec has an empty item");
			return -PWFW_EINVAL;
		}
		ret = parse_item(&parsed, &seen, p, len, &f);
		if (ret)
			return ret;
		p += len;
		if (*p == ',' && !*++p) {
			pwfw_fmt_str(&f, "spec ends with ','");
			return -PWFW_EINVAL;
		}
	}
	/* Only a fully valid spec replaces the caller's. */
	*spec = parsed;
	return 0;
}

u32 pwfw_spec_format(const struct pwfw_spec *spec, char *buf, u32 len)
{
	const struct spec_key *key;
	struct pwfw_fmt f;

	pwfw_fmt_init(&f, buf, len);
	for (key = spec_keys; key->name; key++) {
		if (key != spec_keys)
			pwfw_fmt_char(&f, ',');
		pwfw_fmt_str(&f, key->name);
		pwfw_fmt_char(&f, '=');
		pwfw_fmt_u64(&f, spec_get(spec, key));
	}
	return f.len;
}
