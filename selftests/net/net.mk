# Host tests of the DCN control plane (runtime/net/): the wire codec
# (test_wire), the reliable channel over a simulated lossy link
# (test_rchan) and over kernel UDP on loopback (test_udp). They link the
# net objects directly, so they need neither devices nor libpathways.
include runtime/net/net.mk

NET_TEST_DIR := $(BUILD)/selftests/net
NET_TEST_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(PW_NET_SRCS) \
	selftests/net/net_common.c)

# The kernel's kselftest_harness.h is not -Wextra clean.
$(NET_TEST_DIR)/%.o: USER_CFLAGS += -Wno-unused-parameter

$(NET_TEST_DIR)/test_%: $(NET_TEST_DIR)/test_%.o $(NET_TEST_OBJS)
	$(CC) -o $@ $^ $(USER_LDLIBS)

HOST_TESTS += $(NET_TEST_DIR)/test_wire $(NET_TEST_DIR)/test_rchan \
	$(NET_TEST_DIR)/test_udp $(NET_TEST_DIR)/test_loop \
	$(NET_TEST_DIR)/test_auth

# test_node: a DCN node (runtime/dcn/node.c) over UDP on loopback; it
# needs none of net_common's generators.
$(NET_TEST_DIR)/test_node: $(NET_TEST_DIR)/test_node.o \
		$(patsubst %.c,$(BUILD)/%.o,$(PW_NET_SRCS)) \
		$(BUILD)/runtime/dcn/node.o $(BUILD)/runtime/util/log.o \
		$(BUILD)/selftests/lib/test_key.o
	$(CC) -o $@ $^ $(USER_LDLIBS)

HOST_TESTS += $(NET_TEST_DIR)/test_node
