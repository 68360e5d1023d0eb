/* What has just come into view, on synthetic rooms with time passed in:
 * nothing tells before a cell has read for the warm-up; a board brought
 * in reads nearer on the frame it comes and only then; a board taken away
 * (the room seen past it) is never fresh; a place left a moment ago is
 * remembered, one left for seconds is not; and the Kinect's noise at any
 * range leaves a still room all but never fresh. */
#include <math.h>
#include <string.h>

#include "testutil.h"
#include "tracker/tracker-fresh.h"

#define MAX_DEPTH_MM 6000.0
#define FRAME_US     (G_USEC_PER_SEC / 30)
#define START_US     (600 * G_USEC_PER_SEC) /* a stream long under way */
#define ALL          0.999                  /* every cell but one in a thousand */

/* Cells [i0, i1) x [j0, j1) of the grid. */
typedef struct {
	int i0, j0, i1, j1;
} Rect;

typedef struct {
	TrackerCamera camera;
	TrackerGrid grid;
	TrackerFresh *fresh;
	guint16 *mm;
	TestutilKinect kinect;
	double wall_mm, noise;
	gboolean board; /* a board 2.2 m off over board_at, in front of the wall */
	const guint8 *mask;
	gint64 now_us;
} Fixture;

static const Rect board_at = { 70, 20, 90, 95 }; /* a person's size: 8% of the cells */
static const Rect nowhere = { 0, 0, 0, 0 };
#define BOARD_MM 2200.0

static void
fixture_setup(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	tracker_camera_init_kinect(&f->camera);
	tracker_grid_init(&f->grid, &f->camera);
	f->fresh = tracker_fresh_new(&f->grid);
	f->mm = g_new0(guint16, f->camera.width * f->camera.height);
	testutil_kinect_init(&f->kinect, f->camera.width, f->camera.height);
	f->wall_mm = 3500.0;
	f->now_us = START_US;
}

static void
fixture_teardown(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	tracker_fresh_free(f->fresh);
	tracker_grid_clear(&f->grid);
	g_free(f->mm);
	testutil_kinect_clear(&f->kinect);
}

static gboolean
rect_has(const Rect *r, int i, int j)
{
	return i >= r->i0 && i < r->i1 && j >= r->j0 && j < r->j1;
}

/* One frame of a wall facing the sensor and perhaps the board, new noise
 * and all, at the fixture's time; the time moves on. */
static void
fixture_frame(Fixture *f)
{
	const TrackerCamera *c = &f->camera;

	testutil_kinect_frame(&f->kinect, f->noise);
	for (int v = 0; v < c->height; v++) {
		for (int u = 0; u < c->width; u++) {
			gboolean on = f->board && rect_has(&board_at, u / TRACKER_GRID_STEP,
			                                   v / TRACKER_GRID_STEP);

			f->mm[v * c->width + u] = testutil_kinect_read(
			        &f->kinect, u, v, on ? BOARD_MM : f->wall_mm, MAX_DEPTH_MM);
		}
	}
	tracker_grid_fill(&f->grid, f->mm, MAX_DEPTH_MM);
	f->mask = tracker_fresh_update(f->fresh, &f->grid, f->now_us);
	f->now_us += FRAME_US;
}

static void
fixture_run(Fixture *f, gint64 duration_us)
{
	gint64 end = f->now_us + duration_us;

	while (f->now_us < end)
		fixture_frame(f);
}

/* The share of the cells with a reading in @r (with @outside: not in @r)
 * that the last frame said @answer of. */
static double
fixture_share(Fixture *f, const Rect *r, gboolean outside, guint8 answer)
{
	guint n = 0, in = 0;

	for (int k = 0; k < f->grid.n; k++) {
		if (rect_has(r, k % f->grid.width, k / f->grid.width) == outside ||
		    f->grid.z[k] <= 0.0f)
			continue;
		n++;
		in += f->mask[k] == answer;
	}
	g_assert_cmpuint(n, >, 0);
	return (double)in / n;
}

static double
fixture_share_all(Fixture *f, guint8 answer)
{
	return fixture_share(f, &nowhere, TRUE, answer);
}

/* Warmed up on the wall alone. */
static void
fixture_warm(Fixture *f)
{
	for (int i = 0; i <= TRACKER_FRESH_WARMUP; i++)
		fixture_frame(f);
	g_assert_cmpfloat(fixture_share_all(f, TRACKER_FRESH_SEEN), >=, ALL);
}

/* Nothing tells before a cell has read for the warm-up: not even the
 * board that comes in on its last frame. Then a still wall is all seen. */
