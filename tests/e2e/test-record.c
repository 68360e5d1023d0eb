/* End to end: skelbridge record writes dumps that replay:DIR, libfreenect's
 * own fakenect, and skelbridge's freenect source under fakenect all play. */
#include <string.h>

#include "sources/dump.h"
#include "sources/source.h"
#include "testutil.h"

#define N_FRAMES 20

typedef struct {
	char *dir;
	char *dump;
} Fixture;

static void
record(const char *source, const char *dir, TestutilSpawned *s)
{
	const char *argv[] = {
		testutil_binary(),     "record", "--source", source, "--fast", "--frames",
		G_STRINGIFY(N_FRAMES), dir,      NULL
	};

	testutil_spawn(s, argv);
}

static void
fixture_setup(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	g_auto(TestutilSpawned) s = { 0 };

	f->dir = testutil_tmpdir();
	f->dump = g_build_filename(f->dir, "dump", NULL);
	record("demo", f->dump, &s);
	g_assert_cmpint(s.status, ==, 0);
	g_assert_nonnull(strstr(s.err, "recorded " G_STRINGIFY(N_FRAMES) " frames from demo"));
}

static void
fixture_teardown(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	testutil_rmdir(f->dir);
	g_free(f->dir);
	g_free(f->dump);
}

static guint64
raw_sum(const guint16 *raw)
{
	guint64 sum = 0;

	for (guint i = 0; i < DEPTH_PIXELS; i++)
		sum = sum * 31 + raw[i];
	return sum;
}

static Source *
open_source(const char *spec)
{
	g_autoptr(GError) error = NULL;
	SourceOptions options = { TRUE, FALSE, 1 };
	Source *source = source_open(spec, &options, &error);

	g_assert_no_error(error);
	return source;
}

static void
test_demo_record_replay_identical(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	g_autofree char *spec = g_strconcat("replay:", f->dump, NULL);
	g_autoptr(Source) demo = open_source("demo");
	g_autoptr(Source) replay = open_source(spec);
	g_autoptr(DepthFrame) want = depth_frame_new();
	g_autoptr(GError) error = NULL;

	for (guint k = 0; k < N_FRAMES; k++) {
		const DepthFrame *got;

		depth_frame_copy(want, source_read(demo, &error));
		got = source_read(replay, &error);
		g_assert_no_error(error);
		g_assert_nonnull(got);
		g_assert_cmpmem(got->mm, DEPTH_PIXELS * 2, want->mm, DEPTH_PIXELS * 2);
		g_assert_cmpmem(got->raw, DEPTH_PIXELS * 2, want->raw, DEPTH_PIXELS * 2);
		g_assert_cmpuint(got->timestamp, ==, want->timestamp);
		/* Recorded at the scene's pace, whatever the recording speed. */
		g_assert_cmpint(llabs(got->time_us - want->time_us), <=, 1);
	}
	g_assert_null(source_read(replay, &error));
	g_assert_no_error(error);
}

/* A replay recorded again gives the same frames byte for byte. */
static void
test_record_of_replay_identical(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	g_autofree char *spec = g_strconcat("replay:", f->dump, NULL);
	g_autofree char *again = g_build_filename(f->dir, "again", NULL);
	g_autofree char *spec2 = g_strconcat("replay:", again, NULL);
	g_auto(TestutilSpawned) s = { 0 };
	g_autoptr(Source) a = NULL;
	g_autoptr(Source) b = NULL;
	g_autoptr(GError) error = NULL;

	record(spec, again, &s);
	g_assert_cmpint(s.status, ==, 0);
	a = open_source(spec);
	b = open_source(spec2);
	for (guint k = 0; k < N_FRAMES; k++) {
		guint64 sa = raw_sum(source_read(a, &error)->raw);
		guint64 sb = raw_sum(source_read(b, &error)->raw);

		g_assert_cmpuint(sa, ==, sb);
	}
}

static void
test_plays_under_fakenect(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	const char *probe = g_getenv("FAKENECT_PROBE");
	const char *argv[] = { "fakenect", f->dump, probe, NULL };
	g_autoptr(DumpReader) reader = dump_reader_open(f->dump, NULL);
	g_autofree guint16 *raw = g_new(guint16, DEPTH_PIXELS);
	g_auto(TestutilSpawned) s = { 0 };
	g_auto(GStrv) lines = NULL;
	guint n = 0;

	g_assert_nonnull(probe);
	testutil_spawn(&s, argv);
	g_assert_cmpint(s.status, ==, 0);
	lines = g_strsplit(s.out, "\n", -1);
	for (guint i = 0; lines[i] != NULL; i++) {
		g_autofree char *want = NULL;

		if (!g_str_has_prefix(lines[i], "frame "))
			continue;
		const DumpEntry *entry = NULL;

		g_assert_cmpint(dump_reader_next(reader, raw, &entry, NULL), ==, DUMP_READ_FRAME);
		want = g_strdup_printf("frame %u %u %" G_GUINT64_FORMAT, n, entry->timestamp,
		                       raw_sum(raw));
		g_assert_cmpstr(lines[i], ==, want);
		n++;
	}
	g_assert_cmpuint(n, ==, N_FRAMES);
	g_assert_nonnull(strstr(s.out, "frames " G_STRINGIFY(N_FRAMES) "\n"));
}

