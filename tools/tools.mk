# Tools: pwtpu-smi (device status), pwtpu-matmul (one checked matmul,
# the demo's program) and pwbench (micro-benchmarks).
PWBENCH_SRCS := tools/pwbench.c tools/pwbench_dispatch.c tools/pwbench_stats.c

$(BUILD)/tools/pwtpu-smi: $(BUILD)/tools/pwtpu-smi.o $(BUILD)/libpwtpu.a
	$(CC) -o $@ $^ $(USER_LDLIBS)

$(BUILD)/tools/pwtpu-matmul: $(BUILD)/tools/pwtpu-matmul.o \
		$(BUILD)/libpwprog.a $(BUILD)/libpwtpu.a
	$(CC) -o $@ $^ $(USER_LDLIBS)

$(BUILD)/tools/pwbench: $(patsubst %.c,$(BUILD)/%.o,$(PWBENCH_SRCS)) \
		$(BUILD)/libpwtpu.a $(BUILD)/libpwprog.a
	$(CC) -o $@ $^ $(USER_LDLIBS)

USER_BINS += $(BUILD)/tools/pwtpu-smi $(BUILD)/tools/pwtpu-matmul \
	$(BUILD)/tools/pwbench
