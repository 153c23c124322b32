# runtime/net: the DPDK transport (dpdk.h, dpdk.c) and its frames
# (dpdk_frame.c, plain C), and the choice between it and kernel UDP by
# name (transport_name.c). DPDK comes from pkg-config's libdpdk (Debian's
# libdpdk-dev). Its headers want GNU C and are not -Wextra clean: they
# come in through -isystem, and only dpdk.o is built with them. Programs
# that call pw_dpdk_open() link $(PW_DPDK_LIBS) (--as-needed: the others
# get no DPDK dependency). Definitions only; may be included twice.
ifndef PW_DPDK_SRCS
PW_DPDK_SRCS := runtime/net/dpdk.c runtime/net/dpdk_frame.c \
	runtime/net/transport_name.c
PW_DPDK_CFLAGS := -std=gnu11 \
	$(patsubst -I%,-isystem %,$(shell pkg-config --cflags-only-I libdpdk)) \
	$(shell pkg-config --cflags-only-other libdpdk)
PW_DPDK_LIBS := $(shell pkg-config --libs libdpdk)
ifeq ($(PW_DPDK_LIBS),)
$(warning libdpdk not found by pkg-config: run 'make deps')
endif

$(BUILD)/runtime/net/dpdk.o: USER_CFLAGS += $(PW_DPDK_CFLAGS)
endif
