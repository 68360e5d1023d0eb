/* The background model on synthetic rooms, with time passed in: nothing
 * is the room's before it has held for the learn time, and something
 * passing in front does not start that time again; a thing brought in
 * joins the room after the absorb time, and where a thing was taken away
 * the room seen past it is learned sooner; people are never learned, but
 * what their cells read from before they came, or behind them, is; a
 * sensor carried or bumped starts the model again, a thing
 * close to it does not; cells without readings neither count nor are
 * forgotten; and the Kinect's noise at any range leaves a still room
 * the room's. */
#include <math.h>
#include <string.h>

#include "testutil.h"
#include "tracker/tracker-background.h"

#define MAX_DEPTH_MM 6000.0
#define FRAME_US     (G_USEC_PER_SEC / 10)  /* ten a second: the model counts time */
#define START_US     (600 * G_USEC_PER_SEC) /* a stream long under way: time 0 is not special */
#define MARGIN_US    (G_USEC_PER_SEC / 2)   /* checked this far either side of a deadline */
#define LEARN_US     TRACKER_BACKGROUND_LEARN_US
#define ABSORB_US    TRACKER_BACKGROUND_ABSORB_US
#define ALL          0.999 /* every cell but one in a thousand */
#define REACH_MM     600.0 /* how far back a person reaches from their front */

/* Cells [i0, i1) x [j0, j1) of the grid. */
typedef struct {
	int i0, j0, i1, j1;
} Rect;

/* A board facing the sensor over a rectangle of cells, in front of all
 * else; @mm 0: nothing read there (a black screen, a window). */
typedef struct {
	Rect at;
	double mm;
} Board;

/* A back wall @wall_mm ahead along the floor; a floor @height_mm below a
 * sensor tilted @tilt_deg down (0: no floor). */
typedef struct {
	double wall_mm, height_mm, tilt_deg;
	double shift_mm; /* added to every reading: the sensor bumped back */
	double noise;    /* the Kinect's noise, 1 for as much */
	Board boards[2];
} Room;

typedef struct {
	TrackerCamera camera;
	TrackerGrid grid;
	TrackerBackground *bg;
	Room room;   /* what the sensor sees */
	guint16 *mm; /* its image */
	TestutilKinect kinect;
	TrackerBackgroundPerson *people; /* per cell: the person on or about it */
	gint64 now_us;                   /* the next frame's time */
} Fixture;

/* A room 3.5 m deep seen from 1.2 m up, tilted 15 degrees down: a floor
 * from 1.8 m, the wall from 3.3 m to 4.1 m. */
static const Room room_default = { .wall_mm = 3500.0, .height_mm = 1200.0, .tilt_deg = 15.0 };
/* A box brought in, 2 m in front of the wall: 5% of the cells. */
static const Board box = { { 40, 50, 70, 80 }, 1500.0 };
/* A person standing 2.2 m from the sensor: 8% of the cells. */
static const Board person = { { 70, 20, 90, 95 }, 2200.0 };
static const Rect nowhere = { 0, 0, 0, 0 };

/* No one is on any cell. */
static void
fixture_nobody(Fixture *f)
{
	for (int k = 0; k < f->grid.n; k++)
		f->people[k] = (TrackerBackgroundPerson){ TRACKER_BACKGROUND_NO_ONE, 0.0f };
}

static void
fixture_setup(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	tracker_camera_init_kinect(&f->camera);
	tracker_grid_init(&f->grid, &f->camera);
	f->bg = tracker_background_new(&f->grid);
	f->mm = g_new0(guint16, f->camera.width * f->camera.height);
	testutil_kinect_init(&f->kinect, f->camera.width, f->camera.height);
	f->people = g_new0(TrackerBackgroundPerson, f->grid.n);
	f->now_us = START_US;
	fixture_nobody(f);
}

static void
fixture_teardown(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	tracker_background_free(f->bg);
	tracker_grid_clear(&f->grid);
	g_free(f->mm);
	testutil_kinect_clear(&f->kinect);
	g_free(f->people);
}

