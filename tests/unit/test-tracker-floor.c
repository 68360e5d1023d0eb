/* The floor on synthetic rooms of known pose: measured when seen, kept
 * while people hide it, dropped or found again when the sensor moves, the
 * settings' pose standing in while none is seen, and the search looking
 * about the pose's up. */
#include <math.h>
#include <string.h>

#include "testutil.h"
#include "tracker/tracker-floor.h"

#define ROOM_WALL_MM  5000.0 /* the back wall, along the floor from the sensor */
#define MAX_DEPTH_MM  6000.0
#define NOISE_PER_MM  0.002 /* the readings' error grows with distance */
#define POSE_EPS_DEG  0.2
#define HEIGHT_EPS_MM 10.0

/* A room as a sensor @height mm up, tilted and rolled so, sees it: a floor
 * and a back wall; @board_mm > 0 puts a board that far in front of the
 * sensor over the image's columns from 0 to @board_share of the width. */
typedef struct {
	double height, tilt_deg, roll_deg;
	double board_mm, board_share;
	gboolean no_floor;  /* the wall only: a sensor facing it */
	gboolean floor_cut; /* no readings on the floor, as if cut away */
} Room;

typedef struct {
	TrackerCamera camera;
	TrackerGrid grid;
	guint16 *mm;
	guint32 noise;
} Fixture;

static void
fixture_setup(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	tracker_camera_init_kinect(&f->camera);
	tracker_grid_init(&f->grid, &f->camera);
	f->mm = g_new0(guint16, f->camera.width * f->camera.height);
	f->noise = 12345;
}

static void
fixture_teardown(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	tracker_grid_clear(&f->grid);
	g_free(f->mm);
}

/* The depth at which the camera ray @d (d.z = 1) meets the back wall. */
static double
room_depth_wall(const Room *room, TrackerVec3 d)
{
	double t = room->tilt_deg * G_PI / 180.0, r = room->roll_deg * G_PI / 180.0;
	/* How fast the ray runs along the floor, away from the sensor: the
	 * camera's axes' forward parts (see tracker-floor.h). */
	double forward = d.x * sin(r) * sin(t) + d.y * cos(r) * sin(t) + cos(t);

	return forward > 0.0 ? (room->no_floor ? 2000.0 : ROOM_WALL_MM) / forward : G_MAXDOUBLE;
}

/* The depth along the camera ray @d of a pixel of @room. */
static double
room_depth(const Room *room, TrackerVec3 d)
{
	TrackerVec3 up = tracker_floor_up_from_pose(room->tilt_deg, room->roll_deg);
	double down = -tracker_vec3_dot(up, d), depth = room_depth_wall(room, d);

	if (!room->no_floor && down > 0.0)
		depth = MIN(depth, room->height / down);
	return depth;
}

static void
fixture_render(Fixture *f, const Room *room)
{
	const TrackerCamera *c = &f->camera;

	for (int v = 0; v < c->height; v++) {
		for (int u = 0; u < c->width; u++) {
			TrackerVec3 d = tracker_camera_unproject(c, u, v, 1.0);
			double z = room_depth(room, d);

			if (room->floor_cut && z < room_depth_wall(room, d))
				z = G_MAXDOUBLE;
			if (room->board_mm > 0.0 && u < room->board_share * c->width)
				z = MIN(z, room->board_mm);
			z += NOISE_PER_MM * z * testutil_noise(&f->noise);
			f->mm[v * c->width + u] = z < MAX_DEPTH_MM ? (guint16)lround(z) : 0;
		}
	}
	tracker_grid_fill(&f->grid, f->mm, MAX_DEPTH_MM);
}

/* @frames frames of @room through @floor. */
static void
fixture_update(Fixture *f, TrackerFloor *floor, const Room *room, guint frames)
{
	fixture_render(f, room);
	for (guint i = 0; i < frames; i++)
		tracker_floor_update(floor, &f->grid);
}

