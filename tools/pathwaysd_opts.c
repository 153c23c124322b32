// SPDX-License-Identifier: GPL-2.0
/*
 * pathwaysd_opts.c - pathwaysd's options (tools/pathwaysd.c runs the
 * roles). The command line and --config files set one struct
 * pathwaysd_opts; pathwaysd_check() then tests everything a role needs
 * before anything starts, so that a daemon refuses a bad configuration
 * at once, naming what is wrong, and --check-config can say so without
 * starting one.
 *
 * A configuration file holds "option value" lines of the long options,
 * "#" comments and blank lines. Lines after "[controller]", "[worker]"
 * or "[status]" apply only to that role (the one --role gave on the
 * command line, or an earlier line of the file), so that one file,
 * /etc/pathways/pathwaysd.conf, serves every role of a host. The command
 * line's options apply in their order, a --config file's lines where it
 * appears.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "../runtime/net/auth.h"
#include "../runtime/net/transport_name.h"
#include "pathwaysd_opts.h"

void pathwaysd_usage(FILE *f)
{
	fprintf(f,
		"usage: pathwaysd --role controller --listen IP:PORT [--heartbeat-ms N] [--down-ms N]\n"
		"                 [--client-timeout-ms N] [--sched fifo|share] [--window N]\n"
		"                 [--weight NAME=W]...\n"
		"       pathwaysd --role worker --listen IP:PORT --controller IP:PORT --host-id N\n"
		"                 [--data-port N] [--data auto|rdma|tcp]\n"
		"                 [--devices kernel|sim:MESH[,hbm_mib=N][,timing=native|modeled|skip]\n"
		"                            [,trace=FILE]]\n"
		"                 [--down-ms N]  wait for the controller's first answer (1000)\n"
		"       pathwaysd --role status --controller IP:PORT [--listen IP:PORT]\n"
		"  --transport %s  control-plane datagrams (default udp); dpdk polls\n"
		"                  the interface holding the --listen address\n"
		"  --interface IF  the DPDK transport's interface instead\n"
		"  --run-for SECONDS  stop after this long (default: until SIGTERM)\n"
		"  --key FILE      the cluster key (default: $PATHWAYS_KEY_FILE, else\n"
		"                  " PW_AUTH_KEY_FILE ")\n"
		"  --config FILE   options from FILE, one \"option value\" a line;\n"
		"                  [controller], [worker] or [status] start lines\n"
		"                  for that role only\n"
		"  --check-config  check the options and the key, say what is wrong\n"
		"                  or that all is well, and exit\n"
		"       pathwaysd --gen-key FILE   write a new cluster key (mode 0600)\n",
		PW_TRANSPORT_NAMES);
}

static const struct option longopts[] = {
	{ "role", required_argument, NULL, 'r' },
	{ "listen", required_argument, NULL, 'l' },
	{ "controller", required_argument, NULL, 'c' },
	{ "host-id", required_argument, NULL, 'i' },
	{ "heartbeat-ms", required_argument, NULL, 'b' },
	{ "down-ms", required_argument, NULL, 'd' },
	{ "client-timeout-ms", required_argument, NULL, 'T' },
	{ "data-port", required_argument, NULL, 'p' },
	{ "data", required_argument, NULL, 'D' },
	{ "devices", required_argument, NULL, 'V' },
	{ "run-for", required_argument, NULL, 't' },
	{ "sched", required_argument, NULL, 's' },
	{ "window", required_argument, NULL, 'w' },
	{ "weight", required_argument, NULL, 'W' },
	{ "config", required_argument, NULL, 'C' },
	{ "transport", required_argument, NULL, 'x' },
	{ "interface", required_argument, NULL, 'I' },
	{ "key", required_argument, NULL, 'k' },
	{ "gen-key", required_argument, NULL, 'g' },
	{ "check-config", no_argument, NULL, 'K' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* @arg as a whole number in min..max into *@out, or -EINVAL, said. */
