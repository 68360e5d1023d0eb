/* End to end: the Kinect source through a fault-injecting libfreenect.
 * The device goes away, stalls, or is missing; the bridge says so, keeps
 * running, and resumes when frames flow again. */
#include <glib/gstdio.h>
#include <string.h>

#include "sources/dump.h"
#include "testutil.h"

typedef struct {
	int status;
	char *err;
} Result;

static void
result_clear(Result *r)
{
	g_free(r->err);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(Result, result_clear)

/* Runs skelbridge with the fake libfreenect playing @script; as under
 * fakenect when @fakenect is set, where the stream's first error is its end. */
static void
run_scripted(const char *script, gboolean fakenect, const char *const *args, Result *r)
{
	const char *fake_dir = g_getenv("FAKE_FREENECT_DIR");
	g_autoptr(GError) error = NULL;
	g_autoptr(GPtrArray) argv = g_ptr_array_new();
	g_auto(GStrv) env = g_get_environ();

	g_assert_nonnull(fake_dir);
	env = g_environ_setenv(env, "LD_LIBRARY_PATH", fake_dir, TRUE);
	env = g_environ_setenv(env, "FAKE_FREENECT_SCRIPT", script, TRUE);
	if (fakenect)
		env = g_environ_setenv(env, "FAKENECT_PATH", "/nonexistent", TRUE);
	else
		env = g_environ_unsetenv(env, "FAKENECT_PATH");
	g_ptr_array_add(argv, (gpointer)testutil_binary());
	for (guint i = 0; args[i] != NULL; i++)
		g_ptr_array_add(argv, (gpointer)args[i]);
	g_ptr_array_add(argv, NULL);
	g_spawn_sync(NULL, (char **)argv->pdata, env, 0, NULL, NULL, NULL, &r->err, &r->status,
	             &error);
	g_assert_no_error(error);
	g_test_message("%s", r->err);
}

static void
run_with_script(const char *script, const char *const *args, Result *r)
{
	run_scripted(script, FALSE, args, r);
}

static void
test_unplugged_and_back(void)
{
	const char *args[] = { "run", "--source", "freenect", "--frames", "20", NULL };
	g_auto(Result) r = { 0 };

	run_with_script("frames=10;unplug=1", args, &r);
	g_assert_cmpint(r.status, ==, 0);
	g_assert_nonnull(strstr(r.err, "skelbridge: freenect:0: Kinect lost (libfreenect error "
	                               "-4); retrying every 3 s\n"));
	g_assert_nonnull(strstr(r.err, "skelbridge: freenect: frames again\n"));
	g_assert_nonnull(strstr(r.err, "skelbridge: freenect: 20 frames in "));
}

static void
test_stalled_and_back(void)
{
	const char *args[] = { "run", "--source", "freenect", "--frames", "10", NULL };
	g_auto(Result) r = { 0 };

	run_with_script("frames=5;stall=4", args, &r);
	g_assert_cmpint(r.status, ==, 0);
	g_assert_nonnull(strstr(r.err, "freenect:0: Kinect lost (no frames for 3 s)"));
	g_assert_nonnull(strstr(r.err, "skelbridge: freenect: frames again\n"));
	g_assert_nonnull(strstr(r.err, "skelbridge: freenect: 10 frames in "));
}

static void
test_no_device(void)
{
	const char *args[] = { "run", "--source", "freenect:0", NULL };
	g_auto(Result) r = { 0 };

	run_with_script("absent", args, &r);
	g_assert_cmpint(r.status, !=, 0);
	g_assert_cmpstr(
	        r.err, ==,
	        "skelbridge: freenect:0: no Kinect found: libfreenect sees no device (is it "
	        "plugged in and powered, and may this user open its USB device?)\n");
}

static void
test_no_such_index(void)
{
	const char *args[] = { "run", "--source", "freenect:1", NULL };
	g_auto(Result) r = { 0 };

	run_with_script("", args, &r);
	g_assert_cmpint(r.status, !=, 0);
	g_assert_cmpstr(r.err, ==,
	                "skelbridge: freenect:1: no such Kinect: libfreenect sees 1 (numbered from "
	                "0)\n");
}

/* A recording goes on across an unplugged camera and stays playable. */
static void
test_recording_survives_unplug(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *dump = g_build_filename(dir, "dump", NULL);
	const char *args[] = { "record", "--source", "freenect", "--frames", "16", dump, NULL };
	g_auto(Result) r = { 0 };
	g_autoptr(GError) error = NULL;
	g_autoptr(DumpReader) reader = NULL;

	run_with_script("frames=8;unplug=0.5", args, &r);
	g_assert_cmpint(r.status, ==, 0);
	reader = dump_reader_open(dump, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(dump_reader_n_frames(reader), ==, 16);
	testutil_rmdir(dir);
}

/* A camera that races ahead of the bridge and then ends: every frame is
 * either tracked or counted as left out, the last one too. */
static void
test_burst_counts_every_frame(void)
{
	const char *args[] = { "run", "--source", "freenect", NULL };

	for (guint round = 0; round < 5; round++) {
		g_auto(Result) r = { 0 };
		guint64 tracked, left_out;

		run_scripted("burst=12;absent", TRUE, args, &r);
		g_assert_cmpint(r.status, ==, 0);
		tracked = testutil_summary_count(r.err, "freenect: ", " frames in ");
		left_out = testutil_summary_count(r.err, "",
		                                  " frames left out while the bridge was busy$");
		g_assert_cmpuint(tracked, >=, 1);
		g_assert_cmpuint(tracked + left_out, ==, 12);
	}
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/freenect/unplugged-and-back", test_unplugged_and_back);
	g_test_add_func("/freenect/stalled-and-back", test_stalled_and_back);
	g_test_add_func("/freenect/no-device", test_no_device);
	g_test_add_func("/freenect/no-such-index", test_no_such_index);
	g_test_add_func("/freenect/recording-survives-unplug", test_recording_survives_unplug);
	g_test_add_func("/freenect/burst-counts-every-frame", test_burst_counts_every_frame);
	return g_test_run();
}
