/* The camera pose through the tracker's API: its settings and their
 * ranges, the pose measured from the demo rooms' floors (the sensor 1 m up
 * tilted 1 degree down, or 1.5 m up tilted 8 degrees down), and the
 * settings' pose standing in when the floor is out of view. */
#include <math.h>
#include <string.h>

#include "demo/demo-scene.h"
#include "tracker/tracker.h"

#define HEIGHT_EPS_MM 5.0
#define ANGLE_EPS_DEG 0.15
#define JOINT_EPS_MM  100.0 /* the benchmark's "found" */

typedef struct {
	const char *scene;
	double height, tilt; /* the room's, src/demo-scene.c */
} Room;

static void
assert_pose(const TrackerCameraPose *pose, TrackerFloorState floor, double height, double tilt,
            double roll)
{
	g_assert_cmpint(pose->floor, ==, floor);
	g_assert_cmpfloat_with_epsilon(pose->height_mm, height, HEIGHT_EPS_MM);
	g_assert_cmpfloat_with_epsilon(pose->tilt_deg, tilt, ANGLE_EPS_DEG);
	g_assert_cmpfloat_with_epsilon(pose->roll_deg, roll, ANGLE_EPS_DEG);
}

static Tracker *
new_tracker(double height, double tilt, double roll)
{
	g_autoptr(GError) error = NULL;
	TrackerSettings s;
	Tracker *tracker;

	tracker_settings_init(&s);
	s.camera_height_mm = height;
	s.camera_tilt_deg = tilt;
	s.camera_roll_deg = roll;
	tracker = tracker_new(&s, &error);
	g_assert_no_error(error);
	return tracker;
}

/* Frames @first to @first + @n - 1 of @scene through @tracker; with
 * @cut_floor, the floor's pixels read nothing, as if cut away. */
static void
track(Tracker *tracker, const char *scene_name, guint64 first, guint n, gboolean cut_floor,
      DemoScene **scene, TrackerFrame *out)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(DepthFrame) frame = depth_frame_new();

	*scene = demo_scene_new_named(scene_name, 1, &error);
	g_assert_no_error(error);
	for (guint i = 0; i < n; i++) {
		demo_scene_render(*scene, first + i, frame);
		for (guint k = 0; cut_floor && k < DEPTH_PIXELS; k++) {
			if (frame->truth->labels[k] == DEMO_LABEL_FLOOR)
				frame->mm[k] = 0;
		}
		g_assert_true(tracker_process(tracker, frame->mm, first + i,
		                              (gint64)(first + i) * 33333, out, &error));
	}
	frame->truth = NULL; /* the scene's */
}

static void
test_defaults(void)
{
	g_autoptr(Tracker) tracker = tracker_new(NULL, NULL);
	TrackerSettings s;
	TrackerCameraPose pose;

	tracker_settings_init(&s);
	g_assert_cmpfloat(s.camera_height_mm, ==, 0.0);
	g_assert_cmpfloat(s.camera_tilt_deg, ==, 0.0);
	g_assert_cmpfloat(s.camera_roll_deg, ==, 0.0);
	tracker_get_camera_pose(tracker, &pose);
	assert_pose(&pose, TRACKER_FLOOR_UNKNOWN, 0.0, 0.0, 0.0);
}

/* Each setting at its limits and past them; the error names the setting
 * and its range. */
static void
test_ranges(void)
{
	static const struct {
		double height, tilt, roll;
		const char *error; /* NULL: accepted */
	} cases[] = {
		{ 200, 0, 0, NULL },
		{ 4000, 0, 0, NULL },
		{ 199, 0, 0, "camera_height_mm: must be 0 (not given) or 200 to 4000 mm" },
		{ 4001, 0, 0, "camera_height_mm: must be 0 (not given) or 200 to 4000 mm" },
		{ -1000, 0, 0, "camera_height_mm: must be 0 (not given) or 200 to 4000 mm" },
		{ 0, 60, 0, NULL },
		{ 0, -60, 0, NULL },
		{ 0, 60.5, 0, "camera_tilt_deg: must be -60 to 60 degrees" },
		{ 0, NAN, 0, "camera_tilt_deg: must be -60 to 60 degrees" },
		{ 0, 0, 45, NULL },
		{ 0, 0, -45, NULL },
		{ 0, 0, -46, "camera_roll_deg: must be -45 to 45 degrees" },
	};

	for (guint i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autoptr(GError) error = NULL;
		TrackerSettings s;

		tracker_settings_init(&s);
		s.camera_height_mm = cases[i].height;
		s.camera_tilt_deg = cases[i].tilt;
		s.camera_roll_deg = cases[i].roll;
		g_assert_true(tracker_settings_check(&s, &error) == (cases[i].error == NULL));
		if (cases[i].error == NULL)
			continue;
		g_assert_error(error, TRACKER_ERROR, TRACKER_ERROR_SETTINGS);
		g_assert_nonnull(strstr(error->message, cases[i].error));
		g_clear_error(&error);
		g_assert_null(tracker_new(&s, &error));
		g_assert_error(error, TRACKER_ERROR, TRACKER_ERROR_SETTINGS);
	}
}

