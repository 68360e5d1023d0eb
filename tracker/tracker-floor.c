#include "tracker-floor.h"

#include <math.h>
#include <string.h>

#include "tracker-lsq.h"

#define FLOOR_CONE_COS     0.866  /* cos 30 degrees, about the prior's up */
#define FLOOR_MIN_CAMERA_H 300.0  /* mm: the sensor is at least this high */
#define FLOOR_MAX_CAMERA_H 4000.0 /* ...and at most this high */
#define FLOOR_HYPOTHESES   96     /* per search: one in 8 frames while none is seen */
#define FLOOR_MIN_SHARE    0.04   /* of all cells: less is not a floor */
#define FLOOR_SAMPLE_STEP  3      /* score hypotheses on every 3rd candidate */
#define FLOOR_MAX_MISSES   3
#define FLOOR_MIN_SPAN_MM  1000.0
#define FLOOR_FINE_BAND    0.3 /* of the tolerance: the floor's own cells */
#define FLOOR_WHOLE_CELL   (TRACKER_GRID_STEP * TRACKER_GRID_STEP) /* readings */
#define FLOOR_MIN_WHOLE    100
#define FLOOR_FINE_COS     0.99985 /* cos 1 degree */
#define FLOOR_FINE_MM      30.0
/* Half of a floor's cells are within half a cell's size of level with the
 * cell above them; on a floor seen in the demo nine in ten are, on the
 * planes through walls, shins and boxes that pass for a floor when it is
 * out of view, two in ten at most. */
#define FLOOR_LEVEL_CELLS 0.5
#define FLOOR_LEVEL_SHARE 2
/* A kept plane fits while a quarter of its remembered cells are on it, and
 * is disproved when a quarter of them read below it. */
#define FLOOR_FIT_SHARE   4
#define FLOOR_BELOW_SHARE 4
/* A hidden floor gives way only to a plane that more than twice as many
 * cells lie on, and at least half as many as on the floor when found. */
#define FLOOR_BETTER       2
#define FLOOR_MOVED_SHARE  2
#define FLOOR_SEARCH_EVERY 8  /* frames, while no floor is seen or it is hidden */
#define FLOOR_RECHECK      32 /* frames between searches for a better floor while one fits */
#define FLOOR_FACING_COS   0.57

typedef struct {
	int *cells;
	int n;
} Candidates;

typedef struct {
	TrackerVec3 up;
	double offset;
	guint support;
} FloorPlane;

/* What the depth says of the kept plane. */
typedef enum {
	FLOOR_NONE,      /* no plane was seen */
	FLOOR_FITS,      /* enough of it is still there */
	FLOOR_HIDDEN,    /* most of it is covered or out of place */
	FLOOR_DISPROVED, /* readings show through it */
} FloorVerdict;

void
tracker_floor_init(TrackerFloor *floor)
{
	memset(floor, 0, sizeof(*floor));
	tracker_floor_set_prior(floor, tracker_vec3(0.0, 1.0, 0.0), 0.0);
}

void
tracker_floor_set_prior(TrackerFloor *floor, TrackerVec3 up, double height)
{
	floor->prior_up = tracker_vec3_normalize(up);
	floor->prior_height = height;
	tracker_floor_reset(floor);
}

void
tracker_floor_reset(TrackerFloor *floor)
{
	floor->seen = FALSE;
	floor->found = floor->prior_height > 0.0;
	floor->up = floor->prior_up;
	floor->offset = floor->prior_height;
	floor->support = 0;
	floor->rng = 0x9e3779b9u;
	floor->misses = 0;
	floor->waited = 0;
	floor->fitted = 0;
	floor->n_kept = 0;
}

TrackerVec3
tracker_floor_up_from_pose(double tilt_deg, double roll_deg)
{
	double t = tilt_deg * G_PI / 180.0, r = roll_deg * G_PI / 180.0;

	return tracker_vec3(sin(r) * cos(t), cos(r) * cos(t), -sin(t));
}

void
tracker_floor_pose_from_up(TrackerVec3 up, double *tilt_deg, double *roll_deg)
{
	*tilt_deg = -asin(CLAMP(up.z, -1.0, 1.0)) * 180.0 / G_PI;
	*roll_deg = atan2(up.x, up.y) * 180.0 / G_PI;
}

static guint32
tracker_floor_random(TrackerFloor *floor)
{
	/* xorshift32 */
	guint32 x = floor->rng;

	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	return floor->rng = x;
}

/* Whether the surface at cell @i faces up, the prior's way: its normal,
 * from the cells either side of it and above and below it, within 55
 * degrees of up (the floor's own tilt from the prior's, and the error).
 * A level band across the walls lies on a plane as the floor does, but
 * its cells face sideways. */
