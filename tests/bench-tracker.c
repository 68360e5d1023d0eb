/* Benchmark: the skeleton tracker's accuracy against the demo scenes'
 * truth, on the real Kinect frames when they are there, its speed and its
 * memory. Prints figures; asserts nothing about time.
 * Run with: meson test -C build --benchmark --verbose tracker
 * or, for some scenes only, with another noise seed if need be:
 * build/tests/bench-tracker [--seed=N] SCENE... */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "demo-scene.h"
#include "score.h"
#include "testutil.h"
#include "tracker/tracker.h"

/* The sensor noise's seed for the generated scenes. One seed's figures
 * move by a point or so with any change to the tracker; a change worth
 * having shows on several seeds. */
static guint64 bench_seed = 1;

typedef struct {
	/* ms per frame with one and with three people in view: CPU time of
	 * this thread (what one core spends, whatever else the machine
	 * runs), and wall-clock time */
	GArray *one_user, *three_users;
	GArray *one_user_wall, *three_users_wall;
} Timings;

/* CPU time this thread has used, in ms. */
static double
thread_cpu_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000.0 + ts.tv_nsec / 1e6;
}

static int
compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double
percentile(GArray *values, double p)
{
	if (values->len == 0)
		return 0.0;
	g_array_sort(values, compare_double);
	return g_array_index(values, double, (guint)MIN(values->len - 1, p * values->len));
}

static guint
people_in_view(const DemoTruth *truth)
{
	guint n = 0;

	for (guint p = 0; p < truth->n_people; p++)
		n += truth->people[p].pixels >= SCORE_MIN_PIXELS;
	return n;
}

/* One pass of @name through a fresh tracker, timing every frame. */
static void
bench_scene(const char *name, ScoreTally *tally, Timings *timings)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(DemoScene) scene = demo_scene_new_named(name, bench_seed, &error);
	g_autoptr(DepthFrame) frame = depth_frame_new();
	g_autoptr(Tracker) tracker = tracker_new(NULL, &error);
	guint64 n = demo_scene_n_frames(scene);
	TrackerFrame out;

	g_assert_no_error(error);
	for (guint64 k = 0; k < n; k++) {
		gint64 t0;
		double c0, ms, wall;
		guint in_view;

		demo_scene_render(scene, k, frame);
		t0 = g_get_monotonic_time();
		c0 = thread_cpu_ms();
		g_assert_true(tracker_process(tracker, frame->mm, k, frame->time_us, &out, &error));
		ms = thread_cpu_ms() - c0;
		wall = (g_get_monotonic_time() - t0) / 1000.0;
		in_view = people_in_view(frame->truth);
		if (in_view == 1) {
			g_array_append_val(timings->one_user, ms);
			g_array_append_val(timings->one_user_wall, wall);
		} else if (in_view == 3) {
			g_array_append_val(timings->three_users, ms);
			g_array_append_val(timings->three_users_wall, wall);
		}
		score_frame(frame->truth, &out, tally);
	}
}

static void
print_scene_row(const char *name, const ScoreTally *t)
{
	printf("%-10s %6u %6u  %5.1f%%  %5.1f%%  %4.0f mm  %4.0f mm  %3u (%u of %u facing)  %4u  "
	       "%4u\n",
	       name, t->frames, t->people, 100.0 * score_share(t, SCORE_UPPER_BODY),
	       100.0 * score_share(t, SCORE_ALL_JOINTS), score_mean_error(t, SCORE_UPPER_BODY),
	       score_mean_error(t, SCORE_ALL_JOINTS), t->swaps, t->facing_swaps, t->facing,
	       t->missed, t->phantoms);
}

static void
print_joints(const ScoreTally *t)
{
	printf("\n%-15s %7s %10s %7s\n", "joint", "found", "mean err", "scored");
	for (int j = 0; j < TRACKER_N_JOINTS; j++)
		printf("%-15s %6.1f%% %7.0f mm %7u\n", tracker_joint_name(j),
		       100.0 * score_share(t, 1u << j), score_mean_error(t, 1u << j), t->total[j]);
}

static ScoreTally
bench_generated(Timings *timings, const char *const *names)
{
	ScoreTally all;

	memset(&all, 0, sizeof(all));

	printf("generated scenes (noise on, seed %" G_GUINT64_FORMAT
	       "), joints within %.0f mm of the truth:\n",
	       bench_seed, SCORE_NEAR_MM);
	printf("%-10s %6s %6s  %6s  %6s  %7s  %7s  %-22s %5s %5s\n", "scene", "frames", "people",
	       "upper", "all15", "err up", "err all", "swaps", "missed", "phantom");
	for (guint i = 0; names[i] != NULL; i++) {
		ScoreTally t;

		memset(&t, 0, sizeof(t));

		bench_scene(names[i], &t, timings);
		print_scene_row(names[i], &t);
		score_add(&all, &t);
	}
	print_scene_row("all", &all);
	print_joints(&all);
	return all;
}