static gboolean
rect_has(const Rect *r, int i, int j)
{
	return i >= r->i0 && i < r->i1 && j >= r->j0 && j < r->j1;
}

static Rect
rect_grow(const Rect *r, int cells)
{
	Rect g = { r->i0 - cells, r->j0 - cells, r->i1 + cells, r->j1 + cells };

	return g;
}

/* The depth of the room's wall or floor along the camera rays of image
 * row @v: a sensor tilted but not rolled sees one depth along a row. */
static double
room_row_depth(const Room *room, const TrackerCamera *c, int v)
{
	double t = room->tilt_deg * G_PI / 180.0, dy = (c->cy - v) / c->fy;
	double forward = dy * sin(t) + cos(t), down = sin(t) - dy * cos(t);
	double z = forward > 0.0 ? room->wall_mm / forward : G_MAXDOUBLE;

	if (room->height_mm > 0.0 && down > 0.0)
		z = MIN(z, room->height_mm / down);
	return z;
}

/* The depth of @room in cell (@i, @j), where the wall or floor is @z. */
static double
room_depth(const Room *room, int i, int j, double z)
{
	for (guint b = 0; b < G_N_ELEMENTS(room->boards); b++) {
		if (rect_has(&room->boards[b].at, i, j))
			z = room->boards[b].mm;
	}
	return z > 0.0 ? z + room->shift_mm : 0.0;
}

/* The image of the room, new noise and all, into the grid. */
static void
fixture_render(Fixture *f)
{
	const TrackerCamera *c = &f->camera;

	testutil_kinect_frame(&f->kinect, f->room.noise);
	for (int v = 0; v < c->height; v++) {
		double row = room_row_depth(&f->room, c, v);

		for (int u = 0; u < c->width; u++) {
			double z = room_depth(&f->room, u / TRACKER_GRID_STEP,
			                      v / TRACKER_GRID_STEP, row);

			f->mm[v * c->width + u] =
			        testutil_kinect_read(&f->kinect, u, v, z, MAX_DEPTH_MM);
		}
	}
	tracker_grid_fill(&f->grid, f->mm, MAX_DEPTH_MM);
}

/* The sensor sees @room from now on. */
static void
fixture_show(Fixture *f, const Room *room)
{
	f->room = *room;
	fixture_render(f);
}

/* One frame learned from at the fixture's time; the time moves on. A
 * still room without noise gives the same image every frame. */
static void
fixture_frame(Fixture *f)
{
	if (f->room.noise > 0.0)
		fixture_render(f);
	tracker_background_learn(f->bg, &f->grid, f->people, f->now_us);
	f->now_us += FRAME_US;
}

/* Frames for @duration_us from now. */
static void
fixture_run(Fixture *f, gint64 duration_us)
{
	gint64 end = f->now_us + duration_us;

	while (f->now_us < end)
		fixture_frame(f);
}

/* The cells of @r, and @margin cells about them, are on or about a
 * person first seen at @seen_us, their front @mm away. */
static void
fixture_mark(Fixture *f, const Rect *r, int margin, double mm, gint64 seen_us)
{
	Rect m = rect_grow(r, margin);

	for (int k = 0; k < f->grid.n; k++) {
		if (rect_has(&m, k % f->grid.width, k / f->grid.width))
			f->people[k] = (TrackerBackgroundPerson){ seen_us, (float)(mm + REACH_MM) };
	}
}

/* Board @b, and @margin cells about it, are a person first seen at
 * @seen_us; no other cells are anyone's. */
static void
fixture_person(Fixture *f, const Board *b, int margin, gint64 seen_us)
{
	fixture_nobody(f);
	fixture_mark(f, &b->at, margin, b->mm, seen_us);
}

/* The share of the cells in @r (with @outside: not in @r) that are
 * background after the last frame. */