static gboolean
tracker_floor_faces_up(const TrackerFloor *floor, const TrackerGrid *grid, int i)
{
	int w = grid->width, u = i % w;
	TrackerVec3 across, down, n;

	if (u == 0 || u == w - 1 || i < w || i >= grid->n - w ||
	    !tracker_grid_same_surface(grid, i - 1, i + 1) ||
	    !tracker_grid_same_surface(grid, i - w, i + w))
		return TRUE; /* an edge: the plane's own test decides */
	across = tracker_vec3_sub(tracker_grid_point(grid, i + 1), tracker_grid_point(grid, i - 1));
	down = tracker_vec3_sub(tracker_grid_point(grid, i + w), tracker_grid_point(grid, i - w));
	n = tracker_vec3_cross(across, down);
	return tracker_vec3_dot(n, floor->prior_up) >= FLOOR_FACING_COS * tracker_vec3_length(n);
}

/* Cells that may be floor: readings below the camera, as the prior sees
 * down, on a surface that faces up. */
static Candidates
tracker_floor_candidates(const TrackerFloor *floor, const TrackerGrid *grid)
{
	Candidates c = { g_new(int, grid->n), 0 };
	TrackerVec3 up = floor->prior_up;

	for (int i = 0; i < grid->n; i++) {
		if (grid->z[i] > 0.0f &&
		    up.x * grid->x[i] + up.y * grid->y[i] + up.z * grid->z[i] <
		            -FLOOR_MIN_CAMERA_H * 0.5 &&
		    tracker_floor_faces_up(floor, grid, i))
			c.cells[c.n++] = i;
	}
	return c;
}

/* The plane's inliers among every @step-th candidate; *@span gets how far
 * they reach in depth. */
static guint
tracker_floor_count(const TrackerGrid *grid, const Candidates *c, int step, const FloorPlane *plane,
                    double *span)
{
	double near = G_MAXDOUBLE, far = 0.0;
	guint n = 0;

	for (int k = 0; k < c->n; k += step) {
		TrackerVec3 p = tracker_grid_point(grid, c->cells[k]);

		if (fabs(tracker_vec3_dot(plane->up, p) + plane->offset) >=
		    tracker_floor_tolerance(p.z))
			continue;
		n++;
		near = MIN(near, p.z);
		far = MAX(far, p.z);
	}
	*span = n > 0 ? far - near : 0.0;
	return n;
}

/* Whether a plane could be the floor: facing the prior's way, with the
 * camera, at the origin, above it at a height a sensor stands at. */
static gboolean
tracker_floor_plausible(const TrackerFloor *floor, const FloorPlane *plane)
{
	return tracker_vec3_dot(plane->up, floor->prior_up) >= FLOOR_CONE_COS &&
	       plane->offset >= FLOOR_MIN_CAMERA_H && plane->offset <= FLOOR_MAX_CAMERA_H;
}

/* A plane through three cells, if it could be a floor. */
static gboolean
tracker_floor_hypothesis(const TrackerFloor *floor, const TrackerGrid *grid, const int cells[3],
                         FloorPlane *plane)
{
	TrackerVec3 a = tracker_grid_point(grid, cells[0]);
	TrackerVec3 b = tracker_grid_point(grid, cells[1]);
	TrackerVec3 c = tracker_grid_point(grid, cells[2]);
	TrackerVec3 n = tracker_vec3_cross(tracker_vec3_sub(b, a), tracker_vec3_sub(c, a));

	if (tracker_vec3_length(n) < 1e-6)
		return FALSE;
	n = tracker_vec3_normalize(n);
	if (tracker_vec3_dot(n, floor->prior_up) < 0.0)
		n = tracker_vec3_scale(n, -1.0);
	plane->up = n;
	plane->offset = -tracker_vec3_dot(n, a);
	return tracker_floor_plausible(floor, plane);
}

/* Whether cell @i is within @band times the tolerance of @plane. */
static gboolean
tracker_floor_near(const TrackerGrid *grid, int i, double band, const FloorPlane *plane)
{
	TrackerVec3 p = tracker_grid_point(grid, i);

	return p.z > 0.0 && fabs(tracker_vec3_dot(plane->up, p) + plane->offset) <
	                            band * tracker_floor_tolerance(p.z);
}

/* Least squares y = a x + b z + c over the candidates within @band times
 * the tolerance of @plane whose cell above is too: the foot of a wall, of
 * a person or of a cabinet is near the plane, but what stands on it is
 * not. With @whole, only cells all of whose readings went into their mean.
 * Returns the cells used, 0 when they do not make a plane. */