/* Real frames: the main user's seven upper-body joints, each inside them. */
static guint
bench_real_frame(Tracker *tracker, const char *path, guint16 *mm, guint64 number)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *base = g_path_get_basename(path);
	const TrackerUser *main_user = NULL;
	TrackerFrame out;
	guint inside = 0;

	testutil_load_raw(path, mm);
	tracker_reset(tracker);
	g_assert_true(tracker_process(tracker, mm, number, 0, &out, &error));
	for (guint u = 0; u < out.n_users; u++) {
		if (main_user == NULL || out.users[u].n_pixels > main_user->n_pixels)
			main_user = &out.users[u];
	}
	printf("  %s: %u user(s);", base, out.n_users);
	for (int j = 0; j < TRACKER_N_JOINTS && main_user != NULL; j++) {
		double behind;
		gboolean ok;

		if (!tracker_joint_is_upper_body(j))
			continue;
		ok = score_inside(mm, &main_user->joints[j], &behind);
		inside += ok;
		printf(" %s %s(%+.0f)", tracker_joint_name(j), ok ? "in" : "OUT", behind);
	}
	printf("\n");
	return inside;
}

static gboolean
bench_real(void)
{
	const char *dir = testutil_real_kinect_dir();
	g_auto(GStrv) files = NULL;
	g_autofree guint16 *mm = g_new(guint16, DEPTH_PIXELS);
	g_autoptr(Tracker) tracker = tracker_new(NULL, NULL);
	guint inside = 0, n = 0;

	if (dir == NULL) {
		printf("\nreal frames: skipped ($SKELBRIDGE_REAL_KINECT is not a folder)\n");
		return TRUE;
	}
	files = testutil_real_kinect_files(dir);
	printf("\nreal frames (%s): upper-body joints inside the person (mm behind the surface)\n",
	       dir);
	for (; files[n] != NULL; n++)
		inside += bench_real_frame(tracker, files[n], mm, n);
	printf("real frames: %u of %u upper-body joints inside the person in %u frames\n", inside,
	       7 * n, n);
	return inside == 7 * n;
}

static double
peak_resident_mb(void)
{
	g_autofree char *status = NULL;
	const char *line;

	if (!g_file_get_contents("/proc/self/status", &status, NULL, NULL))
		return 0.0;
	line = strstr(status, "VmHWM:");
	return line != NULL ? g_ascii_strtod(line + 6, NULL) / 1024.0 : 0.0;
}

/* ---- the tracker's own memory ---- */

#define ALONE_FRAMES 150 /* of each scene the tracker alone tracks */

/* In a process of its own: one tracker, one frame buffer, frames read
 * from stdin until it closes; prints the process's peak resident memory. */
static int
bench_alone(void)
{
	g_autoptr(Tracker) tracker = tracker_new(NULL, NULL);
	g_autofree guint16 *mm = g_new(guint16, DEPTH_PIXELS);
	TrackerFrame out;
	guint64 n = 0;

	while (fread(mm, sizeof(guint16), DEPTH_PIXELS, stdin) == DEPTH_PIXELS) {
		g_assert_true(tracker_process(tracker, mm, n, (gint64)(n + 1) * 33333, &out, NULL));
		n++;
	}
	printf("%.1f %" G_GUINT64_FORMAT "\n", peak_resident_mb(), n);
	return 0;
}

/* Writes frames of @name, one to three people, to @stream. */
static void
bench_alone_feed(GOutputStream *stream, const char *name)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(DemoScene) scene = demo_scene_new_named(name, 1, &error);
	g_autoptr(DepthFrame) frame = depth_frame_new();

	g_assert_no_error(error);
	for (guint64 k = 0; k < ALONE_FRAMES; k++) {
		demo_scene_render(scene, k, frame);
		g_assert_true(g_output_stream_write_all(
		        stream, frame->mm, DEPTH_PIXELS * sizeof(guint16), NULL, NULL, &error));
	}
}

/* The peak resident memory of a process that only tracks: this program
 * again, fed rendered frames through a pipe, so that the demo renderer
 * and its truth are not counted. */