static double
fixture_share(Fixture *f, const Rect *r, gboolean outside)
{
	const guint8 *mask = tracker_background_mask(f->bg, &f->grid);
	guint n = 0, in = 0;

	for (int k = 0; k < f->grid.n; k++) {
		if (rect_has(r, k % f->grid.width, k / f->grid.width) == outside)
			continue;
		n++;
		in += mask[k] != 0;
	}
	g_assert_cmpuint(n, >, 0);
	return (double)in / n;
}

/* The share of the cells in @outer but not in @inner that are
 * background after the last frame. */
static double
fixture_share_ring(Fixture *f, const Rect *inner, const Rect *outer)
{
	const guint8 *mask = tracker_background_mask(f->bg, &f->grid);
	guint n = 0, in = 0;

	for (int k = 0; k < f->grid.n; k++) {
		int i = k % f->grid.width, j = k / f->grid.width;

		if (!rect_has(outer, i, j) || rect_has(inner, i, j))
			continue;
		n++;
		in += mask[k] != 0;
	}
	g_assert_cmpuint(n, >, 0);
	return (double)in / n;
}

static double
fixture_share_all(Fixture *f)
{
	return fixture_share(f, &nowhere, TRUE);
}

/* The default room, learned. */
static void
fixture_learn_room(Fixture *f)
{
	fixture_show(f, &room_default);
	fixture_run(f, LEARN_US + MARGIN_US);
	g_assert_cmpfloat(fixture_share_all(f), >=, ALL);
}

/* Until @when, less a margin, the cells of @r are not the room's and
 * all the others are; a margin past it, @r's are the room's too. */
static void
fixture_expect_learned_at(Fixture *f, const Rect *r, gint64 when)
{
	while (f->now_us < when - MARGIN_US) {
		fixture_frame(f);
		g_assert_cmpfloat(fixture_share(f, r, FALSE), ==, 0.0);
		g_assert_cmpfloat(fixture_share(f, r, TRUE), >=, ALL);
	}
	fixture_run(f, 2 * MARGIN_US);
	g_assert_cmpfloat(fixture_share(f, r, FALSE), >=, ALL);
}

/* A still room is nobody's until it has held for the learn time, then
 * every cell of it is the room's. */
static void
test_learn_time(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	g_assert_cmpfloat(fixture_share_all(f), ==, 0.0);
	fixture_show(f, &room_default);
	while (f->now_us < START_US + LEARN_US - MARGIN_US) {
		fixture_frame(f);
		g_assert_cmpfloat(fixture_share_all(f), ==, 0.0);
	}
	fixture_run(f, 2 * MARGIN_US);
	g_assert_cmpfloat(fixture_share_all(f), >=, ALL);
}

/* A box brought in, nearer than the room, stays in front of it for the
 * absorb time and only then joins it; the rest of the room stays. */
static void
test_nearer_absorbed(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	Room room = room_default;

	fixture_learn_room(f);
	room.boards[0] = box;
	fixture_show(f, &room);
	fixture_expect_learned_at(f, &box.at, f->now_us + ABSORB_US);
}

/* A box that was part of the room is taken away: the wall behind it,
 * farther, is not the room's at once, but becomes it after the learn
 * time, long before the absorb time. So few cells seen past the room
 * are no sign the sensor moved: the rest of it stays. */
static void
test_farther_learned_sooner(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	Room room = room_default;
	gint64 taken;

	room.boards[0] = box;
	fixture_show(f, &room);
	fixture_run(f, LEARN_US + MARGIN_US);
	g_assert_cmpfloat(fixture_share_all(f), >=, ALL);
	fixture_show(f, &room_default);
	taken = f->now_us;
	fixture_expect_learned_at(f, &box.at, taken + LEARN_US);
	g_assert_cmpint(f->now_us, <, taken + ABSORB_US / 2);
}

/* A person standing still for five minutes against a wall, marked as a
 * person from the start, is never learned, nor is the margin marked
 * about them, all within their reach, while the rest of the room is.
 * Once they leave, the wall where they stood is learned as any new
 * reading is. */