static guint
tracker_floor_fit(const TrackerGrid *grid, const Candidates *c, double band, gboolean whole,
                  FloorPlane *plane)
{
	TrackerLsq3 lsq;
	TrackerVec3 n;
	double s[3], len;

	tracker_lsq3_init(&lsq);
	for (int k = 0; k < c->n; k++) {
		int i = c->cells[k];
		TrackerVec3 p = tracker_grid_point(grid, i);

		if (i >= grid->width && (!whole || grid->count[i] == FLOOR_WHOLE_CELL) &&
		    tracker_floor_near(grid, i, band, plane) &&
		    tracker_floor_near(grid, i - grid->width, band, plane))
			tracker_lsq3_add(&lsq, p.x, p.z, 1.0, p.y);
	}
	if (!tracker_lsq3_solve(&lsq, s, NULL))
		return 0;
	/* y - a x - b z - c = 0 */
	n = tracker_vec3(-s[0], 1.0, -s[1]);
	len = tracker_vec3_length(n);
	plane->up = tracker_vec3_scale(n, 1.0 / len);
	plane->offset = -s[2] / len;
	return lsq.n;
}

/* The fit again on a narrowing band: the hypothesis's wide band takes in
 * feet, furniture and the foot of the wall, which tilt the plane by
 * degrees. Then on whole cells only: the grid gives a block that the
 * floor crosses at a slant the mean of its nearer readings, a few mm above
 * the floor and more with distance, which tilts the plane by a tenth of a
 * degree. That correction is small; a whole-cell fit farther off than a
 * degree or 30 mm went wrong and is not taken. */
static gboolean
tracker_floor_refine(const TrackerGrid *grid, const Candidates *c, FloorPlane *plane)
{
	static const double bands[] = { 1.0, 0.5, FLOOR_FINE_BAND };
	FloorPlane whole;

	for (guint i = 0; i < G_N_ELEMENTS(bands); i++) {
		if (tracker_floor_fit(grid, c, bands[i], FALSE, plane) == 0)
			return FALSE;
	}
	whole = *plane;
	if (tracker_floor_fit(grid, c, FLOOR_FINE_BAND, TRUE, &whole) >= FLOOR_MIN_WHOLE &&
	    tracker_vec3_dot(whole.up, plane->up) >= FLOOR_FINE_COS &&
	    fabs(whole.offset - plane->offset) < FLOOR_FINE_MM)
		*plane = whole;
	return TRUE;
}

/* Whether most cells on @plane are level with the cell above them, as on a
 * floor. With the floor out of view, a plane through the foot of a wall, a
 * person's shins and a box's edge has as many cells on it, but those stand
 * on each other: a cell above is higher by the cell's size. */
static gboolean
tracker_floor_level(const TrackerGrid *grid, const Candidates *c, const FloorPlane *plane)
{
	guint on = 0, level = 0;

	for (int k = 0; k < c->n; k++) {
		int i = c->cells[k];
		TrackerVec3 p = tracker_grid_point(grid, i);
		double h = tracker_vec3_dot(plane->up, p) + plane->offset, above;

		if (i < grid->width || grid->z[i - grid->width] <= 0.0f ||
		    fabs(h) >= tracker_floor_tolerance(p.z))
			continue;
		above = tracker_vec3_dot(plane->up, tracker_grid_point(grid, i - grid->width)) +
		        plane->offset;
		on++;
		level += fabs(above - h) < FLOOR_LEVEL_CELLS * tracker_grid_cell_mm(grid, p.z);
	}
	return level * FLOOR_LEVEL_SHARE >= on;
}

/* RANSAC for the floor among @c; FALSE when no plane will do. */
static gboolean
tracker_floor_search(TrackerFloor *floor, const TrackerGrid *grid, const Candidates *c,
                     FloorPlane *best)
{
	guint need = (guint)(FLOOR_MIN_SHARE * grid->n);
	double span;

	best->support = 0;
	if ((guint)c->n < need)
		return FALSE;
	for (int h = 0; h < FLOOR_HYPOTHESES; h++) {
		int cells[3];
		FloorPlane plane;

		for (int k = 0; k < 3; k++)
			cells[k] = c->cells[tracker_floor_random(floor) % (guint)c->n];
		if (!tracker_floor_hypothesis(floor, grid, cells, &plane))
			continue;
		plane.support = tracker_floor_count(grid, c, FLOOR_SAMPLE_STEP, &plane, &span);
		/* A floor runs away from the sensor; a level band across a
		 * person's front does not. */
		if (plane.support > best->support && span >= FLOOR_MIN_SPAN_MM)
			*best = plane;
	}
	if (best->support * FLOOR_SAMPLE_STEP < need || !tracker_floor_refine(grid, c, best) ||
	    !tracker_floor_plausible(floor, best) || !tracker_floor_level(grid, c, best))
		return FALSE;
	best->support = tracker_floor_count(grid, c, 1, best, &span);
	return best->support > 0;
}

