# Host tests of the DPDK transport (runtime/net/dpdk.c): test_dpdk runs
# it on one end of a veth pair in private network namespaces (as root)
# against the kernel UDP transport on the other. dpdk_ping is the same
# exchange between two hosts (tools/testbed-multi). After net.mk.
include runtime/net/dpdk.mk

NET_DPDK_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(PW_DPDK_SRCS))

$(NET_TEST_DIR)/test_dpdk: $(NET_TEST_DIR)/test_dpdk.o $(NET_TEST_OBJS) \
		$(NET_DPDK_OBJS)
	$(CC) -o $@ $^ $(USER_LDLIBS) $(PW_DPDK_LIBS)

$(NET_TEST_DIR)/dpdk_ping: $(NET_TEST_DIR)/dpdk_ping.o $(NET_TEST_OBJS) \
		$(NET_DPDK_OBJS) $(BUILD)/runtime/dcn/node.o \
		$(BUILD)/runtime/util/log.o
	$(CC) -o $@ $^ $(USER_LDLIBS) $(PW_DPDK_LIBS)

HOST_TESTS += $(NET_TEST_DIR)/test_dpdk
# It runs dpdk_ping beside itself (two_processes_share_an_address).
$(NET_TEST_DIR)/test_dpdk: | $(NET_TEST_DIR)/dpdk_ping
USER_BINS += $(NET_TEST_DIR)/dpdk_ping
