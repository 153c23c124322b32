# Tools: pwtpu-smi (device status), pwtpu-matmul (one checked matmul,
# the demo's program), pwbench (micro-benchmarks) and pwtrace (trace to
# Perfetto JSON).
PWBENCH_SRCS := tools/pwbench.c tools/pwbench_dispatch.c tools/pwbench_stats.c \
	tools/pwbench_collective.c
# The converter without main(), for the tool and its unit test.
PWTRACE_LIB_SRCS := tools/pwtrace_parse.c tools/pwtrace_conv.c \
	tools/pwtrace_json.c
PWTRACE_LIB_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(PWTRACE_LIB_SRCS))

$(BUILD)/tools/pwtpu-smi: $(BUILD)/tools/pwtpu-smi.o \
		$(BUILD)/tools/pwtpu_smi_topo.o $(BUILD)/libpwtpu.a
	$(CC) -o $@ $^ $(USER_LDLIBS)

$(BUILD)/tools/pwtpu-matmul: $(BUILD)/tools/pwtpu-matmul.o \
		$(BUILD)/libpwprog.a $(BUILD)/libpwtpu.a
	$(CC) -o $@ $^ $(USER_LDLIBS)

$(BUILD)/tools/pwbench: $(patsubst %.c,$(BUILD)/%.o,$(PWBENCH_SRCS)) \
		$(BUILD)/libpwtpu.a $(BUILD)/libpwprog.a
	$(CC) -o $@ $^ $(USER_LDLIBS)

$(BUILD)/tools/pwtrace: $(BUILD)/tools/pwtrace.o \
		$(BUILD)/tools/pwtrace_record.o $(PWTRACE_LIB_OBJS)
	$(CC) -o $@ $^ $(USER_LDLIBS)

USER_BINS += $(BUILD)/tools/pwtpu-smi $(BUILD)/tools/pwtpu-matmul \
	$(BUILD)/tools/pwbench $(BUILD)/tools/pwtrace
