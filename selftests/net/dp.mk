# Tests of the DCN data plane (runtime/net/dp.h).
#   test_dp        host: the tcp implementation over loopback, two data
#                  planes in one process (HOST_TESTS); rdma is checked to
#                  be refused or chosen as this host's devices say.
#   test_dp_hosts  two testbed guests with pwtpu.ko and soft-RoCE: host 0
#                  writes a device buffer into host 1's, over rdma and over
#                  tcp; run by selftests/net/dp_hosts.sh, which boots them
#                  (tools/testbed-multi). With --bench it measures instead.
include runtime/net/dp.mk

DP_TEST_DIR := $(BUILD)/selftests/net
DP_TEST_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(PW_DP_SRCS))

# The kernel's kselftest_harness.h is not -Wextra clean.
$(DP_TEST_DIR)/%.o: USER_CFLAGS += -Wno-unused-parameter

$(DP_TEST_DIR)/test_dp: $(DP_TEST_DIR)/test_dp.o $(DP_TEST_OBJS)
	$(CC) -o $@ $^ $(USER_LDLIBS) $(PW_DP_LDLIBS)

$(DP_TEST_DIR)/test_dp_hosts: $(DP_TEST_DIR)/test_dp_hosts.o \
		$(DP_TEST_OBJS) $(BUILD)/libpwtpu.a
	$(CC) -o $@ $^ $(USER_LDLIBS) $(PW_DP_LDLIBS)

HOST_TESTS += $(DP_TEST_DIR)/test_dp
# Built with the guest tests; run-in-guest.sh does not look in net/.
GUEST_TESTS += $(DP_TEST_DIR)/test_dp_hosts
