# Pathways programs (README, docs/runtime.md): the paper's Figure 2, a
# data-parallel MLP and a 4-stage pipeline, each a client of libpathways.
EXAMPLES := fig2 mlp pipeline
EXAMPLE_BINS := $(patsubst %,$(BUILD)/examples/%,$(EXAMPLES))

$(BUILD)/examples/%: $(BUILD)/examples/%.o $(PATHWAYS_LIBS)
	$(CC) -o $@ $^ $(USER_LDLIBS)

USER_BINS += $(EXAMPLE_BINS)
