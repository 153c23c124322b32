# Runtime selftests: kselftest-harness binaries over libpathways and the
# live devices, run inside the testbed guest with pwtpu.ko loaded
# (selftests/driver/run-in-guest.sh runs them after the driver's).
PW_TEST_NAMES := program sched store errors claim inprocess shared_island connect \
	worker_ready faults sim_equal
PW_TEST_DIR := $(BUILD)/selftests/pathways
PW_TEST_BINS := $(patsubst %,$(PW_TEST_DIR)/test_%,$(PW_TEST_NAMES))

$(PW_TEST_DIR)/%.o: USER_CFLAGS += -Wno-unused-parameter

$(PW_TEST_DIR)/test_%: $(PW_TEST_DIR)/test_%.o $(PW_TEST_DIR)/pw_common.o \
		$(BUILD)/selftests/lib/test_key.o \
		$(PATHWAYS_LIBS)
	$(CC) -o $@ $^ $(USER_LDLIBS)

# With every allocation and device call able to fail (selftests/lib/
# fault.h), and LeakSanitizer checking each test's child at its exit
# (selftests/lib/lsan_exit.c); a sanitized tree's ASan does that already.
PW_FAULTS_LSAN := $(if $(SANITIZE),,-fsanitize=leak \
	$(BUILD)/selftests/lib/lsan_exit.o -Wl,--wrap=_exit)
$(PW_TEST_DIR)/test_faults: $(PW_TEST_DIR)/test_faults.o $(PW_TEST_DIR)/pw_common.o \
		$(BUILD)/selftests/lib/test_key.o $(BUILD)/selftests/lib/fault.o \
		$(BUILD)/selftests/lib/test_fn.o $(BUILD)/selftests/lib/lsan_exit.o \
		$(PATHWAYS_LIBS)
	$(CC) -o $@ $(filter-out $(BUILD)/selftests/lib/lsan_exit.o,$^) \
		$(USER_LDLIBS) $(FAULT_LDFLAGS) $(PW_FAULTS_LSAN)

# It runs the examples and pwhlo and compares what they print.
$(PW_TEST_DIR)/test_sim_equal: $(BUILD)/selftests/lib/test_run.o
$(PW_TEST_DIR)/test_sim_equal: | $(EXAMPLE_BINS) $(BUILD)/tools/pwhlo

GUEST_TESTS += $(PW_TEST_BINS)
