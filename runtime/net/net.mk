# runtime/net: the DCN control plane (include/pathways/wire.h): the wire
# codec, the cluster key and the datagrams' authentication (auth.c,
# libsodium), the reliable channel over any datagram transport, the kernel
# UDP transport driven by io_uring, and the in-process one (loop.c).
# Definitions only, so that both
# runtime/runtime.mk (into libpathways) and selftests/net/net.mk may
# include it.
PW_NET_SRCS := runtime/net/wire.c runtime/net/rchan.c runtime/net/udp.c \
	runtime/net/auth.c \
	runtime/net/loop.c
