/* A TUIO output and its state file: it goes on above where the last run
 * stopped, writes down where it stops, names its file after its source
 * and target, and rides out a broken file with a warning. Sends to a
 * closed local port; the state lives in a temporary folder. */
#include <string.h>

#include "mapping/mapping-parse.h"
#include "outputs/tuio-output.h"
#include "outputs/tuio-store.h"
#include "testutil.h"

#define URL "osc.udp://127.0.0.1:9"

typedef struct {
	char *dir;
	Mapping *mapping;
	OscOutput *osc;
	GPtrArray *warnings;
} Rig;

static void
rig_log(GLogLevelFlags level, const char *label G_GNUC_UNUSED, const char *message,
        gpointer user_data)
{
	Rig *rig = user_data;

	if (level & G_LOG_LEVEL_WARNING)
		g_ptr_array_add(rig->warnings, g_strdup(message));
}

static void
rig_init(Rig *rig, const char *keys)
{
	g_autofree char *text = g_strdup_printf(
	        "[mapping]\nformat = 1\n[output t]\nkind = tuio\ntarget = " URL "\n%s", keys);
	g_autoptr(GError) error = NULL;

	rig->dir = testutil_tmpdir();
	rig->mapping = mapping_parse("t.map", text, strlen(text), &error);
	g_assert_no_error(error);
	rig->osc = osc_output_new(mapping_get_output(rig->mapping, 0), "t", NULL, NULL);
	rig->warnings = g_ptr_array_new_with_free_func(g_free);
}

static void
rig_clear(Rig *rig)
{
	osc_output_free(rig->osc);
	mapping_free(rig->mapping);
	g_ptr_array_unref(rig->warnings);
	testutil_rmdir(rig->dir);
	g_free(rig->dir);
}

/* The output runs @frames empty frames from @now_us, a second apart so
 * that each goes out, then stops. */
static void
rig_run(Rig *rig, const char *bridge_name, gint64 now_us, guint frames)
{
	TuioOutputSetup setup = { bridge_name, rig->dir, rig_log, rig };
	g_autoptr(TuioOutput) output =
	        tuio_output_new(mapping_get_output(rig->mapping, 0), &setup, now_us);
	TrackerFrame frame = { 0 };

	for (guint i = 0; i < frames; i++) {
		frame.time_us = (gint64)i * G_USEC_PER_SEC;
		tuio_output_frame(output, rig->osc, &frame, now_us + frame.time_us);
	}
	tuio_output_finish(output, rig->osc, frame.time_us, now_us + frame.time_us);
}

/* The fseq on file for @name, 0 for none. */
static gint32
rig_stored(Rig *rig, const char *name, gint64 now_us)
{
	g_autofree char *source = g_strconcat(name, "@", g_get_host_name(), NULL);
	g_autoptr(TuioStore) store = tuio_store_new(rig->dir, source, URL);
	g_autoptr(GError) error = NULL;
	gint32 fseq = tuio_store_load(store, now_us, &error);

	g_assert_no_error(error);
	return fseq;
}

static void
rig_store(Rig *rig, const char *name, gint32 fseq, gint64 now_us)
{
	g_autofree char *source = g_strconcat(name, "@", g_get_host_name(), NULL);
	g_autoptr(TuioStore) store = tuio_store_new(rig->dir, source, URL);

	g_assert_true(tuio_store_save(store, fseq, now_us, NULL));
}

/* Where a clock seed alone puts the output sending as @name at @now_us. */
static gint32
clock_floor(const char *name, gint64 now_us)
{
	g_autofree char *place = g_strdup_printf("%s@%s %s", name, g_get_host_name(), URL);

	return tuio_seed_mix(tuio_seed_from_clock(now_us), tuio_seed_spread(place));
}

/* A run that got ahead of the clock (a --fast one): the next run goes on
 * above it, frame after frame, and writes down where it stopped. */
static void
test_resumes_above_the_last_run(void)
{
	gint64 now = g_get_real_time();
	gint32 ahead = tuio_seed_mix(clock_floor("skelbridge", now), 3000);
	Rig rig;

	rig_init(&rig, "");
	rig_store(&rig, "skelbridge", ahead, now);
	rig_run(&rig, NULL, now, 3);
	/* Three frames and the last, empty one. */
	g_assert_cmpint(rig_stored(&rig, "skelbridge", now), ==, tuio_seed_mix(ahead, 4));
	g_assert_cmpuint(rig.warnings->len, ==, 0);
	rig_clear(&rig);
}

/* A first run starts from the clock, at its place. */
static void
test_first_run_from_the_clock(void)
{
	gint64 now = g_get_real_time();
	Rig rig;
	gint32 stored;

	rig_init(&rig, "");
	rig_run(&rig, NULL, now, 1);
	/* One frame at the clock's place, then the last, empty one. */
	stored = rig_stored(&rig, "skelbridge", now);
	g_assert_cmpint(stored, ==, tuio_seed_mix(clock_floor("skelbridge", now), 1));
	rig_clear(&rig);
}

/* The bridge's name names the source and so the file, unless the mapping
 * names the source itself. */
static void
test_file_follows_the_source_name(void)
{
	gint64 now = g_get_real_time();
	Rig named, mapped;

	rig_init(&named, "");
	rig_run(&named, "left", now, 1);
	g_assert_cmpint(rig_stored(&named, "left", now), >, 0);
	g_assert_cmpint(rig_stored(&named, "skelbridge", now), ==, 0);
	rig_clear(&named);
	rig_init(&mapped, "source = right\n");
	rig_run(&mapped, "left", now, 1);
	g_assert_cmpint(rig_stored(&mapped, "right", now), >, 0);
	g_assert_cmpint(rig_stored(&mapped, "left", now), ==, 0);
	rig_clear(&mapped);
}

/* A broken file: a warning, the clock seed, and a good file at the end. */
static void
test_broken_file_warns_and_runs(void)
{
	gint64 now = g_get_real_time();
	g_autofree char *source = g_strconcat("skelbridge@", g_get_host_name(), NULL);
	g_autofree char *name = tuio_store_file_name(source, URL);
	g_autofree char *path = NULL;
	Rig rig;

	rig_init(&rig, "");
	path = g_build_filename(rig.dir, name, NULL);
	testutil_write_file(path, "garbage\n", 8);
	rig_run(&rig, NULL, now, 2);
	g_assert_cmpuint(rig.warnings->len, ==, 1);
	g_assert_true(g_str_has_prefix(g_ptr_array_index(rig.warnings, 0), path));
	g_assert_nonnull(strstr(g_ptr_array_index(rig.warnings, 0),
	                        "; the frame sequence starts from the clock"));
	g_assert_cmpint(rig_stored(&rig, "skelbridge", now), >, 0);
	rig_clear(&rig);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/tuio-output/resumes-above-the-last-run", test_resumes_above_the_last_run);
	g_test_add_func("/tuio-output/first-run-from-the-clock", test_first_run_from_the_clock);
	g_test_add_func("/tuio-output/file-follows-the-source-name",
	                test_file_follows_the_source_name);
	g_test_add_func("/tuio-output/broken-file-warns-and-runs", test_broken_file_warns_and_runs);
	return g_test_run();
}
