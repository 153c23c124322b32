// SPDX-License-Identifier: GPL-2.0
/*
 * test_simcluster.c - a pathwaysd cluster of simulated hosts on this
 * machine, no kernel module: a controller and two workers on loopback,
 * each worker's island simulated in its own process (--devices sim:...,
 * runtime/dcn/wdev_sim.c), their data planes over TCP. The controller,
 * the wire and the clients are the real ones; the examples run on it as
 * on testbed hosts, moving values between hosts.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pathways/pathways.h>

#include "../../runtime/dcn/rclient.h"
#include "../lib/test_daemon.h"
#include "../lib/test_key.h"
#include "../lib/test_run.h"
#include "../../tools/pwbench_transformer.h"
#include "kselftest_harness.h"

#define HOSTS		2
#define OUT_MAX		65536

FIXTURE(cluster) {
	pid_t pid[HOSTS + 1];
	char dir[32];
	char ctl[32];
};

FIXTURE_SETUP(cluster)
{
	char listen[HOSTS][32], host[HOSTS][8], log[HOSTS + 1][64];
	/*
	 * Each test is a child of its own: neighbouring pids must not share
	 * ports (a worker's TCP data port lingers in TIME_WAIT), and the
	 * kernel's ephemeral ports start at 32768.
	 */
	unsigned int port = 10000 + (unsigned int)getpid() % 500 * 40, h;
	struct pw_auth_key key;
	char want[32];
	int tries;

	ASSERT_EQ(0, test_cluster_key(&key));
	strcpy(self->dir, "/tmp/pwsimXXXXXX");
	ASSERT_NE(NULL, mkdtemp(self->dir));
	snprintf(self->ctl, sizeof(self->ctl), "127.0.0.1:%u", port);
	snprintf(log[HOSTS], sizeof(log[HOSTS]), "%s/controller.log",
		 self->dir);
	self->pid[HOSTS] = test_daemon_start((const char *const[]){
		"--role", "controller", "--listen", self->ctl, NULL },
		log[HOSTS]);
	ASSERT_LT(0, self->pid[HOSTS]);
	for (h = 0; h < HOSTS; h++) {
		snprintf(listen[h], sizeof(listen[h]), "127.0.0.1:%u",
			 port + 10 * (h + 1));
		snprintf(host[h], sizeof(host[h]), "%u", h);
		snprintf(log[h], sizeof(log[h]), "%s/worker%u.log", self->dir,
			 h);
		self->pid[h] = test_daemon_start((const char *const[]){
			"--role", "worker", "--listen", listen[h],
			"--controller", self->ctl, "--host-id", host[h],
			"--data", "tcp",
			"--devices", "sim:2x2,hbm_mib=16,timing=native", NULL },
			log[h]);
		ASSERT_LT(0, self->pid[h]);
	}
	/*
	 * Every host registered with the controller, within 20 s, and said
	 * so itself (it prints once its REGISTER is sent, maybe later).
	 */
	for (tries = 0; tries < 200; tries++) {
		for (h = 0; h < HOSTS; h++) {
			snprintf(want, sizeof(want), "host %u registered", h);
			if (!test_log_has(log[HOSTS], want) ||
			    !test_log_has(log[h], "4 simulated devices (2x2)"))
				break;
		}
		if (h == HOSTS)
			break;
		usleep(100000);
	}
	ASSERT_EQ((unsigned int)HOSTS, h);
}

