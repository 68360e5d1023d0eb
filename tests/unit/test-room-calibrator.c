/* Calibration from a walk-through, against sensors placed by hand: a
 * person walks across a room seen by two sensors with their own noise
 * and clocks, others are seen by one sensor alone, and the placement
 * found must put what both see in one place. */
#include <math.h>

#include "demo/demo-render.h"
#include "room/room-calibrator.h"
#include "room/room.h"
#include "testutil.h"
#include "views.h"

#define DEG      (G_PI / 180.0)
#define FRAME_US 33333
#define HALF_FOV (28.5 * DEG)

typedef struct {
	DemoView view;
	DemoPose pose;
	gint64 phase_us; /* this sensor's frames start this late */
	TrackerFloorState floor;
} Sensor;

typedef struct {
	Sensor sensors[3];
	guint n_sensors;
	double noise_mm;
	double seconds;
	/* Where the walker goes: along x between these, at this z. */
	double from_x, to_x, walk_z;
	gboolean bystander; /* someone stands where only sensor 0 sees */
} World;

static void
world_add_sensor(World *w, DemoView view, gint64 phase_us)
{
	Sensor *s = &w->sensors[w->n_sensors++];

	s->view = view;
	s->pose = demo_renderer_view_pose(&view);
	s->phase_us = phase_us;
	s->floor = TRACKER_FLOOR_SEEN;
}

/* The walker at @t: there and back along x, weaving a little in z. */
static TrackerVec3
walker_at(const World *w, double t)
{
	double phase = fmod(t / 10.0, 2.0), f = phase < 1.0 ? phase : 2.0 - phase;

	return tracker_vec3(w->from_x + (w->to_x - w->from_x) * f, 1050.0,
	                    w->walk_z + 300.0 * sin(t * 0.7));
}

static gboolean
sensor_sees(TrackerVec3 camera)
{
	return camera.z > 800.0 && camera.z < 4500.0 && fabs(atan2(camera.x, camera.z)) < HALF_FOV;
}

static void
frame_add_user(TrackerFrame *f, guint id, TrackerVec3 camera, double noise, guint32 *state)
{
	TrackerUser *u = &f->users[f->n_users++];

	u->id = id;
	u->joints[TRACKER_JOINT_TORSO].position = tracker_vec3(
	        camera.x + noise * testutil_noise(state), camera.y + noise * testutil_noise(state),
	        camera.z + noise * testutil_noise(state));
	u->joints[TRACKER_JOINT_TORSO].confidence = 0.9;
}

/* What sensor @i saw at @t: the walker, the bystander, with its noise;
 * each sensor numbers its users its own way. */
static void
sensor_frame(const World *w, guint i, double t, guint32 *state, TrackerFrame *f)
{
	const Sensor *s = &w->sensors[i];
	TrackerVec3 people[2] = { walker_at(w, t), tracker_vec3(-2600.0, 1000.0, 2600.0) };

	memset(f, 0, sizeof(*f));
	for (guint p = 0; p < (w->bystander ? 2u : 1u); p++) {
		TrackerVec3 c = demo_renderer_pose_to_camera(&s->pose, people[p]);

		if (sensor_sees(c))
			frame_add_user(f, 10 * (i + 1) + p, c, w->noise_mm, state);
	}
}

static void
sensor_pose(const Sensor *s, TrackerCameraPose *pose)
{
	pose->floor = s->floor;
	pose->height_mm = s->floor == TRACKER_FLOOR_UNKNOWN ? 0.0 : s->view.height;
	pose->tilt_deg = s->view.pitch / DEG;
	pose->roll_deg = s->view.roll / DEG;
}

/* Every sensor's frames, interleaved by time as they would arrive. */
static RoomCalibrator *
world_run(const World *w)
{
	RoomCalibrator *c = room_calibrator_new(w->n_sensors);
	guint32 state = 7;
	gint64 end = (gint64)(w->seconds * G_USEC_PER_SEC);

	for (gint64 tick = 0; tick < end; tick += FRAME_US) {
		for (guint i = 0; i < w->n_sensors; i++) {
			gint64 time_us = tick + w->sensors[i].phase_us;
			TrackerFrame f;
			TrackerCameraPose pose;

			sensor_frame(w, i, time_us / 1e6, &state, &f);
			sensor_pose(&w->sensors[i], &pose);
			g_assert_true(room_calibrator_add(c, i, time_us, &f, &pose));
		}
	}
	return c;
}

/* @camera of the sensor placed at @cal, in the room, as a room file with
 * that placement puts it. */
