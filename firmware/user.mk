# The firmware as a user-space static library: the same sources as in
# pwtpu.ko, plus the user-space platform. FPU files get the same
# floating-point semantics flags as in the kernel build (driver/Kbuild).
FW_SRCS := $(wildcard firmware/*.c) firmware/user/platform_user.c
FW_OBJS := $(patsubst %.c,$(BUILD)/%.o,$(FW_SRCS))
FW_LIB := $(BUILD)/libpwfw.a

$(FW_LIB): $(FW_OBJS)
	$(AR) rcs $@ $^

USER_LIBS += $(FW_LIB)

# The AVX2 path of MATMUL is the one file with AVX2 code (never FMA: the
# documented order rounds products and sums separately); it runs only
# when pwfw_plat_simd() says the CPU has AVX2. As in driver/Kbuild.
$(BUILD)/firmware/pwfw_fpu_mxu_avx2.o: USER_CFLAGS += -mavx2
