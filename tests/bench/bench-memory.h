/* The tracker benchmark's memory figures: the peak resident memory of this
 * process, and of a process that only tracks. */
#pragma once

#include <glib.h>

#define BENCH_MEMORY_ALONE_FRAMES 150 /* of each scene the tracker alone tracks */

/** bench_memory_peak_mb: this process's peak resident memory, MB. */
double bench_memory_peak_mb(void);

/**
 * bench_memory_alone_main:
 * The body of the process that only tracks: one tracker, one frame
 * buffer, frames read from stdin until it closes; prints its peak
 * resident memory. Returns the exit status.
 */
int bench_memory_alone_main(void);

/**
 * bench_memory_alone_mb:
 * The peak resident memory of @self run with @option, which must call
 * bench_memory_alone_main(), fed frames of crowd and of poses through a
 * pipe, so that the demo renderer and its truth are not counted.
 */
double bench_memory_alone_mb(const char *self, const char *option);
