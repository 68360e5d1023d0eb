/* Benchmark: the skeleton tracker against the demo scenes' truth, for
 * detection (people missed, phantom users) and joint accuracy, per scene,
 * per group of scenes and per sensor-noise seed; on the real frames when
 * they are there; its speed and its memory. Prints figures and a last
 * line of targets; asserts nothing about time.
 * Run with: meson test -C build --benchmark --verbose tracker
 * or for some scenes or groups only, with other noise seeds if need be:
 * build/tests/bench/bench-tracker [--seeds=N,N,...] [--group=NAME]... [SCENE...] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench-memory.h"
#include "bench-real.h"
#include "bench-rooms.h"
#include "bench-timing.h"
#include "demo/demo-scene.h"
#include "score.h"
#include "tracker/tracker.h"

/* The sensor noise's seeds, every scene run once with each. One seed's
 * figures move by a point or so with any change to the tracker; a change
 * worth having shows on several seeds. Three by default: one seed of the
 * library (14 scenes, 17529 frames) took 94 s on a 2-core machine, so
 * three take about 5 minutes, leaving room for the scenes still to come
 * within the 10 minutes a run of the benchmark should take. */
#define BENCH_DEFAULT_SEEDS "1,2,3"

/* One line of figures: a scene, a group of scenes, a seed, or all. */
typedef struct {
	char *name;
	ScoreTally tally;
} BenchRow;

typedef struct {
	GArray *seeds;     /* guint64 */
	GPtrArray *scenes; /* names to run, in the library's order */
	GArray *groups;    /* BenchRow, one per group, in the scenes' order */
	GArray *per_seed;  /* BenchRow, one per seed */
	BenchRow all;      /* every scene with every seed */
	BenchTiming *timing;
} BenchRun;

typedef struct {
	gint64 seed;   /* --seed, or -1 */
	char *seeds;   /* --seeds */
	char **groups; /* --group */
	gboolean alone;
	gboolean real;
	char **scenes; /* the arguments left */
} BenchOptions;

/* ---- one scene ---- */

static const char *
bench_scene_group(const DemoScene *scene)
{
	const char *group = demo_scene_script(scene)->group;

	return group != NULL ? group : "(none)";
}

/* One pass of @name with noise @seed through a fresh tracker, timing
 * every frame; returns the scene's group. */
static const char *
bench_scene(const char *name, guint64 seed, ScoreTally *tally, BenchTiming *timing)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(DemoScene) scene = demo_scene_new_named(name, seed, &error);
	g_autoptr(DepthFrame) frame = depth_frame_new();
	g_autoptr(Tracker) tracker = tracker_new(NULL, &error);
	guint64 n = demo_scene_n_frames(scene);
	TrackerFrame out;

	g_assert_no_error(error);
	for (guint64 k = 0; k < n; k++) {
		gint64 t0;
		double c0;

		demo_scene_render(scene, k, frame);
		t0 = g_get_monotonic_time();
		c0 = bench_timing_thread_cpu_ms();
		g_assert_true(tracker_process(tracker, frame->mm, k, frame->time_us, &out, &error));
		bench_timing_add(timing, score_people_in_view(frame->truth),
		                 bench_timing_thread_cpu_ms() - c0,
		                 (g_get_monotonic_time() - t0) / 1000.0);
		score_frame(frame->truth, &out, tally);
	}
	return bench_scene_group(scene);
}

/* ---- rows ---- */

static void
bench_row_clear(BenchRow *row)
{
	g_clear_pointer(&row->name, g_free);
}

/* Adds @tally to the row named @name in @rows, which it makes if need be. */
static void
bench_rows_add(GArray *rows, const char *name, const ScoreTally *tally)
{
	BenchRow row = { .name = NULL };

	for (guint i = 0; i < rows->len; i++) {
		BenchRow *r = &g_array_index(rows, BenchRow, i);

		if (strcmp(r->name, name) == 0) {
			score_add(&r->tally, tally);
			return;
		}
	}
	row.name = g_strdup(name);
	score_add(&row.tally, tally);
	g_array_append_val(rows, row);
}

