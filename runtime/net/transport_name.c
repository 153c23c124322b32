// SPDX-License-Identifier: GPL-2.0
/*
 * transport_name.c - a control-plane transport by name (transport_name.h).
 */
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <string.h>

#include "dpdk.h"
#include "transport_name.h"

int pw_ifname_of_addr(uint32_t ip, char *ifname)
{
	struct ifaddrs *all, *a;
	int ret = -EADDRNOTAVAIL;

	if (getifaddrs(&all))
		return -errno;
	for (a = all; a; a = a->ifa_next) {
		const struct sockaddr_in *in = (const void *)a->ifa_addr;

		if (!in || in->sin_family != AF_INET ||
		    in->sin_addr.s_addr != ip ||
		    strlen(a->ifa_name) >= IF_NAMESIZE)
			continue;
		strcpy(ifname, a->ifa_name);
		ret = 0;
		break;
	}
	freeifaddrs(all);
	return ret;
}

int pw_addr_toward(const struct sockaddr_in *peer, struct sockaddr_in *addr,
		   char *ifname)
{
	uint32_t to = peer->sin_addr.s_addr;
	struct ifaddrs *all, *a;
	int ret = -ENETUNREACH;

	if (getifaddrs(&all))
		return -errno;
	for (a = all; a; a = a->ifa_next) {
		const struct sockaddr_in *in = (const void *)a->ifa_addr;
		const struct sockaddr_in *mask = (const void *)a->ifa_netmask;
		uint32_t m;

		if (!in || !mask || in->sin_family != AF_INET ||
		    strlen(a->ifa_name) >= IF_NAMESIZE)
			continue;
		m = mask->sin_addr.s_addr;
		if ((in->sin_addr.s_addr & m) != (to & m))
			continue;
		memset(addr, 0, sizeof(*addr));
		addr->sin_family = AF_INET;
		addr->sin_addr = in->sin_addr;
		strcpy(ifname, a->ifa_name);
		ret = 0;
		/* The peer's own interface (this host) wins over its subnet. */
		if (in->sin_addr.s_addr == to)
			break;
	}
	freeifaddrs(all);
	return ret;
}

int pw_transport_open(struct pw_transport **tp, const char *name,
		      const char *ifname, const struct sockaddr_in *addr)
{
	struct pw_dpdk_opts o;
	char found[IF_NAMESIZE];
	int ret;

	*tp = NULL;
	if (!strcmp(name, "udp"))
		return pw_udp_open(tp, addr);
	if (strcmp(name, "dpdk") || !addr->sin_addr.s_addr)
		return -EINVAL;
	if (!ifname) {
		ret = pw_ifname_of_addr(addr->sin_addr.s_addr, found);
		if (ret)
			return ret;
		ifname = found;
	}
	memset(&o, 0, sizeof(o));
	o.ifname = ifname;
	o.addr = *addr;
	return pw_dpdk_open(tp, &o);
}
