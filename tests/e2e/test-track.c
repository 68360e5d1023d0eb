/* End to end: skelbridge track prints one JSON object a line, as the
 * README shows, from the demo, from a recording and from raw stills. */
#include <string.h>

#include "base/depth.h"
#include "testutil.h"

static void
track(TestutilSpawned *s, const char *source, const char *frames, gboolean json)
{
	const char *argv[] = {
		testutil_binary(),      "track", "--source", source, "--fast", "--frames", frames,
		json ? "--json" : NULL, NULL
	};

	testutil_spawn(s, argv);
}

/* Every line is one object: frame, timestamp, users, the camera pose;
 * joints by name. */
static void
test_json_lines(void)
{
	g_auto(TestutilSpawned) s = { 0 };
	g_auto(GStrv) lines = NULL;

	track(&s, "demo:poses", "5", TRUE);
	g_assert_cmpint(s.status, ==, 0);
	lines = g_strsplit(s.out, "\n", -1);
	g_assert_cmpuint(g_strv_length(lines), ==, 6);
	g_assert_cmpstr(lines[5], ==, "");
	for (guint i = 0; i < 5; i++) {
		g_autofree char *start = g_strdup_printf("{\"frame\":%u,\"timestamp\":", i);

		g_assert_true(g_str_has_prefix(lines[i], start));
		g_assert_nonnull(
		        strstr(lines[i], ",\"users\":[{\"id\":1,\"joints\":{\"head\":{\"x\":"));
		g_assert_nonnull(strstr(lines[i], "\"left_hand\":{\"x\":"));
		g_assert_nonnull(strstr(lines[i], ",\"confidence\":"));
		g_assert_nonnull(strstr(lines[i], "}}}],\"camera\":{\"floor\":\"seen\","));
		g_assert_true(g_str_has_suffix(lines[i], "}}"));
	}
}

/* A recording plays through the tracker as the live source would. */
static void
test_replay(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *dump = g_build_filename(dir, "dump", NULL);
	g_autofree char *spec = g_strconcat("replay:", dump, NULL);
	g_auto(TestutilSpawned) rec = { 0 };
	g_auto(TestutilSpawned) s = { 0 };
	g_auto(GStrv) lines = NULL;
	const char *argv[] = { testutil_binary(), "record", "--source", "demo:crowd", "--fast",
		               "--frames",        "3",      dump,       NULL };

	testutil_spawn(&rec, argv);
	g_assert_cmpint(rec.status, ==, 0);
	track(&s, spec, "0", TRUE);
	g_assert_cmpint(s.status, ==, 0);
	lines = g_strsplit(s.out, "\n", -1);
	g_assert_cmpuint(g_strv_length(lines), ==, 4);
	/* The crowd: three people in every frame. */
	g_assert_nonnull(strstr(s.out, "{\"id\":3,"));
	testutil_rmdir(dir);
}

/* Raw stills are unrelated: each is tracked afresh, so each person is new. */
static void
test_raw_stills(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *empty = g_build_filename(dir, "empty.raw", NULL);
	g_autofree char *spec = g_strdup_printf("raw:%s,%s", empty, empty);
	g_autofree guint8 *zeros = g_malloc0(DEPTH_PIXELS * 2);
	g_auto(TestutilSpawned) s = { 0 };

	testutil_write_file(empty, zeros, DEPTH_PIXELS * 2);
	track(&s, spec, "0", TRUE);
	g_assert_cmpint(s.status, ==, 0);
	g_assert_cmpstr(s.out, ==,
	                "{\"frame\":0,\"timestamp\":0,\"users\":[],\"camera\":{\"floor\":"
	                "\"unknown\",\"height\":0.0,\"tilt\":0.00,\"roll\":0.00}}\n"
	                "{\"frame\":1,\"timestamp\":33333,\"users\":[],\"camera\":{\"floor\":"
	                "\"unknown\",\"height\":0.0,\"tilt\":0.00,\"roll\":0.00}}\n");
	testutil_rmdir(dir);
}

/* The real stills, when they are there: a person in each, ids not reused. */
static void
test_real_stills(void)
{
	const char *dir = testutil_real_kinect_dir();
	g_auto(GStrv) files = NULL;
	g_autofree char *joined = NULL, *spec = NULL;
	g_auto(TestutilSpawned) s = { 0 };

	if (dir == NULL) {
		g_test_skip("no real Kinect frames: $SKELBRIDGE_REAL_KINECT is not a folder");
		return;
	}
	files = testutil_real_kinect_files(dir);
	joined = g_strjoinv(",", files);
	spec = g_strconcat("raw:", joined, NULL);
	track(&s, spec, "0", TRUE);
	g_assert_cmpint(s.status, ==, 0);
	for (guint i = 0; files[i] != NULL; i++) {
		g_autofree char *user = g_strdup_printf("\"users\":[{\"id\":%u,", i + 1);

		g_assert_nonnull(strstr(s.out, user));
	}
}

/* Without --json, a summary line a frame. */
static void
test_summary(void)
{
	g_auto(TestutilSpawned) s = { 0 };

	track(&s, "demo:poses", "2", FALSE);
	g_assert_cmpint(s.status, ==, 0);
	g_assert_cmpstr(s.out, ==,
	                "frame 0: 1 user: id 1 (15 joints)\nframe 1: 1 user: id 1 (15 joints)\n");
}

static void
test_bad_source(void)
{
	g_auto(TestutilSpawned) s = { 0 };

	track(&s, "raw:/nonexistent/frame.raw", "0", TRUE);
	g_assert_cmpint(s.status, !=, 0);
	g_assert_nonnull(strstr(s.err, "/nonexistent/frame.raw"));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/track/json/one-object-a-line", test_json_lines);
	g_test_add_func("/track/json/replay", test_replay);
	g_test_add_func("/track/json/raw-stills-tracked-afresh", test_raw_stills);
	g_test_add_func("/track/json/real-stills", test_real_stills);
	g_test_add_func("/track/summary", test_summary);
	g_test_add_func("/track/error/bad-source", test_bad_source);
	return g_test_run();
}