static void
assert_pose(const TrackerFloor *floor, const Room *room)
{
	double tilt, roll;

	tracker_floor_pose_from_up(floor->up, &tilt, &roll);
	g_assert_cmpfloat_with_epsilon(tilt, room->tilt_deg, POSE_EPS_DEG);
	g_assert_cmpfloat_with_epsilon(roll, room->roll_deg, POSE_EPS_DEG);
	g_assert_cmpfloat_with_epsilon(floor->offset, room->height, HEIGHT_EPS_MM);
}

/* Up from the pose and back, and the formula's special cases. */
static void
test_pose_formula(void)
{
	static const double poses[][2] = {
		{ 0, 0 }, { 10, 0 }, { 0, 10 }, { -30, 20 }, { 60, -45 }
	};
	TrackerVec3 up = tracker_floor_up_from_pose(30.0, 0.0);

	g_assert_cmpfloat_with_epsilon(up.x, 0.0, 1e-12);
	g_assert_cmpfloat_with_epsilon(up.y, cos(G_PI / 6), 1e-12);
	g_assert_cmpfloat_with_epsilon(up.z, -0.5, 1e-12);
	up = tracker_floor_up_from_pose(0.0, 30.0);
	g_assert_cmpfloat_with_epsilon(up.x, 0.5, 1e-12);
	g_assert_cmpfloat_with_epsilon(up.y, cos(G_PI / 6), 1e-12);
	g_assert_cmpfloat_with_epsilon(up.z, 0.0, 1e-12);
	for (guint i = 0; i < G_N_ELEMENTS(poses); i++) {
		double tilt, roll;

		up = tracker_floor_up_from_pose(poses[i][0], poses[i][1]);
		g_assert_cmpfloat_with_epsilon(tracker_vec3_length(up), 1.0, 1e-12);
		tracker_floor_pose_from_up(up, &tilt, &roll);
		g_assert_cmpfloat_with_epsilon(tilt, poses[i][0], 1e-9);
		g_assert_cmpfloat_with_epsilon(roll, poses[i][1], 1e-9);
	}
}

/* A floor in view gives the sensor's height, tilt and roll. */
static void
test_measured(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	static const Room rooms[] = {
		{ .height = 1000.0, .tilt_deg = 1.0, .roll_deg = 0.0 },
		{ .height = 1500.0, .tilt_deg = 8.0, .roll_deg = 0.0 },
		{ .height = 1200.0, .tilt_deg = 10.0, .roll_deg = 5.0 },
		{ .height = 2500.0, .tilt_deg = 20.0, .roll_deg = -10.0 },
	};

	for (guint i = 0; i < G_N_ELEMENTS(rooms); i++) {
		TrackerFloor floor;

		tracker_floor_init(&floor);
		fixture_update(f, &floor, &rooms[i], 1);
		g_assert_true(floor.found && floor.seen);
		assert_pose(&floor, &rooms[i]);
	}
}

/* Something near the sensor hides 90% of the floor, then all of it: the
 * floor stays as it was. */
static void
test_kept_when_covered(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	Room room = { .height = 1000.0, .tilt_deg = 5.0, .roll_deg = 0.0 };
	TrackerFloor floor, before;

	tracker_floor_init(&floor);
	fixture_update(f, &floor, &room, 1);
	g_assert_true(floor.seen);
	before = floor;
	room.board_mm = 900.0;
	room.board_share = 0.9;
	fixture_update(f, &floor, &room, 30);
	g_assert_true(floor.seen);
	g_assert_cmpmem(&floor.up, sizeof(floor.up), &before.up, sizeof(before.up));
	g_assert_cmpfloat(floor.offset, ==, before.offset);
	room.board_share = 1.0;
	fixture_update(f, &floor, &room, 30);
	g_assert_true(floor.seen);
	g_assert_cmpfloat(floor.offset, ==, before.offset);
}

/* The sensor tilts 10 degrees further down: the floor moves nearer, which
 * looks like people covering it, but a plane elsewhere explains the depth
 * far better. Found again at once. */
static void
test_refound_tilted_down(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	Room room = { .height = 1000.0, .tilt_deg = 2.0, .roll_deg = 0.0 };
	TrackerFloor floor;

	tracker_floor_init(&floor);
	fixture_update(f, &floor, &room, 1);
	assert_pose(&floor, &room);
	room.tilt_deg += 10.0;
	fixture_update(f, &floor, &room, 1);
	g_assert_true(floor.seen);
	assert_pose(&floor, &room);
}

