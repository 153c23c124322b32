/* SPDX-License-Identifier: GPL-2.0 */
/*
 * transport_name.h - a control-plane transport chosen by name, as a
 * daemon's or a benchmark's command line gives it: "udp" (kernel UDP
 * sockets, udp.c) or "dpdk" (DPDK's af_packet driver on a kernel
 * interface, dpdk.c). The same nodes run over either (transport.h).
 */
#ifndef PW_RUNTIME_NET_TRANSPORT_NAME_H
#define PW_RUNTIME_NET_TRANSPORT_NAME_H

#include <netinet/in.h>

#include "transport.h"

/* Names pw_transport_open() knows, for usage messages. */
#define PW_TRANSPORT_NAMES "udp|dpdk"

/*
 * A transport @name bound to @addr. For "dpdk", @ifname is the interface
 * to drive; NULL takes the one that holds @addr's IPv4 address (the
 * address must be a host's own, not INADDR_ANY). -EINVAL for an unknown
 * name or a wildcard DPDK address, -EADDRNOTAVAIL when no interface holds
 * the address, else what pw_udp_open() or pw_dpdk_open() returns.
 */
int pw_transport_open(struct pw_transport **tp, const char *name,
		      const char *ifname, const struct sockaddr_in *addr);

/*
 * This host's address on the link to @peer (the interface whose IPv4
 * subnet holds it, or that has @peer itself), port 0, into @addr and its
 * interface into @ifname (IF_NAMESIZE bytes): 0, -ENETUNREACH when no
 * interface's subnet holds @peer, or -errno of getifaddrs().
 */
int pw_addr_toward(const struct sockaddr_in *peer, struct sockaddr_in *addr,
		   char *ifname);

#endif /* PW_RUNTIME_NET_TRANSPORT_NAME_H */