static void
bench_print_legend(const BenchRun *run)
{
	printf("generated scenes, noise on, seeds");
	for (guint i = 0; i < run->seeds->len; i++)
		printf("%s%" G_GUINT64_FORMAT, i ? "," : " ",
		       g_array_index(run->seeds, guint64, i));
	printf(", figures totalled over the seeds\n"
	       "  people: person-frames, true people in view with >= %d depth pixels; upper, "
	       "all15: their joints within %.0f mm of the truth; err: mean error of the joints "
	       "reported; swaps: users with left and right swapped, and of people facing the "
	       "sensor;\n"
	       "  missed: people no user matched, %% of people; phantoms: users matching no true "
	       "person, and the frames with one, %% of frames\n",
	       SCORE_MIN_PIXELS, SCORE_NEAR_MM);
	printf("%-14s %7s %7s %7s %7s %7s %7s %6s %-17s| %7s %6s %9s %7s %6s\n", "scene", "frames",
	       "people", "upper", "all15", "err up", "err all", "swaps", "facing swaps", "missed",
	       "%", "phantoms", "frames", "%");
}

static void
bench_print_row(const char *name, const ScoreTally *t)
{
	printf("%-14s %7u %7u %6.1f%% %6.1f%% %4.0f mm %4.0f mm %6u %6u of %-6u | %7u %5.2f%% "
	       "%9u %7u %5.2f%%\n",
	       name, t->frames, t->people, 100.0 * score_share(t, SCORE_UPPER_BODY),
	       100.0 * score_share(t, SCORE_ALL_JOINTS), score_mean_error(t, SCORE_UPPER_BODY),
	       score_mean_error(t, SCORE_ALL_JOINTS), t->swaps, t->facing_swaps, t->facing,
	       t->missed, 100.0 * score_missed_share(t), t->phantoms, t->phantom_frames,
	       100.0 * score_phantom_frame_share(t));
}

static void
bench_print_rows(const char *title, GArray *rows)
{
	printf("\n%s\n", title);
	for (guint i = 0; i < rows->len; i++) {
		const BenchRow *r = &g_array_index(rows, BenchRow, i);

		bench_print_row(r->name, &r->tally);
	}
}

static void
bench_print_joints(const ScoreTally *t)
{
	printf("\n%-15s %7s %10s %7s\n", "joint", "found", "mean err", "scored");
	for (int j = 0; j < TRACKER_N_JOINTS; j++)
		printf("%-15s %6.1f%% %7.0f mm %7u\n", tracker_joint_name(j),
		       100.0 * score_share(t, 1u << j), score_mean_error(t, 1u << j), t->total[j]);
}

/* ---- the run over scenes and seeds ---- */

/* Every seed of one scene; prints the scene's row. */
static void
bench_run_scene(BenchRun *run, const char *name)
{
	ScoreTally scene;
	const char *group = NULL;

	memset(&scene, 0, sizeof(scene));
	for (guint s = 0; s < run->seeds->len; s++) {
		ScoreTally t;

		memset(&t, 0, sizeof(t));
		group = bench_scene(name, g_array_index(run->seeds, guint64, s), &t, run->timing);
		score_add(&scene, &t);
		score_add(&g_array_index(run->per_seed, BenchRow, s).tally, &t);
	}
	bench_rows_add(run->groups, group, &scene);
	score_add(&run->all.tally, &scene);
	bench_print_row(name, &scene);
	fflush(stdout);
}

static void
bench_run_scenes(BenchRun *run)
{
	bench_print_legend(run);
	for (guint i = 0; i < run->scenes->len; i++)
		bench_run_scene(run, g_ptr_array_index(run->scenes, i));
	bench_print_rows("by group:", run->groups);
	bench_print_rows("by seed:", run->per_seed);
	bench_print_row(run->all.name, &run->all.tally);
	bench_print_joints(&run->all.tally);
}

static BenchRun *
bench_run_new(GArray *seeds, GPtrArray *scenes)
{
	BenchRun *run = g_new0(BenchRun, 1);

	run->seeds = seeds;
	run->scenes = scenes;
	run->groups = g_array_new(FALSE, FALSE, sizeof(BenchRow));
	run->per_seed = g_array_new(FALSE, FALSE, sizeof(BenchRow));
	g_array_set_clear_func(run->groups, (GDestroyNotify)bench_row_clear);
	g_array_set_clear_func(run->per_seed, (GDestroyNotify)bench_row_clear);
	for (guint s = 0; s < seeds->len; s++) {
		BenchRow row = { .name = g_strdup_printf("seed %" G_GUINT64_FORMAT,
			                                 g_array_index(seeds, guint64, s)) };

		g_array_append_val(run->per_seed, row);
	}
	run->all.name = g_strdup("all");
	run->timing = bench_timing_new();
	return run;
}

