# libpathways: the Pathways runtime (include/pathways/, docs/runtime.md):
# resource manager, compiled functions, client (tracer, lowering,
# dispatch), island scheduler, and this host's worker (executors, object
# store).
include runtime/net/net.mk
LIBPATHWAYS_SRCS := runtime/rm/rm.c runtime/rm/rm_place.c \
	runtime/rm/rm_island.c \
	runtime/util/error.c \
	runtime/fn/fn_builder.c runtime/fn/fn_compile.c runtime/fn/fn_sig.c \
	runtime/core/ctrl.c \
	runtime/sched/sched.c \
	runtime/worker/executor.c runtime/worker/store.c \
	runtime/worker/store_host.c runtime/worker/fnload.c \
	runtime/client/batch.c runtime/client/lower.c \
	runtime/client/trace.c runtime/client/run.c \
	$(PW_NET_SRCS) \
	runtime/dcn/node.c runtime/dcn/controller.c runtime/dcn/worker.c
LIBPATHWAYS := $(BUILD)/libpathways.a

$(LIBPATHWAYS): $(patsubst %.c,$(BUILD)/%.o,$(LIBPATHWAYS_SRCS))
	$(AR) rcs $@ $^

USER_LIBS += $(LIBPATHWAYS)
