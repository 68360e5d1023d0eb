/* Depth sources: specs, delivery through the main loop, pacing, looping
 * and errors. */
#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>

#include "sources/dump.h"
#include "sources/source.h"
#include "testutil.h"

typedef struct {
	GMainLoop *loop;
	GArray *numbers;  /* frame numbers delivered */
	GArray *times;    /* frame times */
	GArray *arrivals; /* monotonic time of delivery */
	GArray *sums;     /* raw checksum per frame */
	SourceEvent last_event;
	gboolean got_event;
	char *error;
	guint skipped; /* SOURCE_EVENT_WARNING events */
	guint stop_after;
	guint stall_at;  /* after this many frames (0: never), */
	gulong stall_us; /* the main loop stalls this long */
	guint pause_at;  /* after this many frames (0: never), paused a while */
	guint frames_when_resumed;
	Source *paused;
} Run;

static guint64
raw_sum(const guint16 *raw)
{
	guint64 sum = 0;

	for (guint i = 0; i < DEPTH_PIXELS; i++)
		sum = sum * 31 + raw[i];
	return sum;
}

static gboolean
run_resume(gpointer user_data)
{
	Run *run = user_data;

	run->frames_when_resumed = run->numbers->len;
	source_resume(run->paused);
	return G_SOURCE_REMOVE;
}

static void
run_frame(Source *source, const DepthFrame *frame, gpointer user_data)
{
	Run *run = user_data;
	gint64 now = g_get_monotonic_time();
	guint64 sum = raw_sum(frame->raw);

	g_array_append_val(run->numbers, frame->number);
	g_array_append_val(run->times, frame->time_us);
	g_array_append_val(run->arrivals, now);
	g_array_append_val(run->sums, sum);
	for (guint i = 0; i < DEPTH_PIXELS; i++)
		g_assert_cmpuint(depth_raw_to_mm(frame->raw[i]), ==, frame->mm[i]);
	if (run->stall_at && run->numbers->len == run->stall_at)
		g_usleep(run->stall_us);
	if (run->pause_at && run->numbers->len == run->pause_at) {
		source_pause(source);
		run->paused = source;
		g_timeout_add(50, run_resume, run);
	}
	if (run->stop_after && run->numbers->len == run->stop_after) {
		source_stop(source);
		g_main_loop_quit(run->loop);
	}
}

static void
run_event(Source *source G_GNUC_UNUSED, SourceEvent event, const GError *error, gpointer user_data)
{
	Run *run = user_data;

	run->got_event = TRUE;
	run->last_event = event;
	run->skipped += event == SOURCE_EVENT_WARNING;
	if (error != NULL && run->error == NULL)
		run->error = g_strdup(error->message);
	if (event == SOURCE_EVENT_END || event == SOURCE_EVENT_ERROR)
		g_main_loop_quit(run->loop);
}

static void
run_init(Run *run)
{
	memset(run, 0, sizeof(*run));
	run->loop = g_main_loop_new(NULL, FALSE);
	run->numbers = g_array_new(FALSE, FALSE, sizeof(guint64));
	run->times = g_array_new(FALSE, FALSE, sizeof(gint64));
	run->arrivals = g_array_new(FALSE, FALSE, sizeof(gint64));
	run->sums = g_array_new(FALSE, FALSE, sizeof(guint64));
}

static void
run_clear(Run *run)
{
	g_main_loop_unref(run->loop);
	g_array_unref(run->numbers);
	g_array_unref(run->times);
	g_array_unref(run->arrivals);
	g_array_unref(run->sums);
	g_free(run->error);
}

static void
run_source(Run *run, Source *source)
{
	static const SourceCallbacks callbacks = { run_frame, run_event };
	g_autoptr(GError) error = NULL;

	g_assert_true(source_start(source, &callbacks, run, &error));
	g_assert_no_error(error);
	g_main_loop_run(run->loop);
	source_stop(source);
}

static Source *
open_ok(const char *spec, gboolean fast, gboolean loop)
{
	g_autoptr(GError) error = NULL;
	SourceOptions options = { fast, loop, 1 };
	Source *source = source_open(spec, &options, &error);

	g_assert_no_error(error);
	return source;
}

