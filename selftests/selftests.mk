# Test fragments: each appends to HOST_TESTS or GUEST_TESTS.

# A test that links selftests/lib/fault.o links with these too: the
# allocator's and the devices' calls of its objects and static libraries
# go through it.
FAULT_LDFLAGS := -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc \
	-Wl,--wrap=ioctl,--wrap=mmap,--wrap=io_uring_submit

include selftests/driver/driver.mk
include selftests/firmware/ops.mk
include selftests/firmware/firmware.mk
include selftests/tools/tools.mk
include selftests/firmware/island.mk
include selftests/firmware/coll.mk
include selftests/runtime/runtime.mk
include selftests/pathways/pathways.mk
include selftests/net/net.mk
include selftests/net/dpdk.mk
include selftests/net/dp.mk
include selftests/dcn/dcn.mk
include selftests/fuzz/fuzz.mk
include selftests/soak/soak.mk