/* Before any frame, the settings' pose. */
static void
test_before_first_frame(void)
{
	g_autoptr(Tracker) assumed = new_tracker(2500.0, 20.0, -3.0);
	g_autoptr(Tracker) unknown = new_tracker(0.0, 20.0, -3.0);
	TrackerCameraPose pose;

	tracker_get_camera_pose(assumed, &pose);
	assert_pose(&pose, TRACKER_FLOOR_ASSUMED, 2500.0, 20.0, -3.0);
	tracker_get_camera_pose(unknown, &pose);
	assert_pose(&pose, TRACKER_FLOOR_UNKNOWN, 0.0, 20.0, -3.0);
}

/* The floor in view gives the room's pose, whatever the settings said:
 * RANSAC may miss it on the first frame, and then searches again every
 * 8th. */
static void
test_measured(gconstpointer data)
{
	const Room *room = data;
	g_autoptr(Tracker) plain = tracker_new(NULL, NULL);
	g_autoptr(Tracker) told = new_tracker(2000.0, 15.0, 0.0);
	g_autoptr(DemoScene) scene = NULL;
	g_autoptr(DemoScene) scene2 = NULL;
	TrackerCameraPose pose;
	TrackerFrame out;

	track(plain, room->scene, 0, 30, FALSE, &scene, &out);
	tracker_get_camera_pose(plain, &pose);
	assert_pose(&pose, TRACKER_FLOOR_SEEN, room->height, room->tilt, 0.0);
	track(told, room->scene, 0, 10, FALSE, &scene2, &out);
	tracker_get_camera_pose(told, &pose);
	assert_pose(&pose, TRACKER_FLOOR_SEEN, room->height, room->tilt, 0.0);
}

/* Ten frames of "tall" with the floor cut away through @tracker: the one
 * user tracked in @out, the pose taken in @pose; the scene's truth. */
static const DemoTruth *
track_floor_cut(Tracker *tracker, DemoScene **scene, TrackerCameraPose *pose, TrackerFrame *out)
{
	track(tracker, "tall", 30, 10, TRUE, scene, out);
	tracker_get_camera_pose(tracker, pose);
	g_assert_cmpuint(out->n_users, ==, 1);
	return demo_scene_truth(*scene);
}

/* The floor cut away: with the pose given, the tracker knows where the
 * floor is, and legs reach it. */
static void
test_assumed(void)
{
	g_autoptr(Tracker) tracker = new_tracker(1000.0, 1.0, 0.0);
	g_autoptr(DemoScene) scene = NULL;
	TrackerCameraPose pose;
	TrackerFrame out;
	const DemoTruth *truth = track_floor_cut(tracker, &scene, &pose, &out);

	assert_pose(&pose, TRACKER_FLOOR_ASSUMED, 1000.0, 1.0, 0.0);
	for (int j = TRACKER_JOINT_LEFT_KNEE; j <= TRACKER_JOINT_RIGHT_FOOT; j++)
		g_assert_cmpfloat(tracker_vec3_distance(out.users[0].joints[j].position,
		                                        truth->people[0].joints[j]),
		                  <, JOINT_EPS_MM);
}

/* The floor cut away and the tilt told wrong by 24 degrees: everyone then
 * seems to lean, and the torso's own slope says by how much, so that the
 * trunk is not tipped about the torso joint. Upright by the settings, the
 * neck and shoulders were 84 to 103 mm off and the hips 325 mm; the hips
 * are still farther off than the shoulders, hung by an assumed height
 * with no floor to measure it. */
