# Island unit tests: mesh links, routing and the link model
# (test_island), and the gang rendezvous with threads as devices
# (test_rv). Host tests, linked against the firmware's user-space library.
ISLAND_TEST_NAMES := island rv
ISLAND_TEST_DIR := $(BUILD)/selftests/firmware
ISLAND_TEST_BINS := $(patsubst %,$(ISLAND_TEST_DIR)/test_%,$(ISLAND_TEST_NAMES))

# The kernel's kselftest_harness.h is not -Wextra clean (unused
# parameters in its TEST() wrappers).
$(patsubst %,%.o,$(ISLAND_TEST_BINS)): USER_CFLAGS += -Wno-unused-parameter

$(ISLAND_TEST_BINS): $(ISLAND_TEST_DIR)/%: $(ISLAND_TEST_DIR)/%.o $(FW_LIB)
	$(CC) -o $@ $^ $(USER_LDLIBS)

HOST_TESTS += $(ISLAND_TEST_BINS)
