// SPDX-License-Identifier: GPL-2.0
/*
 * transport_name.c - a control-plane transport by name (transport_name.h).
 */
#include <errno.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <stdbool.h>
#include <string.h>

#include "dpdk.h"
#include "transport_name.h"

/*
 * The interface (up) that has address @ip, else (@subnet) the one whose
 * subnet holds it most narrowly: its name into @ifname, its address into
 * @addr.
 */
static int find_ifaddr(uint32_t ip, bool subnet, uint32_t *addr,
		       char *ifname)
{
	struct ifaddrs *all, *a;
	int ret = subnet ? -ENETUNREACH : -EADDRNOTAVAIL, best = -1;

	if (getifaddrs(&all))
		return -errno;
	for (a = all; a; a = a->ifa_next) {
		const struct sockaddr_in *in = (const void *)a->ifa_addr;
		const struct sockaddr_in *mask = (const void *)a->ifa_netmask;
		uint32_t m;
		int width;

		if (!in || in->sin_family != AF_INET ||
		    !(a->ifa_flags & IFF_UP) ||
		    strlen(a->ifa_name) >= IF_NAMESIZE)
			continue;
		m = subnet && mask ? mask->sin_addr.s_addr : ~0u;
		/* The address itself (this host) beats any subnet. */
		width = in->sin_addr.s_addr == ip ? 33 : __builtin_popcount(m);
		if ((in->sin_addr.s_addr & m) != (ip & m) || width <= best)
			continue;
		best = width;
		*addr = in->sin_addr.s_addr;
		strcpy(ifname, a->ifa_name);
		ret = 0;
	}
	freeifaddrs(all);
	return ret;
}

/* The interface that has @ip: 0, -EADDRNOTAVAIL, -errno. */
static int ifname_of_addr(uint32_t ip, char *ifname)
{
	uint32_t addr;

	return find_ifaddr(ip, false, &addr, ifname);
}

int pw_addr_toward(const struct sockaddr_in *peer, struct sockaddr_in *addr,
		   char *ifname)
{
	uint32_t mine;
	int ret = find_ifaddr(peer->sin_addr.s_addr, true, &mine, ifname);

	if (ret)
		return ret;
	memset(addr, 0, sizeof(*addr));
	addr->sin_family = AF_INET;
	addr->sin_addr.s_addr = mine;
	return 0;
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
		ret = ifname_of_addr(addr->sin_addr.s_addr, found);
		if (ret)
			return ret;
		ifname = found;
	}
	memset(&o, 0, sizeof(o));
	o.ifname = ifname;
	o.addr = *addr;
	return pw_dpdk_open(tp, &o);
}
