# pwtpu: top-level build.
#   make            module + user-space libraries, tools and tests
#   make deb        the Debian packages into build/deb/ (debian/, install.mk)
#   make install [DESTDIR=] [PREFIX=/usr/local]  headers, shared and static
#                   libraries, pkg-config files, tools, man pages (install.mk)
#   make deps       install every Debian package the project needs
#   make check      run every test (see tools/run-tests)
#   make demo       the main job (see tools/demo)
#   make paper      the Pathways paper's evaluation, build/paper/REPORT.md
#                   (see tools/paper)
#   make conformance  the StableHLO test suite's programs on the kernel
#                   device, build/conformance/ (see tools/conformance)
#   make fuzz SECONDS=N   run each libFuzzer harness N seconds (tools/fuzz)
#   make soak [PROGRAMS=N]  many clients for a long time, then check that
#                   nothing grew (tools/soak; N per client, 100000)
# The module is built against the Debian kernel the testbed boots, never
# against `uname -r` (tools/kver says which).

BUILD ?= build
KVER ?= $(shell tools/kver)
KDIR ?= /usr/src/linux-headers-$(KVER)
LINUX_SOURCE ?= /usr/src/linux-source-6.1.tar.xz

CC ?= cc
AR ?= ar
USER_CFLAGS := -std=c11 -O2 -g -Wall -Wextra -Werror -D_GNU_SOURCE \
	-Iinclude -I$(BUILD)/kselftest -ffp-contract=off -fno-math-errno \
	-MMD -MP -fPIC -fno-semantic-interposition
USER_LDLIBS := -luring -lm -lpthread
# A distribution's flags (dpkg-buildflags: hardening) come last.
USER_CFLAGS += $(CPPFLAGS) $(CFLAGS)
USER_LDLIBS += $(LDFLAGS)
# `make SANITIZE=address,undefined BUILD=build/san host-tests`: the same
# code under the compiler's sanitizers, in a tree of its own (tools/run-tests
# sanitize runs the host tests so, with LeakSanitizer on).
# FUZZ=1 (set by `make fuzzers`, selftests/fuzz/fuzz.mk): instrumented for
# libFuzzer as well, whose own exit check replaces lsan_exit.o.
SANITIZE ?=
FUZZ ?=
ifneq ($(SANITIZE),)
USER_CFLAGS += -fsanitize=$(SANITIZE) -fno-omit-frame-pointer \
	-fno-sanitize-recover=all
USER_LDLIBS += -fsanitize=$(SANITIZE)
ifneq ($(FUZZ),)
USER_CFLAGS += -fsanitize=fuzzer-no-link
else ifneq ($(findstring address,$(SANITIZE)),)
LSAN_EXIT := $(BUILD)/selftests/lib/lsan_exit.o
USER_LDLIBS += $(LSAN_EXIT) -Wl,--wrap=_exit
endif
endif

USER_LIBS :=
# What a program of libpathways links, in link order: the runtime, the
# program builder, the device's library, and the firmware (whose island
# runs a worker's simulated devices).
PATHWAYS_LIBS := $(BUILD)/libpathways.a $(BUILD)/libpwprog.a \
	$(BUILD)/libpwtpu.a $(BUILD)/libpwfw.a
USER_BINS :=
HOST_TESTS :=
GUEST_TESTS :=

.PHONY: all module user host-tests deps check demo paper conformance soak clean
# A sanitized tree builds tests only: no shared libraries.
all: module user $(if $(SANITIZE),,shared)

include firmware/user.mk
-include lib/lib.mk
-include tools/tools.mk
-include runtime/runtime.mk
-include examples/examples.mk
-include selftests/selftests.mk
include install.mk

module:
	@test -d $(KDIR) || { echo "no kernel headers at $(KDIR): run 'make deps'" >&2; exit 2; }
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

user: $(USER_LIBS) $(USER_BINS) $(HOST_TESTS) $(GUEST_TESTS)

host-tests: $(HOST_TESTS)
# Every binary of a sanitized tree links selftests/lib/lsan_exit.o.
$(USER_BINS) $(HOST_TESTS) $(GUEST_TESTS): | $(LSAN_EXIT)

$(BUILD)/%.o: %.c | $(BUILD)/kselftest/kselftest_harness.h
	@mkdir -p $(dir $@)
	$(CC) $(USER_CFLAGS) -c $< -o $@

# The kernel's own kselftest harness, taken from Debian's linux-source
# package at build time; never copied into the tree.
$(BUILD)/kselftest/kselftest_harness.h:
	@test -f $(LINUX_SOURCE) || { echo "missing $(LINUX_SOURCE): run 'make deps'" >&2; exit 2; }
	@mkdir -p $(BUILD)/kselftest
	tar -xJf $(LINUX_SOURCE) -C $(BUILD)/kselftest --strip-components=4 \
		--wildcards '*/tools/testing/selftests/kselftest_harness.h' \
		'*/tools/testing/selftests/kselftest.h'
	@touch $@

deps:
	tools/install-deps

# Both install what is missing first, so they work on a fresh machine.
check:
	tools/install-deps
	$(MAKE) all
	tools/run-tests

demo:
	tools/demo

paper:
	tools/paper

# The StableHLO test suite's programs on the kernel device: build/conformance.
conformance: all
	tools/conformance

PROGRAMS ?= 100000
soak:
	tools/install-deps
	$(MAKE) all
	tools/soak $(PROGRAMS)

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean || true
	rm -rf $(BUILD)

-include $(shell find $(BUILD) -name '*.d' -type f 2>/dev/null)

# `make print-HOST_TESTS` etc.: lets scripts ask the build what it built.
print-%:
	@echo $($*)
