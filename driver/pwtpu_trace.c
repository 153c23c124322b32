// SPDX-License-Identifier: GPL-2.0
/* pwtpu_trace.c - instantiates the pwtpu tracepoints. */
#define CREATE_TRACE_POINTS
#include "pwtpu_trace.h"