static void
bench_run_free(BenchRun *run)
{
	g_array_unref(run->seeds);
	g_ptr_array_unref(run->scenes);
	g_array_unref(run->groups);
	g_array_unref(run->per_seed);
	bench_row_clear(&run->all);
	bench_timing_free(run->timing);
	g_free(run);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC(BenchRun, bench_run_free)

/* ---- targets ---- */

/* Appends "; @what: met (figure)" to @line; @format gives the figure. */
static void bench_target(GString *line, const char *what, gboolean met, const char *format, ...)
        G_GNUC_PRINTF(4, 5);

static void
bench_target(GString *line, const char *what, gboolean met, const char *format, ...)
{
	va_list args;

	g_string_append_printf(line, "%s%s: %s (", line->len ? "; " : "", what,
	                       met ? "met" : "NOT met");
	va_start(args, format);
	g_string_append_vprintf(line, format, args);
	va_end(args);
	g_string_append_c(line, ')');
}

/* A target with nothing to measure it on: said so, neither met nor not. */
static void
bench_target_untested(GString *line, const char *what, const char *why)
{
	g_string_append_printf(line, "%s%s: untested (%s)", line->len ? "; " : "", what, why);
}

static const BenchRow *
bench_worst_group(const BenchRun *run)
{
	const BenchRow *worst = NULL;

	for (guint i = 0; i < run->groups->len; i++) {
		const BenchRow *r = &g_array_index(run->groups, BenchRow, i);

		if (worst == NULL ||
		    score_missed_share(&r->tally) > score_missed_share(&worst->tally))
			worst = r;
	}
	return worst;
}

static void
bench_targets_accuracy(GString *line, const BenchRun *run)
{
	const ScoreTally *all = &run->all.tally;
	double upper = score_share(all, SCORE_UPPER_BODY),
	       full = score_share(all, SCORE_ALL_JOINTS);
	double missed = score_missed_share(all), phantom = score_phantom_frame_share(all);
	const BenchRow *worst = bench_worst_group(run);

	bench_target(line, "upper body >= 97%", upper >= 0.97, "%.1f%%", 100 * upper);
	bench_target(line, "all 15 >= 93%", full >= 0.93, "%.1f%%", 100 * full);
	bench_target(line, "no swap facing", all->facing_swaps == 0, "%u", all->facing_swaps);
	bench_target(line, "users missed < 1%", missed < 0.01, "%.2f%% of person-frames",
	             100 * missed);
	bench_target(line, "frames with phantoms < 0.1%", phantom < 0.001, "%.2f%%", 100 * phantom);
	if (worst == NULL) {
		bench_target_untested(line, "no group above 3% missed", "no scenes");
		return;
	}
	bench_target(line, "no group above 3% missed", score_missed_share(&worst->tally) <= 0.03,
	             "worst %s %.2f%%", worst->name, 100 * score_missed_share(&worst->tally));
}

static void
bench_targets_real(GString *line, const BenchReal *real, const BenchRooms *rooms)
{
	if (!real->ran) {
		bench_target_untested(line, "real frames", "no frames");
		bench_target_untested(line, "real marked joints all found", "no frames");
	} else {
		bench_target(line, "real frames", real->inside == real->upper,
		             "%u of %u joints inside", real->inside, real->upper);
		bench_target(line, "real marked joints all found",
		             real->marked > 0 && real->found == real->marked,
		             "%u of %u within %.0f mm", real->found, real->marked, SCORE_NEAR_MM);
	}
	if (!rooms->ran) {
		bench_target_untested(line, "real rooms", "no frames");
		return;
	}
	bench_target(line, "real rooms", rooms->passed == rooms->frames,
	             "%u of %u frames right; users on the first frame: %s", rooms->passed,
	             rooms->frames, rooms->summary);
}

/* @what: the @p percentile of CPU time with @people in view <= @ms. */
static void
bench_target_speed(GString *line, BenchTiming *timing, const char *what, guint people, double p,
                   double ms)
{
	double figure = bench_timing_cpu(timing, people, p);

	if (bench_timing_frames(timing, people) == 0) {
		bench_target_untested(line, what, "no frames");
		return;
	}
	bench_target(line, what, figure <= ms, "%.2f ms", figure);
}

static void
bench_targets_speed(GString *line, BenchTiming *timing, double alone_mb)
{
	bench_target_speed(line, timing, "one user <= 2 ms median", 1, 0.5, 2.0);
	bench_target_speed(line, timing, "three users <= 4 ms median", 3, 0.5, 4.0);
	bench_target_speed(line, timing, "three users <= 8 ms p95", 3, 0.95, 8.0);
	bench_target_speed(line, timing, "five users <= 7 ms median", 5, 0.5, 7.0);
	bench_target(line, "< 20 MB", alone_mb < 20.0, "%.1f MB", alone_mb);
}

/* ---- the whole run ---- */

static void
bench_full(BenchRun *run, const char *self)
{
	g_autoptr(GString) targets = g_string_new(NULL);
	BenchReal real;
	BenchRooms rooms;
	double rss, alone;

	bench_run_scenes(run);
	bench_real_run(&real);
	bench_rooms_run(&rooms);
	rss = bench_memory_peak_mb();
	alone = bench_memory_alone_mb(self, "--tracker-alone");
	bench_timing_print(run->timing);
	printf("peak resident memory: %.1f MB tracking alone (a process that only tracks %d "
	       "frames of crowd and of poses fed through a pipe); %.1f MB for the whole "
	       "benchmark, demo renderer and truth included\n",
	       alone, BENCH_MEMORY_ALONE_FRAMES, rss);
	bench_targets_accuracy(targets, run);
	bench_targets_real(targets, &real, &rooms);
	bench_targets_speed(targets, run->timing, alone);
	printf("\ntargets: %s\n", targets->str);
	bench_rooms_clear(&rooms);
}

/* The real frames alone, for work on what they show. */
static int
bench_real_only(void)
{
	g_autoptr(GString) targets = g_string_new(NULL);
	BenchReal real;
	BenchRooms rooms;

	bench_real_run(&real);
	bench_rooms_run(&rooms);
	bench_targets_real(targets, &real, &rooms);
	printf("\ntargets: %s\n", targets->str);
	bench_rooms_clear(&rooms);
	return 0;
}

/* ---- options ---- */

static GArray *
bench_parse_seeds(const char *text, GError **error)
{
	g_auto(GStrv) parts = g_strsplit(text, ",", -1);
	g_autoptr(GArray) seeds = g_array_new(FALSE, FALSE, sizeof(guint64));

	for (guint i = 0; parts[i] != NULL; i++) {
		guint64 seed;

		if (!g_ascii_string_to_unsigned(parts[i], 10, 0, G_MAXUINT64, &seed, NULL)) {
			g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
			            "--seeds: expected numbers separated by commas, got '%s'",
			            text);
			return NULL;
		}
		g_array_append_val(seeds, seed);
	}
	return g_steal_pointer(&seeds);
}

