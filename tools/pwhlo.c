// SPDX-License-Identifier: GPL-2.0
/*
 * pwhlo - run the StableHLO test suite's programs on a device and check
 * their assertions (docs/stablehlo.md, "Running the test suite's
 * programs: pwhlo").
 *
 *   pwhlo run [-q] [--connect IP:PORT] FILE|DIR...
 *
 * Each file is read, its @main lowered with its @check.* calls kept as
 * extra results, run once on a slice of one device, and each check
 * evaluated on the host with the reference interpreter's rules
 * (pwhlo_check.c). One line a file: PASS, FAIL (the first check that
 * does not hold), UNSUPPORTED (what the lowering does not do yet) or
 * ERROR (a file that is not a valid module, or a device that failed);
 * then "N passed, N failed, N unsupported, N errors".
 */
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <pathways/pathways.h>

#include "../runtime/hlo/hlo.h"
#include "../runtime/hlo/hlo_lower.h"
#include "pwhlo_check.h"

#define MSG_MAX		1024
/*
 * A client keeps every function it has called, on the host and loaded
 * on its devices, until it disconnects: a new client every so many runs
 * keeps a run over the whole corpus in bounded memory and HBM.
 */
#define RUNS_PER_CLIENT	64

enum outcome { PWHLO_PASS, PWHLO_FAIL, PWHLO_UNSUPPORTED, PWHLO_ERROR };

/*
 * One run: a client and a 1-device slice shared by the files, made at
 * the first file that needs a device (a run of nothing but unsupported
 * files needs none) and made again after RUNS_PER_CLIENT runs. A
 * connection that failed is not tried again: each file after it gets
 * the same error.
 */
struct runner {
	struct pw_connect_opts opts;
	struct pw_client *client;
	struct pw_slice *slice;
	unsigned int runs;
	int connect_err;
	char connect_msg[MSG_MAX];
	bool quiet;
	unsigned int count[4];
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: pwhlo run [-q] [--connect IP:PORT] FILE|DIR...\n"
		"       pwhlo --help\n"
		"Run StableHLO modules (the MLIR text of the StableHLO test\n"
		"suite's programs) on a device and check their @check.*\n"
		"assertions. A DIR runs each *.mlir in it, sorted by name.\n"
		"One line a file, PASS, FAIL, UNSUPPORTED or ERROR, then\n"
		"\"N passed, N failed, N unsupported, N errors\"; the exit\n"
		"status is 0 when nothing failed and nothing was an error.\n"
		"  -q         print only the lines that are not PASS, and the\n"
		"             summary\n"
		"  --connect  the pathwaysd controller IP:PORT (default:\n"
		"             PATHWAYS_CONTROLLER, or this process's own runtime\n"
		"             over this host's devices)\n");
}

/* Print one file's outcome, on one line whatever @msg holds. */
static void report(struct runner *r, enum outcome o, const char *path,
		   const char *msg)
{
	static const char *const names[] = { "PASS", "FAIL", "UNSUPPORTED",
					     "ERROR" };
	const char *c;

	r->count[o]++;
	if (o == PWHLO_PASS && r->quiet)
		return;
	printf("%s %s", names[o], path);
	if (msg && *msg) {
		fputs(": ", stdout);
		for (c = msg; *c; c++)
			putchar(*c == '\n' ? ' ' : *c);
	}
	putchar('\n');
}

/*
 * Whether the test suite leaves the file out of its interpreter's runs:
 * a "// RUN-DISABLED(why): ... --interpret" line among its leading
 * comments and no "// RUN: ... --interpret" (their expected values are
 * known not to hold there: NaNs compared by value, inaccurate results).
 * @why gets "RUN-DISABLED(why)".
 */
static bool interpret_disabled(const char *path, char *why, size_t len)
{
	bool disabled = false, enabled = false;
	char line[512];
	FILE *f = fopen(path, "r");

	if (!f)
		return false;	/* the reader says why */
	while (fgets(line, sizeof(line), f) && !strncmp(line, "//", 2)) {
		if (!strstr(line, "--interpret"))
			continue;
		if (!strncmp(line, "// RUN:", 7)) {
			enabled = true;
		} else if (!strncmp(line, "// RUN-DISABLED", 15)) {
			const char *tag = line + 3;
			size_t n = tag[12] == '(' ? strcspn(tag, ")") + 1 :
				   strcspn(tag, ": ");

			disabled = true;
			snprintf(why, len, "%.*s", (int)n, tag);
		}
	}
	fclose(f);
	return disabled && !enabled;
}

