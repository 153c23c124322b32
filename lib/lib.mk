# libpwtpu: thin helpers around /dev/pwtpuN, its rings and its sysfs.
LIBPWTPU_SRCS := lib/pwtpu_dev.c lib/pwtpu_uring.c lib/pwtpu_sysfs.c
LIBPWTPU := $(BUILD)/libpwtpu.a

$(LIBPWTPU): $(patsubst %.c,$(BUILD)/%.o,$(LIBPWTPU_SRCS))
	$(AR) rcs $@ $^

USER_LIBS += $(LIBPWTPU)

# libpwprog: the program builder (include/pwtpu/pwprog.h).
LIBPWPROG := $(BUILD)/libpwprog.a

$(LIBPWPROG): $(BUILD)/lib/pwprog.o $(BUILD)/lib/pwprog_dispatch.o
	$(AR) rcs $@ $^

USER_LIBS += $(LIBPWPROG)