/* The sensor tilts 10 degrees up: what was floor now reads farther, below
 * the plane, and is seen again where the floor now is. */
static void
test_refound_tilted_up(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	Room room = { .height = 1000.0, .tilt_deg = 12.0, .roll_deg = 0.0 };
	TrackerFloor floor;

	tracker_floor_init(&floor);
	fixture_update(f, &floor, &room, 1);
	assert_pose(&floor, &room);
	room.tilt_deg -= 10.0;
	fixture_update(f, &floor, &room, 1);
	g_assert_true(floor.seen);
	assert_pose(&floor, &room);
}

/* Tilted up until the floor leaves the view: the wall shows through the
 * plane, which goes within a few frames. */
static void
test_dropped_tilted_up(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	Room room = { .height = 1000.0, .tilt_deg = -5.0, .roll_deg = 0.0 };
	TrackerFloor floor;

	tracker_floor_init(&floor);
	fixture_update(f, &floor, &room, 1);
	assert_pose(&floor, &room);
	room.tilt_deg -= 10.0;
	fixture_update(f, &floor, &room, 1);
	g_assert_true(floor.seen);
	fixture_update(f, &floor, &room, 2);
	g_assert_false(floor.found);
	g_assert_false(floor.seen);
	g_assert_cmpfloat(floor.up.y, ==, 1.0);
}

/* The sensor raised by 300 mm: everything that was floor reads below the
 * plane, and the floor is measured again. */
static void
test_refound_raised(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	Room room = { .height = 1000.0, .tilt_deg = 5.0, .roll_deg = 0.0 };
	TrackerFloor floor;

	tracker_floor_init(&floor);
	fixture_update(f, &floor, &room, 1);
	room.height += 300.0;
	fixture_update(f, &floor, &room, 1);
	g_assert_true(floor.seen);
	assert_pose(&floor, &room);
}

/* A sensor facing a wall sees no floor: heights from the sensor, up the
 * camera's own. */
static void
test_none(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	Room room = { .height = 1000.0, .tilt_deg = 0.0, .roll_deg = 0.0, .no_floor = TRUE };
	TrackerFloor floor;

	tracker_floor_init(&floor);
	fixture_update(f, &floor, &room, 3);
	g_assert_false(floor.found);
	g_assert_false(floor.seen);
	g_assert_cmpfloat(floor.offset, ==, 0.0);
	g_assert_cmpfloat(floor.up.y, ==, 1.0);
}

/* The floor cut away, as a sensor high up looking across sees a room: the
 * foot of the wall and a board standing on the floor line up with many
 * cells, but they are not level. */
static void
test_none_cut_away(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	Room room = { .height = 1000.0,
		      .tilt_deg = 1.0,
		      .roll_deg = 0.0,
		      .board_mm = 2500.0,
		      .board_share = 0.3,
		      .floor_cut = TRUE };
	TrackerFloor floor;

	tracker_floor_init(&floor);
	fixture_update(f, &floor, &room, 3);
	g_assert_false(floor.found);
}

/* While none is seen the floor is searched for now and then, not on every
 * frame: one that comes into view is found within 8 frames. */
static void
test_none_then_found(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	Room wall = { .height = 1000.0, .tilt_deg = 0.0, .roll_deg = 0.0, .no_floor = TRUE };
	Room room = { .height = 1000.0, .tilt_deg = 4.0, .roll_deg = 0.0 };
	TrackerFloor floor;
	guint frames = 0;

	tracker_floor_init(&floor);
	fixture_update(f, &floor, &wall, 3);
	fixture_render(f, &room);
	while (!floor.seen && frames++ < 8)
		tracker_floor_update(&floor, &f->grid);
	g_assert_true(floor.seen);
	assert_pose(&floor, &room);
}

