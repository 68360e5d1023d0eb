/* End to end: --camera-height, --camera-tilt and --camera-roll on the
 * commands that track. Values out of range are refused with the option and
 * the range named; a pose given where the floor is not in view reaches the
 * tracker (a still of the demo with its floor cut away); the pose measured
 * from the floor shows in track's JSON and in run's log. */
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "demo/demo-scene.h"
#include "testutil.h"

#define HEIGHT_EPS_MM 5.0
#define ANGLE_EPS_DEG 0.15
#define JOINT_EPS_MM  100.0

/* A demo frame with its floor's pixels reading nothing, as a raw still. */
typedef struct {
	char *dir;
	char *spec; /* raw:FILE */
	DemoScene *scene;
	DepthFrame *depth; /* with the scene's truth */
} CutStill;

static void
cut_still_init(CutStill *still)
{
	g_autofree char *path = NULL;
	g_autoptr(GError) error = NULL;

	still->dir = testutil_tmpdir();
	path = g_build_filename(still->dir, "cut.raw", NULL);
	still->spec = g_strconcat("raw:", path, NULL);
	still->scene = demo_scene_new_named("tall", 1, &error);
	g_assert_no_error(error);
	still->depth = depth_frame_new();
	demo_scene_render(still->scene, 30, still->depth);
	for (guint k = 0; k < DEPTH_PIXELS; k++) {
		if (still->depth->truth->labels[k] == DEMO_LABEL_FLOOR)
			still->depth->mm[k] = 0;
	}
	testutil_write_file(path, still->depth->mm, DEPTH_PIXELS * sizeof(guint16));
}

static void
cut_still_clear(CutStill *still)
{
	testutil_rmdir(still->dir);
	g_free(still->dir);
	g_free(still->spec);
	demo_scene_free(still->scene);
	depth_frame_free(still->depth);
}
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC(CutStill, cut_still_clear)

/* skelbridge @command with @args, then @more (NULL-terminated each). */
static void
spawn(TestutilSpawned *s, const char *command, const char *const *args, const char *const *more)
{
	g_autoptr(GPtrArray) argv = g_ptr_array_new();

	g_ptr_array_add(argv, (gpointer)testutil_binary());
	g_ptr_array_add(argv, (gpointer)command);
	for (guint i = 0; args[i] != NULL; i++)
		g_ptr_array_add(argv, (gpointer)args[i]);
	for (guint i = 0; more != NULL && more[i] != NULL; i++)
		g_ptr_array_add(argv, (gpointer)more[i]);
	g_ptr_array_add(argv, NULL);
	testutil_spawn(s, (const char *const *)argv->pdata);
}

typedef struct {
	char floor[16];
	double height, tilt, roll;
} Camera;

/* The "camera" object of a line of track --json. */
static void
json_camera(const char *line, Camera *camera)
{
	const char *at = strstr(line, ",\"camera\":{");

	g_assert_nonnull(at);
	g_assert_cmpint(sscanf(at,
	                       ",\"camera\":{\"floor\":\"%15[a-z]\",\"height\":%lf,\"tilt\":%lf,"
	                       "\"roll\":%lf}}",
	                       camera->floor, &camera->height, &camera->tilt, &camera->roll),
	                ==, 4);
}

/* The y of @joint of the first user in a line of track --json. */
static double
json_joint_y(const char *line, const char *joint)
{
	g_autofree char *key = g_strdup_printf("\"%s\":{\"x\":", joint);
	const char *at = strstr(line, key);
	double x, y;

	g_assert_nonnull(at);
	g_assert_cmpint(sscanf(at + strlen(key), "%lf,\"y\":%lf", &x, &y), ==, 2);
	return y;
}

/* Each command refuses each option out of range, naming both. */
static void
test_out_of_range(void)
{
	static const char *const commands[] = { "run", "track", "snapshot" };
	static const struct {
		const char *option, *range;
	} bad[] = {
		{ "--camera-height=5000", "200 to 4000 mm" },
		{ "--camera-height=-1", "200 to 4000 mm" },
		{ "--camera-tilt=-61", "-60 to 60 degrees" },
		{ "--camera-roll=45.5", "-45 to 45 degrees" },
	};

	for (guint c = 0; c < G_N_ELEMENTS(commands); c++) {
		for (guint b = 0; b < G_N_ELEMENTS(bad); b++) {
			const char *args[] = { "--frames", "1", bad[b].option, "never.png", NULL };
			g_auto(TestutilSpawned) s = { 0 };
			g_autofree char *hint =
			        g_strdup_printf("skelbridge %s --help", commands[c]);

			spawn(&s, commands[c], args, NULL);
			g_assert_true(WIFEXITED(s.status));
			g_assert_cmpint(WEXITSTATUS(s.status), ==, 2);
			g_assert_nonnull(strstr(s.err, bad[b].option));
			g_assert_nonnull(strstr(s.err, bad[b].range));
			g_assert_nonnull(strstr(s.err, hint));
			g_assert_false(g_file_test("never.png", G_FILE_TEST_EXISTS));
		}
	}
}

/* With the floor in view, every line carries the pose measured from it:
 * demo:near's sensor is 1.5 m up, tilted 8 degrees down. */
