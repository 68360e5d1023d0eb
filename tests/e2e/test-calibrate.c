/* End to end: skelbridge calibrate on two views of one demo room, its room
 * file against where the scene put the sensors, and what it says when it
 * cannot place them. */
#include <math.h>
#include <string.h>
#include <sys/wait.h>

#include "demo/demo-render.h"
#include "demo/demo-scene.h"
#include "room/room.h"
#include "testutil.h"

#define DEG (G_PI / 180.0)

/* How far from the truth a calibration from a walk-through may be. */
#define MAX_PLACE_MM  30.0
#define MAX_ANGLE_DEG 1.0

static void
calibrate(TestutilSpawned *s, const char *a, const char *b, const char *extra, const char *out)
{
	const char *argv[] = { testutil_binary(), "calibrate", "--source", a,   "--source", b,
		               "--fast",          out,         extra,      NULL };

	testutil_spawn(s, argv);
}

/* @world in the floor frame of the sensor at @v: from the floor below
 * it, z along its view. */
static TrackerVec3
floor_frame(const DemoView *v, TrackerVec3 world)
{
	double dx = world.x - v->x, dz = world.z - v->z;

	return tracker_vec3(dx * cos(v->yaw) - dz * sin(v->yaw), world.y,
	                    dx * sin(v->yaw) + dz * cos(v->yaw));
}

static double
angle_apart(double a_deg, double b_deg)
{
	return fabs(remainder(a_deg - b_deg, 360.0));
}

/* Sensor 2 of @room, against the scene's second view as sensor 1's floor
 * frame sees it: where it stands, how high, which way it is turned and
 * how it is tilted and rolled. */
static void
check_against_truth(const Room *room, const char *scene)
{
	const DemoScript *script = demo_scene_find_script(scene);
	const DemoView *va = &script->views[0], *vb = &script->views[1];
	const RoomSensor *a = room_get_sensor(room, 0), *b = room_get_sensor(room, 1);
	TrackerVec3 truth = floor_frame(va, tracker_vec3(vb->x, vb->height, vb->z));
	double place = hypot(b->x_mm - truth.x, b->z_mm - truth.z);

	g_test_message("%s: sensor 2 %.1f mm from where it stands, height %.1f mm off, yaw "
	               "%.2f, tilt %.2f, roll %.2f degrees off",
	               scene, place, b->height_mm - vb->height,
	               angle_apart(b->yaw_deg, (vb->yaw - va->yaw) / DEG),
	               b->tilt_deg - vb->pitch / DEG, b->roll_deg - vb->roll / DEG);
	g_assert_cmpfloat(place, <=, MAX_PLACE_MM);
	g_assert_cmpfloat(fabs(a->height_mm - va->height), <=, MAX_PLACE_MM);
	g_assert_cmpfloat(fabs(b->height_mm - vb->height), <=, MAX_PLACE_MM);
	g_assert_cmpfloat(angle_apart(b->yaw_deg, (vb->yaw - va->yaw) / DEG), <=, MAX_ANGLE_DEG);
	g_assert_cmpfloat(fabs(a->tilt_deg - va->pitch / DEG), <=, MAX_ANGLE_DEG);
	g_assert_cmpfloat(fabs(b->tilt_deg - vb->pitch / DEG), <=, MAX_ANGLE_DEG);
	g_assert_cmpfloat(fabs(b->roll_deg - vb->roll / DEG), <=, MAX_ANGLE_DEG);
}

static void
check_scene(const char *scene)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *out = g_build_filename(dir, "room.conf", NULL);
	g_autofree char *a = g_strdup_printf("demo:%s@0", scene);
	g_autofree char *b = g_strdup_printf("demo:%s@1", scene);
	g_auto(TestutilSpawned) s = { 0 };
	g_autoptr(GError) error = NULL;
	g_autoptr(Room) room = NULL;
	g_autofree char *said = NULL;

	calibrate(&s, a, b, NULL, out);
	g_assert_cmpint(s.status, ==, 0);
	said = g_strdup_printf("sensor 2 (%s): x ", b);
	g_assert_nonnull(strstr(s.out, said));
	room = room_load(out, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(room_n_sensors(room), ==, 2);
	g_assert_cmpstr(room_get_sensor(room, 0)->source, ==, a);
	g_assert_cmpstr(room_get_sensor(room, 1)->source, ==, b);
	g_assert_cmpfloat(room_get_sensor(room, 0)->x_mm, ==, 0.0);
	check_against_truth(room, scene);
	testutil_rmdir(dir);
}

/* Side by side, turned inward: a walk from one view through the overlap
 * into the other. */
static void
test_two_sensors(void)
{
	check_scene("two-sensors");
}

/* Face to face: one person turning in the middle. */
static void
test_facing_sensors(void)
{
	check_scene("facing-sensors");
}

/* In the first second and a half the walker stands where only the first
 * sensor sees: nothing to place the second by, and no file. */
static void
test_not_together(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *out = g_build_filename(dir, "room.conf", NULL);
	g_auto(TestutilSpawned) s = { 0 };

	calibrate(&s, "demo:two-sensors@0", "demo:two-sensors@1", "--seconds=1.5", out);
	g_assert_cmpint(WEXITSTATUS(s.status), ==, 1);
	g_assert_nonnull(strstr(s.err, "sensors 1 and 2 saw one person at the same time"));
	g_assert_nonnull(strstr(s.err, "walk through where both see"));
	g_assert_false(g_file_test(out, G_FILE_TEST_EXISTS));
	testutil_rmdir(dir);
}

/* Usage: two sources at least, each once, and one file. */
static void
test_usage(void)
{
	static const char *const cases[][6] = {
		{ "--source", "demo", "room.conf", NULL },
		{ "--source", "demo", "--source", "demo", "room.conf", NULL },
		{ "--source", "demo:two-sensors@0", "--source", "demo:two-sensors@1", NULL },
		{ "--source", "demo:two-sensors@0", "--source", "demo:two-sensors@1",
		  "--seconds=-1", "room.conf" },
	};
	static const char *const said[] = {
		"give --source for each sensor, 2 to 8 of them (1 given)",
		"--source demo is given twice",
		"give one room file to write",
		"--seconds -1",
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_auto(TestutilSpawned) s = { 0 };
		const char *argv[9] = { testutil_binary(), "calibrate" };

		for (guint j = 0; j < 6 && cases[i][j] != NULL; j++)
			argv[2 + j] = cases[i][j];
		testutil_spawn(&s, argv);
		g_assert_cmpint(WEXITSTATUS(s.status), ==, 2);
		g_assert_nonnull(strstr(s.err, said[i]));
	}
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	/* A whole scene tracked twice takes 20 s of a core; under valgrind,
	 * half an hour. The calibrator's own test covers the solving there. */
	if (g_getenv("SKELBRIDGE_WRAPPER") == NULL) {
		g_test_add_func("/calibrate/two-sensors", test_two_sensors);
		g_test_add_func("/calibrate/facing-sensors", test_facing_sensors);
	}
	g_test_add_func("/calibrate/not-together", test_not_together);
	g_test_add_func("/calibrate/usage", test_usage);
	return g_test_run();
}