/* Takes @plane as the floor seen, and remembers cells on it, spread over
 * all of it, to check it by in the frames to come. */
static void
tracker_floor_keep(TrackerFloor *floor, const TrackerGrid *grid, const Candidates *c,
                   const FloorPlane *plane)
{
	guint step = plane->support / TRACKER_FLOOR_KEPT + 1, seen = 0;

	floor->found = floor->seen = TRUE;
	floor->up = plane->up;
	floor->offset = plane->offset;
	floor->support = plane->support;
	floor->misses = 0;
	floor->waited = 0;
	floor->n_kept = 0;
	for (int k = 0; k < c->n && floor->n_kept < TRACKER_FLOOR_KEPT; k++) {
		TrackerVec3 p = tracker_grid_point(grid, c->cells[k]);

		if (fabs(tracker_floor_height(floor, p)) < tracker_floor_tolerance(p.z) &&
		    seen++ % step == 0)
			floor->kept[floor->n_kept++] = c->cells[k];
	}
}

/* The kept plane against the depth at its remembered cells. A person
 * standing on the floor hides it with readings above it; only readings
 * below it disprove it, as the sensor cannot see through a floor. Only
 * cells where the floor was seen count: past its edge, the plane may run
 * above a step down or the foot of a stage. */
static FloorVerdict
tracker_floor_check(const TrackerFloor *floor, const TrackerGrid *grid)
{
	guint on = 0, below = 0;

	for (guint k = 0; k < floor->n_kept; k++) {
		int i = floor->kept[k];
		double h, tolerance;

		if (!(grid->z[i] > 0.0f))
			continue;
		h = tracker_floor_height(floor, tracker_grid_point(grid, i));
		tolerance = tracker_floor_tolerance(grid->z[i]);
		on += fabs(h) < tolerance;
		below += h <= -tolerance;
	}
	if (below * FLOOR_BELOW_SHARE >= floor->n_kept)
		return FLOOR_DISPROVED;
	return on * FLOOR_FIT_SHARE >= floor->n_kept ? FLOOR_FITS : FLOOR_HIDDEN;
}

/* Whether the search's @plane replaces what the floor holds. A hidden
 * floor stays unless the sensor moved: then the floor is seen elsewhere,
 * about as fully as it was, with far more cells on it than on the kept
 * plane now. What covers the floor is not so flat: a level band across a
 * board held up close and a line of the floor beyond it make a plane, but
 * a thin one. */
static gboolean
tracker_floor_better(const TrackerFloor *floor, const TrackerGrid *grid, const Candidates *c,
                     const FloorPlane *plane, FloorVerdict verdict)
{
	FloorPlane kept = { floor->up, floor->offset, 0 };
	double span;

	if (verdict == FLOOR_DISPROVED || verdict == FLOOR_NONE)
		return TRUE;
	if (verdict == FLOOR_FITS)
		return plane->support >
		       FLOOR_BETTER * tracker_floor_count(grid, c, 1, &kept, &span);
	return plane->support * FLOOR_MOVED_SHARE >= floor->support &&
	       plane->support > FLOOR_BETTER * tracker_floor_count(grid, c, 1, &kept, &span);
}

void
tracker_floor_update(TrackerFloor *floor, const TrackerGrid *grid)
{
	FloorVerdict verdict = floor->seen ? tracker_floor_check(floor, grid) : FLOOR_NONE;
	Candidates c;
	FloorPlane plane;

	if (verdict != FLOOR_DISPROVED)
		floor->misses = 0;
	/* A plane found early, with someone close in front of the sensor,
	 * may be a band across a wall and a patch of floor: while it fits, a
	 * far better one is looked for now and then. */
	if (verdict == FLOOR_FITS) {
		floor->waited = 0;
		if (++floor->fitted % FLOOR_RECHECK != 0)
			return;
	}
	/* The search is what costs, and a sensor high up may never see a
	 * floor, or someone stand in front of it for minutes: then it is
	 * searched for on the first frame and every 8th after. A floor that
	 * the depth disproves is looked for again on every frame. */
	if (verdict != FLOOR_DISPROVED && floor->waited++ % FLOOR_SEARCH_EVERY != 0)
		return;
	c = tracker_floor_candidates(floor, grid);
	if (tracker_floor_search(floor, grid, &c, &plane) &&
	    tracker_floor_better(floor, grid, &c, &plane, verdict))
		tracker_floor_keep(floor, grid, &c, &plane);
	else if (verdict == FLOOR_DISPROVED && ++floor->misses >= FLOOR_MAX_MISSES)
		tracker_floor_reset(floor);
	g_free(c.cells);
}