static TrackerVec3
to_room(const RoomCalibration *cal, TrackerVec3 camera)
{
	RoomSensor s = { .x_mm = cal->x_mm,
		         .z_mm = cal->z_mm,
		         .yaw_deg = cal->yaw_deg,
		         .height_mm = cal->height_mm,
		         .tilt_deg = cal->tilt_deg,
		         .roll_deg = cal->roll_deg };

	return room_sensor_to_room(&s, camera);
}

/* The farthest apart that the two sensors' placements put any point of
 * the floor between them, 1 m up (mm). */
static double
placement_error(const World *w, const RoomCalibration *cal, guint a, guint b)
{
	double worst = 0.0;

	for (double x = -1500.0; x <= 1500.0; x += 250.0) {
		for (double z = 2000.0; z <= 4500.0; z += 250.0) {
			TrackerVec3 p = tracker_vec3(x, 1000.0, z);
			TrackerVec3 ra = to_room(
			        &cal[a], demo_renderer_pose_to_camera(&w->sensors[a].pose, p));
			TrackerVec3 rb = to_room(
			        &cal[b], demo_renderer_pose_to_camera(&w->sensors[b].pose, p));

			worst = MAX(worst, tracker_vec3_distance(ra, rb));
		}
	}
	return worst;
}

static void
world_two_sensors(World *w)
{
	memset(w, 0, sizeof(*w));
	world_add_sensor(w, views_at(-1500, 0, 1000, 28, 1, 0), 0);
	world_add_sensor(w, views_at(1500, 0, 1200, -27, 3, 1), 13000);
	w->noise_mm = 40.0;
	w->seconds = 30.0;
	w->from_x = -2500.0;
	w->to_x = 2500.0;
	w->walk_z = 3000.0;
	w->bystander = TRUE;
}

static gboolean
solve(const World *w, RoomCalibration *cal, GError **error)
{
	g_autoptr(RoomCalibrator) c = world_run(w);

	return room_calibrator_solve(c, cal, error);
}

/* Sensor 0 is the room's origin; sensor 1 lands where both see the same
 * floor, turned as the two are turned apart, with its own floor's pose. */
static void
test_two_sensors(void)
{
	World w;
	RoomCalibration cal[2];
	g_autoptr(GError) error = NULL;
	double err;

	world_two_sensors(&w);
	g_assert_true(solve(&w, cal, &error));
	g_assert_no_error(error);
	g_assert_cmpfloat(cal[0].x_mm, ==, 0.0);
	g_assert_cmpfloat(cal[0].yaw_deg, ==, 0.0);
	g_assert_cmpfloat_with_epsilon(cal[0].height_mm, 1000.0, 1e-9);
	g_assert_cmpfloat_with_epsilon(cal[1].height_mm, 1200.0, 1e-9);
	g_assert_cmpfloat_with_epsilon(cal[1].roll_deg, 1.0, 1e-9);
	g_assert_cmpuint(cal[1].reference, ==, 0);
	g_assert_cmpfloat_with_epsilon(cal[1].yaw_deg, -55.0, 0.5);
	err = placement_error(&w, cal, 0, 1);
	g_test_message("worst placement error %.1f mm, yaw %.3f, residual %.1f mm over %u", err,
	               cal[1].yaw_deg, cal[1].residual_mm, cal[1].samples);
	g_assert_cmpfloat(err, <, 25.0);
	g_assert_cmpfloat(fabs(cal[1].height_offset_mm), <, 10.0);
	/* The uniform noise of 40 mm a coordinate is 33 mm on the floor. */
	g_assert_cmpfloat(cal[1].residual_mm, <, 45.0);
	g_assert_cmpuint(cal[1].samples, >, 300);
}

/* The same room with the sensors' own ids for the walker being of no
 * help: the noise-free fit is exact. */
static void
test_exact(void)
{
	World w;
	RoomCalibration cal[2];
	g_autoptr(GError) error = NULL;

	world_two_sensors(&w);
	w.noise_mm = 0.0;
	w.sensors[1].phase_us = 0;
	g_assert_true(solve(&w, cal, &error));
	g_assert_cmpfloat(placement_error(&w, cal, 0, 1), <, 0.5);
	g_assert_cmpfloat_with_epsilon(cal[1].yaw_deg, -55.0, 0.01);
}

