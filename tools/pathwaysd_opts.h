/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pathwaysd_opts.h - pathwaysd's options: the command line, the
 * configuration file, and the check of both (--check-config).
 */
#ifndef PW_TOOLS_PATHWAYSD_OPTS_H
#define PW_TOOLS_PATHWAYSD_OPTS_H

#include <net/if.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>

#include "../runtime/dcn/roles.h"

struct pathwaysd_opts {
	char *role;
	struct sockaddr_in listen_at;
	struct sockaddr_in controller;
	bool have_listen, have_controller;
	long host_id;
	unsigned int heartbeat_ms, down_ms, data_port, client_timeout_ms;
	enum pw_dp_mode data_mode;
	struct pw_wdev_sim_cfg sim;
	bool is_sim;
	double run_for;
	struct pw_ctl_share_cfg share;
	char transport[8];
	char ifname[IF_NAMESIZE];
	char *key_path;
	char *gen_key;
	bool check_only;
	struct pw_auth_key key;
};

void pathwaysd_usage(FILE *f);
/*
 * The command line, with the --config files it names read where they
 * appear: 0, or -EINVAL having said what was wrong (or printed usage).
 */
int pathwaysd_parse(int argc, char **argv, struct pathwaysd_opts *o);
/*
 * Everything a role needs, checked before anything starts, and the
 * cluster key loaded: 0; -EINVAL for the configuration, -ENOKEY for a
 * key it cannot use; each having said what was wrong.
 */
int pathwaysd_check(struct pathwaysd_opts *o);
void pathwaysd_opts_free(struct pathwaysd_opts *o);

#endif /* PW_TOOLS_PATHWAYSD_OPTS_H */
