/* SPDX-License-Identifier: GPL-2.0 */
/*
 * local.h - pathwaysd's controller and worker roles inside this process
 * (runtime/dcn/local.c), for clients that connect with no address.
 */
#ifndef PW_RUNTIME_DCN_LOCAL_H
#define PW_RUNTIME_DCN_LOCAL_H

#include <netinet/in.h>

#include "../net/auth.h"

/*
 * Start the in-process controller and worker unless up, and count a
 * user: 0 with the controller's in-process address and the key its
 * nodes use (random, made at start: nothing leaves the process), or
 * -errno with a message (-EBUSY: another process drives the island).
 */
int pw_local_get(struct sockaddr_in *ctl_addr, struct pw_auth_key *key);
/* A user leaves; the last one stops both roles. */
void pw_local_put(void);

#endif /* PW_RUNTIME_DCN_LOCAL_H */