/* No floor in view: the prior's up, and its plane when its height is given. */
static void
test_prior_used(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	Room room = { .height = 1000.0, .tilt_deg = 0.0, .roll_deg = 0.0, .no_floor = TRUE };
	TrackerVec3 up = tracker_floor_up_from_pose(20.0, 5.0);
	TrackerFloor floor;

	tracker_floor_init(&floor);
	tracker_floor_set_prior(&floor, up, 0.0);
	fixture_update(f, &floor, &room, 3);
	g_assert_false(floor.found);
	g_assert_cmpmem(&floor.up, sizeof(up), &up, sizeof(up));
	g_assert_cmpfloat(floor.offset, ==, 0.0);
	tracker_floor_set_prior(&floor, up, 2500.0);
	fixture_update(f, &floor, &room, 3);
	g_assert_true(floor.found);
	g_assert_false(floor.seen);
	g_assert_cmpmem(&floor.up, sizeof(up), &up, sizeof(up));
	g_assert_cmpfloat(floor.offset, ==, 2500.0);
}

/* A floor in view wins over the prior; forgotten, the prior stands in. */
static void
test_prior_seen_wins(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	Room room = { .height = 1000.0, .tilt_deg = 5.0, .roll_deg = 2.0 };
	TrackerFloor floor;

	tracker_floor_init(&floor);
	tracker_floor_set_prior(&floor, tracker_floor_up_from_pose(15.0, 0.0), 2000.0);
	fixture_update(f, &floor, &room, 1);
	g_assert_true(floor.seen);
	assert_pose(&floor, &room);
	tracker_floor_reset(&floor);
	g_assert_true(floor.found);
	g_assert_false(floor.seen);
	g_assert_cmpfloat(floor.offset, ==, 2000.0);
}

/* A sensor looking 45 degrees down: its floor is outside the cone about a
 * level camera's up, and inside the cone about a prior near its pose. */
static void
test_prior_cone(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	Room room = { .height = 2000.0, .tilt_deg = 45.0, .roll_deg = 0.0 };
	TrackerFloor floor;

	tracker_floor_init(&floor);
	fixture_update(f, &floor, &room, 1);
	g_assert_false(floor.found);
	tracker_floor_set_prior(&floor, tracker_floor_up_from_pose(35.0, 0.0), 0.0);
	fixture_update(f, &floor, &room, 1);
	g_assert_true(floor.seen);
	assert_pose(&floor, &room);
}

/* The same frames give the same floor, to the bit. */
static void
test_deterministic(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	Room room = { .height = 1300.0, .tilt_deg = 6.0, .roll_deg = 3.0 };
	TrackerFloor a, b;

	tracker_floor_init(&a);
	tracker_floor_init(&b);
	fixture_render(f, &room);
	for (guint i = 0; i < 3; i++) {
		tracker_floor_update(&a, &f->grid);
		tracker_floor_update(&b, &f->grid);
	}
	g_assert_cmpmem(&a, sizeof(a), &b, sizeof(b));
}

static void
add(const char *path, void (*func)(Fixture *, gconstpointer))
{
	g_test_add(path, Fixture, NULL, fixture_setup, func, fixture_teardown);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/tracker/floor/pose-formula", test_pose_formula);
	add("/tracker/floor/measured/height-tilt-roll", test_measured);
	add("/tracker/floor/kept/covered-90-percent-then-all", test_kept_when_covered);
	add("/tracker/floor/moved/tilted-10-down-found-again", test_refound_tilted_down);
	add("/tracker/floor/moved/tilted-10-up-found-again", test_refound_tilted_up);
	add("/tracker/floor/moved/tilted-up-out-of-view-dropped", test_dropped_tilted_up);
	add("/tracker/floor/moved/raised-found-again", test_refound_raised);
	add("/tracker/floor/none/facing-a-wall", test_none);
	add("/tracker/floor/none/floor-cut-away", test_none_cut_away);
	add("/tracker/floor/none/then-in-view-found", test_none_then_found);
	add("/tracker/floor/prior/used-when-none-seen", test_prior_used);
	add("/tracker/floor/prior/seen-floor-wins", test_prior_seen_wins);
	add("/tracker/floor/prior/cone", test_prior_cone);
	add("/tracker/floor/deterministic", test_deterministic);
	return g_test_run();
}