/* The reader's message without the path it starts with. */
static const char *without_path(const char *msg, const char *path)
{
	size_t n = strlen(path);

	if (!strncmp(msg, path, n) && msg[n] == ':')
		return msg + n + 1 + (msg[n + 1] == ' ');
	return msg;
}

/* The shared client and slice, or -errno with why in @msg. */
static int device(struct runner *r, char *msg, size_t len)
{
	struct pw_vset *vs;
	int ret;

	if (r->slice && r->runs == RUNS_PER_CLIENT) {
		/* Disconnecting frees the slice, its set and the functions. */
		pw_disconnect(r->client);
		r->client = NULL;
		r->slice = NULL;
	}
	if (r->slice) {
		r->runs++;
		return 0;
	}
	if (r->connect_err) {
		snprintf(msg, len, "%s", r->connect_msg);
		return r->connect_err;
	}
	ret = pw_connect(&r->opts, &r->client);
	if (!ret)
		ret = pw_make_virtual_device_set(r->client, &vs);
	if (!ret)
		ret = pw_add_slice(vs, 1, NULL, &r->slice);
	if (ret) {
		snprintf(r->connect_msg, sizeof(r->connect_msg),
			 "no device to run on: %s", pw_last_error());
		r->connect_err = ret;
		snprintf(msg, len, "%s", r->connect_msg);
	}
	r->runs = 1;
	return ret;
}

/*
 * Evaluate @low's checks on the function's results @host (@bytes each):
 * PASS, FAIL or ERROR, with why in @msg.
 */
static enum outcome eval_checks(const struct pw_hlo_lowered *low,
				unsigned int nres, void *const *host,
				const size_t *bytes, char *msg, size_t len)
{
	char why[MSG_MAX / 2];
	unsigned int i;
	size_t size;
	int ret;

	for (i = 0; i < low->nchecks; i++) {
		const struct pw_hlo_check *c = &low->checks[i];
		enum pw_hlo_dtype dt;

		if (c->actual >= nres || c->expected >= nres) {
			snprintf(msg, len, "line %u: %s: results %u and %u of "
				 "%u", c->line, pwhlo_check_name(c->kind),
				 c->actual, c->expected, nres);
			return PWHLO_ERROR;
		}
		dt = low->dtypes[c->actual];
		size = pw_hlo_dtype_size(dt);
		if (dt != low->dtypes[c->expected] || !size ||
		    bytes[c->actual] != bytes[c->expected] ||
		    bytes[c->actual] % size) {
			snprintf(msg, len, "line %u: %s: operands of %zu bytes "
				 "of %s and %zu bytes of %s", c->line,
				 pwhlo_check_name(c->kind), bytes[c->actual],
				 pw_hlo_dtype_name(dt), bytes[c->expected],
				 pw_hlo_dtype_name(low->dtypes[c->expected]));
			return PWHLO_ERROR;
		}
		ret = pwhlo_check_eval(c->kind, dt, host[c->actual],
				       host[c->expected],
				       bytes[c->actual] / size, why,
				       sizeof(why));
		if (ret != 1) {
			snprintf(msg, len, "line %u: %s", c->line, why);
			return ret ? PWHLO_ERROR : PWHLO_FAIL;
		}
	}
	return PWHLO_PASS;
}

/* Run @low's function once on the slice and check its results. */
static enum outcome run_lowered(struct runner *r,
				const struct pw_hlo_lowered *low, char *msg,
				size_t len)
{
	unsigned int nres = pw_fn_num_results(low->fn), i;
	struct pw_buffer **out = calloc(nres + 1, sizeof(*out));
	void **host = calloc(nres + 1, sizeof(*host));
	size_t *bytes = calloc(nres + 1, sizeof(*bytes));
	enum outcome o = PWHLO_ERROR;

	if (!out || !host || !bytes) {
		snprintf(msg, len, "out of memory for %u results", nres);
		goto out;
	}
	if (device(r, msg, len))
		goto out;
	if (pw_call(r->client, low->fn, r->slice, NULL, 0, out, nres)) {
		snprintf(msg, len, "%s", pw_last_error());
		goto out;
	}
	for (i = 0; i < nres; i++) {
		bytes[i] = pw_buffer_shard_bytes(out[i]) *
			   pw_buffer_num_shards(out[i]);
		host[i] = malloc(bytes[i] ? bytes[i] : 1);
		if (!host[i]) {
			snprintf(msg, len, "out of memory for result %u (%zu "
				 "bytes)", i, bytes[i]);
			goto out;
		}
		if (pw_buffer_to_host(out[i], host[i], bytes[i])) {
			snprintf(msg, len, "%s", pw_last_error());
			goto out;
		}
	}
	o = eval_checks(low, nres, host, bytes, msg, len);
out:
	for (i = 0; out && host && i < nres; i++) {
		pw_buffer_put(out[i]);
		free(host[i]);
	}
	free(out);
	free(host);
	free(bytes);
	return o;
}

