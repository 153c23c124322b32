// SPDX-License-Identifier: GPL-2.0
/*
 * test_pwtrace.c - pwtrace's parser and converter on single lines and on
 * a checked-in trace (pwtrace_sample.txt, next to this file): which
 * events come out, on which tracks, with which times and arguments, and
 * the JSON text they are written as.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kselftest_harness.h"

#include "../../tools/pwtrace.h"

/* Sample times are 100.000xxx s: T(us) is that instant in ns. */
#define T(us)	(100000000000ull + (us) * 1000ull)

static const char *sample_path(void)
{
	static char path[512];
	const char *env = getenv("PWTRACE_SAMPLE");
	const char *slash = strrchr(__FILE__, '/');

	if (env)
		return env;
	snprintf(path, sizeof(path), "%.*s/pwtrace_sample.txt",
		 slash ? (int)(slash - __FILE__) : 1, slash ? __FILE__ : ".");
	return path;
}

TEST(parse_ftrace_line)
{
	struct pwtrace_rec r;

	ASSERT_EQ(1, pwtrace_parse_line("     pwtpu0-312     [000] ..... "
					"  812.345678: pwtpu_complete: dev=3 "
					"id=42 cmd=0x14 result=-22 "
					"queue_ns=5 exec_ns=77\n", &r));
	EXPECT_EQ((unsigned int)PWTRACE_COMPLETE, r.kind);
	EXPECT_EQ(812345678000ull, r.ts_ns);
	EXPECT_EQ(3u, r.dev);
	EXPECT_EQ(42ull, r.id);
	EXPECT_EQ(0x14u, r.cmd);
	EXPECT_EQ(-22, r.result);
	EXPECT_EQ(5ull, r.queue_ns);
	EXPECT_EQ(77ull, r.exec_ns);
}

TEST(parse_trace_cmd_nanoseconds)
{
	struct pwtrace_rec r;

	ASSERT_EQ(1, pwtrace_parse_line("  pwtpu1-9 [001]  5.000000123: "
					"pwtpu_link:    dev=1 from=1 to=2 "
					"bytes=4096 model_ns=91", &r));
	EXPECT_EQ((unsigned int)PWTRACE_LINK, r.kind);
	EXPECT_EQ(5000000123ull, r.ts_ns);
	EXPECT_EQ(1u, r.dev);
	EXPECT_EQ(2u, r.to);
	EXPECT_EQ(4096ull, r.bytes);
	EXPECT_EQ(91ull, r.model_ns);
}

TEST(parse_perf_script_and_names)
{
	struct pwtrace_rec r;

	/* perf names the system; the command is printed by name. */
	ASSERT_EQ(1, pwtrace_parse_line(" pwbench 400 [000] 1.5: "
					"pwtpu:pwtpu_start: dev=0 id=1 "
					"cmd=copy_peer", &r));
	EXPECT_EQ((unsigned int)PWTRACE_START, r.kind);
	EXPECT_EQ(1500000000ull, r.ts_ns);
	EXPECT_EQ(0x14u, r.cmd);
	/* An unknown command number as __print_symbolic shows it. */
	ASSERT_EQ(1, pwtrace_parse_line("x-1 [0] 2.0: pwtpu_submit: dev=1 "
					"id=2 cmd=0x1f", &r));
	EXPECT_EQ(0x1fu, r.cmd);
	ASSERT_EQ(1, pwtrace_parse_line("x-1 [0] 2.0: pwtpu_coll: dev=7 "
					"gang=0xfeedface00000001 seq=3 op=26 "
					"phase=step arg=-5", &r));
	EXPECT_EQ((unsigned int)PWTRACE_COLL, r.kind);
	EXPECT_EQ(0xfeedface00000001ull, r.gang);
	EXPECT_EQ(3u, r.seq);
	EXPECT_EQ(26u, r.op);
	EXPECT_EQ((unsigned int)PWTRACE_STEP, r.phase);
	EXPECT_EQ(-5, r.result);
}

