# Host tests of the runtime: the resource manager's placement, removal
# and thread safety (test_rm), against islands described by mesh strings
# and a fake sysfs tree; the compiled-function builder (test_fn), whose
# images the firmware's verifier checks and its interpreter runs on host
# memory; the StableHLO text reader (test_hlo_parse), against inputs of
# its own and every program of ../shared/stablehlo/testdata; its lowering
# to compiled functions (test_hlo_lower), run on the firmware the same
# way; CHLO's math functions so lowered, measured (test_hlo_chlo).
RUNTIME_TEST_DIR := $(BUILD)/selftests/runtime

# The kernel's kselftest_harness.h is not -Wextra clean.
$(RUNTIME_TEST_DIR)/%.o: USER_CFLAGS += -Wno-unused-parameter

$(RUNTIME_TEST_DIR)/test_rm: $(RUNTIME_TEST_DIR)/test_rm.o $(LIBPATHWAYS)
	$(CC) -o $@ $^ $(USER_LDLIBS)

# The builder alone: no worker, so fn_compile.c's weak
# pw_worker_unload_fn() stands in for the worker's.
FN_TEST_OBJS := $(patsubst %.c,$(BUILD)/%.o,runtime/fn/fn_builder.c \
	runtime/fn/fn_compile.c runtime/fn/fn_sig.c runtime/util/error.c)

$(RUNTIME_TEST_DIR)/test_fn: $(RUNTIME_TEST_DIR)/test_fn.o $(FN_TEST_OBJS) \
		$(BUILD)/selftests/lib/fn_exec.o $(LIBPWPROG) $(FW_LIB)
	$(CC) -o $@ $^ $(USER_LDLIBS)

# The StableHLO reader and its lowering (runtime/hlo/) over the builder.
HLO_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(filter runtime/hlo/%,\
	$(LIBPATHWAYS_SRCS))) $(FN_TEST_OBJS)

# Its counts are unsigned; the harness compares them with plain ints.
$(RUNTIME_TEST_DIR)/test_hlo_parse.o: USER_CFLAGS += -Wno-sign-compare

$(RUNTIME_TEST_DIR)/test_hlo_parse: $(RUNTIME_TEST_DIR)/test_hlo_parse.o \
		$(HLO_OBJS) $(LIBPWPROG) $(FW_LIB)
	$(CC) -o $@ $^ $(USER_LDLIBS)

$(RUNTIME_TEST_DIR)/test_hlo_lower.o: USER_CFLAGS += -Wno-sign-compare

$(RUNTIME_TEST_DIR)/test_hlo_lower: $(RUNTIME_TEST_DIR)/test_hlo_lower.o \
		$(HLO_OBJS) $(BUILD)/selftests/lib/fn_exec.o $(LIBPWPROG) \
		$(FW_LIB)
	$(CC) -o $@ $^ $(USER_LDLIBS)

# CHLO's functions as the lowering composes them, against long double.
$(RUNTIME_TEST_DIR)/test_hlo_chlo: $(RUNTIME_TEST_DIR)/test_hlo_chlo.o \
		$(HLO_OBJS) $(BUILD)/selftests/lib/fn_exec.o $(LIBPWPROG) \
		$(FW_LIB)
	$(CC) -o $@ $^ $(USER_LDLIBS)

HOST_TESTS += $(RUNTIME_TEST_DIR)/test_rm $(RUNTIME_TEST_DIR)/test_fn \
	$(RUNTIME_TEST_DIR)/test_hlo_parse $(RUNTIME_TEST_DIR)/test_hlo_lower \
	$(RUNTIME_TEST_DIR)/test_hlo_chlo