FIXTURE_TEARDOWN(cluster)
{
	char cmd[64], log[64];
	unsigned int h;

	for (h = 0; h <= HOSTS; h++) {
		if (h < HOSTS)
			snprintf(log, sizeof(log), "%s/worker%u.log", self->dir,
				 h);
		else
			snprintf(log, sizeof(log), "%s/controller.log",
				 self->dir);
		EXPECT_TRUE(test_daemon_stop(self->pid[h], log)) TH_LOG("%s", log);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", self->dir);
	if (system(cmd))
		TH_LOG("could not remove %s", self->dir);
}

/* Example @name against the cluster: its exit status, its output. */
static int example(const char *ctl, const char *name, char *out, size_t max)
{
	char exe[PATH_MAX], rel[64], cmd[PATH_MAX + 128];

	snprintf(rel, sizeof(rel), "examples/%s", name);
	test_build_path(exe, sizeof(exe), rel);
	snprintf(cmd, sizeof(cmd), "%s --connect %s 2>&1", exe, ctl);
	return test_run(cmd, out, max);
}

TEST_F_TIMEOUT(cluster, fig2_runs_on_simulated_hosts, 120)
{
	static char out[OUT_MAX];

	EXPECT_EQ(0, example(self->ctl, "fig2", out, sizeof(out)));
	EXPECT_STREQ("(3 5) (2 4)\n", out);
}

/* Stages on different hosts: their activations cross the data plane. */
TEST_F_TIMEOUT(cluster, a_pipeline_across_hosts_equals_the_model, 300)
{
	static char out[OUT_MAX];

	EXPECT_EQ(0, example(self->ctl, "pipeline", out, sizeof(out)));
	EXPECT_NE(NULL, strstr(out, "host 1,"));
	EXPECT_NE(NULL,
		  strstr(out, "pipelined result equals the unpipelined model"))
		TH_LOG("%s", out);
}

TEST_F_TIMEOUT(cluster, the_mlp_trains_across_hosts, 300)
{
	static char out[OUT_MAX];

	EXPECT_EQ(0, example(self->ctl, "mlp", out, sizeof(out)))
		TH_LOG("%s", out);
	/* It checks itself against one slice alone, and says so. */
	EXPECT_NE(NULL, strstr(out, "one slice alone:"));
}

/* x = all-reduce(max, x) + 1 over f32[1] on each device of a slice. */
static struct pw_fn *max_plus_one(void)
{
	const uint32_t one = 1;
	struct pw_fn_builder *b = pw_fn_begin("max_plus_one");
	pw_val x = pw_fn_param(b, PWTPU_DT_F32, 1, &one);
	struct pw_fn *fn = NULL;

	x = pw_fn_all_reduce(b, PWTPU_REDUCE_MAX, x);
	pw_fn_result(b, pw_fn_binary(b, PWTPU_OP_ADD, x,
				     pw_fn_scalar(b, PWTPU_DT_F32, 1)));
	pw_fn_build(b, &fn);
	return fn;
}

/*
 * A group of one 2-device slice on each host: three computations, each
 * one node on the group, run on both islands, each all-reduce within
 * its own island. The argument is one buffer id made on both hosts,
 * the result one id read on each: 4 = max(1, 4), then + 1 three times.
 */
TEST_F_TIMEOUT(cluster, a_group_computes_on_every_island_under_one_id, 120)
{
	const float init[2] = { 1, 4 };
	const uint32_t shape = 1;
	uint32_t g, fid, prog, in, out;
	struct pw_remote *r = NULL;
	struct pw_rprog *p;
	struct pw_fn *fn;
	unsigned int h, k;
	float x[2];
	int v;

	ASSERT_EQ(0, pw_remote_connect(self->ctl, "test_group", &r))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_remote_slice_group(r, 2, 2, NULL, &g))
		TH_LOG("%s", pw_last_error());
	fn = max_plus_one();
	ASSERT_NE(NULL, fn) TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_remote_function(r, fn, &fid));
	p = pw_rprog_begin();
	v = pw_rprog_arg_sharded(p, g, 2, PWTPU_DT_F32, 1, &shape);
	for (k = 0; k < 3; k++)
		ASSERT_EQ(0, pw_rprog_call_sharded(p, fn, fid, g, 2, &v, 1,
						   &v));
	ASSERT_EQ(0, pw_rprog_results(p, &v, 1));
	ASSERT_EQ(0, pw_remote_program(r, p, &prog))
		TH_LOG("%s", pw_last_error());
	pw_rprog_free(p);
	pw_fn_put(fn);
	ASSERT_EQ(0, pw_remote_buffer_sharded(r, g, PWTPU_DT_F32, 1, &shape,
					      init, false, &in))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_remote_run(r, prog, &in, 1, &out, 1))
		TH_LOG("%s", pw_last_error());
	for (h = 0; h < 2; h++) {
		ASSERT_EQ(0, pw_remote_read(r, h, in, x, sizeof(x)))
			TH_LOG("%s", pw_last_error());
		EXPECT_EQ(1.0f, x[0]);
		EXPECT_EQ(4.0f, x[1]);
		ASSERT_EQ(0, pw_remote_read(r, h, out, x, sizeof(x)))
			TH_LOG("%s", pw_last_error());
		EXPECT_EQ(7.0f, x[0]) TH_LOG("host %u", h);
		EXPECT_EQ(7.0f, x[1]) TH_LOG("host %u", h);
	}
	EXPECT_EQ(0, pw_remote_free(r, 0, in));
	EXPECT_EQ(0, pw_remote_free(r, 0, out));
	pw_remote_close(r);
}

/*
 * Through pathways.h: a slice near another fills that island before
 * crossing to the other (host 1 stays idle until host 0's four devices
 * are taken), and a slice of another client is no slice to be near.
 */
