# make soak's client (selftests/soak/): a long mix of programs through
# the public API against pathwaysd; run by tools/soak in the testbed.
SOAK_DIR := $(BUILD)/selftests/soak

$(SOAK_DIR)/soak_client: $(SOAK_DIR)/soak_client.o $(PATHWAYS_LIBS)
	$(CC) -o $@ $^ $(USER_LDLIBS)

GUEST_TESTS += $(SOAK_DIR)/soak_client
