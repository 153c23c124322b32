# Runtime selftests: kselftest-harness binaries over libpathways and the
# live devices, run inside the testbed guest with pwtpu.ko loaded
# (selftests/driver/run-in-guest.sh runs them after the driver's).
PW_TEST_NAMES := program sched store errors claim inprocess shared_island connect \
	worker_ready
PW_TEST_DIR := $(BUILD)/selftests/pathways
PW_TEST_BINS := $(patsubst %,$(PW_TEST_DIR)/test_%,$(PW_TEST_NAMES))

$(PW_TEST_DIR)/%.o: USER_CFLAGS += -Wno-unused-parameter

$(PW_TEST_DIR)/test_%: $(PW_TEST_DIR)/test_%.o $(PW_TEST_DIR)/pw_common.o \
		$(BUILD)/selftests/lib/test_key.o \
		$(LIBPATHWAYS) $(BUILD)/libpwprog.a $(BUILD)/libpwtpu.a
	$(CC) -o $@ $^ $(USER_LDLIBS)

GUEST_TESTS += $(PW_TEST_BINS)
