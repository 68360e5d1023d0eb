#include "tracker-floor.h"

#include <math.h>

#include "tracker-lsq.h"

#define FLOOR_MAX_TILT_COS 0.866  /* cos 30 degrees */
#define FLOOR_MIN_CAMERA_H 300.0  /* mm: the sensor is at least this high */
#define FLOOR_MAX_CAMERA_H 4000.0 /* ...and at most this high */
#define FLOOR_HYPOTHESES   48
#define FLOOR_MIN_SHARE    0.04 /* of all cells: less is not a floor */
#define FLOOR_SAMPLE_STEP  3    /* score hypotheses on every 3rd candidate */
#define FLOOR_MAX_MISSES   3
#define FLOOR_MIN_SPAN_MM  1000.0
/* A floor cell's normal is within 55 degrees of the camera's up: the
 * floor's own tilt (30 degrees at most) and the normal's error. */
#define FLOOR_MIN_FACING    0.57
#define FLOOR_REFINE_PASSES 3

typedef struct {
	int *cells; /* below the camera */
	int n;
	int *facing; /* ...of those, the ones on a surface that faces up */
	int n_facing;
} Candidates;

void
tracker_floor_reset(TrackerFloor *floor)
{
	floor->found = FALSE;
	floor->up = tracker_vec3(0.0, 1.0, 0.0);
	floor->offset = 0.0;
	floor->support = 0;
	floor->rng = 0x9e3779b9u;
	floor->misses = 0;
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

/* Cells that may be floor: readings below the camera, and those of them
 * on a surface that faces up. A plane is looked for and judged on the
 * latter (a level band across the walls lies on a plane too, but its
 * cells face sideways), and fitted to all it holds. */
static Candidates
tracker_floor_candidates(const TrackerGrid *grid)
{
	Candidates c = { g_new(int, grid->n), 0, g_new(int, grid->n), 0 };

	for (int i = 0; i < grid->n; i++) {
		if (!(grid->z[i] > 0.0f && grid->y[i] < -FLOOR_MIN_CAMERA_H * 0.5f))
			continue;
		c.cells[c.n++] = i;
		if (grid->ny[i] >= FLOOR_MIN_FACING)
			c.facing[c.n_facing++] = i;
	}
	return c;
}

/* The plane's inliers among every @step-th candidate; *@span gets how far
 * they reach in depth. */
static guint
tracker_floor_count(const TrackerGrid *grid, const Candidates *c, int step, TrackerVec3 up,
                    double offset, double *span)
{
	double near = G_MAXDOUBLE, far = 0.0;
	guint n = 0;

	for (int k = 0; k < c->n_facing; k += step) {
		TrackerVec3 p = tracker_grid_point(grid, c->facing[k]);

		if (fabs(tracker_vec3_dot(up, p) + offset) >= tracker_floor_tolerance(p.z))
			continue;
		n++;
		near = MIN(near, p.z);
		far = MAX(far, p.z);
	}
	*span = n > 0 ? far - near : 0.0;
	return n;
}

/* A plane through three cells, if it could be a floor. */
static gboolean
tracker_floor_hypothesis(const TrackerGrid *grid, const int cells[3], TrackerVec3 *up,
                         double *offset)
{
	TrackerVec3 a = tracker_grid_point(grid, cells[0]);
	TrackerVec3 b = tracker_grid_point(grid, cells[1]);
	TrackerVec3 c = tracker_grid_point(grid, cells[2]);
	TrackerVec3 n = tracker_vec3_cross(tracker_vec3_sub(b, a), tracker_vec3_sub(c, a));

	if (tracker_vec3_length(n) < 1e-6)
		return FALSE;
	n = tracker_vec3_normalize(n);
	if (n.y < 0.0)
		n = tracker_vec3_scale(n, -1.0);
	*up = n;
	*offset = -tracker_vec3_dot(n, a);
	/* The camera, at the origin, stands *offset above the plane. */
	return n.y >= FLOOR_MAX_TILT_COS && *offset >= FLOOR_MIN_CAMERA_H &&
	       *offset <= FLOOR_MAX_CAMERA_H;
}

/* Least squares y = a x + b z + c over the plane's inliers. */
static gboolean
tracker_floor_refine(const TrackerGrid *grid, const Candidates *c, TrackerVec3 *up, double *offset)
{
	TrackerLsq3 lsq;
	TrackerVec3 n;
	double s[3], len;

	tracker_lsq3_init(&lsq);
	for (int k = 0; k < c->n; k++) {
		TrackerVec3 p = tracker_grid_point(grid, c->cells[k]);

		if (fabs(tracker_vec3_dot(*up, p) + *offset) < tracker_floor_tolerance(p.z))
			tracker_lsq3_add(&lsq, p.x, p.z, 1.0, p.y);
	}
	if (!tracker_lsq3_solve(&lsq, s, NULL))
		return FALSE;
	/* y - a x - b z - c = 0 */
	n = tracker_vec3(-s[0], 1.0, -s[1]);
	len = tracker_vec3_length(n);
	*up = tracker_vec3_scale(n, 1.0 / len);
	*offset = -s[2] / len;
	return TRUE;
}

static void
tracker_floor_search(TrackerFloor *floor, const TrackerGrid *grid, const Candidates *c)
{
	guint best = 0, need = (guint)(FLOOR_MIN_SHARE * grid->n);
	TrackerVec3 best_up = floor->up;
	double best_offset = 0.0, span;

	if ((guint)c->n_facing < need)
		return;
	for (int h = 0; h < FLOOR_HYPOTHESES; h++) {
		int cells[3];
		TrackerVec3 up;
		double offset;
		guint n;

		for (int k = 0; k < 3; k++)
			cells[k] = c->facing[tracker_floor_random(floor) % (guint)c->n_facing];
		if (!tracker_floor_hypothesis(grid, cells, &up, &offset))
			continue;
		n = tracker_floor_count(grid, c, FLOOR_SAMPLE_STEP, up, offset, &span);
		/* A floor runs away from the sensor; a level band across a
		 * person's front does not. */
		if (n > best && span >= FLOOR_MIN_SPAN_MM) {
			best = n;
			best_up = up;
			best_offset = offset;
		}
	}
	if (best * FLOOR_SAMPLE_STEP < need)
		return;
	/* Twice: the inliers of the refined plane, fitted again, hardly
	 * depend on which hypothesis won. */
	for (int pass = 0; pass < FLOOR_REFINE_PASSES; pass++) {
		if (!tracker_floor_refine(grid, c, &best_up, &best_offset) ||
		    best_up.y < FLOOR_MAX_TILT_COS)
			return;
	}
	floor->found = TRUE;
	floor->up = best_up;
	floor->offset = best_offset;
	floor->support = tracker_floor_count(grid, c, 1, best_up, best_offset, &span);
	floor->misses = 0;
}

/* Cells on the kept plane, counting every FLOOR_SAMPLE_STEP-th candidate. */
static guint
tracker_floor_check(const TrackerFloor *floor, const TrackerGrid *grid)
{
	guint n = 0, seen = 0;

	for (int i = 0; i < grid->n; i++) {
		TrackerVec3 p;

		if (!(grid->z[i] > 0.0f && grid->y[i] < -FLOOR_MIN_CAMERA_H * 0.5f) ||
		    seen++ % FLOOR_SAMPLE_STEP != 0)
			continue;
		p = tracker_grid_point(grid, i);
		n += fabs(tracker_floor_height(floor, p)) < tracker_floor_tolerance(p.z);
	}
	return n;
}

void
tracker_floor_update(TrackerFloor *floor, const TrackerGrid *grid)
{
	Candidates c;

	/* People stand on the floor and hide some of it: a kept plane needs
	 * only half the cells it had. */
	if (floor->found) {
		if (tracker_floor_check(floor, grid) * FLOOR_SAMPLE_STEP * 2 >= floor->support)
			floor->misses = 0;
		else if (++floor->misses >= FLOOR_MAX_MISSES)
			tracker_floor_reset(floor);
	}
	if (floor->found)
		return;
	c = tracker_floor_candidates(grid);
	tracker_floor_search(floor, grid, &c);
	g_free(c.cells);
	g_free(c.facing);
}
