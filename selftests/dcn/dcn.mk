# Tests of clients over a pathwaysd cluster (the wire-level client,
# runtime/dcn/rclient.h): test_remote runs on testbed host 0 while pathwaysd runs on
# every host; selftests/dcn/test_remote.sh boots them (tools/testbed-multi)
# and runs it over the RDMA and the TCP data plane.
DCN_TEST_DIR := $(BUILD)/selftests/dcn

# The kernel's kselftest_harness.h is not -Wextra clean.
$(DCN_TEST_DIR)/%.o: USER_CFLAGS += -Wno-unused-parameter

$(DCN_TEST_DIR)/test_remote: $(DCN_TEST_DIR)/test_remote.o $(PATHWAYS_LIBS)
	$(CC) -o $@ $^ $(USER_LDLIBS)

# A client whose run loses a host (selftests/dcn/test_pathwaysd.sh).
$(DCN_TEST_DIR)/remote_hostdown: $(DCN_TEST_DIR)/remote_hostdown.o \
		$(BUILD)/selftests/lib/test_fn.o $(PATHWAYS_LIBS)
	$(CC) -o $@ $^ $(USER_LDLIBS)

# Built with the guest tests; run-in-guest.sh does not look in dcn/.
GUEST_TESTS += $(DCN_TEST_DIR)/test_remote $(DCN_TEST_DIR)/remote_hostdown

# The controller's run deadlines on the host: a controller, a client and a
# bare node in a worker's place, over UDP on loopback.
$(DCN_TEST_DIR)/test_controller: $(DCN_TEST_DIR)/test_controller.o $(DCN_TEST_DIR)/fake_worker.o \
		$(BUILD)/selftests/lib/test_key.o \
		$(PATHWAYS_LIBS)
	$(CC) -o $@ $^ $(USER_LDLIBS) -lpthread

HOST_TESTS += $(DCN_TEST_DIR)/test_controller

# The island scheduler's policy at the controller (FIFO, proportional
# share by the operator's weights), over UDP on loopback.
$(DCN_TEST_DIR)/test_share: $(DCN_TEST_DIR)/test_share.o $(DCN_TEST_DIR)/fake_worker.o \
		$(BUILD)/selftests/lib/test_key.o \
		$(PATHWAYS_LIBS)
	$(CC) -o $@ $^ $(USER_LDLIBS) -lpthread

HOST_TESTS += $(DCN_TEST_DIR)/test_share
# It runs pathwaysd with the operator's configuration.
$(DCN_TEST_DIR)/test_share: | $(BUILD)/tools/pathwaysd

# The controller's lowering of moves and resharding, read from the PLAN
# commands a bare worker node receives, over UDP on loopback.
$(DCN_TEST_DIR)/test_lower: $(DCN_TEST_DIR)/test_lower.o $(DCN_TEST_DIR)/fake_worker.o \
		$(BUILD)/selftests/lib/test_key.o \
		$(PATHWAYS_LIBS)
	$(CC) -o $@ $^ $(USER_LDLIBS) -lpthread

HOST_TESTS += $(DCN_TEST_DIR)/test_lower

# The controller among peers that lie (forged, misdirected and deaf), over
# UDP on loopback.
$(DCN_TEST_DIR)/test_hostile: $(DCN_TEST_DIR)/test_hostile.o $(DCN_TEST_DIR)/fake_worker.o \
		$(BUILD)/selftests/lib/test_key.o \
		$(PATHWAYS_LIBS)
	$(CC) -o $@ $^ $(USER_LDLIBS) -lpthread

HOST_TESTS += $(DCN_TEST_DIR)/test_hostile

# A remote client's life with its Nth allocation failing, for every N
# (selftests/lib/fault.h wraps the allocator at link time).
$(DCN_TEST_DIR)/test_faults: $(DCN_TEST_DIR)/test_faults.o $(DCN_TEST_DIR)/fake_worker.o \
		$(BUILD)/selftests/lib/test_key.o $(BUILD)/selftests/lib/fault.o \
		$(PATHWAYS_LIBS)
	$(CC) -o $@ $^ $(USER_LDLIBS) -lpthread $(FAULT_LDFLAGS)

HOST_TESTS += $(DCN_TEST_DIR)/test_faults

# A worker's simulated devices (runtime/dcn/wdev_sim.c): the firmware in
# this process, through the same calls as the module's devices.
$(DCN_TEST_DIR)/test_simdev: $(DCN_TEST_DIR)/test_simdev.o $(PATHWAYS_LIBS)
	$(CC) -o $@ $^ $(USER_LDLIBS) -lpthread

HOST_TESTS += $(DCN_TEST_DIR)/test_simdev

# A pipeline's stages overlap, on simulated devices in this process: read
# from their trace with pwtrace's parser.
$(DCN_TEST_DIR)/test_pipelining: $(DCN_TEST_DIR)/test_pipelining.o \
		$(BUILD)/selftests/lib/test_fn.o $(PWTRACE_LIB_OBJS) $(PATHWAYS_LIBS)
	$(CC) -o $@ $^ $(USER_LDLIBS) -lpthread

HOST_TESTS += $(DCN_TEST_DIR)/test_pipelining

# A client that issues runs faster than the devices finish them.
$(DCN_TEST_DIR)/test_backlog: $(DCN_TEST_DIR)/test_backlog.o \
		$(BUILD)/selftests/lib/test_fn.o $(PATHWAYS_LIBS)
	$(CC) -o $@ $^ $(USER_LDLIBS) -lpthread

HOST_TESTS += $(DCN_TEST_DIR)/test_backlog

# A pathwaysd cluster of simulated hosts on loopback, and the examples on
# it: no kernel module, so it runs with the host tests. Table 1's
# Transformer step (pwbench's) is checked there too.
$(DCN_TEST_DIR)/test_simcluster: $(DCN_TEST_DIR)/test_simcluster.o \
		$(BUILD)/tools/pwbench_transformer.o \
		$(BUILD)/selftests/lib/test_daemon.o \
		$(BUILD)/selftests/lib/test_key.o \
		$(BUILD)/selftests/lib/test_run.o $(PATHWAYS_LIBS)
	$(CC) -o $@ $^ $(USER_LDLIBS) -lpthread
$(DCN_TEST_DIR)/test_simcluster: | $(BUILD)/tools/pathwaysd $(EXAMPLE_BINS)

HOST_TESTS += $(DCN_TEST_DIR)/test_simcluster

# More hosts than one 64-bit mask holds, simulated, on loopback.
$(DCN_TEST_DIR)/test_manyhosts: $(DCN_TEST_DIR)/test_manyhosts.o \
		$(BUILD)/selftests/lib/test_daemon.o $(BUILD)/selftests/lib/test_fn.o \
		$(BUILD)/selftests/lib/test_key.o \
		$(BUILD)/selftests/lib/test_run.o $(PATHWAYS_LIBS)
	$(CC) -o $@ $^ $(USER_LDLIBS) -lpthread
$(DCN_TEST_DIR)/test_manyhosts: | $(BUILD)/tools/pathwaysd

HOST_TESTS += $(DCN_TEST_DIR)/test_manyhosts

# Sets of hosts, the bitmaps the controller and clients keep.
$(DCN_TEST_DIR)/test_hostset: $(DCN_TEST_DIR)/test_hostset.o
	$(CC) -o $@ $^ $(USER_LDLIBS)

HOST_TESTS += $(DCN_TEST_DIR)/test_hostset