/* Two sensors facing each other across the room: turned half round. */
static void
test_facing(void)
{
	World w;
	RoomCalibration cal[2];
	g_autoptr(GError) error = NULL;

	memset(&w, 0, sizeof(w));
	world_add_sensor(&w, views_at(0, 0, 1000, 0, 2, 0), 0);
	world_add_sensor(&w, views_at(0, 5000, 1100, 180, 3, 0), 21000);
	w.noise_mm = 40.0;
	w.seconds = 30.0;
	w.from_x = -900.0;
	w.to_x = 900.0;
	w.walk_z = 2500.0;
	g_assert_true(solve(&w, cal, &error));
	g_assert_no_error(error);
	g_assert_cmpfloat_with_epsilon(fabs(cal[1].yaw_deg), 180.0, 0.5);
	g_assert_cmpfloat(placement_error(&w, cal, 0, 1), <, 25.0);
	g_assert_cmpfloat_with_epsilon(cal[1].z_mm, 5000.0, 25.0);
}

/* A third sensor that shares no view with sensor 0 is placed through
 * the one it does share a view with. */
static void
test_chain(void)
{
	World w;
	RoomCalibration cal[3];
	g_autoptr(GError) error = NULL;

	world_two_sensors(&w);
	world_add_sensor(&w, views_at(-5200, 0, 1100, 40, 2, 0), 5000);
	w.from_x = -4500.0;
	w.seconds = 40.0;
	g_assert_true(solve(&w, cal, &error));
	g_assert_no_error(error);
	g_assert_cmpuint(cal[2].reference, ==, 1);
	g_assert_cmpfloat(placement_error(&w, cal, 1, 2), <, 40.0);
}

static void
test_no_floor(void)
{
	World w;
	RoomCalibration cal[2];
	g_autoptr(GError) error = NULL;

	world_two_sensors(&w);
	w.sensors[1].floor = TRACKER_FLOOR_UNKNOWN;
	g_assert_false(solve(&w, cal, &error));
	g_assert_error(error, ROOM_CALIBRATOR_ERROR, ROOM_CALIBRATOR_ERROR_NO_FLOOR);
	g_assert_nonnull(strstr(error->message, "sensor 2 saw no floor"));
	g_assert_nonnull(strstr(error->message, "--camera-height"));
}

/* Walking only where one sensor sees, or standing still where both do,
 * places nothing, and says what to do. */
static void
test_not_together(void)
{
	World w;
	RoomCalibration cal[2];
	g_autoptr(GError) error = NULL;

	world_two_sensors(&w);
	w.from_x = -3500.0;
	w.to_x = -2800.0;
	w.walk_z = 2500.0;
	g_assert_false(solve(&w, cal, &error));
	g_assert_error(error, ROOM_CALIBRATOR_ERROR, ROOM_CALIBRATOR_ERROR_UNMATCHED);
	g_assert_nonnull(strstr(error->message, "walk through where both see"));
	g_clear_error(&error);

	world_two_sensors(&w);
	w.from_x = 0.0;
	w.to_x = 300.0;
	g_assert_false(solve(&w, cal, &error));
	g_assert_error(error, ROOM_CALIBRATOR_ERROR, ROOM_CALIBRATOR_ERROR_NARROW);
	g_assert_nonnull(strstr(error->message, "walk across"));
}

/* A sensor's frames must go forward in time; its store is bounded. */
static void
test_add_rules(void)
{
	g_autoptr(RoomCalibrator) c = room_calibrator_new(2);
	TrackerFrame f = { 0 };
	TrackerCameraPose pose = { TRACKER_FLOOR_SEEN, 1000.0, 0.0, 0.0 };

	g_assert_true(room_calibrator_add(c, 0, 1000, &f, &pose));
	g_assert_false(room_calibrator_add(c, 0, 1000, &f, &pose));
	g_assert_true(room_calibrator_add(c, 1, 500, &f, &pose));
	for (guint i = 1; i < ROOM_CALIBRATOR_MAX_FRAMES; i++)
		g_assert_true(room_calibrator_add(c, 0, 1000 + i, &f, &pose));
	g_assert_false(room_calibrator_add(c, 0, 1000 + ROOM_CALIBRATOR_MAX_FRAMES, &f, &pose));
	g_assert_cmpuint(room_calibrator_frames(c, 0), ==, ROOM_CALIBRATOR_MAX_FRAMES);
	g_assert_cmpuint(room_calibrator_frames(c, 1), ==, 1);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/room-calibrator/two-sensors", test_two_sensors);
	g_test_add_func("/room-calibrator/exact", test_exact);
	g_test_add_func("/room-calibrator/facing", test_facing);
	g_test_add_func("/room-calibrator/chain", test_chain);
	g_test_add_func("/room-calibrator/no-floor", test_no_floor);
	g_test_add_func("/room-calibrator/not-together", test_not_together);
	g_test_add_func("/room-calibrator/add-rules", test_add_rules);
	return g_test_run();
}