TEST(parse_ignores_and_rejects)
{
	struct pwtrace_rec r;

	EXPECT_EQ(0, pwtrace_parse_line("# tracer: nop\n", &r));
	EXPECT_EQ(0, pwtrace_parse_line("", &r));
	EXPECT_EQ(0, pwtrace_parse_line("CPU:1 [LOST 3 EVENTS]", &r));
	EXPECT_EQ(0, pwtrace_parse_line("<idle>-0 [001] d..2. 1.0: "
					"sched_switch: next_comm=pwtpu3", &r));
	/* A task called like an event is not one: no timestamp before it. */
	EXPECT_EQ(0, pwtrace_parse_line("pwtpu_start: dev=0 id=1 cmd=nop",
					&r));
	/* pwtpu events with broken fields. */
	EXPECT_EQ(-EINVAL, pwtrace_parse_line("a-1 [0] 1.0: pwtpu_complete: "
					      "dev=0 id=1 cmd=0x11 result=x",
					      &r));
	EXPECT_EQ(-EINVAL, pwtrace_parse_line("a-1 [0] 1.0: pwtpu_coll: dev=0 "
					      "gang=0x1 seq=0 op=24 "
					      "phase=later arg=0", &r));
	EXPECT_EQ(-EINVAL, pwtrace_parse_line("a-1 [0] 1.0: pwtpu_link: "
					      "dev=-1 to=2 bytes=1 model_ns=1",
					      &r));
	EXPECT_EQ(-EINVAL, pwtrace_parse_line("a-1 [0] 1.0: pwtpu_start: "
					      "dev=0 id=1", &r));
}

FIXTURE(sample) {
	struct pwtrace_conv c;
	uint64_t bad;
};

FIXTURE_SETUP(sample)
{
	FILE *f = fopen(sample_path(), "r");

	ASSERT_NE(NULL, f) TH_LOG("%s: %s", sample_path(), strerror(errno));
	pwtrace_conv_init(&self->c, 0);
	self->bad = 0;
	ASSERT_EQ(0, pwtrace_read(f, &self->c, 0, &self->bad));
	fclose(f);
}

FIXTURE_TEARDOWN(sample)
{
	pwtrace_conv_free(&self->c);
}

static const struct pwtrace_event *find(const struct pwtrace_conv *c,
					const char *name, uint32_t tid,
					uint64_t ts)
{
	size_t i;

	for (i = 0; i < c->nevents; i++)
		if (!strcmp(c->events[i].name, name) &&
		    c->events[i].tid == tid && c->events[i].ts_ns == ts)
			return &c->events[i];
	return NULL;
}

static size_t count(const struct pwtrace_conv *c, const char *name,
		    uint32_t tid)
{
	size_t i, n = 0;

	for (i = 0; i < c->nevents; i++)
		n += !strcmp(c->events[i].name, name) &&
		     c->events[i].tid == tid;
	return n;
}

TEST_F(sample, totals)
{
	EXPECT_EQ(28ull, self->c.records);
	EXPECT_EQ(1ull, self->bad);
	EXPECT_EQ(1ull, self->c.unmatched);
	EXPECT_EQ(20u, self->c.nevents);
	EXPECT_EQ(0u, self->c.nopen);
}

TEST_F(sample, commands_span_start_to_complete)
{
	const struct pwtrace_event *e;

	e = find(&self->c, "exec", pwtrace_dev_tid(0), T(200));
	ASSERT_NE(NULL, e);
	EXPECT_EQ('X', e->ph);
	EXPECT_EQ(0u, e->pid);
	EXPECT_EQ(130000ull, e->dur_ns);
	EXPECT_STREQ("\"id\":7,\"result\":0,\"queue_ns\":100000,"
		     "\"exec_ns\":130000", e->args);

	e = find(&self->c, "copy_peer", pwtrace_dev_tid(2), T(1000));
	ASSERT_NE(NULL, e);
	EXPECT_EQ(4000ull, e->dur_ns);

	/* Its start was before the trace: placed by the device's time. */
	e = find(&self->c, "exec", pwtrace_dev_tid(3), T(30));
	ASSERT_NE(NULL, e);
	EXPECT_EQ(20000ull, e->dur_ns);

	/* Started, never completed (its complete line is broken). */
	e = find(&self->c, "exec", pwtrace_dev_tid(5), T(2450));
	ASSERT_NE(NULL, e);
	EXPECT_EQ(50000ull, e->dur_ns);
	EXPECT_STREQ("\"id\":1,\"unfinished\":true", e->args);
	/* Submitted only: nothing drawn. */
	EXPECT_EQ(0u, count(&self->c, "nop", pwtrace_dev_tid(5)));
}

