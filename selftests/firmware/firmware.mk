# Firmware unit tests (verifier, spec, mesh, timing model): kselftest
# harness binaries linked against the firmware's user-space library and
# run on the build host.
FW_UNIT_TEST_NAMES := verify verify_prog verify_gs spec mesh timing fmt
FW_UNIT_TEST_DIR := $(BUILD)/selftests/firmware
FW_UNIT_TEST_BINS := $(patsubst %,$(FW_UNIT_TEST_DIR)/test_%,$(FW_UNIT_TEST_NAMES))

# kselftest_harness.h is -Wall clean but not -Wextra clean (unused
# parameters in its wrappers).
$(FW_UNIT_TEST_DIR)/%.o: USER_CFLAGS += -Wno-unused-parameter

$(FW_UNIT_TEST_BINS): $(FW_UNIT_TEST_DIR)/test_%: \
		$(FW_UNIT_TEST_DIR)/test_%.o $(FW_LIB)
	$(CC) -o $@ $^ $(USER_LDLIBS)

HOST_TESTS += $(FW_UNIT_TEST_BINS)