static void
test_lean_measured(void)
{
	static const struct {
		int joint;
		double eps_mm;
	} trunk[] = {
		{ TRACKER_JOINT_NECK, 75.0 },           { TRACKER_JOINT_LEFT_SHOULDER, 75.0 },
		{ TRACKER_JOINT_RIGHT_SHOULDER, 75.0 }, { TRACKER_JOINT_LEFT_HIP, 200.0 },
		{ TRACKER_JOINT_RIGHT_HIP, 200.0 },
	};
	g_autoptr(Tracker) tracker = new_tracker(0.0, 25.0, 0.0);
	g_autoptr(DemoScene) scene = NULL;
	TrackerCameraPose pose;
	TrackerFrame out;
	const DemoTruth *truth = track_floor_cut(tracker, &scene, &pose, &out);

	g_assert_cmpint(pose.floor, ==, TRACKER_FLOOR_UNKNOWN);
	for (guint i = 0; i < G_N_ELEMENTS(trunk); i++) {
		int j = trunk[i].joint;
		double d = tracker_vec3_distance(out.users[0].joints[j].position,
		                                 truth->people[0].joints[j]);

		g_test_message("%s %.0f mm off", tracker_joint_name(j), d);
		g_assert_cmpfloat(d, <, trunk[i].eps_mm);
	}
}

/* tracker_reset() forgets the floor seen; the settings' pose stays. */
static void
test_reset(void)
{
	g_autoptr(Tracker) tracker = new_tracker(1800.0, 4.0, 0.0);
	g_autoptr(DemoScene) scene = NULL;
	TrackerCameraPose pose;
	TrackerFrame out;

	track(tracker, "poses", 0, 1, FALSE, &scene, &out);
	tracker_get_camera_pose(tracker, &pose);
	g_assert_cmpint(pose.floor, ==, TRACKER_FLOOR_SEEN);
	tracker_reset(tracker);
	tracker_get_camera_pose(tracker, &pose);
	assert_pose(&pose, TRACKER_FLOOR_ASSUMED, 1800.0, 4.0, 0.0);
}

typedef struct {
	Tracker *tracker;
	TrackerCameraPose pose;
	gboolean done;
} AsyncRun;

static void
async_done(GObject *source G_GNUC_UNUSED, GAsyncResult *result, gpointer data)
{
	AsyncRun *run = data;
	TrackerFrame out;

	g_assert_true(tracker_process_finish(run->tracker, result, &out, NULL));
	tracker_get_camera_pose(run->tracker, &run->pose);
	run->done = TRUE;
}

/* The asynchronous call gives the pose with its result. */
static void
test_async(void)
{
	g_autoptr(Tracker) tracker = tracker_new(NULL, NULL);
	g_autoptr(DemoScene) scene = demo_scene_new_named("poses", 1, NULL);
	g_autoptr(DepthFrame) frame = depth_frame_new();
	AsyncRun run = { tracker, { 0 }, FALSE };

	demo_scene_render(scene, 0, frame);
	tracker_process_async(tracker, frame->mm, 0, 0, NULL, async_done, &run);
	while (!run.done)
		g_main_context_iteration(NULL, TRUE);
	assert_pose(&run.pose, TRACKER_FLOOR_SEEN, 1000.0, 1.0, 0.0);
	frame->truth = NULL;
}

static const Room rooms[] = {
	{ "poses", 1000.0, 1.0 },
	{ "near", 1500.0, 8.0 },
	{ "crowd", 1000.0, 1.0 },
	{ "furniture", 1000.0, 1.0 },
};

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/tracker/camera-pose/settings/defaults", test_defaults);
	g_test_add_func("/tracker/camera-pose/settings/ranges", test_ranges);
	g_test_add_func("/tracker/camera-pose/settings/before-first-frame",
	                test_before_first_frame);
	for (guint i = 0; i < G_N_ELEMENTS(rooms); i++) {
		g_autofree char *path =
		        g_strdup_printf("/tracker/camera-pose/measured/%s", rooms[i].scene);

		g_test_add_data_func(path, &rooms[i], test_measured);
	}
	g_test_add_func("/tracker/camera-pose/assumed/floor-cut-away", test_assumed);
	g_test_add_func("/tracker/camera-pose/assumed/tilt-told-wrong", test_lean_measured);
	g_test_add_func("/tracker/camera-pose/reset-back-to-settings", test_reset);
	g_test_add_func("/tracker/camera-pose/async", test_async);
	return g_test_run();
}