TEST_F(sample, collective_join_to_done)
{
	const struct pwtrace_event *e;

	e = find(&self->c, "all_reduce", pwtrace_dev_tid(0), T(210));
	ASSERT_NE(NULL, e);
	EXPECT_EQ('X', e->ph);
	EXPECT_EQ(110000ull, e->dur_ns);
	EXPECT_STREQ("\"gang\":\"0xabc\",\"seq\":0,\"wait_ns\":96000,"
		     "\"result\":0", e->args);
	e = find(&self->c, "rendezvous", pwtrace_dev_tid(0), T(210));
	ASSERT_NE(NULL, e);
	EXPECT_EQ(96000ull, e->dur_ns);

	e = find(&self->c, "all_reduce", pwtrace_dev_tid(1), T(305));
	ASSERT_NE(NULL, e);
	EXPECT_EQ(16000ull, e->dur_ns);

	e = find(&self->c, "start", pwtrace_dev_tid(1), T(306));
	ASSERT_NE(NULL, e);
	EXPECT_EQ('i', e->ph);
	e = find(&self->c, "step", pwtrace_dev_tid(0), T(309));
	ASSERT_NE(NULL, e);
	EXPECT_STREQ("\"gang\":\"0xabc\",\"seq\":0,\"arg\":0", e->args);
}

TEST_F(sample, collective_timeout_and_unfinished)
{
	const struct pwtrace_event *e;

	/* Its peers never came: all wait, no rendezvous span. */
	e = find(&self->c, "all_reduce", pwtrace_dev_tid(4), T(400));
	ASSERT_NE(NULL, e);
	EXPECT_EQ(2000000ull, e->dur_ns);
	EXPECT_STREQ("\"gang\":\"0xbeef\",\"seq\":0,\"wait_ns\":2000000,"
		     "\"result\":-110", e->args);
	EXPECT_EQ(0u, count(&self->c, "rendezvous", pwtrace_dev_tid(4)));

	/* Still waiting when the trace ended (at 100.002500). */
	e = find(&self->c, "all_gather", pwtrace_dev_tid(3), T(2000));
	ASSERT_NE(NULL, e);
	EXPECT_EQ(500000ull, e->dur_ns);
	EXPECT_STREQ("\"gang\":\"0xdead\",\"seq\":1,\"wait_ns\":500000,"
		     "\"unfinished\":true", e->args);
}

TEST_F(sample, link_hops_on_sender_tracks)
{
	const struct pwtrace_event *e;

	EXPECT_EQ(2u, count(&self->c, "transfer", pwtrace_link_tid(0, 1)));
	EXPECT_EQ(1u, count(&self->c, "transfer", pwtrace_link_tid(1, 0)));
	e = find(&self->c, "transfer", pwtrace_link_tid(0, 1), T(307));
	ASSERT_NE(NULL, e);
	EXPECT_EQ(1000ull, e->dur_ns);
	EXPECT_STREQ("\"to\":1,\"bytes\":2048,\"model_ns\":1000,"
		     "\"queued_ns\":0", e->args);
	/*
	 * Traced at 307.5 us to arrive at 309 us, while the link carried
	 * the previous transfer until 308 us.
	 */
	e = find(&self->c, "transfer", pwtrace_link_tid(0, 1), T(308));
	ASSERT_NE(NULL, e);
	EXPECT_EQ(1000ull, e->dur_ns);
	EXPECT_STREQ("\"to\":1,\"bytes\":2048,\"model_ns\":1500,"
		     "\"queued_ns\":500", e->args);
	/* A two-hop copy: one hop on each sender's link. */
	EXPECT_NE(NULL, find(&self->c, "transfer", pwtrace_link_tid(2, 6),
			     T(1001)));
	EXPECT_NE(NULL, find(&self->c, "transfer", pwtrace_link_tid(6, 5),
			     T(1001)));
}

