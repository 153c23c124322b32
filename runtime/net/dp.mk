# runtime/net: the DCN data plane (runtime/net/dp.h): one-sided writes
# between registered regions of two hosts over RDMA verbs (rdma-core:
# librdmacm, libibverbs) or, without an RDMA device, over TCP.
# Definitions only, so that both runtime/runtime.mk (into libpathways) and
# selftests/net/dp.mk may include it. Whatever links these objects needs
# PW_DP_LDLIBS.
PW_DP_SRCS := runtime/net/dp.c runtime/net/dp_tcp.c runtime/net/dp_rdma.c
PW_DP_LDLIBS := -lrdmacm -libverbs
