#include "tracker-planes.h"

#include <math.h>
#include <string.h>

#include "tracker-lsq.h"

#define LEVEL_COS        0.87      /* a level surface's normal is within 30 degrees of up */
#define LEVEL_AREA_MM2   300000.0  /* ...and it is the room's from 0.3 square metres */
#define UPRIGHT_AREA_MM2 1000000.0 /* an upright one from a square metre */
#define UPRIGHT_SIDE_MM  500.0     /* ...half a metre each way */
#define UPRIGHT_WIDE_MM  2200.0    /* ...or one wider than anyone's arms */
#define UPRIGHT_TALL_MM  2400.0    /* ...or taller than anyone's raised hands */
#define FACING_COS       0.8       /* a neighbour's normal within 37 degrees */
#define ON_PLANE_SHARE   0.4       /* ...or this share of the tolerance off the plane */
#define SLANT_COS_MIN    0.25      /* a cell seen more slanted counts as this */

typedef struct {
	TrackerVec3 n;          /* unit normal */
	double d;               /* n.p + d = 0 on the plane */
	TrackerVec3 e1, e2, e3; /* the seed's frame: e3 its normal */
	TrackerLsq3 lsq;        /* w = a u + b v + c in that frame */
	double area;            /* mm^2 */
} Region;

struct _TrackerPlanes {
	guint8 *mask;
	guint8 *visited;
	int *queue;
	int n;
};

TrackerPlanes *
tracker_planes_new(const TrackerGrid *grid)
{
	TrackerPlanes *planes = g_new0(TrackerPlanes, 1);

	planes->n = grid->n;
	planes->mask = g_new0(guint8, grid->n);
	planes->visited = g_new0(guint8, grid->n);
	planes->queue = g_new(int, grid->n);
	return planes;
}

void
tracker_planes_free(TrackerPlanes *planes)
{
	if (planes == NULL)
		return;
	g_free(planes->mask);
	g_free(planes->visited);
	g_free(planes->queue);
	g_free(planes);
}

const guint8 *
tracker_planes_mask(const TrackerPlanes *planes)
{
	return planes->mask;
}

/* How far off its plane a point at depth @z may be: the sensor's error. */
static inline double
tracker_planes_tolerance(double z)
{
	return 12.0 + 2.5e-6 * z * z;
}

static void
tracker_planes_region_init(Region *r, TrackerVec3 n, TrackerVec3 p)
{
	TrackerVec3 a = fabs(n.x) < 0.9 ? tracker_vec3(1, 0, 0) : tracker_vec3(0, 1, 0);

	r->n = n;
	r->d = -tracker_vec3_dot(n, p);
	r->e3 = n;
	r->e1 = tracker_vec3_normalize(tracker_vec3_cross(a, n));
	r->e2 = tracker_vec3_cross(n, r->e1);
	tracker_lsq3_init(&r->lsq);
	r->area = 0.0;
}

/* Adds cell @k's point to the region's fit, area and bounds. */
static void
tracker_planes_region_add(Region *r, const TrackerGrid *grid, int k)
{
	TrackerVec3 p = tracker_grid_point(grid, k);
	double side = tracker_grid_cell_mm(grid, p.z);
	double slant = fabs(tracker_vec3_dot(r->n, p)) / tracker_vec3_length(p);

	tracker_lsq3_add(&r->lsq, tracker_vec3_dot(p, r->e1), tracker_vec3_dot(p, r->e2), 1.0,
	                 tracker_vec3_dot(p, r->e3));
	r->area += side * side / MAX(slant, SLANT_COS_MIN);
}

/* The plane through the region's points so far. */
static void
tracker_planes_region_refit(Region *r)
{
	double c[3];
	TrackerVec3 n;
	double len;

	if (!tracker_lsq3_solve(&r->lsq, c, NULL))
		return;
	/* w - a u - b v - c = 0 in the seed's frame */
	n = tracker_vec3_sub(r->e3, tracker_vec3_add(tracker_vec3_scale(r->e1, c[0]),
	                                             tracker_vec3_scale(r->e2, c[1])));
	len = tracker_vec3_length(n);
	r->n = tracker_vec3_scale(n, 1.0 / len);
	r->d = -c[2] / len;
}

