# libpathways: the Pathways runtime (include/pathways/, docs/runtime.md):
# the client (tracer, futures), the controller (resource managers,
# lowering, island schedulers, dispatch), the worker (executors, object
# store) and the network beneath them; pathwaysd runs the roles on a
# cluster's hosts, a client with no address runs them in its process.
include runtime/net/net.mk
include runtime/net/dpdk.mk
include runtime/net/dp.mk
LIBPATHWAYS_SRCS := runtime/rm/rm.c runtime/rm/rm_place.c \
	runtime/rm/rm_island.c \
	runtime/util/error.c runtime/util/log.c runtime/util/slots.c \
	runtime/fn/fn_builder.c runtime/fn/fn_compile.c runtime/fn/fn_sig.c \
	runtime/util/claim.c \
	runtime/client/connect.c runtime/client/buffer.c \
	runtime/client/call.c runtime/client/trace.c runtime/client/program.c \
	$(PW_NET_SRCS) $(PW_DPDK_SRCS) $(PW_DP_SRCS) \
	runtime/dcn/node.c runtime/dcn/controller.c runtime/dcn/ctl_run.c \
	runtime/dcn/ctl_lower.c runtime/dcn/ctl_obj.c runtime/dcn/ctl_share.c runtime/dcn/ctl_slice.c runtime/dcn/fnpayload.c \
	runtime/dcn/worker.c runtime/dcn/wk_run.c runtime/dcn/wk_obj.c \
	runtime/dcn/wk_stages.c \
	runtime/dcn/wk_host.c \
	runtime/dcn/wk_gang.c \
	runtime/dcn/wk_cookie.c \
	runtime/dcn/wdev.c runtime/dcn/wdev_kernel.c runtime/dcn/wdev_sim.c runtime/dcn/wstore.c \
	runtime/dcn/rclient.c runtime/dcn/rprog.c runtime/dcn/local.c \
	runtime/dcn/rc_beat.c runtime/dcn/rc_data.c \
	runtime/hlo/hlo_arena.c runtime/hlo/hlo_lex.c runtime/hlo/hlo_type.c \
	runtime/hlo/hlo_attr.c runtime/hlo/hlo_dense.c runtime/hlo/hlo_parse.c \
	runtime/hlo/hlo_pretty.c runtime/hlo/hlo_pretty_region.c \
	runtime/hlo/hlo_print.c \
	runtime/hlo/hlo_lower.c runtime/hlo/hlo_lower_ops.c \
	runtime/hlo/hlo_lower_elementwise.c runtime/hlo/hlo_lower_shape.c \
	runtime/hlo/hlo_lower_reduce.c runtime/hlo/hlo_lower_collective.c \
	runtime/hlo/hlo_lower_scatter.c \
	runtime/hlo/hlo_lower_place.c runtime/hlo/hlo_lower_window.c \
	runtime/hlo/hlo_lower_sort.c runtime/hlo/hlo_lower_conv.c \
	runtime/hlo/hlo_lower_select_scatter.c runtime/hlo/hlo_lower_control.c \
	runtime/hlo/hlo_lower_chlo.c \
	runtime/hlo/hlo_fn.c
LIBPATHWAYS := $(BUILD)/libpathways.a

# Rebuilt whole when its list of sources changes, not only its objects.
$(LIBPATHWAYS): $(patsubst %.c,$(BUILD)/%.o,$(LIBPATHWAYS_SRCS)) \
		runtime/runtime.mk
	rm -f $@
	$(AR) rcs $@ $(filter %.o,$^)

USER_LIBS += $(LIBPATHWAYS)

# DPDK's libraries (--as-needed: only programs that open a DPDK transport
# depend on them) and rdma-core's for the data plane.
USER_LDLIBS += $(PW_DPDK_LIBS) $(PW_DP_LDLIBS)
# libsodium: the control plane's authentication (runtime/net/auth.c).
USER_LDLIBS += $(shell pkg-config --libs libsodium 2>/dev/null || echo -lsodium)