static void
test_spec_unknown(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(Source) source = source_open("kinect2", NULL, &error);

	g_assert_null(source);
	g_assert_error(error, SOURCE_ERROR, SOURCE_ERROR_SPEC);
	g_assert_true(g_str_has_prefix(error->message, "unknown source 'kinect2'; sources are:\n"));
	g_assert_nonnull(strstr(error->message, "replay:DIR"));
	g_assert_nonnull(strstr(error->message, "freenect[:INDEX]"));
}

static void
test_spec_bad_arguments(void)
{
	static const struct {
		const char *spec, *message;
	} cases[] = {
		{ "replay", "replay needs a folder: replay:DIR" },
		{ "raw", "raw needs at least one file: raw:FILE[,FILE...]" },
		{ "freenect:one", "freenect:one: the device index is a number from 0 to 15" },
		{ "demo:ballet", "demo:ballet: no demo scene called 'ballet'" },
		{ "demo:two-sensors@3",
		  "demo:two-sensors@3: demo scene 'two-sensors' has views 0 to 1: no view '3'" },
		{ "demo:poses@1", "demo:poses@1: demo scene 'poses' has one view, 0: no view '1'" },
		{ "raw:/nonexistent.raw", "raw:/nonexistent.raw: No such file or directory" },
		{ "replay:/nonexistent", "/nonexistent: not a fakenect dump" },
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GError) error = NULL;
		g_autoptr(Source) source = source_open(cases[i].spec, NULL, &error);

		g_assert_null(source);
		g_assert_nonnull(error);
		g_assert_true(g_str_has_prefix(error->message, cases[i].message));
	}
}

static void
test_replay_plays_every_frame_in_order(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *spec = g_strconcat("replay:", dir, NULL);
	g_autofree guint16 *raw = g_new(guint16, DEPTH_PIXELS);
	g_autoptr(Source) source = NULL;
	Run run;

	testutil_write_dump(dir, 5, 0.5);
	source = open_ok(spec, TRUE, FALSE);
	run_init(&run);
	run_source(&run, source);
	g_assert_cmpuint(run.last_event, ==, SOURCE_EVENT_END);
	g_assert_cmpuint(run.numbers->len, ==, 5);
	for (guint k = 0; k < 5; k++) {
		testutil_pattern(k, raw);
		g_assert_cmpuint(g_array_index(run.numbers, guint64, k), ==, k);
		g_assert_cmpint(g_array_index(run.times, gint64, k), ==, k * 500000);
		g_assert_cmpuint(g_array_index(run.sums, guint64, k), ==, raw_sum(raw));
	}
	run_clear(&run);
	testutil_rmdir(dir);
}

/* Paused, even --fast, a recording reads no frame until resumed, then
 * goes on with the next. */
static void
test_replay_pause(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *spec = g_strconcat("replay:", dir, NULL);
	g_autoptr(Source) source = NULL;
	Run run;

	testutil_write_dump(dir, 5, 0.5);
	source = open_ok(spec, TRUE, FALSE);
	run_init(&run);
	run.pause_at = 2;
	run_source(&run, source);
	g_assert_cmpuint(run.last_event, ==, SOURCE_EVENT_END);
	g_assert_cmpuint(run.frames_when_resumed, ==, 2);
	g_assert_cmpuint(run.numbers->len, ==, 5);
	for (guint k = 0; k < 5; k++)
		g_assert_cmpuint(g_array_index(run.numbers, guint64, k), ==, k);
	run_clear(&run);
	testutil_rmdir(dir);
}

static void
test_replay_loops(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *spec = g_strconcat("replay:", dir, NULL);
	g_autoptr(Source) source = NULL;
	Run run;

	testutil_write_dump(dir, 3, 0.1);
	source = open_ok(spec, TRUE, TRUE);
	run_init(&run);
	run.stop_after = 7;
	run_source(&run, source);
	g_assert_false(run.got_event);
	g_assert_cmpuint(run.numbers->len, ==, 7);
	/* Frame numbers and times keep rising across the loop. */
	for (guint k = 1; k < 7; k++) {
		g_assert_cmpuint(g_array_index(run.numbers, guint64, k), ==, k);
		g_assert_cmpint(g_array_index(run.times, gint64, k), >,
		                g_array_index(run.times, gint64, k - 1));
	}
	g_assert_cmpuint(g_array_index(run.sums, guint64, 3), ==,
	                 g_array_index(run.sums, guint64, 0));
	run_clear(&run);
	testutil_rmdir(dir);
}