static void
test_track_measured(void)
{
	const char *args[] = { "--source", "demo:near", "--fast", "--frames", "3", "--json", NULL };
	g_auto(TestutilSpawned) s = { 0 };
	g_auto(GStrv) lines = NULL;

	spawn(&s, "track", args, NULL);
	g_assert_cmpint(s.status, ==, 0);
	lines = g_strsplit(s.out, "\n", -1);
	g_assert_cmpuint(g_strv_length(lines), ==, 4);
	for (guint i = 0; i < 3; i++) {
		Camera camera;

		json_camera(lines[i], &camera);
		g_assert_cmpstr(camera.floor, ==, "seen");
		g_assert_cmpfloat_with_epsilon(camera.height, 1500.0, HEIGHT_EPS_MM);
		g_assert_cmpfloat_with_epsilon(camera.tilt, 8.0, ANGLE_EPS_DEG);
		g_assert_cmpfloat_with_epsilon(camera.roll, 0.0, ANGLE_EPS_DEG);
	}
}

/* With the floor out of view the pose given is the one reported, and the
 * tracker stands the person on the floor it gives: the feet where they
 * are. Without it, nothing is known of the floor. */
static void
test_track_given(void)
{
	const char *pose[] = { "--camera-height=1000", "--camera-tilt=1", NULL };
	const char *args[] = { "--source", NULL, "--json", NULL };
	g_auto(CutStill) still = { 0 };
	g_auto(TestutilSpawned) plain = { 0 };
	g_auto(TestutilSpawned) given = { 0 };
	const DemoTruthPerson *person;
	Camera camera;

	cut_still_init(&still);
	args[1] = still.spec;
	spawn(&plain, "track", args, NULL);
	g_assert_cmpint(plain.status, ==, 0);
	json_camera(plain.out, &camera);
	g_assert_cmpstr(camera.floor, ==, "unknown");
	g_assert_cmpfloat(camera.height, ==, 0.0);
	spawn(&given, "track", args, pose);
	g_assert_cmpint(given.status, ==, 0);
	json_camera(given.out, &camera);
	g_assert_cmpstr(camera.floor, ==, "assumed");
	g_assert_cmpfloat(camera.height, ==, 1000.0);
	g_assert_cmpfloat(camera.tilt, ==, 1.0);
	g_assert_cmpfloat(camera.roll, ==, 0.0);
	person = &still.depth->truth->people[0];
	g_assert_cmpfloat_with_epsilon(json_joint_y(given.out, "left_foot"),
	                               person->joints[TRACKER_JOINT_LEFT_FOOT].y, JOINT_EPS_MM);
	g_assert_cmpfloat_with_epsilon(json_joint_y(given.out, "right_foot"),
	                               person->joints[TRACKER_JOINT_RIGHT_FOOT].y, JOINT_EPS_MM);
}

/* run says once where the floor is, and where it takes it to be when it
 * is not in view. */
static void
test_run_log(void)
{
	const char *seen[] = { "--source", "demo:poses", "--fast", "--frames", "5", NULL };
	const char *pose[] = { "--camera-height=1000", "--camera-tilt=1", NULL };
	const char *unseen[] = { "--source", NULL, NULL };
	g_auto(CutStill) still = { 0 };
	g_auto(TestutilSpawned) s = { 0 };
	g_auto(TestutilSpawned) cut = { 0 };
	const char *told = "skelbridge: floor: sensor 1.00 m up, tilted 1.0° down, rolled 0.0°\n";
	const char *at;

	spawn(&s, "run", seen, NULL);
	g_assert_cmpint(s.status, ==, 0);
	at = strstr(s.err, told);
	g_assert_nonnull(at);
	g_assert_null(strstr(at + strlen(told), "floor:"));
	cut_still_init(&still);
	unseen[1] = still.spec;
	spawn(&cut, "run", unseen, pose);
	g_assert_cmpint(cut.status, ==, 0);
	g_assert_nonnull(strstr(cut.err,
	                        "skelbridge: floor: not in view; taking the sensor to be "
	                        "1.00 m up, tilted 1.0° down, rolled 0.0°, as --camera-* say\n"));
}

/* snapshot's tracker gets the pose too: the person's legs, drawn, stand
 * elsewhere. */
static void
test_snapshot_given(void)
{
	const char *pose[] = { "--camera-height=1000", "--camera-tilt=1", NULL };
	const char *args[] = { "--source", NULL, NULL, NULL };
	g_auto(CutStill) still = { 0 };
	g_auto(TestutilSpawned) plain = { 0 };
	g_auto(TestutilSpawned) given = { 0 };
	g_autofree char *a = NULL, *b = NULL, *pa = NULL, *pb = NULL;
	gsize na, nb;

	cut_still_init(&still);
	pa = g_build_filename(still.dir, "plain.png", NULL);
	pb = g_build_filename(still.dir, "given.png", NULL);
	args[1] = still.spec;
	args[2] = pa;
	spawn(&plain, "snapshot", args, NULL);
	args[2] = pb;
	spawn(&given, "snapshot", args, pose);
	g_assert_cmpint(plain.status, ==, 0);
	g_assert_cmpint(given.status, ==, 0);
	g_assert_true(g_file_get_contents(pa, &a, &na, NULL));
	g_assert_true(g_file_get_contents(pb, &b, &nb, NULL));
	g_assert_false(na == nb && memcmp(a, b, na) == 0);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/camera-pose/cli/out-of-range", test_out_of_range);
	g_test_add_func("/camera-pose/cli/track/measured", test_track_measured);
	g_test_add_func("/camera-pose/cli/track/given-where-floor-unseen", test_track_given);
	g_test_add_func("/camera-pose/cli/run/log", test_run_log);
	g_test_add_func("/camera-pose/cli/snapshot/given-pose-reaches-tracker",
	                test_snapshot_given);
	return g_test_run();
}
