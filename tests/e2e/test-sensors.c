/* End to end: skelbridge run with two sensors of one demo room, fused in
 * a room file that says where the scene put them (a walker keeps one id
 * from one view through the overlap into the other), sent apart without
 * one, and what it says of a room that does not fit. */
#include <math.h>
#include <string.h>
#include <sys/wait.h>

#include "childproc.h"
#include "demo/demo-scene.h"
#include "oscsink.h"
#include "room/room.h"
#include "testutil.h"
#include "views.h"

#define WAIT_MS 10000

/* The room as the two-sensors scene has it, its world the room's frame. */
static char *
write_true_room(const char *dir)
{
	const DemoScript *script = demo_scene_find_script("two-sensors");
	static const char *const sources[] = { "demo:two-sensors@0", "demo:two-sensors@1" };
	g_autoptr(Room) room = views_room(script->views, sources, 2);
	g_autoptr(GError) error = NULL;
	char *path = g_build_filename(dir, "room.conf", NULL);

	g_assert_true(room_save(room, path, NULL, &error));
	return path;
}

/* Runs both views at their pace for @frames frames, the room file @room
 * (or none), the default mapping to a sink; the log into *@log. */
static GPtrArray *
run_two(const char *room, const char *frames, char **log)
{
	g_autoptr(OscSink) sink = osc_sink_new(FALSE, 0);
	g_autofree char *url = osc_sink_url(sink);
	const char *args[] = { "run",
		               "--source",
		               "demo:two-sensors@0",
		               "--source",
		               "demo:two-sensors@1",
		               "--frames",
		               frames,
		               "--target",
		               url,
		               room != NULL ? "--room" : NULL,
		               room,
		               NULL };
	g_autoptr(ChildProc) proc = child_proc_start(args);

	g_assert_cmpint(child_proc_wait(proc, 120000), ==, 0);
	*log = child_proc_log(proc);
	osc_sink_wait_path(sink, "/skel/users", WAIT_MS);
	g_usleep(200000);
	return osc_sink_take(sink);
}

/* The ids of every /skel/new_user (or /skel/lost_user) message, in order. */
static GArray *
event_ids(GPtrArray *messages, const char *path)
{
	GArray *ids = g_array_new(FALSE, FALSE, sizeof(gint32));

	for (guint i = 0; i < messages->len; i++) {
		const OscSinkMessage *m = g_ptr_array_index(messages, i);

		if (strcmp(m->path, path) == 0 && m->n_args >= 1 && m->args[0].type == 'i')
			g_array_append_val(ids, m->args[0].i);
	}
	return ids;
}

static guint
count_id(GArray *ids, gint32 id)
{
	guint n = 0;

	for (guint i = 0; i < ids->len; i++)
		n += g_array_index(ids, gint32, i) == id;
	return n;
}

/* 15 s: the walker from where only sensor 1 sees, through the overlap,
 * to where only sensor 2 does, and a visitor from 13 s. The walker is
 * user 1 throughout, never lost; the visitor comes as someone new. */
static void
test_fused(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *room = write_true_room(dir);
	g_autofree char *log = NULL;
	g_autoptr(GPtrArray) messages = run_two(room, "450", &log);
	g_autoptr(GArray) found = event_ids(messages, "/skel/new_user");
	g_autoptr(GArray) lost = event_ids(messages, "/skel/lost_user");

	g_test_message("%u messages; new users %u, lost %u", messages->len, found->len, lost->len);
	g_assert_null(strstr(log, "sent apart"));
	g_assert_nonnull(strstr(log, "demo:two-sensors@0 + demo:two-sensors@1: 450 frames"));
	g_assert_cmpuint(found->len, >=, 2);
	g_assert_cmpint(g_array_index(found, gint32, 0), ==, 1);
	g_assert_cmpuint(count_id(found, 1), ==, 1);
	g_assert_cmpuint(count_id(lost, 1), ==, 0);
	testutil_rmdir(dir);
}

/* Without a room, each sensor's users on their own: the walker is a new
 * user to each sensor, and the bridge says why. */
static void
test_apart(void)
{
	g_autofree char *log = NULL;
	g_autoptr(GPtrArray) messages = run_two(NULL, "240", &log);
	g_autoptr(GArray) found = event_ids(messages, "/skel/new_user");

	g_assert_nonnull(
	        strstr(log, "2 sensors and no --room: each sensor's users are sent apart"));
	g_assert_nonnull(strstr(log, "skelbridge calibrate"));
	g_assert_cmpuint(found->len, >=, 2);
}

static int
run_status(const char *const *args, char **err)
{
	g_auto(TestutilSpawned) s = { 0 };
	const char *argv[16] = { testutil_binary() };

	for (guint i = 0; args[i] != NULL && i < 14; i++)
		argv[1 + i] = args[i];
	testutil_spawn(&s, argv);
	*err = g_strdup(s.err);
	return WEXITSTATUS(s.status);
}

/* A room for one sensor, a sensor the room does not have, a broken room
 * file, and several sources where one is taken. */
static void
test_refused(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *room = write_true_room(dir);
	g_autofree char *broken = g_build_filename(dir, "broken.conf", NULL);
	g_autofree char *err = NULL;
	const char *one[] = { "run", "--source", "demo", "--room", room, NULL };
	const char *other[] = { "run",      "--source", "demo:two-sensors@0",
		                "--source", "demo",     "--room",
		                room,       NULL };
	const char *bad[] = { "run",
		              "--source",
		              "demo:two-sensors@0",
		              "--source",
		              "demo:two-sensors@1",
		              "--room",
		              broken,
		              NULL };
	const char *track[] = { "track", "--source", "demo", "--source", "demo:crowd", NULL };
	const char *text = "[room]\nformat = 1\n[sensor a]\nheight = high\n";

	g_assert_cmpint(run_status(one, &err), ==, 2);
	g_assert_nonnull(strstr(err, "a room is for several sensors"));
	g_clear_pointer(&err, g_free);
	g_assert_cmpint(run_status(other, &err), ==, 2);
	g_assert_nonnull(strstr(err, "--source demo is not in the room file"));
	g_clear_pointer(&err, g_free);
	testutil_write_file(broken, text, strlen(text));
	g_assert_cmpint(run_status(bad, &err), !=, 0);
	g_assert_nonnull(strstr(err, "broken.conf:4:"));
	g_clear_pointer(&err, g_free);
	g_assert_cmpint(run_status(track, &err), ==, 2);
	g_assert_nonnull(strstr(err, "only run and calibrate take several"));
	testutil_rmdir(dir);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	/* Two trackers at the scene's pace: under valgrind they would keep
	 * up with a frame in ten. */
	if (g_getenv("SKELBRIDGE_WRAPPER") == NULL) {
		g_test_add_func("/sensors/fused", test_fused);
		g_test_add_func("/sensors/apart", test_apart);
	}
	g_test_add_func("/sensors/refused", test_refused);
	return g_test_run();
}