static void
test_bridge_runs_under_fakenect(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	const char *argv[] = { "fakenect", f->dump, testutil_binary(), "run", "--source",
		               "freenect", NULL };
	g_auto(TestutilSpawned) s = { 0 };
	guint64 tracked, left_out;

	testutil_spawn(&s, argv);
	g_assert_cmpint(s.status, ==, 0);
	tracked = testutil_summary_count(s.err, "freenect: ", " frames in ");
	left_out = testutil_summary_count(s.err, "", " frames left out while the bridge was busy$");
	/* fakenect plays in real time, and a live source leaves out the frames
	 * that a busy bridge cannot take; each of them is counted, the last too. */
	g_assert_cmpuint(tracked, >=, 1);
	g_assert_cmpuint(tracked + left_out, ==, N_FRAMES);
}

static void
test_record_refuses_existing_dump(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	g_auto(TestutilSpawned) s = { 0 };
	g_autofree char *expected = g_strdup_printf(
	        "skelbridge: %s/INDEX.txt: already exists; record into a new or empty folder\n",
	        f->dump);

	record("demo", f->dump, &s);
	g_assert_cmpint(s.status, !=, 0);
	g_assert_cmpstr(s.err, ==, expected);
}

static void
test_run_counts_frames(Fixture *f G_GNUC_UNUSED, gconstpointer data G_GNUC_UNUSED)
{
	const char *argv[] = { testutil_binary(), "run", "--source", "demo:empty", "--fast", NULL };
	g_auto(TestutilSpawned) s = { 0 };

	testutil_spawn(&s, argv);
	g_assert_cmpint(s.status, ==, 0);
	g_assert_nonnull(strstr(s.err, "\nskelbridge: demo:empty: 120 frames in "));
}

static void
test_run_bad_source(Fixture *f G_GNUC_UNUSED, gconstpointer data G_GNUC_UNUSED)
{
	const char *argv[] = { testutil_binary(), "run", "--source", "replay:/nonexistent", NULL };
	g_auto(TestutilSpawned) s = { 0 };

	testutil_spawn(&s, argv);
	g_assert_cmpint(s.status, !=, 0);
	g_assert_true(g_str_has_prefix(s.err, "skelbridge: /nonexistent: not a fakenect dump: "));
}

#define ADD(path, func) g_test_add(path, Fixture, NULL, fixture_setup, func, fixture_teardown)

/* --log-level warning keeps what the bridge does to itself; faults still show. */
static void
test_run_log_level_warning(Fixture *f G_GNUC_UNUSED, gconstpointer data G_GNUC_UNUSED)
{
	const char *argv[] = { testutil_binary(),
		               "run",
		               "--source",
		               "demo:empty",
		               "--fast",
		               "--log-level",
		               "warning",
		               "--target",
		               "osc.tcp://127.0.0.1:1",
		               NULL };
	g_auto(TestutilSpawned) s = { 0 };

	testutil_spawn(&s, argv);
	g_assert_cmpint(s.status, ==, 0);
	g_assert_null(strstr(s.err, "frames in"));
	g_assert_null(strstr(s.err, "rules, sending to"));
	g_assert_nonnull(strstr(s.err, "skelbridge: output default (osc.tcp://127.0.0.1:1): "));
}

static void
test_run_log_level_bad(Fixture *f G_GNUC_UNUSED, gconstpointer data G_GNUC_UNUSED)
{
	const char *argv[] = { testutil_binary(), "record", "--log-level", "loud", "dir", NULL };
	g_auto(TestutilSpawned) s = { 0 };

	testutil_spawn(&s, argv);
	g_assert_cmpint(s.status, !=, 0);
	g_assert_cmpstr(s.err, ==,
	                "skelbridge: record: --log-level loud: not a level (error, warning, info, "
	                "debug) (see 'skelbridge record --help')\n");
}

/* Into the journal, lines carry syslog priorities instead of the name.
 * The refused connection is told asynchronously (the proxy lookup runs in
 * a thread): a second of frames at the scene's pace, not --fast, so that
 * it comes before the run ends on a loaded machine or under valgrind. */
static void
test_run_log_to_journal(Fixture *f G_GNUC_UNUSED, gconstpointer data G_GNUC_UNUSED)
{
	g_autofree char *script = g_strdup_printf(
	        "JOURNAL_STREAM=$(stat -L -c %%d:%%i /proc/self/fd/2) exec %s run --source "
	        "demo:empty --frames 30 --target osc.tcp://127.0.0.1:1",
	        testutil_binary());
	const char *argv[] = { "sh", "-c", script, NULL };
	g_auto(TestutilSpawned) s = { 0 };

	testutil_spawn(&s, argv);
	g_assert_cmpint(s.status, ==, 0);
	g_assert_true(g_str_has_prefix(s.err, "<6>"));
	g_assert_nonnull(strstr(s.err, "\n<6>demo:empty: 30 frames in "));
	g_assert_nonnull(strstr(s.err, "\n<4>output default (osc.tcp://127.0.0.1:1): "));
	g_assert_null(strstr(s.err, "skelbridge: "));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	ADD("/record/demo-record-replay-identical", test_demo_record_replay_identical);
	ADD("/record/record-of-replay-identical", test_record_of_replay_identical);
	ADD("/record/plays-under-fakenect", test_plays_under_fakenect);
	ADD("/record/bridge-runs-under-fakenect", test_bridge_runs_under_fakenect);
	ADD("/record/refuses-existing-dump", test_record_refuses_existing_dump);
	ADD("/run/counts-frames", test_run_counts_frames);
	ADD("/run/bad-source", test_run_bad_source);
	ADD("/run/log-level/warning", test_run_log_level_warning);
	ADD("/run/log-level/bad", test_run_log_level_bad);
	ADD("/run/log-level/journal", test_run_log_to_journal);
	return g_test_run();
}