static gboolean
bench_check_scenes(char **scenes, GError **error)
{
	const char *const *names = demo_scene_names();

	for (guint i = 0; scenes != NULL && scenes[i] != NULL; i++) {
		if (!g_strv_contains(names, scenes[i])) {
			g_autofree char *list = g_strjoinv(", ", (char **)names);

			g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
			            "no scene '%s' (scenes: %s)", scenes[i], list);
			return FALSE;
		}
	}
	return TRUE;
}

/* Whether the scene @name is to run; marks the groups of @o it is in as
 * @used and adds its group to @known. */
static gboolean
bench_wanted(const BenchOptions *o, const char *name, gboolean *used, GPtrArray *known)
{
	g_autoptr(DemoScene) scene = demo_scene_new_named(name, 1, NULL);
	const char *group = bench_scene_group(scene);
	gboolean wanted =
	        (o->scenes == NULL && o->groups == NULL) ||
	        (o->scenes != NULL && g_strv_contains((const char *const *)o->scenes, name));

	if (!g_ptr_array_find_with_equal_func(known, group, g_str_equal, NULL))
		g_ptr_array_add(known, (gpointer)group);
	for (guint g = 0; o->groups != NULL && o->groups[g] != NULL; g++) {
		if (strcmp(o->groups[g], group) == 0) {
			used[g] = TRUE;
			wanted = TRUE;
		}
	}
	return wanted;
}

static gboolean
bench_check_groups(char **groups, const gboolean *used, GPtrArray *known, GError **error)
{
	for (guint g = 0; groups != NULL && groups[g] != NULL; g++) {
		g_autofree char *list = NULL;

		if (used[g])
			continue;
		g_ptr_array_add(known, NULL);
		list = g_strjoinv(", ", (char **)known->pdata);
		g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
		            "--group: no scene is in group '%s' (groups: %s)", groups[g], list);
		return FALSE;
	}
	return TRUE;
}

