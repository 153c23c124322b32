/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pwtpu_trace.h - tracepoints pwtpu:pwtpu_submit, pwtpu_start and
 * pwtpu_complete (one device timeline per dev, one command per id),
 * pwtpu_link (one hop of a transfer over a mesh link) and pwtpu_coll (the
 * phases of a collective on one device). tools/pwtrace turns them into a
 * Perfetto timeline.
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM pwtpu

#if !defined(PWTPU_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define PWTPU_TRACE_H

#include <linux/tracepoint.h>

DECLARE_EVENT_CLASS(pwtpu_cmd_class,
		    TP_PROTO(u32 dev, u64 id, u32 nr),
		    TP_ARGS(dev, id, nr),
		    TP_STRUCT__entry(__field(u32, dev)
				     __field(u64, id)
				     __field(u32, nr)),
		    TP_fast_assign(__entry->dev = dev;
				   __entry->id = id;
				   __entry->nr = nr;),
		    TP_printk("dev=%u id=%llu cmd=%s", __entry->dev, __entry->id,
			      __print_symbolic(__entry->nr,
					       { 0x10, "nop" },
					       { 0x11, "exec" },
					       { 0x12, "copy_to_dev" },
					       { 0x13, "copy_from_dev" },
					       { 0x14, "copy_peer" }))
);

DEFINE_EVENT(pwtpu_cmd_class, pwtpu_submit,
	     TP_PROTO(u32 dev, u64 id, u32 nr),
	     TP_ARGS(dev, id, nr)
);

DEFINE_EVENT(pwtpu_cmd_class, pwtpu_start,
	     TP_PROTO(u32 dev, u64 id, u32 nr),
	     TP_ARGS(dev, id, nr)
);

TRACE_EVENT(pwtpu_complete,
	    TP_PROTO(u32 dev, u64 id, u32 nr, int result, u64 queue_ns,
		     u64 exec_ns),
	    TP_ARGS(dev, id, nr, result, queue_ns, exec_ns),
	    TP_STRUCT__entry(__field(u32, dev)
			     __field(u64, id)
			     __field(u32, nr)
			     __field(int, result)
			     __field(u64, queue_ns)
			     __field(u64, exec_ns)),
	    TP_fast_assign(__entry->dev = dev;
			   __entry->id = id;
			   __entry->nr = nr;
			   __entry->result = result;
			   __entry->queue_ns = queue_ns;
			   __entry->exec_ns = exec_ns;),
	    TP_printk("dev=%u id=%llu cmd=0x%x result=%d queue_ns=%llu exec_ns=%llu",
		      __entry->dev, __entry->id, __entry->nr, __entry->result,
		      __entry->queue_ns, __entry->exec_ns)
);

TRACE_EVENT(pwtpu_link,
	    TP_PROTO(u32 from, u32 to, u64 bytes, u64 model_ns),
	    TP_ARGS(from, to, bytes, model_ns),
	    TP_STRUCT__entry(__field(u32, from)
			     __field(u32, to)
			     __field(u64, bytes)
			     __field(u64, model_ns)),
	    TP_fast_assign(__entry->from = from;
			   __entry->to = to;
			   __entry->bytes = bytes;
			   __entry->model_ns = model_ns;),
	    TP_printk("dev=%u from=%u to=%u bytes=%llu model_ns=%llu",
		      __entry->from, __entry->from, __entry->to,
		      __entry->bytes, __entry->model_ns)
);

TRACE_EVENT(pwtpu_coll,
	    TP_PROTO(u32 dev, u64 gang, u32 seq, u32 op, u32 phase, s32 arg),
	    TP_ARGS(dev, gang, seq, op, phase, arg),
	    TP_STRUCT__entry(__field(u32, dev)
			     __field(u64, gang)
			     __field(u32, seq)
			     __field(u32, op)
			     __field(u32, phase)
			     __field(s32, arg)),
	    TP_fast_assign(__entry->dev = dev;
			   __entry->gang = gang;
			   __entry->seq = seq;
			   __entry->op = op;
			   __entry->phase = phase;
			   __entry->arg = arg;),
	    TP_printk("dev=%u gang=0x%llx seq=%u op=%u phase=%s arg=%d",
		      __entry->dev, __entry->gang, __entry->seq, __entry->op,
		      __print_symbolic(__entry->phase,
				       { 0, "join" }, { 1, "start" },
				       { 2, "step" }, { 3, "done" }),
		      __entry->arg)
);

#endif /* PWTPU_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE pwtpu_trace
#include <trace/define_trace.h>
