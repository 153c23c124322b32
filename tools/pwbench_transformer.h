/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pwbench_transformer.h - the small Transformer of Table 1
 * (pwbench_transformer.c): one decoder block (single-head causal
 * self-attention and a tanh MLP, each with a residual), token
 * embeddings tied to the output layer, softmax cross-entropy on the
 * next token. One training step is one compiled function: forward,
 * backward by hand, gradients summed over the slice (data parallel: a
 * sequence per device) and SGD, so that a step is one call and one
 * EXEC per device, for libpathways and for the multi-controller
 * baseline alike. No positional encoding: the synthetic next token
 * depends on the current one only.
 */
#ifndef PWBENCH_TRANSFORMER_H
#define PWBENCH_TRANSFORMER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <pathways/pathways.h>

#define PWP_TF_T	16	/* tokens a sequence (a device's batch) */
#define PWP_TF_V	32	/* vocabulary */
#define PWP_TF_D	32	/* model width */
#define PWP_TF_F	64	/* MLP width */
#define PWP_TF_LR	0.5

/* The weights, in the order of the step's parameters and results. */
enum pwp_tf_weight {
	PWP_TF_EMB,	/* [V, D], tied to the output layer */
	PWP_TF_QKV,	/* [D, 3D] */
	PWP_TF_O,	/* [D, D] */
	PWP_TF_W1,	/* [D, F] */
	PWP_TF_W2,	/* [F, D] */
	PWP_TF_NWEIGHTS,
};

/* Parameters after the weights: one-hot inputs and next tokens [T, V]. */
#define PWP_TF_X	PWP_TF_NWEIGHTS
#define PWP_TF_Y	(PWP_TF_NWEIGHTS + 1)
/* Results after the updated weights: the slice's mean loss, f32 scalar. */
#define PWP_TF_LOSS	PWP_TF_NWEIGHTS

/* Rows and columns of weight @w. */
void pwp_tf_shape(enum pwp_tf_weight w, uint32_t shape[2]);
/* Elements of weight @w. */
size_t pwp_tf_elems(enum pwp_tf_weight w);

/*
 * The step on a slice of @ndev devices, a sequence each: the gradients
 * and the loss are summed over the slice (all-reduce) and averaged, so
 * every device's weights stay the same. -errno with pw_last_error().
 */
int pwp_tf_step_fn(unsigned int ndev, struct pw_fn **fn);

/* Weights from @seed (every device the same): @w[k] of pwp_tf_elems(k). */
void pwp_tf_init_weights(unsigned int seed, float *const w[PWP_TF_NWEIGHTS]);
/*
 * Device @dev's sequence: x one-hot tokens (a + i·b) mod V, y the next
 * ones, the same rule b everywhere, each device its own start a.
 */
void pwp_tf_data(unsigned int dev, float *x, float *y);

/*
 * The step's arguments on @slice from host memory: the weights @w
 * replicated, the sequences @x and @y (a device's after another) a
 * shard each, into @in[PWP_TF_NWEIGHTS + 2] (unmade ones NULL on error).
 */
int pwp_tf_args(struct pw_client *cl, struct pw_slice *slice,
		float *const w[PWP_TF_NWEIGHTS], const float *x, const float *y,
		struct pw_buffer **in);

/* The step's loss on the host, in double, for tests: its forward pass. */
double pwp_tf_host_loss(const float *const w[PWP_TF_NWEIGHTS],
			const float *x, const float *y);

#endif /* PWBENCH_TRANSFORMER_H */