static int number(const char *name, const char *arg, long min, long max,
		  long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(arg, &end, 10);
	if (end == arg || *end || errno || v < min || v > max) {
		fprintf(stderr, "pathwaysd: --%s %s: want %ld..%ld\n", name, arg,
			min, max);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

static int unumber(const char *name, const char *arg, long min, long max,
		   unsigned int *out)
{
	long v;
	int ret = number(name, arg, min, max, &v);

	if (!ret)
		*out = (unsigned int)v;
	return ret;
}

/* A copy of @arg into *@to: a configuration file's line does not last. */
static int keep(char **to, const char *arg)
{
	char *s = strdup(arg);

	if (!s)
		return -ENOMEM;
	free(*to);
	*to = s;
	return 0;
}

/* "NAME=W" into the weights of the controller's configuration. */
static int add_weight(struct pw_ctl_share_cfg *cfg, const char *arg)
{
	const char *eq = strchr(arg, '=');
	struct pw_ctl_weight *w;
	char *end;
	long v;

	if (!eq || eq == arg || (size_t)(eq - arg) >= sizeof(w->name)) {
		fprintf(stderr, "pathwaysd: --weight %s: want NAME=W, a name of 1..%zu characters\n",
			arg, sizeof(w->name) - 1);
		return -EINVAL;
	}
	v = strtol(eq + 1, &end, 10);
	if (*end || end == eq + 1 || v < 1 || v > PW_WIRE_MAX_WEIGHT) {
		fprintf(stderr, "pathwaysd: --weight %s: the weight must be 1..%u\n",
			arg, PW_WIRE_MAX_WEIGHT);
		return -EINVAL;
	}
	if (cfg->nweights == PW_CTL_MAX_WEIGHTS) {
		fprintf(stderr, "pathwaysd: --weight %s: at most %u weights\n",
			arg, PW_CTL_MAX_WEIGHTS);
		return -EINVAL;
	}
	w = &cfg->weights[cfg->nweights++];
	memcpy(w->name, arg, (size_t)(eq - arg));
	w->weight = (unsigned int)v;
	return 0;
}

static int read_config(struct pathwaysd_opts *o, const char *path);

/* Option @c (of longopts) with @arg, from the command line or a file. */
static int set_opt(struct pathwaysd_opts *o, int c, const char *arg)
{
	switch (c) {
	case 'r': return keep(&o->role, arg);
	case 'l':
		if (pw_parse_addr(arg, &o->listen_at))
			goto bad_addr;
		o->have_listen = true;
		break;
	case 'c':
		if (pw_parse_addr(arg, &o->controller))
			goto bad_addr;
		o->have_controller = true;
		break;
	case 'i': return number("host-id", arg, 0, PW_MAX_HOSTS - 1,
				&o->host_id);
	case 'b': return unumber("heartbeat-ms", arg, 1, 3600000,
				 &o->heartbeat_ms);
	case 'd': return unumber("down-ms", arg, 1, 3600000, &o->down_ms);
	case 'T': return unumber("client-timeout-ms", arg, 1, 86400000,
				 &o->client_timeout_ms);
	case 'p': return unumber("data-port", arg, 1, 65535, &o->data_port);
	case 'D':
		if (!strcmp(arg, "auto")) {
			o->data_mode = PW_DP_AUTO;
		} else if (!strcmp(arg, "rdma")) {
			o->data_mode = PW_DP_RDMA;
		} else if (!strcmp(arg, "tcp")) {
			o->data_mode = PW_DP_TCP;
		} else {
			fprintf(stderr, "pathwaysd: --data %s: want auto, rdma or tcp\n",
				arg);
			return -EINVAL;
		}
		break;
	case 'V': {
		char err[160];

		if (pw_wdev_parse(arg, &o->sim, &o->is_sim, err, sizeof(err))) {
			fprintf(stderr, "pathwaysd: --devices %s\n", err);
			return -EINVAL;
		}
		break;
	}
	case 't': {
		char *end;

		o->run_for = strtod(arg, &end);
		/* A year at most: seconds become nanoseconds in a u64. */
		if (end == arg || *end || !(o->run_for >= 0) ||
		    o->run_for > 31536000) {
			fprintf(stderr, "pathwaysd: --run-for %s: want 0..31536000 seconds\n",
				arg);
			return -EINVAL;
		}
		break;
	}
	case 's':
		if (!strcmp(arg, "fifo")) {
			o->share.policy = PW_WIRE_SCHED_FIFO;
		} else if (!strcmp(arg, "share")) {
			o->share.policy = PW_WIRE_SCHED_SHARE;
		} else {
			fprintf(stderr, "pathwaysd: --sched %s: want fifo or share\n",
				arg);
			return -EINVAL;
		}
		break;
	case 'w': return unumber("window", arg, 1, PW_WIRE_MAX_SHARE_WINDOW,
				 &o->share.window);
	case 'W': return add_weight(&o->share, arg);
	case 'x':
		if (strcmp(arg, "udp") && strcmp(arg, "dpdk")) {
			fprintf(stderr, "pathwaysd: --transport %s: want udp or dpdk\n",
				arg);
			return -EINVAL;
		}
		strcpy(o->transport, arg);
		break;
	case 'I':
		if (!arg[0] || strlen(arg) >= sizeof(o->ifname)) {
			fprintf(stderr, "pathwaysd: --interface %s: not an interface name\n",
				arg);
			return -EINVAL;
		}
		strcpy(o->ifname, arg);
		break;
	case 'C': return read_config(o, arg);
	case 'k': return keep(&o->key_path, arg);
	case 'g': return keep(&o->gen_key, arg);
	case 'K': o->check_only = true; break;
	default: return -EINVAL;
	}
	return 0;
bad_addr:
	fprintf(stderr, "pathwaysd: %s: want IPv4:PORT, e.g. 10.77.0.1:7700\n",
		arg);
	return -EINVAL;
}

static bool is_role(const char *s)
{
	return !strcmp(s, "controller") || !strcmp(s, "worker") ||
	       !strcmp(s, "status");
}

/* "[ROLE]" on @line: 1 and the role in @role, 0 for none, -EINVAL. */
static int section(const char *line, char *role, size_t size)
{
	const char *end;

	line += strspn(line, " \t");
	if (*line != '[')
		return 0;
	end = strchr(line, ']');
	if (!end || (size_t)(end - line - 1) >= size ||
	    end[1 + strspn(end + 1, " \t\r\n")])
		return -EINVAL;
	memcpy(role, line + 1, (size_t)(end - line - 1));
	role[end - line - 1] = '\0';
	return is_role(role) ? 1 : -EINVAL;
}

/* Lines "option value" (long option names), "#" comments, blank lines. */
static int read_config(struct pathwaysd_opts *o, const char *path)
{
	char line[256], name[64], value[192], extra[2], role[16] = "";
	unsigned int n = 0;
	FILE *f = fopen(path, "r");
	int ret = 0;

	if (!f) {
		fprintf(stderr, "pathwaysd: --config %s: %s\n", path,
			strerror(errno));
		return -errno;
	}
	while (!ret && fgets(line, sizeof(line), f)) {
		const struct option *opt;
		char *hash = strchr(line, '#');
		int k;

		n++;
		if (!strchr(line, '\n') && !feof(f)) {
			fprintf(stderr, "pathwaysd: %s:%u: longer than %zu characters\n",
				path, n, sizeof(line) - 2);
			ret = -EINVAL;
			break;
		}
		if (hash)
			*hash = 0;
		k = section(line, role, sizeof(role));
		if (k < 0) {
			fprintf(stderr, "pathwaysd: %s:%u: want [controller], [worker] or [status]\n",
				path, n);
			ret = -EINVAL;
			break;
		}
		if (k)
			continue;
		k = sscanf(line, "%63s %191s %1s", name, value, extra);
		if (k <= 0)
			continue;
		if (k > 2 || strlen(value) == sizeof(value) - 1) {
			fprintf(stderr, "pathwaysd: %s:%u: want one value after %s\n",
				path, n, name);
			ret = -EINVAL;
			break;
		}
		for (opt = longopts; opt->name; opt++)
			if (!strcmp(opt->name, name))
				break;
		if (!opt->name || opt->val == 'C' || opt->val == 'h' ||
		    opt->val == 'K' || opt->val == 'g' || k != 2) {
			fprintf(stderr, "pathwaysd: %s:%u: want \"option value\" with a pathwaysd option (not %s)\n",
				path, n, name);
			ret = -EINVAL;
			break;
		}
		if (role[0] && opt->val == 'r') {
			fprintf(stderr, "pathwaysd: %s:%u: the role is not set inside a [%s] section\n",
				path, n, role);
			ret = -EINVAL;
			break;
		}
		/* Another role's section: not this daemon's. */
		if (role[0] && (!o->role || strcmp(role, o->role)))
			continue;
		ret = set_opt(o, opt->val, value);
		if (ret)
			fprintf(stderr, "pathwaysd: (from %s:%u)\n", path, n);
	}
	fclose(f);
	return ret;
}

int pathwaysd_parse(int argc, char **argv, struct pathwaysd_opts *o)
{
	int c;

	memset(o, 0, sizeof(*o));
	o->host_id = -1;
	strcpy(o->transport, "udp");
	/* The role first: a --config file's sections are chosen by it. */
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1)
		if (c == 'r' && keep(&o->role, optarg))
			return -ENOMEM;
	opterr = 1;
	optind = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		if (c == 'h') {
			pathwaysd_usage(stdout);
			exit(0);
		}
		if (c == '?' || set_opt(o, c, optarg)) {
			if (c == '?')
				pathwaysd_usage(stderr);
			return -EINVAL;
		}
	}
	if (o->gen_key && !o->role && optind == argc)
		return 0;
	if (!o->role || optind != argc) {
		pathwaysd_usage(stderr);
		return -EINVAL;
	}
	return 0;
}

