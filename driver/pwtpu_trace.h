/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pwtpu_trace.h - tracepoints pwtpu:pwtpu_submit, pwtpu_start and
 * pwtpu_complete: one device timeline per dev, one command per id.
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
					       { 0x13, "copy_from_dev" }))
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

#endif /* PWTPU_TRACE_H */

#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE pwtpu_trace
#include <trace/define_trace.h>