static double
bench_alone_memory(const char *self)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(GSubprocess) child =
	        g_subprocess_new(G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE,
	                         &error, self, "--tracker-alone", NULL);
	g_autoptr(GDataInputStream) out = NULL;
	g_autofree char *answer = NULL;
	GOutputStream *in;

	g_assert_no_error(error);
	in = g_subprocess_get_stdin_pipe(child);
	bench_alone_feed(in, "crowd");
	bench_alone_feed(in, "poses");
	g_output_stream_close(in, NULL, &error);
	g_assert_no_error(error);
	out = g_data_input_stream_new(g_subprocess_get_stdout_pipe(child));
	answer = g_data_input_stream_read_line(out, NULL, NULL, &error);
	g_assert_no_error(error);
	g_subprocess_wait_check(child, NULL, &error);
	g_assert_no_error(error);
	g_assert_nonnull(answer);
	return g_ascii_strtod(answer, NULL);
}

/* bench-tracker SCENE...: the accuracy on these scenes alone, for work on
 * one weak spot; speed and memory figures need the whole run. */
static int
bench_only(char **names)
{
	Timings timings = { g_array_new(FALSE, FALSE, sizeof(double)),
		            g_array_new(FALSE, FALSE, sizeof(double)),
		            g_array_new(FALSE, FALSE, sizeof(double)),
		            g_array_new(FALSE, FALSE, sizeof(double)) };

	bench_generated(&timings, (const char *const *)names);
	g_array_unref(timings.one_user);
	g_array_unref(timings.three_users);
	g_array_unref(timings.one_user_wall);
	g_array_unref(timings.three_users_wall);
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--tracker-alone") == 0)
		return bench_alone();
	if (argc > 1 && g_str_has_prefix(argv[1], "--seed=")) {
		bench_seed = g_ascii_strtoull(argv[1] + 7, NULL, 10);
		argv++;
		argc--;
	}
	if (argc > 1)
		return bench_only(argv + 1);

	Timings timings = { g_array_new(FALSE, FALSE, sizeof(double)),
		            g_array_new(FALSE, FALSE, sizeof(double)),
		            g_array_new(FALSE, FALSE, sizeof(double)),
		            g_array_new(FALSE, FALSE, sizeof(double)) };
	ScoreTally all = bench_generated(&timings, demo_scene_names());
	gboolean real_ok = bench_real();
	double one = percentile(timings.one_user, 0.5),
	       three = percentile(timings.three_users, 0.5);
	double upper = score_share(&all, SCORE_UPPER_BODY),
	       full = score_share(&all, SCORE_ALL_JOINTS);
	double rss = peak_resident_mb(), alone = bench_alone_memory(argv[0]);

	printf("\nspeed (one thread, 640x480, CPU time of the tracking thread): one user %.2f ms "
	       "median, %.2f ms p95 (%u frames); three users %.2f ms median, %.2f ms p95 (%u "
	       "frames)\n",
	       one, percentile(timings.one_user, 0.95), timings.one_user->len, three,
	       percentile(timings.three_users, 0.95), timings.three_users->len);
	printf("wall-clock time, the same frames: one user %.2f ms median, %.2f ms p95; three "
	       "users %.2f ms median, %.2f ms p95\n",
	       percentile(timings.one_user_wall, 0.5), percentile(timings.one_user_wall, 0.95),
	       percentile(timings.three_users_wall, 0.5),
	       percentile(timings.three_users_wall, 0.95));
	printf("peak resident memory: %.1f MB tracking alone (a process that only tracks %d "
	       "frames of crowd and of poses fed through a pipe); %.1f MB for the whole "
	       "benchmark, demo renderer and truth included\n",
	       alone, ALONE_FRAMES, rss);
	printf("\ntargets: upper body >= 97%%: %s (%.1f%%); all 15 >= 93%%: %s (%.1f%%); "
	       "no swap facing: %s; real frames: %s; one user <= 2 ms: %s; three users <= 4 ms: "
	       "%s; < 20 MB: %s\n",
	       upper >= 0.97 ? "met" : "NOT met", 100 * upper, full >= 0.93 ? "met" : "NOT met",
	       100 * full, all.facing_swaps == 0 ? "met" : "NOT met", real_ok ? "met" : "NOT met",
	       one <= 2.0 ? "met" : "NOT met", three <= 4.0 ? "met" : "NOT met",
	       alone < 20.0 ? "met" : "NOT met");
	g_array_unref(timings.one_user);
	g_array_unref(timings.three_users);
	g_array_unref(timings.one_user_wall);
	g_array_unref(timings.three_users_wall);
	return 0;
}