TEST_F(sample, tracks_named)
{
	static const struct {
		uint32_t tid;
		const char *name;
	} want[] = {
		{ 100, "pwtpu0" }, { 102, "pwtpu0 -> pwtpu1" },
		{ 200, "pwtpu1" }, { 201, "pwtpu1 -> pwtpu0" },
		{ 300, "pwtpu2" }, { 307, "pwtpu2 -> pwtpu6" },
		{ 400, "pwtpu3" }, { 500, "pwtpu4" }, { 600, "pwtpu5" },
		{ 700, "pwtpu6" }, { 706, "pwtpu6 -> pwtpu5" },
	};
	size_t i, j;

	EXPECT_EQ(sizeof(want) / sizeof(want[0]), self->c.ntracks);
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		for (j = 0; j < self->c.ntracks; j++)
			if (self->c.tracks[j].tid == want[i].tid)
				break;
		ASSERT_LT(j, self->c.ntracks) TH_LOG("no track %u",
						     want[i].tid);
		EXPECT_STREQ(want[i].name, self->c.tracks[j].name);
		EXPECT_EQ(0u, self->c.tracks[j].pid);
	}
}

/* The JSON text: an object per line, the exact form of a few. */
TEST_F(sample, json_text)
{
	static const char *const lines[] = {
		"{\"displayTimeUnit\":\"ns\",\"traceEvents\":[",
		"{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":0,"
		"\"args\":{\"name\":\"island 0\"}},",
		"{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":0,\"tid\":102,"
		"\"args\":{\"name\":\"pwtpu0 -> pwtpu1\"}},",
		"{\"name\":\"exec\",\"cat\":\"cmd\",\"ph\":\"X\",\"pid\":0,"
		"\"tid\":100,\"ts\":100000200.000,\"dur\":130.000,\"args\":"
		"{\"id\":7,\"result\":0,\"queue_ns\":100000,"
		"\"exec_ns\":130000}},",
		"{\"name\":\"transfer\",\"cat\":\"link\",\"ph\":\"X\",\"pid\":0,"
		"\"tid\":102,\"ts\":100000308.000,\"dur\":1.000,\"args\":"
		"{\"to\":1,\"bytes\":2048,\"model_ns\":1500,"
		"\"queued_ns\":500}},",
		"{\"name\":\"step\",\"cat\":\"coll\",\"ph\":\"i\",\"pid\":0,"
		"\"tid\":200,\"ts\":100000309.000,\"s\":\"t\",\"args\":"
		"{\"gang\":\"0xabc\",\"seq\":0,\"arg\":0}},",
		"]}",
	};
	char *text = NULL, *line, *save = NULL;
	size_t len = 0, i, nlines = 0, found = 0;
	FILE *f = open_memstream(&text, &len);

	ASSERT_NE(NULL, f);
	ASSERT_EQ(0, pwtrace_write_json(f, &self->c));
	fclose(f);
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		size_t l = strlen(line);

		nlines++;
		/* Every event line is one whole object. */
		if (nlines > 1 && strcmp(line, "]}")) {
			EXPECT_EQ('{', line[0]);
			EXPECT_TRUE(line[l - 1] == ',' || line[l - 1] == '}')
				TH_LOG("line: %s", line);
		}
		for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
			found += !strcmp(line, lines[i]);
	}
	EXPECT_EQ(sizeof(lines) / sizeof(lines[0]), found);
	/* Header, 1 process + 2 lines per track, the events, the end. */
	EXPECT_EQ(1 + 1 + 2 * self->c.ntracks + self->c.nevents + 1, nlines);
	free(text);
}

TEST(islands_are_processes)
{
	static const char a[] = "x-1 [0] 1.0: pwtpu_start: dev=0 id=1 cmd=nop\n"
				"x-1 [0] 1.1: pwtpu_complete: dev=0 id=1 "
				"cmd=0x10 result=0 queue_ns=1 exec_ns=1\n";
	struct pwtrace_conv c;
	uint64_t bad = 0;
	FILE *f;

	pwtrace_conv_init(&c, 0);
	f = fmemopen((void *)a, sizeof(a) - 1, "r");
	ASSERT_EQ(0, pwtrace_read(f, &c, 3, &bad));
	fclose(f);
	f = fmemopen((void *)a, sizeof(a) - 1, "r");
	ASSERT_EQ(0, pwtrace_read(f, &c, 4, &bad));
	fclose(f);
	ASSERT_EQ(2u, c.nevents);
	EXPECT_EQ(3u, c.events[0].pid);
	EXPECT_EQ(4u, c.events[1].pid);
	EXPECT_EQ(100000000ull, c.events[0].dur_ns);
	EXPECT_EQ(2u, c.ntracks);
	pwtrace_conv_free(&c);
}

TEST_HARNESS_MAIN
