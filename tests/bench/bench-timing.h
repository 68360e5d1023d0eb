/* The tracker benchmark's timings: milliseconds per frame with one, three
 * and five people in view, as CPU time of the tracking thread (what one
 * core spends, whatever else the machine runs) and as wall-clock time. */
#pragma once

#include <glib.h>

typedef struct _BenchTiming BenchTiming;

BenchTiming *bench_timing_new(void);
void bench_timing_free(BenchTiming *timing);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(BenchTiming, bench_timing_free)

/** bench_timing_thread_cpu_ms: CPU time this thread has used, in ms. */
double bench_timing_thread_cpu_ms(void);

/** bench_timing_add: one frame with @people in view; other counts than 1, 3 and 5 are not kept. */
void bench_timing_add(BenchTiming *timing, guint people, double cpu_ms, double wall_ms);

/** bench_timing_frames: the frames timed with @people in view. */
guint bench_timing_frames(BenchTiming *timing, guint people);

/** bench_timing_cpu: the @p (0..1) percentile of the CPU times with @people in view. */
double bench_timing_cpu(BenchTiming *timing, guint people, double p);

/** bench_timing_print: median and p95 of both times for 1, 3 and 5 people. */
void bench_timing_print(BenchTiming *timing);