static void
test_person_never_learned(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	Room wall = room_default, room;
	Rect marked = rect_grow(&person.at, 2);
	gint64 start = f->now_us;

	wall.wall_mm = person.mm + 200.0;
	room = wall;
	room.boards[0] = person;
	fixture_show(f, &room);
	fixture_person(f, &person, 2, start);
	while (f->now_us < start + 300 * G_USEC_PER_SEC) {
		fixture_frame(f);
		g_assert_cmpfloat(fixture_share(f, &marked, FALSE), ==, 0.0);
	}
	g_assert_cmpfloat(fixture_share(f, &marked, TRUE), >=, ALL);
	fixture_nobody(f);
	fixture_show(f, &wall);
	fixture_frame(f);
	g_assert_cmpfloat(fixture_share(f, &marked, FALSE), ==, 0.0);
	fixture_run(f, LEARN_US + MARGIN_US);
	g_assert_cmpfloat(fixture_share_all(f), >=, ALL);
}

/* A person 1.3 m in front of the wall, marked from the start: the wall
 * in the margin beside and above them, farther than they reach, is
 * learned at the learn time as the rest of the room is; they are not in
 * a minute. */
static void
test_behind_person_learned(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	Room room = room_default;
	Rect margin = rect_grow(&person.at, 2);
	gint64 start = f->now_us;

	margin.j1 = 80; /* lower down, the floor about their feet is within their reach */
	room.boards[0] = person;
	fixture_show(f, &room);
	fixture_person(f, &person, 2, start);
	fixture_run(f, LEARN_US + MARGIN_US);
	g_assert_cmpfloat(fixture_share_ring(f, &person.at, &margin), >=, ALL);
	while (f->now_us < start + 60 * G_USEC_PER_SEC) {
		fixture_frame(f);
		g_assert_cmpfloat(fixture_share(f, &person.at, FALSE), ==, 0.0);
	}
	g_assert_cmpfloat(fixture_share_ring(f, &person.at, &margin), >=, ALL);
}

/* A person comes a second after the sensor started, and their outline
 * spills onto a desk in front of them that was there before: the desk
 * is learned at the learn time, with the rest of the room, though
 * marked as theirs; they are not in a minute. */
static void
test_room_before_person_learned(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	Room room = room_default;
	gint64 start = f->now_us, came;

	room.boards[0] = box;
	fixture_show(f, &room);
	fixture_run(f, G_USEC_PER_SEC);
	room.boards[1] = person;
	fixture_show(f, &room);
	came = f->now_us;
	fixture_person(f, &person, 2, came);
	fixture_mark(f, &box.at, 0, person.mm, came);
	while (f->now_us < start + LEARN_US - MARGIN_US) {
		fixture_frame(f);
		g_assert_cmpfloat(fixture_share(f, &box.at, FALSE), ==, 0.0);
	}
	fixture_run(f, 2 * MARGIN_US);
	g_assert_cmpfloat(fixture_share(f, &box.at, FALSE), >=, ALL);
	while (f->now_us < came + 60 * G_USEC_PER_SEC) {
		fixture_frame(f);
		g_assert_cmpfloat(fixture_share(f, &person.at, FALSE), ==, 0.0);
	}
}

/* Something passes in front of the room a second after the sensor
 * started, for a second: the room's time is not started again, and all
 * of it is learned at the learn time. Something put there that stays is
 * not learned with it, but the learn time after it came: the room it
 * hid was never read again. */
