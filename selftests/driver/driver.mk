# Driver selftests: kselftest-harness binaries run inside the testbed guest
# with pwtpu.ko loaded (selftests/driver/run-in-guest.sh runs them all).
DRV_TEST_NAMES := info bo prog exec uring badinput isolation race inline \
	mesh coll gang queue charge abort
DRV_TEST_DIR := $(BUILD)/selftests/driver
DRV_TEST_BINS := $(patsubst %,$(DRV_TEST_DIR)/test_%,$(DRV_TEST_NAMES))
DRV_TEST_COMMON := $(DRV_TEST_DIR)/drv_common.o $(DRV_TEST_DIR)/drv_ref.o \
	$(DRV_TEST_DIR)/drv_mesh.o $(DRV_TEST_DIR)/drv_gang.o \
	$(DRV_TEST_DIR)/coll_ref.o

# The kernel's kselftest_harness.h is -Wall clean but not -Wextra clean:
# its TEST() wrappers and SIGALRM handler have unused parameters.
$(DRV_TEST_DIR)/%.o: USER_CFLAGS += -Wno-unused-parameter

$(DRV_TEST_DIR)/test_%: $(DRV_TEST_DIR)/test_%.o $(DRV_TEST_COMMON) \
		$(BUILD)/libpwtpu.a $(BUILD)/libpwprog.a
	$(CC) -o $@ $^ $(USER_LDLIBS)

# test_exec also runs programs in the user-space firmware, to compare
# the device's bits with it.
$(DRV_TEST_DIR)/test_exec: $(FW_LIB)

# Loads and unloads pwtpu.ko itself, so run-in-guest.sh (which needs it
# loaded) does not run it: selftests/driver/debug-in-guest.sh does.
$(DRV_TEST_DIR)/unload_cycles: $(DRV_TEST_DIR)/unload_cycles.o \
		$(DRV_TEST_COMMON) $(BUILD)/libpwtpu.a $(BUILD)/libpwprog.a
	$(CC) -o $@ $^ $(USER_LDLIBS)

GUEST_TESTS += $(DRV_TEST_BINS) $(DRV_TEST_DIR)/unload_cycles