static int bad(const char *what)
{
	fprintf(stderr, "pathwaysd: %s\n", what);
	return -EINVAL;
}

int pathwaysd_check(struct pathwaysd_opts *o)
{
	unsigned int hb = o->heartbeat_ms ? o->heartbeat_ms : PW_HEARTBEAT_MS;
	unsigned int down = o->down_ms ? o->down_ms : PW_DOWN_MS;
	bool dpdk = !strcmp(o->transport, "dpdk");
	char why[256];
	int ret;

	if (!is_role(o->role)) {
		fprintf(stderr, "pathwaysd: unknown role %s (controller, worker or status)\n",
			o->role);
		return -EINVAL;
	}
	if (o->ifname[0] && !dpdk)
		return bad("--interface is for --transport dpdk");
	if (dpdk && !o->listen_at.sin_addr.s_addr)
		return bad("--transport dpdk needs --listen with this host's address");
	if (!strcmp(o->role, "controller")) {
		if (pw_ctl_share_check(&o->share))
			return bad("the scheduling configuration is not valid (each --weight NAME once)");
		if (down <= hb)
			return bad("--down-ms must exceed --heartbeat-ms");
	} else if (!strcmp(o->role, "worker")) {
		if (!o->have_controller || o->host_id < 0)
			return bad("a worker needs --controller and --host-id");
	} else if (!o->have_controller) {
		return bad("status needs --controller");
	}
	ret = o->key_path ? pw_auth_key_load(&o->key, o->key_path, why,
					     sizeof(why)) :
			    pw_auth_key_default(&o->key, why, sizeof(why));
	if (ret) {
		fprintf(stderr, "pathwaysd: %s\n", why);
		return -ENOKEY;
	}
	return 0;
}

void pathwaysd_opts_free(struct pathwaysd_opts *o)
{
	free(o->role);
	free(o->key_path);
	free(o->gen_key);
	o->role = o->key_path = o->gen_key = NULL;
}
