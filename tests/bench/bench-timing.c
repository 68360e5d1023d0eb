#include "bench-timing.h"

#include <stdio.h>
#include <time.h>

#include "testutil.h"

/* The people counts the speed targets are set for. */
static const guint bench_timing_people[] = { 1, 3, 5 };
#define BENCH_TIMING_N G_N_ELEMENTS(bench_timing_people)

struct _BenchTiming {
	GArray *cpu[BENCH_TIMING_N];
	GArray *wall[BENCH_TIMING_N];
};

BenchTiming *
bench_timing_new(void)
{
	BenchTiming *timing = g_new0(BenchTiming, 1);

	for (guint i = 0; i < BENCH_TIMING_N; i++) {
		timing->cpu[i] = g_array_new(FALSE, FALSE, sizeof(double));
		timing->wall[i] = g_array_new(FALSE, FALSE, sizeof(double));
	}
	return timing;
}

void
bench_timing_free(BenchTiming *timing)
{
	for (guint i = 0; i < BENCH_TIMING_N; i++) {
		g_array_unref(timing->cpu[i]);
		g_array_unref(timing->wall[i]);
	}
	g_free(timing);
}

double
bench_timing_thread_cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

static int
bench_timing_index(guint people)
{
	for (guint i = 0; i < BENCH_TIMING_N; i++) {
		if (bench_timing_people[i] == people)
			return (int)i;
	}
	return -1;
}

void
bench_timing_add(BenchTiming *timing, guint people, double cpu_ms, double wall_ms)
{
	int i = bench_timing_index(people);

	if (i < 0)
		return;
	g_array_append_val(timing->cpu[i], cpu_ms);
	g_array_append_val(timing->wall[i], wall_ms);
}

guint
bench_timing_frames(BenchTiming *timing, guint people)
{
	int i = bench_timing_index(people);

	return i < 0 ? 0 : timing->cpu[i]->len;
}

static double
bench_timing_percentile(GArray *values, double p)
{
	if (values->len == 0)
		return 0.0;
	return testutil_percentile((double *)(void *)values->data, values->len, p);
}

double
bench_timing_cpu(BenchTiming *timing, guint people, double p)
{
	int i = bench_timing_index(people);

	return i < 0 ? 0.0 : bench_timing_percentile(timing->cpu[i], p);
}

void
bench_timing_print(BenchTiming *timing)
{
	printf("\nspeed (one thread, 640x480), ms per frame by people in view: CPU time of the "
	       "tracking thread, and wall-clock time\n");
	printf("%-8s %7s  %7s %7s  %7s %7s\n", "people", "frames", "cpu 50%", "cpu 95%", "wall 50%",
	       "wall 95%");
	for (guint i = 0; i < BENCH_TIMING_N; i++) {
		if (timing->cpu[i]->len == 0) {
			printf("%-8u %7u  no frames with so many people in view\n",
			       bench_timing_people[i], 0u);
			continue;
		}
		printf("%-8u %7u  %7.2f %7.2f  %7.2f %7.2f\n", bench_timing_people[i],
		       timing->cpu[i]->len, bench_timing_percentile(timing->cpu[i], 0.5),
		       bench_timing_percentile(timing->cpu[i], 0.95),
		       bench_timing_percentile(timing->wall[i], 0.5),
		       bench_timing_percentile(timing->wall[i], 0.95));
	}
}