/* Paced playback never delivers a frame before its recorded time. Only a
 * lower bound: a busy machine may deliver late. */
static void
test_replay_paced_not_early(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *spec = g_strconcat("replay:", dir, NULL);
	g_autoptr(Source) source = NULL;
	Run run;
	gint64 first;

	testutil_write_dump(dir, 4, 0.05);
	source = open_ok(spec, FALSE, FALSE);
	run_init(&run);
	run_source(&run, source);
	g_assert_cmpuint(run.numbers->len, ==, 4);
	first = g_array_index(run.arrivals, gint64, 0);
	for (guint k = 1; k < 4; k++)
		g_assert_cmpint(g_array_index(run.arrivals, gint64, k) - first, >=, k * 50000);
	run_clear(&run);
	testutil_rmdir(dir);
}

/* A frame a thousand years after the one before (a broken walltime, or a
 * recording paused for long) plays a frame later, with a warning, rather
 * than leaving the bridge silent. */
static void
test_replay_gap_cut_short(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *spec = g_strconcat("replay:", dir, NULL);
	g_autofree char *from = g_build_filename(dir, "d-1000.200000-102000.pgm", NULL);
	g_autofree char *to = g_build_filename(dir, "d-31557601000.000000-102000.pgm", NULL);
	g_autofree char *index = g_build_filename(dir, "INDEX.txt", NULL);
	static const char names[] = "d-1000.000000-100000.pgm\nd-1000.100000-101000.pgm\n"
	                            "d-31557601000.000000-102000.pgm\n";
	g_autoptr(Source) source = NULL;
	Run run;

	testutil_write_dump(dir, 3, 0.1);
	g_assert_cmpint(g_rename(from, to), ==, 0);
	testutil_write_file(index, names, strlen(names));
	source = open_ok(spec, FALSE, FALSE);
	run_init(&run);
	run_source(&run, source);
	g_assert_cmpuint(run.numbers->len, ==, 3);
	g_assert_cmpuint(run.skipped, ==, 1);
	g_test_message("%s", run.error);
	g_assert_nonnull(strstr(run.error, " s ahead; playing it in 33 ms"));
	g_assert_cmpint(g_array_index(run.arrivals, gint64, 2) -
	                        g_array_index(run.arrivals, gint64, 1),
	                <, SOURCE_MAX_GAP_US);
	run_clear(&run);
	testutil_rmdir(dir);
}

/* After a stall the frames missed meanwhile do not come in a burst:
 * pacing goes on from the frame due, a frame interval apart. */
static void
test_replay_no_burst_after_stall(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *spec = g_strconcat("replay:", dir, NULL);
	g_autoptr(Source) source = NULL;
	Run run;

	testutil_write_dump(dir, 8, 0.1);
	source = open_ok(spec, FALSE, FALSE);
	run_init(&run);
	run.stall_at = 2;
	run.stall_us = 1000000;
	run_source(&run, source);
	g_assert_cmpuint(run.numbers->len, ==, 8);
	for (guint k = 3; k < 8; k++)
		g_assert_cmpint(g_array_index(run.arrivals, gint64, k) -
		                        g_array_index(run.arrivals, gint64, k - 1),
		                >=, 50000);
	run_clear(&run);
	testutil_rmdir(dir);
}

/* A frame cut short (or deleted) while the recording plays is left out
 * with a word, and the rest plays on. */
static void
test_replay_frame_skipped(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *spec = g_strconcat("replay:", dir, NULL);
	g_autofree char *victim = g_build_filename(dir, "d-1000.200000-102000.pgm", NULL);
	g_autoptr(Source) source = NULL;
	g_autofree char *expected = NULL;
	Run run;

	testutil_write_dump(dir, 4, 0.1);
	source = open_ok(spec, TRUE, FALSE);
	testutil_write_file(victim, "P5 640 480 65535\n", 17);
	run_init(&run);
	run_source(&run, source);
	g_assert_cmpuint(run.numbers->len, ==, 3);
	g_assert_cmpuint(run.skipped, ==, 1);
	g_assert_cmpuint(run.last_event, ==, SOURCE_EVENT_END);
	expected = g_strdup_printf("frame skipped: %s/INDEX.txt:3: %s: short file: 0 of 614400 "
	                           "depth bytes",
	                           dir, victim);
	g_assert_cmpstr(run.error, ==, expected);
	run_clear(&run);
	testutil_rmdir(dir);
}

