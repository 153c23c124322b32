# The demo's own program: one checked matmul on a device.
$(BUILD)/tools/pwtpu-matmul: $(BUILD)/tools/pwtpu-matmul.o $(BUILD)/libpwprog.a $(BUILD)/libpwtpu.a
	$(CC) -o $@ $^ $(USER_LDLIBS)

USER_BINS += $(BUILD)/tools/pwtpu-matmul