/* The scenes named and those of the groups named, in the library's
 * order; every scene when none are. */
static GPtrArray *
bench_select_scenes(const BenchOptions *o, GError **error)
{
	const char *const *names = demo_scene_names();
	g_autoptr(GPtrArray) scenes = g_ptr_array_new();
	g_autoptr(GPtrArray) known = g_ptr_array_new();
	guint n_groups = o->groups != NULL ? g_strv_length(o->groups) : 0;
	g_autofree gboolean *used = g_new0(gboolean, n_groups + 1);

	if (!bench_check_scenes(o->scenes, error))
		return NULL;
	for (guint i = 0; names[i] != NULL; i++) {
		if (bench_wanted(o, names[i], used, known))
			g_ptr_array_add(scenes, (gpointer)names[i]);
	}
	if (!bench_check_groups(o->groups, used, known, error))
		return NULL;
	return g_steal_pointer(&scenes);
}

static gboolean
bench_parse(int *argc, char ***argv, BenchOptions *o, GError **error)
{
	const GOptionEntry entries[] = {
		{ "seed", 0, 0, G_OPTION_ARG_INT64, &o->seed, "One noise seed", "N" },
		{ "seeds", 0, 0, G_OPTION_ARG_STRING, &o->seeds,
		  "Noise seeds (default " BENCH_DEFAULT_SEEDS ")", "N,N,..." },
		{ "group", 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->groups,
		  "Only the scenes of this group (again for more)", "NAME" },
		{ "real", 0, 0, G_OPTION_ARG_NONE, &o->real,
		  "Only the real frames (real-kinect and real-rooms)", NULL },
		{ "tracker-alone", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_NONE, &o->alone,
		  "Only track frames read from stdin", NULL },
		{ G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_STRING_ARRAY, &o->scenes, NULL,
		  "[SCENE...]" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	g_autoptr(GOptionContext) context =
	        g_option_context_new("- the tracker against the demo scenes' truth");

	g_option_context_add_main_entries(context, entries, NULL);
	return g_option_context_parse(context, argc, argv, error);
}

static void
bench_options_clear(BenchOptions *o)
{
	g_clear_pointer(&o->seeds, g_free);
	g_clear_pointer(&o->groups, g_strfreev);
	g_clear_pointer(&o->scenes, g_strfreev);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(BenchOptions, bench_options_clear)

/* The run @o asks for, or NULL. */
static BenchRun *
bench_run_from_options(const BenchOptions *o, GError **error)
{
	g_autofree char *one = o->seed >= 0 ? g_strdup_printf("%" G_GINT64_FORMAT, o->seed) : NULL;
	GArray *seeds = NULL;
	GPtrArray *scenes = NULL;

	if (one != NULL && o->seeds != NULL) {
		g_set_error(error, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
		            "give --seed or --seeds, not both");
		return NULL;
	}
	seeds = bench_parse_seeds(one != NULL        ? one
	                          : o->seeds != NULL ? o->seeds
	                                             : BENCH_DEFAULT_SEEDS,
	                          error);
	scenes = seeds != NULL ? bench_select_scenes(o, error) : NULL;
	if (scenes == NULL) {
		g_clear_pointer(&seeds, g_array_unref);
		return NULL;
	}
	return bench_run_new(seeds, scenes);
}

int
main(int argc, char **argv)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(BenchRun) run = NULL;
	g_auto(BenchOptions) o = { -1, NULL, NULL, FALSE, FALSE, NULL };

	if (bench_parse(&argc, &argv, &o, &error) && o.alone)
		return bench_memory_alone_main();
	if (error == NULL && o.real)
		return bench_real_only();
	if (error == NULL)
		run = bench_run_from_options(&o, &error);
	if (run == NULL) {
		g_printerr("bench-tracker: %s\n", error->message);
		return 2;
	}
	/* Some scenes alone: the accuracy and speed on them, for work on
	 * one weak spot; the targets, memory and the real frames need the
	 * whole run. */
	if (o.scenes != NULL || o.groups != NULL) {
		bench_run_scenes(run);
		bench_timing_print(run->timing);
	} else
		bench_full(run, argv[0]);
	return 0;
}