TEST_F_TIMEOUT(cluster, slices_near_each_other_fill_an_island_first, 120)
{
	struct pw_connect_opts o = { .address = self->ctl, .name = "near" };
	struct pw_slice *s0, *s1, *s2, *other_s, *none;
	struct pw_client *cl, *other;
	struct pw_vset *vs, *other_vs;

	ASSERT_EQ(0, pw_connect(&o, &cl)) TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_make_virtual_device_set(cl, &vs));
	ASSERT_EQ(0, pw_add_slice(vs, 2, NULL, &s0));
	EXPECT_EQ(0, pw_slice_host(s0));
	ASSERT_EQ(0, pw_add_slice_near(vs, 2, NULL, s0, &s1))
		TH_LOG("%s", pw_last_error());
	EXPECT_EQ(0, pw_slice_host(s1));
	ASSERT_EQ(0, pw_add_slice_near(vs, 1, NULL, s1, &s2));
	EXPECT_EQ(1, pw_slice_host(s2));
	ASSERT_EQ(0, pw_connect(&o, &other)) TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_make_virtual_device_set(other, &other_vs));
	ASSERT_EQ(0, pw_add_slice(other_vs, 1, NULL, &other_s));
	EXPECT_EQ(-EINVAL, pw_add_slice_near(vs, 1, NULL, other_s, &none));
	EXPECT_NE(NULL, strstr(pw_last_error(), "not this client's"))
		TH_LOG("%s", pw_last_error());
	EXPECT_EQ(-EINVAL, pw_add_slice_near(vs, 1, NULL, NULL, &none));
	pw_disconnect(other);
	pw_disconnect(cl);
}

/* Table 1's Transformer: weights, data and loss of one slice. */
struct tf_run {
	struct pw_client *cl;
	struct pw_slice *slice;
	struct pw_fn *fn;
	unsigned int ndev;
	float *w[PWP_TF_NWEIGHTS];
	float *x, *y;
};

/* Mean over the slice's sequences of the host's loss at weights @w. */
static double tf_host_loss(const struct tf_run *t, float *const *w)
{
	const float *cw[PWP_TF_NWEIGHTS];
	double sum = 0;
	unsigned int k, v;

	for (k = 0; k < PWP_TF_NWEIGHTS; k++)
		cw[k] = w[k];
	for (v = 0; v < t->ndev; v++)
		sum += pwp_tf_host_loss(cw, t->x + v * PWP_TF_T * PWP_TF_V,
					t->y + v * PWP_TF_T * PWP_TF_V);
	return sum / t->ndev;
}

/* One step on the devices: t->w becomes the new weights; its loss. */
static int tf_step(struct tf_run *t, float *loss)
{
	struct pw_buffer *in[PWP_TF_NWEIGHTS + 2], *out[PWP_TF_NWEIGHTS + 1];
	unsigned int k;
	int ret;

	memset(out, 0, sizeof(out));
	ret = pwp_tf_args(t->cl, t->slice, t->w, t->x, t->y, in);
	if (!ret)
		ret = pw_call(t->cl, t->fn, t->slice, in, PWP_TF_NWEIGHTS + 2,
			      out, PWP_TF_NWEIGHTS + 1);
	/* Every device holds the same weights: shard 0's are read. */
	for (k = 0; k < PWP_TF_NWEIGHTS && !ret; k++) {
		size_t bytes = pwp_tf_elems(k) * sizeof(float);
		float *all = malloc(bytes * t->ndev);

		ret = all ? pw_buffer_to_host(out[k], all, bytes * t->ndev) :
		      -ENOMEM;
		if (!ret)
			memcpy(t->w[k], all, bytes);
		free(all);
	}
	if (!ret) {
		/* Every device holds the all-reduced loss: read them all. */
		float *l = malloc(t->ndev * sizeof(*l));

		ret = l ? pw_buffer_to_host(out[PWP_TF_LOSS], l,
					    t->ndev * sizeof(*l)) : -ENOMEM;
		if (!ret)
			*loss = l[0];
		free(l);
	}
	for (k = 0; k < PWP_TF_NWEIGHTS + 2; k++)
		if (in[k])
			pw_buffer_put(in[k]);
	for (k = 0; k < PWP_TF_NWEIGHTS + 1; k++)
		if (out[k])
			pw_buffer_put(out[k]);
	return ret;
}

/*
 * The Transformer step of Table 1 (tools/pwbench_transformer.c) on a
 * simulated 2x2 island, a sequence per device: its loss is the host's
 * forward pass, its update is -lr times the mean gradient that central
 * differences of the host's loss give (on the largest entry of each
 * third of every weight's columns: Q, K and V of the attention's), and
 * 40 steps cut the loss to under a third.
 */
