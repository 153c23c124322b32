# libFuzzer harnesses (clang, with AddressSanitizer and UBSan), built in a
# tree of their own, build/fuzz, where every library is instrumented too:
#   make fuzzers          build them
#   make fuzz SECONDS=N   run each for N seconds (tools/fuzz run)
# tools/run-tests fuzz replays their corpora (selftests/fuzz/corpus/) and
# the regression inputs of every finding (selftests/fuzz/regressions/).
FUZZ_NAMES := verify wire fnpayload frame client hlo
SECONDS ?= 60

# The harnesses' first inputs, by the project's own encoders (gcc, the
# ordinary tree): tools/fuzz seeds.
FUZZ_SEEDS := $(BUILD)/selftests/fuzz/fuzz_seeds
$(FUZZ_SEEDS): $(BUILD)/selftests/fuzz/fuzz_seeds.o \
		$(BUILD)/selftests/net/net_common.o $(LIBPATHWAYS) \
		$(LIBPWPROG) $(FW_LIB)
	$(CC) -o $@ $^ $(USER_LDLIBS)
USER_BINS += $(FUZZ_SEEDS)

ifeq ($(FUZZ),)
.PHONY: fuzzers fuzz
fuzzers:
	$(MAKE) CC=clang BUILD=$(BUILD)/fuzz SANITIZE=address,undefined \
		FUZZ=1 fuzzers

fuzz: fuzzers
	tools/fuzz run $(SECONDS)
else
FUZZ_DIR := $(BUILD)/selftests/fuzz
FUZZERS := $(patsubst %,$(FUZZ_DIR)/fuzz_%,$(FUZZ_NAMES))

.PHONY: fuzzers
fuzzers: $(FUZZERS)

$(FUZZ_DIR)/fuzz_verify: $(FUZZ_DIR)/fuzz_verify.o $(FUZZ_DIR)/fuzz_exec.o \
	$(FW_LIB)
$(FUZZ_DIR)/fuzz_wire: $(FUZZ_DIR)/fuzz_wire.o $(BUILD)/runtime/net/wire.o
$(FUZZ_DIR)/fuzz_fnpayload: $(FUZZ_DIR)/fuzz_fnpayload.o $(LIBPATHWAYS) \
	$(FW_LIB)
$(FUZZ_DIR)/fuzz_frame: $(FUZZ_DIR)/fuzz_frame.o \
	$(BUILD)/runtime/net/dpdk_frame.o
$(FUZZ_DIR)/fuzz_client: $(FUZZ_DIR)/fuzz_client.o $(FUZZ_DIR)/fuzz_fn.o \
	$(FUZZ_DIR)/fuzz_exec.o $(LIBPATHWAYS) $(LIBPWPROG) $(FW_LIB)
$(FUZZ_DIR)/fuzz_hlo: $(FUZZ_DIR)/fuzz_hlo.o $(FUZZ_DIR)/fuzz_fn.o \
	$(FUZZ_DIR)/fuzz_exec.o $(LIBPATHWAYS) $(LIBPWPROG) $(FW_LIB)

$(FUZZERS):
	$(CC) -fsanitize=fuzzer -o $@ $(filter %.o %.a,$^) $(USER_LDLIBS)
endif