/* Looping, an installation keeps playing past a deleted frame, pass after
 * pass; once no frame at all can be read, it stops with an error. */
static void
test_replay_loop_skips(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *spec = g_strconcat("replay:", dir, NULL);
	g_autofree char *victim = g_build_filename(dir, "d-1000.100000-101000.pgm", NULL);
	g_autoptr(Source) source = NULL;
	g_autoptr(Source) gone = NULL;
	Run run, none;

	testutil_write_dump(dir, 4, 0.1);
	source = open_ok(spec, TRUE, TRUE);
	gone = open_ok(spec, TRUE, TRUE);
	g_assert_cmpint(g_unlink(victim), ==, 0);
	run_init(&run);
	run.stop_after = 12;
	run_source(&run, source);
	g_assert_cmpuint(run.numbers->len, ==, 12);
	g_assert_cmpuint(run.skipped, ==, 4);
	testutil_rmdir(dir);
	run_init(&none);
	run_source(&none, gone);
	g_assert_cmpuint(none.numbers->len, ==, 0);
	g_assert_cmpuint(none.last_event, ==, SOURCE_EVENT_ERROR);
	g_assert_true(g_str_has_prefix(none.error, "frame skipped: "));
	run_clear(&none);
	run_clear(&run);
}

static void
test_raw_reads_millimetres(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *a = g_build_filename(dir, "a.raw", NULL);
	g_autofree char *b = g_build_filename(dir, "b.raw", NULL);
	g_autofree char *spec = g_strdup_printf("raw:%s,%s", a, b);
	g_autofree guint8 *bytes = g_malloc0(DEPTH_PIXELS * 2);
	g_autoptr(Source) source = NULL;
	g_autoptr(GError) error = NULL;
	const DepthFrame *frame;

	/* 1193 mm at pixel 0, 0 (no reading) elsewhere. */
	bytes[0] = 1193 & 0xff;
	bytes[1] = 1193 >> 8;
	testutil_write_file(a, bytes, DEPTH_PIXELS * 2);
	testutil_write_file(b, bytes, DEPTH_PIXELS * 2);
	source = open_ok(spec, TRUE, FALSE);
	frame = source_read(source, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(frame->mm[0], ==, 1193);
	g_assert_cmpuint(frame->raw[0], ==, 800);
	g_assert_cmpuint(frame->mm[1], ==, 0);
	g_assert_cmpuint(frame->raw[1], ==, DEPTH_RAW_NONE);
	g_assert_nonnull(source_read(source, &error));
	g_assert_null(source_read(source, &error));
	g_assert_no_error(error);
	testutil_rmdir(dir);
}

static void
test_raw_wrong_size(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *a = g_build_filename(dir, "a.raw", NULL);
	g_autofree char *spec = g_strdup_printf("raw:%s", a);
	g_autofree char *expected =
	        g_strdup_printf("raw:%s: 1000 bytes, a 640x480 16-bit frame has 614400", a);
	g_autofree guint8 *bytes = g_malloc0(1000);
	g_autoptr(GError) error = NULL;
	g_autoptr(Source) source = NULL;

	testutil_write_file(a, bytes, 1000);
	source = source_open(spec, NULL, &error);
	g_assert_null(source);
	g_assert_error(error, SOURCE_ERROR, SOURCE_ERROR_DATA);
	g_assert_cmpstr(error->message, ==, expected);
	testutil_rmdir(dir);
}

/* What is not a still file says what it is, at once (a named pipe would
 * otherwise be waited on for ever). */
static void
test_raw_not_a_file(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *fifo = g_build_filename(dir, "fifo.raw", NULL);
	g_autofree char *on_fifo = g_strconcat("raw:", fifo, NULL);
	g_autofree char *on_dir = g_strconcat("raw:", dir, NULL);
	g_autofree char *want_fifo = g_strconcat(on_fifo, ": not a file but a named pipe", NULL);
	g_autofree char *want_dir = g_strconcat(on_dir, ": not a file but a folder", NULL);
	g_autoptr(GError) fifo_error = NULL, dir_error = NULL, empty_error = NULL;

	g_assert_cmpint(mkfifo(fifo, 0600), ==, 0);
	g_assert_null(source_open(on_fifo, NULL, &fifo_error));
	g_assert_null(source_open(on_dir, NULL, &dir_error));
	g_assert_null(source_open("raw:,,", NULL, &empty_error));
	g_assert_error(fifo_error, SOURCE_ERROR, SOURCE_ERROR_DATA);
	g_assert_cmpstr(fifo_error->message, ==, want_fifo);
	g_assert_error(dir_error, SOURCE_ERROR, SOURCE_ERROR_DATA);
	g_assert_cmpstr(dir_error->message, ==, want_dir);
	g_assert_error(empty_error, SOURCE_ERROR, SOURCE_ERROR_SPEC);
	g_assert_cmpstr(empty_error->message, ==, "raw: an empty file name (raw:FILE[,FILE...])");
	testutil_rmdir(dir);
}

static void
test_demo_scene_plays_once(void)
{
	g_autoptr(Source) source = open_ok("demo:empty", TRUE, FALSE);
	Run run;

	run_init(&run);
	run_source(&run, source);
	g_assert_cmpuint(run.last_event, ==, SOURCE_EVENT_END);
	g_assert_cmpuint(run.numbers->len, ==, 4 * 30);
	run_clear(&run);
}

static void
test_demo_routine_is_endless(void)
{
	g_autoptr(Source) source = open_ok("demo", TRUE, FALSE);
	g_autoptr(GError) error = NULL;

	for (guint k = 0; k < 52 * 30 + 5; k += 300)
		g_assert_nonnull(source_read(source, &error));
	g_assert_no_error(error);
}

/* No Kinect here: a clear error, whatever libusb can see. */
static void
test_freenect_without_device(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(Source) source = NULL;

	if (g_getenv("FAKENECT_PATH") != NULL) {
		g_test_skip("running under fakenect");
		return;
	}
	source = source_open("freenect", NULL, &error);
	if (source != NULL) {
		g_test_skip("a Kinect is plugged in");
		return;
	}
	g_assert_true(g_error_matches(error, SOURCE_ERROR, SOURCE_ERROR_NO_DEVICE) ||
	              g_error_matches(error, SOURCE_ERROR, SOURCE_ERROR_DEVICE));
	g_assert_true(g_str_has_prefix(error->message, "freenect:0: "));
	g_test_message("%s", error->message);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/source/spec/unknown", test_spec_unknown);
	g_test_add_func("/source/spec/bad-arguments", test_spec_bad_arguments);
	g_test_add_func("/source/replay/plays-every-frame-in-order",
	                test_replay_plays_every_frame_in_order);
	g_test_add_func("/source/replay/paused-reads-nothing-until-resumed", test_replay_pause);
	g_test_add_func("/source/replay/loops", test_replay_loops);
	g_test_add_func("/source/replay/paced-never-early", test_replay_paced_not_early);
	g_test_add_func("/source/replay/frame-cut-short-skipped", test_replay_frame_skipped);
	g_test_add_func("/source/replay/gap-cut-short", test_replay_gap_cut_short);
	g_test_add_func("/source/replay/no-burst-after-stall", test_replay_no_burst_after_stall);
	g_test_add_func("/source/replay/loop-skips-deleted-frame", test_replay_loop_skips);
	g_test_add_func("/source/raw/reads-millimetres", test_raw_reads_millimetres);
	g_test_add_func("/source/raw/wrong-size", test_raw_wrong_size);
	g_test_add_func("/source/raw/not-a-file", test_raw_not_a_file);
	g_test_add_func("/source/demo/scene-plays-once", test_demo_scene_plays_once);
	g_test_add_func("/source/demo/routine-is-endless", test_demo_routine_is_endless);
	g_test_add_func("/source/freenect/without-device", test_freenect_without_device);
	return g_test_run();
}
