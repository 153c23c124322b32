# Firmware op tests: programs built with pwprog, run through pwfw_verify
# and pwfw_exec on host memory, checked against references in the tests.
OPS_TEST_NAMES := elementwise reduce convert math layout matmul matmul_paths \
	exec pwprog f16 dtypes gather_scatter bits round func
OPS_TEST_DIR := $(BUILD)/selftests/firmware
OPS_TEST_BINS := $(patsubst %,$(OPS_TEST_DIR)/test_%,$(OPS_TEST_NAMES))
OPS_TEST_OBJS := $(patsubst %,$(OPS_TEST_DIR)/test_%.o,$(OPS_TEST_NAMES)) \
	$(OPS_TEST_DIR)/ops_util.o

# The kernel's kselftest_harness.h is not -Wextra clean (unused
# parameters in its TEST() wrappers).
$(OPS_TEST_OBJS): USER_CFLAGS += -Wno-unused-parameter

$(OPS_TEST_BINS): $(OPS_TEST_DIR)/%: $(OPS_TEST_DIR)/%.o \
		$(OPS_TEST_DIR)/ops_util.o $(BUILD)/libpwprog.a $(FW_LIB)
	$(CC) -o $@ $^ $(USER_LDLIBS)

HOST_TESTS += $(OPS_TEST_BINS)