static void
test_warmup(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	for (int i = 0; i < TRACKER_FRESH_WARMUP; i++) {
		f->board = i == TRACKER_FRESH_WARMUP - 1;
		fixture_frame(f);
		g_assert_cmpfloat(fixture_share_all(f, TRACKER_FRESH_UNKNOWN), ==, 1.0);
	}
	fixture_frame(f);
	g_assert_cmpfloat(fixture_share_all(f, TRACKER_FRESH_SEEN), >=, ALL);
}

/* A board brought in before the warmed-up wall reads nearer, all of it,
 * on the frame it comes; the rest of the wall does not. The next frame
 * it is seen. */
static void
test_brought_in(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	fixture_warm(f);
	f->board = TRUE;
	fixture_frame(f);
	g_assert_cmpfloat(fixture_share(f, &board_at, FALSE, TRACKER_FRESH_NEARER), >=, ALL);
	g_assert_cmpfloat(fixture_share(f, &board_at, TRUE, TRACKER_FRESH_NEARER), ==, 0.0);
	fixture_frame(f);
	g_assert_cmpfloat(fixture_share_all(f, TRACKER_FRESH_SEEN), >=, ALL);
}

/* The board there from the start is taken away: the wall seen past it is
 * farther, never fresh. */
static void
test_taken_away(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	f->board = TRUE;
	fixture_warm(f);
	fixture_run(f, G_USEC_PER_SEC);
	f->board = FALSE;
	for (int i = 0; i < 30; i++) {
		fixture_frame(f);
		g_assert_cmpfloat(fixture_share_all(f, TRACKER_FRESH_NEARER), ==, 0.0);
	}
}

/* A board that leaves and comes back a tenth of a second later is
 * remembered; one that comes back after the recede time is fresh again. */
static void
test_recede(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	fixture_warm(f);
	f->board = TRUE;
	fixture_run(f, G_USEC_PER_SEC);
	f->board = FALSE;
	fixture_run(f, G_USEC_PER_SEC / 10);
	f->board = TRUE;
	fixture_frame(f);
	g_assert_cmpfloat(fixture_share_all(f, TRACKER_FRESH_NEARER), ==, 0.0);
	f->board = FALSE;
	fixture_run(f, TRACKER_FRESH_RECEDE_US);
	f->board = TRUE;
	fixture_frame(f);
	g_assert_cmpfloat(fixture_share(f, &board_at, FALSE, TRACKER_FRESH_NEARER), >=, ALL);
}

/* The Kinect's noise on a still wall at every range: over ten seconds,
 * no frame has more than one cell in a thousand read nearer, and never
 * two side by side (what the tracker counts). */
static void
test_noise(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	static const double walls[] = { 800.0, 1500.0, 2500.0, 3500.0, 4500.0 };

	f->noise = 1.0;
	for (guint i = 0; i < G_N_ELEMENTS(walls); i++) {
		gint64 end;

		tracker_fresh_reset(f->fresh);
		f->wall_mm = walls[i];
		fixture_warm(f);
		end = f->now_us + 10 * G_USEC_PER_SEC;
		while (f->now_us < end) {
			int w = f->grid.width;

			fixture_frame(f);
			g_assert_cmpfloat(fixture_share_all(f, TRACKER_FRESH_NEARER), <=, 0.001);
			for (int k = 0; k + 1 < f->grid.n; k++) {
				if (f->mask[k] != TRACKER_FRESH_NEARER)
					continue;
				g_assert_false(
				        (k % w < w - 1 && f->mask[k + 1] == TRACKER_FRESH_NEARER) ||
				        (k + w < f->grid.n &&
				         f->mask[k + w] == TRACKER_FRESH_NEARER));
			}
		}
	}
}

/* Reset forgets what every cell read: the warm-up starts again. */
static void
test_reset(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	fixture_warm(f);
	tracker_fresh_reset(f->fresh);
	f->board = TRUE;
	fixture_frame(f);
	g_assert_cmpfloat(fixture_share_all(f, TRACKER_FRESH_UNKNOWN), ==, 1.0);
}

static void
add(const char *path, void (*test)(Fixture *, gconstpointer))
{
	g_test_add(path, Fixture, NULL, fixture_setup, test, fixture_teardown);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	add("/tracker/fresh/warmup/unknown-until-warm", test_warmup);
	add("/tracker/fresh/nearer/brought-in-once", test_brought_in);
	add("/tracker/fresh/farther/taken-away-never", test_taken_away);
	add("/tracker/fresh/recede/moment-remembered-seconds-not", test_recede);
	add("/tracker/fresh/noise/still-wall-at-every-range", test_noise);
	add("/tracker/fresh/reset/forgets", test_reset);
	return g_test_run();
}
