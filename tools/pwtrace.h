/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pwtrace.h - turn ftrace text of the pwtpu:* tracepoints into a
 * Chrome/Perfetto trace (JSON "traceEvents").
 *
 * Three steps, one file each: pwtrace_parse.c reads one line of
 * /sys/kernel/tracing/trace, `trace-cmd report` or `perf script` output
 * into a record; pwtrace_conv.c pairs records into timeline events (a
 * command from start to complete, a collective from join to done, a link
 * transfer for its modelled time); pwtrace_json.c writes them.
 */
#ifndef PWTRACE_H
#define PWTRACE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum pwtrace_kind {
	PWTRACE_SUBMIT,
	PWTRACE_START,
	PWTRACE_COMPLETE,
	PWTRACE_LINK,
	PWTRACE_COLL,
};

/* pwtpu_coll phases, as the tracepoint prints them. */
enum pwtrace_phase {
	PWTRACE_JOIN,
	PWTRACE_COLL_START,
	PWTRACE_STEP,
	PWTRACE_DONE,
};

/**
 * struct pwtrace_rec - one pwtpu tracepoint hit
 * @kind: which tracepoint.
 * @ts_ns: trace timestamp in ns (with `trace_clock` mono, the driver's
 *	CLOCK_MONOTONIC).
 * @dev: the device the event is about (the sender for a link hop).
 * @id: command id (submit, start, complete).
 * @cmd: command number, the low byte of PWTPU_CMD_* (0x10 nop ... 0x14
 *	copy_peer), from the name or the number the tracepoint printed.
 * @result: complete: the command's result; coll: the phase's arg.
 * @queue_ns: complete: submission to device start.
 * @exec_ns: complete: device start to end.
 * @to: link: the receiving device of the hop.
 * @bytes: link: bytes moved over the hop.
 * @model_ns: link: modelled time of the hop.
 * @gang: coll: gang id.
 * @seq: coll: collective number in the execution.
 * @op: coll: enum pwtpu_op of the collective.
 * @phase: coll: enum pwtrace_phase.
 */
struct pwtrace_rec {
	enum pwtrace_kind kind;
	uint64_t ts_ns;
	uint32_t dev;
	uint64_t id;
	uint32_t cmd;
	int32_t result;
	uint64_t queue_ns;
	uint64_t exec_ns;
	uint32_t to;
	uint64_t bytes;
	uint64_t model_ns;
	uint64_t gang;
	uint32_t seq;
	uint32_t op;
	enum pwtrace_phase phase;
};

/*
 * Parse one line of trace text. Returns 1 and fills @rec for a pwtpu
 * event, 0 for anything else (headers, comments, other events), and
 * -EINVAL for a pwtpu event whose fields do not parse.
 */
int pwtrace_parse_line(const char *line, struct pwtrace_rec *rec);

/* Name of a command number (0x10..0x14) or NULL. */
const char *pwtrace_cmd_name(uint32_t cmd);

/**
 * struct pwtrace_event - one Chrome trace event
 * @ph: 'X' (complete: @ts_ns for @dur_ns) or 'i' (instant on the thread).
 * @cat: category: "cmd", "coll" or "link".
 * @name: what the timeline shows.
 * @pid: process: the island.
 * @tid: thread: the track (pwtrace_dev_tid(), pwtrace_link_tid()).
 * @ts_ns: start.
 * @dur_ns: duration ('X' only).
 * @args: JSON object members without the braces, or "".
 */
struct pwtrace_event {
	char ph;
	const char *cat;
	char name[32];
	uint32_t pid;
	uint32_t tid;
	uint64_t ts_ns;
	uint64_t dur_ns;
	char args[192];
};

/**
 * struct pwtrace_track - a thread of the trace: a device or one link
 * @pid: island.
 * @tid: track id.
 * @name: "pwtpu3" or "pwtpu3 -> pwtpu7".
 * @busy_until_ns: links: end of the last transfer drawn on it.
 */
struct pwtrace_track {
	uint32_t pid;
	uint32_t tid;
	char name[32];
	uint64_t busy_until_ns;
};

/* Track ids: devices 100, 200, ...; a device's links follow it. */
static inline uint32_t pwtrace_dev_tid(uint32_t dev)
{
	return 100 * (dev + 1);
}

static inline uint32_t pwtrace_link_tid(uint32_t from, uint32_t to)
{
	return 100 * (from + 1) + 1 + to;
}

struct pwtrace_open;

/**
 * struct pwtrace_conv - conversion state over one or more traces
 * @island: pid of the records fed now; set before each trace.
 * @events: the events made so far, in the order they completed.
 * @nevents: how many.
 * @tracks: every track an event was put on, in order of first use.
 * @ntracks: how many.
 * @open: commands and collectives begun but not yet ended.
 * @nopen: how many.
 * @last_ts_ns: latest timestamp seen in the current trace.
 * @records: pwtpu records fed.
 * @unmatched: records that ended something never begun (e.g. the trace
 *	started mid-command) and were drawn from what they carry, or dropped.
 */
struct pwtrace_conv {
	uint32_t island;
	struct pwtrace_event *events;
	size_t nevents;
	size_t events_cap;
	struct pwtrace_track *tracks;
	size_t ntracks;
	size_t tracks_cap;
	struct pwtrace_open *open;
	size_t nopen;
	size_t open_cap;
	uint64_t last_ts_ns;
	uint64_t records;
	uint64_t unmatched;
};

void pwtrace_conv_init(struct pwtrace_conv *c, uint32_t island);
void pwtrace_conv_free(struct pwtrace_conv *c);
/* Feed one record: 0 or -ENOMEM. */
int pwtrace_conv_add(struct pwtrace_conv *c, const struct pwtrace_rec *rec);
/*
 * End of one trace: what is still open is drawn up to the last timestamp
 * with "unfinished": true. 0 or -ENOMEM.
 */
int pwtrace_conv_finish(struct pwtrace_conv *c);

/*
 * Write the Chrome trace: process and thread names first, then the
 * events, one per line. 0 or -EIO.
 */
int pwtrace_write_json(FILE *f, const struct pwtrace_conv *c);
/* One event as its JSON object (no trailing comma or newline). */
int pwtrace_format_event(char *buf, size_t len,
			 const struct pwtrace_event *ev);

/* `pwtrace --record`: trace CMD and write its JSON (pwtrace_record.c). */
int pwtrace_record(char **cmd, const char *out, unsigned int buffer_kb);
/* Read a whole trace text from @in into @c as island @island (parse.c). */
int pwtrace_read(FILE *in, struct pwtrace_conv *c, uint32_t island,
		 uint64_t *bad_lines);

#endif /* PWTRACE_H */
