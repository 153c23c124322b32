# libpathways: the Pathways runtime (include/pathways/). So far the
# resource manager (runtime/rm/, docs/runtime.md).
LIBPATHWAYS_SRCS := runtime/rm/rm.c runtime/rm/rm_place.c \
	runtime/rm/rm_island.c
LIBPATHWAYS := $(BUILD)/libpathways.a

$(LIBPATHWAYS): $(patsubst %.c,$(BUILD)/%.o,$(LIBPATHWAYS_SRCS))
	$(AR) rcs $@ $^

USER_LIBS += $(LIBPATHWAYS)