TEST_F_TIMEOUT(cluster, the_transformer_step_is_the_hosts_and_learns, 300)
{
	struct pw_connect_opts o = { .address = self->ctl, .name = "tf" };
	float *w0[PWP_TF_NWEIGHTS], loss, first;
	struct tf_run t = { .ndev = 4 };
	struct pw_vset *vs;
	unsigned int k, step;
	size_t i;

	ASSERT_EQ(0, pw_connect(&o, &t.cl)) TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, pw_make_virtual_device_set(t.cl, &vs));
	ASSERT_EQ(0, pw_add_slice(vs, t.ndev, NULL, &t.slice));
	ASSERT_EQ(0, pwp_tf_step_fn(t.ndev, &t.fn)) TH_LOG("%s", pw_last_error());
	for (k = 0; k < PWP_TF_NWEIGHTS; k++) {
		t.w[k] = malloc(pwp_tf_elems(k) * sizeof(float));
		w0[k] = malloc(pwp_tf_elems(k) * sizeof(float));
		ASSERT_TRUE(t.w[k] && w0[k]);
	}
	pwp_tf_init_weights(1, t.w);
	t.x = calloc(t.ndev, PWP_TF_T * PWP_TF_V * sizeof(float));
	t.y = calloc(t.ndev, PWP_TF_T * PWP_TF_V * sizeof(float));
	ASSERT_TRUE(t.x && t.y);
	for (k = 0; k < t.ndev; k++)
		pwp_tf_data(k, t.x + k * PWP_TF_T * PWP_TF_V,
			    t.y + k * PWP_TF_T * PWP_TF_V);
	for (k = 0; k < PWP_TF_NWEIGHTS; k++)
		memcpy(w0[k], t.w[k], pwp_tf_elems(k) * sizeof(float));

	ASSERT_EQ(0, tf_step(&t, &first)) TH_LOG("%s", pw_last_error());
	EXPECT_TRUE(fabs(tf_host_loss(&t, w0) - first) <= 1e-4 * first)
		TH_LOG("device %.6f, host %.6f", first, tf_host_loss(&t, w0));
	for (k = 0; k < PWP_TF_NWEIGHTS; k++) {
		size_t n = pwp_tf_elems(k), probe[3] = { 0, 0, 0 };
		bool have[3] = { false, false, false };
		uint32_t shape[2];
		unsigned int j;

		/* The largest update in each third of the columns (Q, K, V). */
		pwp_tf_shape(k, shape);
		for (i = 0; i < n; i++) {
			j = (unsigned int)(i % shape[1]) * 3 / shape[1];
			if (!have[j] ||
			    fabsf(w0[k][i] - t.w[k][i]) >
			    fabsf(w0[k][probe[j]] - t.w[k][probe[j]])) {
				probe[j] = i;
				have[j] = true;
			}
		}
		for (j = 0; j < 3; j++) {
			const float eps = 1e-2f, keep = w0[k][probe[j]];
			double up, down, fd, g;

			w0[k][probe[j]] = keep + eps;
			up = tf_host_loss(&t, w0);
			w0[k][probe[j]] = keep - eps;
			down = tf_host_loss(&t, w0);
			w0[k][probe[j]] = keep;
			fd = (up - down) / (2 * eps);
			g = (keep - t.w[k][probe[j]]) / PWP_TF_LR;
			EXPECT_TRUE(fabs(fd - g) <= 2e-3 + 2e-2 * fabs(fd))
				TH_LOG("weight %u entry %zu: device %.6f, host %.6f",
				       k, probe[j], g, fd);
		}
	}
	for (step = 1; step < 40; step++)
		ASSERT_EQ(0, tf_step(&t, &loss)) TH_LOG("%s", pw_last_error());
	TH_LOG("loss %.4f after 1 step, %.4f after 40", first, loss);
	EXPECT_LT(loss, first / 3);
	for (k = 0; k < PWP_TF_NWEIGHTS; k++) {
		free(t.w[k]);
		free(w0[k]);
	}
	free(t.x);
	free(t.y);
	pw_fn_put(t.fn);
	pw_disconnect(t.cl);
}

/* A data plane is the worker's to choose: the client knows only "off". */
TEST_F_TIMEOUT(cluster, an_unknown_pathways_data_is_refused_by_name, 60)
{
	struct pw_connect_opts o = { .address = self->ctl, .name = "data" };
	struct pw_client *cl = NULL;

	ASSERT_EQ(0, setenv("PATHWAYS_DATA", "rdma", 1));
	EXPECT_EQ(-EINVAL, pw_connect(&o, &cl));
	EXPECT_NULL(cl);
	EXPECT_NE(NULL, strstr(pw_last_error(), "PATHWAYS_DATA=rdma"))
		TH_LOG("%s", pw_last_error());
	ASSERT_EQ(0, setenv("PATHWAYS_DATA", "off", 1));
	ASSERT_EQ(0, pw_connect(&o, &cl)) TH_LOG("%s", pw_last_error());
	pw_disconnect(cl);
	unsetenv("PATHWAYS_DATA");
}

TEST_HARNESS_MAIN