static void
test_passing_keeps_time(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	Room room = room_default;
	gint64 start = f->now_us, put;

	fixture_show(f, &room_default);
	fixture_run(f, G_USEC_PER_SEC);
	room.boards[0] = box;
	fixture_show(f, &room);
	fixture_run(f, G_USEC_PER_SEC);
	fixture_show(f, &room_default);
	fixture_run(f, start + LEARN_US + MARGIN_US - f->now_us);
	g_assert_cmpfloat(fixture_share_all(f), >=, ALL);

	tracker_background_reset(f->bg);
	start = f->now_us;
	fixture_run(f, G_USEC_PER_SEC);
	fixture_show(f, &room);
	put = f->now_us;
	fixture_run(f, start + LEARN_US + MARGIN_US - f->now_us);
	g_assert_cmpfloat(fixture_share(f, &box.at, TRUE), >=, ALL);
	g_assert_cmpfloat(fixture_share(f, &box.at, FALSE), ==, 0.0);
	fixture_expect_learned_at(f, &box.at, put + LEARN_US);
}

/* The room learned before a person came is kept under them: a person
 * still for a minute stays in front of it, and where they stood is the
 * room's again the moment they leave. */
static void
test_room_kept_under_person(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	Room room = room_default;
	gint64 came;

	fixture_learn_room(f);
	room.boards[0] = person;
	fixture_show(f, &room);
	came = f->now_us;
	fixture_person(f, &person, 2, came);
	while (f->now_us < came + 60 * G_USEC_PER_SEC) {
		fixture_frame(f);
		g_assert_cmpfloat(fixture_share(f, &person.at, FALSE), ==, 0.0);
	}
	fixture_nobody(f);
	fixture_show(f, &room_default);
	fixture_frame(f);
	g_assert_cmpfloat(fixture_share_all(f), >=, ALL);
}

/* A person in view from the start, marked only after two seconds (as a
 * track becomes a user): the seconds before do not count, and they are
 * not learned in the minute they are marked. Unmarked and still there
 * (a coat stand that took a person's outline), they are learned as any
 * new reading is. */
static void
test_person_marked_late(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	Room room = room_default;
	gint64 start = f->now_us, marked;

	room.boards[0] = person;
	fixture_show(f, &room);
	fixture_run(f, LEARN_US - G_USEC_PER_SEC);
	fixture_person(f, &person, 0, start);
	marked = f->now_us;
	while (f->now_us < marked + 60 * G_USEC_PER_SEC) {
		fixture_frame(f);
		g_assert_cmpfloat(fixture_share(f, &person.at, FALSE), ==, 0.0);
	}
	g_assert_cmpfloat(fixture_share(f, &person.at, TRUE), >=, ALL);
	fixture_nobody(f);
	fixture_frame(f);
	g_assert_cmpfloat(fixture_share(f, &person.at, FALSE), ==, 0.0);
	fixture_run(f, LEARN_US + MARGIN_US);
	g_assert_cmpfloat(fixture_share(f, &person.at, FALSE), >=, ALL);
}

/* A person who stood 15 s in front of the learned room before being
 * marked: those seconds do not count towards absorbing them either.
 * Unmarked a minute later and still there, they take a whole absorb
 * time to join the room. */
static void
test_person_hold_forgotten(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	Room room = room_default;
	gint64 came, unmarked;

	fixture_learn_room(f);
	room.boards[0] = person;
	fixture_show(f, &room);
	came = f->now_us;
	fixture_run(f, 15 * G_USEC_PER_SEC);
	fixture_person(f, &person, 0, came);
	fixture_run(f, 60 * G_USEC_PER_SEC);
	fixture_nobody(f);
	unmarked = f->now_us;
	while (f->now_us < unmarked + ABSORB_US - MARGIN_US) {
		fixture_frame(f);
		g_assert_cmpfloat(fixture_share(f, &person.at, FALSE), ==, 0.0);
	}
	fixture_run(f, 2 * MARGIN_US);
	g_assert_cmpfloat(fixture_share(f, &person.at, FALSE), >=, ALL);
}

/* The sensor carried 0.7 m sideways: a partition 1.2 m away that filled
 * the image's left 5/8 now fills its left 1/8, and half the cells see
 * the wall past it. The model starts again: even the cells that read as
 * before are forgotten, and all is learned anew after the learn time. */