/* Whether neighbour @kk of region cell @k belongs to the region. */
static inline gboolean
tracker_planes_takes(const TrackerPlanes *planes, const TrackerGrid *grid, const Region *r, int k,
                     int kk)
{
	TrackerVec3 p, n;
	double off, tol;

	if (planes->visited[kk] || !tracker_grid_same_surface(grid, k, kk))
		return FALSE;
	p = tracker_grid_point(grid, kk);
	off = fabs(tracker_vec3_dot(r->n, p) + r->d);
	tol = tracker_planes_tolerance(p.z);
	if (off >= tol)
		return FALSE;
	/* Facing its way; or, where it meets another surface (a wall behind
	 * a cabinet's side) and the normals bend, right on its plane. */
	n = tracker_grid_normal(grid, kk);
	return tracker_vec3_dot(n, n) == 0.0 || tracker_vec3_dot(n, r->n) >= FACING_COS ||
	       off < ON_PLANE_SHARE * tol;
}

/* Grows a region from @seed over the queue; returns how many cells. */
static int
tracker_planes_grow(TrackerPlanes *planes, const TrackerGrid *grid, int seed, Region *r)
{
	int head = 0, tail = 0, w = grid->width, refit = 16;

	tracker_planes_region_init(r, tracker_grid_normal(grid, seed),
	                           tracker_grid_point(grid, seed));
	planes->visited[seed] = 1;
	planes->queue[tail++] = seed;
	while (head < tail) {
		int k = planes->queue[head++], u = k % w, v = k / w;
		int nb[4] = { u > 0 ? k - 1 : -1, u + 1 < w ? k + 1 : -1, v > 0 ? k - w : -1,
			      v + 1 < grid->height ? k + w : -1 };

		tracker_planes_region_add(r, grid, k);
		if (head == refit) {
			tracker_planes_region_refit(r);
			refit *= 4;
		}
		for (int i = 0; i < 4; i++) {
			if (nb[i] >= 0 && tracker_planes_takes(planes, grid, r, k, nb[i])) {
				planes->visited[nb[i]] = 1;
				planes->queue[tail++] = nb[i];
			}
		}
	}
	return tail;
}

/* The region's extent along its plane's level line and along its slope
 * (its height, for an upright plane), from its cells in @cells. */
static void
tracker_planes_extents(const Region *r, const TrackerGrid *grid, TrackerVec3 up, const int *cells,
                       int n, double *across, double *along)
{
	TrackerVec3 level = tracker_vec3_cross(up, r->n), slope;
	double a0 = G_MAXDOUBLE, a1 = -G_MAXDOUBLE, s0 = G_MAXDOUBLE, s1 = -G_MAXDOUBLE;

	if (tracker_vec3_length(level) < 0.3)
		level = tracker_vec3_cross(tracker_vec3(1, 0, 0), r->n);
	level = tracker_vec3_normalize(level);
	slope = tracker_vec3_cross(r->n, level);
	for (int i = 0; i < n; i++) {
		TrackerVec3 p = tracker_grid_point(grid, cells[i]);
		double a = tracker_vec3_dot(p, level), s = tracker_vec3_dot(p, slope);

		a0 = MIN(a0, a);
		a1 = MAX(a1, a);
		s0 = MIN(s0, s);
		s1 = MAX(s1, s);
	}
	*across = a1 - a0;
	*along = s1 - s0;
}

/* A level surface (a floor, a table's top) is the room's when it is as
 * big as a small table: nobody has a level surface that big. An upright
 * one must be bigger than a person can be flat: a person seen whole at a
 * few metres is as flat as the sensor can tell, most of all with the
 * arms held out or up in the body's plane (about 0.7 square metres, 2
 * metres across or 2.3 high). Smaller flat things (a narrow cabinet, a
 * monitor) stay in the scene, where their flat tops and straight sides
 * tell them from people. */
static gboolean
tracker_planes_is_structure(const Region *r, const TrackerGrid *grid, TrackerVec3 up,
                            const int *cells, int n)
{
	double across, along;

	if (fabs(tracker_vec3_dot(r->n, up)) >= LEVEL_COS)
		return r->area >= LEVEL_AREA_MM2;
	tracker_planes_extents(r, grid, up, cells, n, &across, &along);
	return (r->area >= UPRIGHT_AREA_MM2 && across >= UPRIGHT_SIDE_MM &&
	        along >= UPRIGHT_SIDE_MM) ||
	       across >= UPRIGHT_WIDE_MM || along >= UPRIGHT_TALL_MM;
}

void
tracker_planes_find(TrackerPlanes *planes, const TrackerGrid *grid, TrackerVec3 up)
{
	memset(planes->mask, 0, planes->n);
	memset(planes->visited, 0, planes->n);
	for (int k = 0; k < grid->n; k++) {
		Region r;
		int n;

		if (planes->visited[k] || grid->nz[k] == 0.0f)
			continue;
		n = tracker_planes_grow(planes, grid, k, &r);
		if (!tracker_planes_is_structure(&r, grid, up, planes->queue, n))
			continue;
		for (int i = 0; i < n; i++)
			planes->mask[planes->queue[i]] = 1;
	}
}
