# Host tests of the tools: pwtrace's parser and converter on a checked-in
# trace (selftests/tools/pwtrace_sample.txt, found relative to this
# source, so run the binary from the top of the tree).
TOOLS_TEST_DIR := $(BUILD)/selftests/tools

$(TOOLS_TEST_DIR)/%.o: USER_CFLAGS += -Wno-unused-parameter

$(TOOLS_TEST_DIR)/test_pwtrace: $(TOOLS_TEST_DIR)/test_pwtrace.o \
		$(PWTRACE_LIB_OBJS)
	$(CC) -o $@ $^ $(USER_LDLIBS)

HOST_TESTS += $(TOOLS_TEST_DIR)/test_pwtrace

# test_pwbench_echo: both ends of pwbench's DCN floor over UDP on loopback.
$(TOOLS_TEST_DIR)/test_pwbench_echo: $(TOOLS_TEST_DIR)/test_pwbench_echo.o \
		$(BUILD)/tools/pwbench_echo.o \
		$(patsubst %.c,$(BUILD)/%.o,$(PW_NET_SRCS)) \
		$(BUILD)/runtime/dcn/node.o $(BUILD)/runtime/util/log.o
	$(CC) -o $@ $^ $(USER_LDLIBS)

HOST_TESTS += $(TOOLS_TEST_DIR)/test_pwbench_echo

# test_pwhlo_check: the StableHLO test suite's assertions as pwhlo
# evaluates them on the host, alone.
$(TOOLS_TEST_DIR)/test_pwhlo_check: $(TOOLS_TEST_DIR)/test_pwhlo_check.o \
		$(BUILD)/tools/pwhlo_check.o
	$(CC) -o $@ $^ $(USER_LDLIBS)

HOST_TESTS += $(TOOLS_TEST_DIR)/test_pwhlo_check