static void
test_carried_sideways(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	static const Rect same = { 100, 0, 160, 120 };
	Room room = room_default;

	room.boards[0] = (Board){ { 0, 0, 100, 120 }, 1200.0 };
	fixture_show(f, &room);
	fixture_run(f, LEARN_US + MARGIN_US);
	g_assert_cmpfloat(fixture_share_all(f), >=, ALL);
	room.boards[0].at.i1 = 20;
	fixture_show(f, &room);
	fixture_run(f, G_USEC_PER_SEC);
	g_assert_cmpfloat(fixture_share(f, &same, FALSE), ==, 0.0);
	fixture_run(f, LEARN_US);
	g_assert_cmpfloat(fixture_share_all(f), >=, ALL);
}

/* The sensor knocked 0.3 m back for a second and put back where it was:
 * the model started again while it was away, so the room is learned
 * anew, not taken back. */
static void
test_bumped_and_back(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	Room room = room_default;

	fixture_learn_room(f);
	room.shift_mm = 300.0;
	fixture_show(f, &room);
	fixture_run(f, G_USEC_PER_SEC);
	fixture_show(f, &room_default);
	fixture_frame(f);
	g_assert_cmpfloat(fixture_share_all(f), ==, 0.0);
	fixture_run(f, LEARN_US + MARGIN_US);
	g_assert_cmpfloat(fixture_share_all(f), >=, ALL);
}

/* Something close to the sensor, not marked as a person, hides 80% of
 * the view for two seconds: nearer readings are no sign of a move. What
 * it left in view stays the room's, and all of it is the moment it
 * goes. */
static void
test_near_thing_not_a_move(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	static const Board near = { { 0, 0, 130, 120 }, 800.0 };
	Room room = room_default;
	gint64 came;

	fixture_learn_room(f);
	room.boards[0] = near;
	fixture_show(f, &room);
	came = f->now_us;
	while (f->now_us < came + 2 * G_USEC_PER_SEC) {
		fixture_frame(f);
		g_assert_cmpfloat(fixture_share(f, &near.at, FALSE), ==, 0.0);
		g_assert_cmpfloat(fixture_share(f, &near.at, TRUE), >=, ALL);
	}
	fixture_show(f, &room_default);
	fixture_frame(f);
	g_assert_cmpfloat(fixture_share_all(f), >=, ALL);
}

/* Walls from 0.8 m to 4.5 m, and the room with its floor, under the
 * Kinect's noise: learned in the learn time, and no frame after it
 * loses more than 1% of the cells. A board a tenth nearer than the wall,
 * 3 to 6 times as far from it as the model allows, stays out. */
static void
test_noise_at_range(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	static const double walls[] = { 800.0, 1500.0, 2500.0, 3500.0, 4500.0, 0.0 };
	static const Board high = { { 40, 20, 70, 45 }, 0.0 }; /* on the wall only */

	for (guint i = 0; i < G_N_ELEMENTS(walls); i++) {
		Room room = walls[i] > 0.0 ? (Room){ .wall_mm = walls[i] } : room_default;
		gint64 start = f->now_us;

		room.noise = 1.0;
		/* A model of its own for each room. */
		tracker_background_free(f->bg);
		f->bg = tracker_background_new(&f->grid);
		fixture_show(f, &room);
		fixture_run(f, LEARN_US + MARGIN_US);
		while (f->now_us < start + LEARN_US + 5 * G_USEC_PER_SEC) {
			fixture_frame(f);
			g_assert_cmpfloat(fixture_share_all(f), >=, 0.99);
		}
		room.boards[0] = high;
		room.boards[0].mm = 0.9 * room.wall_mm;
		fixture_show(f, &room);
		fixture_run(f, G_USEC_PER_SEC);
		g_assert_cmpfloat(fixture_share(f, &high.at, FALSE), <=, 0.01);
	}
}

/* A black screen reads nothing: its cells are never background, and the
 * rest of the room is learned about it. Once it reads, its cells are
 * learned as any new reading is. */
