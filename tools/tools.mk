# Tools: pwtpu-smi (device status), pwtpu-matmul (one checked matmul,
# the demo's program), pwbench (micro-benchmarks) and pwtrace (trace to
# Perfetto JSON).
PWBENCH_SRCS := tools/pwbench.c tools/pwbench_dispatch.c tools/pwbench_stats.c \
	tools/pwbench_machine.c \
	tools/pwbench_collective.c tools/pwbench_dcn.c tools/pwbench_dcn_tput.c tools/pwbench_echo.c \
	tools/pwbench_host_data.c tools/pwbench_peers.c \
	tools/pwbench_paper.c \
	tools/pwbench_paper_tput.c tools/pwbench_paper_multi.c \
	tools/pwbench_mc_kernel.c tools/pwbench_mc_sim.c \
	tools/pwbench_transformer.c tools/pwbench_mc_train.c tools/pwbench_paper_train.c \
	tools/pwbench_paper_dispatch.c tools/pwbench_paper_clients.c \
	tools/pwbench_paper_pipeline.c tools/pwbench_pathwaysd.c \
	tools/pwbench_matmul.c
# pwbench matmul runs the firmware's user-space library next to OpenBLAS
# (Debian's libopenblas-dev, found by pkg-config); only pwbench links it.
OPENBLAS_CFLAGS := $(shell pkg-config --cflags openblas)
OPENBLAS_LIBS := $(shell pkg-config --libs openblas)
ifeq ($(OPENBLAS_LIBS),)
$(warning openblas not found by pkg-config: run 'make deps')
endif
$(BUILD)/tools/pwbench_matmul.o: USER_CFLAGS += $(OPENBLAS_CFLAGS)
# runtime/runtime.mk, included after this file, defines it the same way;
# the prerequisite list below is expanded now, so name it here too.
LIBPATHWAYS ?= $(BUILD)/libpathways.a
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
		$(PATHWAYS_LIBS) \
		$(FW_LIB)
	$(CC) -o $@ $^ $(USER_LDLIBS) $(OPENBLAS_LIBS)

$(BUILD)/tools/pwtrace: $(BUILD)/tools/pwtrace.o \
		$(BUILD)/tools/pwtrace_record.o $(PWTRACE_LIB_OBJS)
	$(CC) -o $@ $^ $(USER_LDLIBS)

USER_BINS += $(BUILD)/tools/pwtpu-smi $(BUILD)/tools/pwtpu-matmul \
	$(BUILD)/tools/pwbench $(BUILD)/tools/pwtrace

# pathwaysd: the daemon on each DCN host (controller, worker, status);
# libsystemd for sd_notify(), its readiness under systemd.
SYSTEMD_LIBS := $(shell pkg-config --libs libsystemd 2>/dev/null || echo -lsystemd)
$(BUILD)/tools/pathwaysd: $(BUILD)/tools/pathwaysd.o \
		$(BUILD)/tools/pathwaysd_opts.o $(PATHWAYS_LIBS)
	$(CC) -o $@ $^ $(USER_LDLIBS) $(SYSTEMD_LIBS)

USER_BINS += $(BUILD)/tools/pathwaysd

# pwhlo: the StableHLO test suite's programs run on a device, their
# checks evaluated on the host (pwhlo_check.c).
$(BUILD)/tools/pwhlo: $(BUILD)/tools/pwhlo.o $(BUILD)/tools/pwhlo_check.o \
		$(PATHWAYS_LIBS)
	$(CC) -o $@ $^ $(USER_LDLIBS)

USER_BINS += $(BUILD)/tools/pwhlo
