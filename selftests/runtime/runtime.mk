# Host tests of the runtime: the resource manager's placement, removal
# and thread safety (test_rm), against islands described by mesh strings
# and a fake sysfs tree.
RUNTIME_TEST_DIR := $(BUILD)/selftests/runtime

# The kernel's kselftest_harness.h is not -Wextra clean.
$(RUNTIME_TEST_DIR)/%.o: USER_CFLAGS += -Wno-unused-parameter

$(RUNTIME_TEST_DIR)/test_rm: $(RUNTIME_TEST_DIR)/test_rm.o $(LIBPATHWAYS)
	$(CC) -o $@ $^ $(USER_LDLIBS)

HOST_TESTS += $(RUNTIME_TEST_DIR)/test_rm