static enum outcome run_file(struct runner *r, const char *path, char *msg,
			     size_t len)
{
	struct pw_hlo_lowered low = { 0 };
	struct pw_hlo_module *mod = NULL;
	char err[MSG_MAX], tag[64];
	enum outcome o;
	int ret;

	if (interpret_disabled(path, tag, sizeof(tag))) {
		snprintf(msg, len, "the test suite does not interpret it (%s)",
			 tag);
		return PWHLO_UNSUPPORTED;
	}
	ret = pw_hlo_parse_file(path, &mod, err, sizeof(err));
	if (ret) {
		snprintf(msg, len, "%s", without_path(err, path));
		return PWHLO_ERROR;
	}
	ret = pw_hlo_lower(mod, NULL, true, &low, err, sizeof(err));
	if (ret) {
		snprintf(msg, len, "%s", err);
		/* Past a device program's limits is not supported either. */
		o = ret == -EOPNOTSUPP || ret == -E2BIG ? PWHLO_UNSUPPORTED :
							  PWHLO_ERROR;
	} else if (pw_fn_num_params(low.fn)) {
		unsigned int n = pw_fn_num_params(low.fn);

		snprintf(msg, len, "@main takes %u argument%s; pwhlo runs "
			 "self-contained modules", n, n == 1 ? "" : "s");
		o = PWHLO_UNSUPPORTED;
	} else {
		o = run_lowered(r, &low, msg, len);
	}
	pw_hlo_lowered_free(&low);
	pw_hlo_free(mod);
	return o;
}

static void run_one(struct runner *r, const char *path)
{
	char msg[MSG_MAX] = "";
	enum outcome o = run_file(r, path, msg, sizeof(msg));

	report(r, o, path, msg);
}

static int is_mlir(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 5 && !strcmp(d->d_name + n - 5, ".mlir");
}

/* Each *.mlir of @dir, sorted by name. */
static void run_dir(struct runner *r, const char *dir)
{
	size_t dlen = strlen(dir);
	bool slash = dlen && dir[dlen - 1] == '/';
	struct dirent **names;
	char *path;
	int n, i;

	n = scandir(dir, &names, is_mlir, alphasort);
	if (n < 0) {
		report(r, PWHLO_ERROR, dir, strerror(errno));
		return;
	}
	for (i = 0; i < n; i++) {
		if (asprintf(&path, "%s%s%s", dir, slash ? "" : "/",
			     names[i]->d_name) < 0) {
			report(r, PWHLO_ERROR, names[i]->d_name,
			       "out of memory");
		} else {
			run_one(r, path);
			free(path);
		}
		free(names[i]);
	}
	free(names);
}

int main(int argc, char **argv)
{
	struct runner r = { .opts = { .name = "pwhlo" } };
	int i;
	struct stat st;

	if (argc == 2 && (!strcmp(argv[1], "--help") ||
			  !strcmp(argv[1], "-h"))) {
		usage(stdout);
		return 0;
	}
	if (argc < 2 || strcmp(argv[1], "run")) {
		usage(stderr);
		return 2;
	}
	for (i = 2; i < argc && argv[i][0] == '-'; i++) {
		if (!strcmp(argv[i], "-q")) {
			r.quiet = true;
		} else if (!strcmp(argv[i], "--connect") && i + 1 < argc) {
			r.opts.address = argv[++i];
		} else if (!strcmp(argv[i], "--help")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--")) {
			i++;
			break;
		} else {
			fprintf(stderr, "pwhlo: unknown option '%s'\n",
				argv[i]);
			usage(stderr);
			return 2;
		}
	}
	if (i == argc) {
		fprintf(stderr, "pwhlo: no FILE to run\n");
		usage(stderr);
		return 2;
	}
	/* One line a file as it ends, even into a pipe. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (; i < argc; i++) {
		if (!stat(argv[i], &st) && S_ISDIR(st.st_mode))
			run_dir(&r, argv[i]);
		else
			run_one(&r, argv[i]);
	}
	/* Disconnecting frees the slice, its set and any buffer left. */
	pw_disconnect(r.client);
	printf("%u passed, %u failed, %u unsupported, %u errors\n",
	       r.count[PWHLO_PASS], r.count[PWHLO_FAIL],
	       r.count[PWHLO_UNSUPPORTED], r.count[PWHLO_ERROR]);
	return r.count[PWHLO_FAIL] || r.count[PWHLO_ERROR] ? 1 : 0;
}