static void
test_no_reading_never_background(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	static const Board screen = { { 100, 10, 140, 40 }, 0.0 };
	Room room = room_default;

	room.boards[0] = screen;
	fixture_show(f, &room);
	fixture_run(f, LEARN_US + MARGIN_US);
	g_assert_cmpfloat(fixture_share(f, &screen.at, FALSE), ==, 0.0);
	g_assert_cmpfloat(fixture_share(f, &screen.at, TRUE), >=, ALL);
	fixture_show(f, &room_default);
	fixture_frame(f);
	g_assert_cmpfloat(fixture_share(f, &screen.at, FALSE), ==, 0.0);
	fixture_run(f, LEARN_US + MARGIN_US);
	g_assert_cmpfloat(fixture_share_all(f), >=, ALL);
}

/* Cells of the learned room read nothing for a minute, three absorb
 * times: part of it, then all of it (the sensor covered). Nothing is
 * background meanwhile, nothing is forgotten, and no move is seen: the
 * room is the room's again on the first frame it reads. */
static void
test_no_reading_keeps_room(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	static const Board dark[] = { { { 20, 60, 80, 110 }, 0.0 }, { { 0, 0, 160, 120 }, 0.0 } };

	fixture_learn_room(f);
	for (guint i = 0; i < G_N_ELEMENTS(dark); i++) {
		Room room = room_default;
		gint64 start = f->now_us;

		room.boards[0] = dark[i];
		fixture_show(f, &room);
		while (f->now_us < start + 3 * ABSORB_US) {
			fixture_frame(f);
			g_assert_cmpfloat(fixture_share(f, &dark[i].at, FALSE), ==, 0.0);
		}
		fixture_show(f, &room_default);
		fixture_frame(f);
		g_assert_cmpfloat(fixture_share_all(f), >=, ALL);
	}
}

/* Reset forgets the room at once; it is learned again from the next
 * frame, after the learn time. */
static void
test_reset(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	gint64 reset;

	fixture_learn_room(f);
	tracker_background_reset(f->bg);
	g_assert_cmpfloat(fixture_share_all(f), ==, 0.0);
	reset = f->now_us;
	while (f->now_us < reset + LEARN_US - MARGIN_US) {
		fixture_frame(f);
		g_assert_cmpfloat(fixture_share_all(f), ==, 0.0);
	}
	fixture_run(f, 2 * MARGIN_US);
	g_assert_cmpfloat(fixture_share_all(f), >=, ALL);
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
	add("/tracker/background/learn/after-learn-time", test_learn_time);
	add("/tracker/background/nearer/absorbed-after-absorb-time", test_nearer_absorbed);
	add("/tracker/background/farther/learned-after-learn-time", test_farther_learned_sooner);
	add("/tracker/background/learn/passing-keeps-time", test_passing_keeps_time);
	add("/tracker/background/people/still-person-never-learned", test_person_never_learned);
	add("/tracker/background/people/behind-person-learned", test_behind_person_learned);
	add("/tracker/background/people/room-before-person-learned",
	    test_room_before_person_learned);
	add("/tracker/background/people/room-kept-under-person", test_room_kept_under_person);
	add("/tracker/background/people/time-before-marked-not-counted", test_person_marked_late);
	add("/tracker/background/people/hold-before-marked-forgotten", test_person_hold_forgotten);
	add("/tracker/background/moved/carried-sideways-starts-again", test_carried_sideways);
	add("/tracker/background/moved/bumped-and-back-starts-again", test_bumped_and_back);
	add("/tracker/background/moved/near-thing-not-a-move", test_near_thing_not_a_move);
	add("/tracker/background/noise/still-room-at-every-range", test_noise_at_range);
	add("/tracker/background/no-reading/never-background", test_no_reading_never_background);
	add("/tracker/background/no-reading/room-kept", test_no_reading_keeps_room);
	add("/tracker/background/reset/forgets", test_reset);
	return g_test_run();
}
