# Collective tests: simulated islands in user space (one pthread per
# device) running the firmware's collectives, checked against references
# in the tests; and the verifier's collective rules.
COLL_TEST_DIR := $(BUILD)/selftests/firmware
COLL_SIM_TESTS := $(patsubst %,$(COLL_TEST_DIR)/test_%,coll coll_gang)
COLL_SIM_OBJS := $(patsubst %,$(COLL_TEST_DIR)/%.o,coll_sim coll_ref ops_util)
COLL_VERIFY_TEST := $(COLL_TEST_DIR)/test_verify_coll

$(COLL_SIM_TESTS): $(COLL_TEST_DIR)/%: $(COLL_TEST_DIR)/%.o $(COLL_SIM_OBJS) \
		$(BUILD)/libpwprog.a $(FW_LIB)
	$(CC) -o $@ $^ $(USER_LDLIBS)

$(COLL_VERIFY_TEST): %: %.o $(FW_LIB)
	$(CC) -o $@ $^ $(USER_LDLIBS)

HOST_TESTS += $(COLL_SIM_TESTS) $(COLL_VERIFY_TEST)
