#include "tracker-planes.h"

#include <math.h>
#include <string.h>

#include "tracker-lsq.h"

#define LEVEL_COS        0.87      /* a level surface's normal is within 30 degrees of up */
#define LEVEL_AREA_MM2   300000.0  /* ...and it is the room's from 0.3 square metres */
#define FLOOR_PIECE_MM   100.0     /* a level plane this near the floor's height is of it */
#define UPRIGHT_AREA_MM2 1000000.0 /* an upright one from a square metre */
#define UPRIGHT_SIDE_MM  500.0     /* ...half a metre each way */
#define UPRIGHT_WIDE_MM  2200.0    /* ...or one wider than anyone's arms */
#define UPRIGHT_TALL_MM  2400.0    /* ...or taller than anyone's raised hands */
#define FACING_COS       0.8f      /* a neighbour's normal within 37 degrees */
#define ON_PLANE_SHARE   0.4f      /* ...or this share of the tolerance off the plane */
#define SLANT_COS_MIN    0.25      /* a cell seen more slanted counts as this */
#define NORMAL_FAR_MM    2500.0f   /* beyond this, normals from neighbours two cells away */
#define MAX_PLANES       255
/* The room stands still: its surfaces are looked for every few frames,
 * and in between each cell is checked against the one it was on. */
#define SEARCH_EVERY 8

typedef struct {
	float n[3], d; /* n.p + d = 0 on the plane, n of unit length */
} Plane;

/* Least squares w = a u + b v + c in the seed's frame, by its sums. */
typedef struct {
	double suu, suv, svv, su, sv, suw, svw, sw, n;
} Fit;

typedef struct {
	Plane plane;
	TrackerVec3 e1, e2, e3; /* the seed's frame: e3 its normal */
	Fit fit;
	double area; /* mm^2 */
} Region;

struct _TrackerPlanes {
	int n;
	guint8 *mask;    /* per cell: on a flat surface this frame */
	guint8 *on;      /* per cell: the plane it was on when last searched, + 1; 0 none */
	guint8 *was_on;  /* ...and the search before, while searching */
	guint8 *visited; /* per cell, while searching */
	int *queue;
	float *nx, *ny, *nz; /* normals, while searching */
	float *ray;          /* per cell: the length of its ray per mm of depth */
	Plane planes[MAX_PLANES];
	guint n_planes;
	Plane was[MAX_PLANES]; /* the planes of the search before, while searching */
	guint frames;          /* since the last search */
};

TrackerPlanes *
tracker_planes_new(const TrackerGrid *grid)
{
	TrackerPlanes *planes = g_new0(TrackerPlanes, 1);

	planes->n = grid->n;
	planes->mask = g_new0(guint8, grid->n);
	planes->on = g_new0(guint8, grid->n);
	planes->was_on = g_new0(guint8, grid->n);
	planes->visited = g_new0(guint8, grid->n);
	planes->queue = g_new(int, grid->n);
	planes->nx = g_new0(float, grid->n);
	planes->ny = g_new0(float, grid->n);
	planes->nz = g_new0(float, grid->n);
	planes->ray = g_new(float, grid->n);
	for (int k = 0; k < grid->n; k++) {
		float kx = grid->kx[k % grid->width], ky = grid->ky[k / grid->width];

		planes->ray[k] = sqrtf(kx * kx + ky * ky + 1.0f);
	}
	return planes;
}

void
tracker_planes_free(TrackerPlanes *planes)
{
	if (planes == NULL)
		return;
	g_free(planes->mask);
	g_free(planes->on);
	g_free(planes->was_on);
	g_free(planes->visited);
	g_free(planes->queue);
	g_free(planes->nx);
	g_free(planes->ny);
	g_free(planes->nz);
	g_free(planes->ray);
	g_free(planes);
}

const guint8 *
tracker_planes_mask(const TrackerPlanes *planes)
{
	return planes->mask;
}

void
tracker_planes_reset(TrackerPlanes *planes)
{
	memset(planes->on, 0, planes->n);
	planes->n_planes = 0;
	planes->frames = 0;
}

/* How far off its plane a point at depth @z may be: the sensor's error. */
static inline float
tracker_planes_tolerance(float z)
{
	return 12.0f + 2.5e-6f * z * z;
}

static inline float
tracker_planes_distance(const Plane *p, const TrackerGrid *grid, int k)
{
	return fabsf(p->n[0] * grid->x[k] + p->n[1] * grid->y[k] + p->n[2] * grid->z[k] + p->d);
}

/* ---- normals ---- */

/* The end of a difference across cell @k: neighbour @nb if it lies on
 * the cell's surface, else the cell itself. */
static inline int
tracker_planes_end(const TrackerGrid *grid, int k, int nb, gboolean inside)
{
	return inside && tracker_grid_same_surface(grid, k, nb) ? nb : k;
}

/* The normal at cell (@i, @j), towards the camera, from the differences
 * across it to the image's right and up between the neighbours on its
 * surface, farther apart the farther the cell (the sensor's depth steps
 * grow with the square of distance); (0, 0, 0) with too few. */
static void
tracker_planes_normal_at(TrackerPlanes *planes, const TrackerGrid *grid, int i, int j)
{
	int w = grid->width, k = j * w + i, s = grid->z[k] > NORMAL_FAR_MM ? 2 : 1;
	int l = tracker_planes_end(grid, k, k - s, i >= s);
	int r = tracker_planes_end(grid, k, k + s, i + s < w);
	int d = tracker_planes_end(grid, k, k + s * w, j + s < grid->height);
	int u = tracker_planes_end(grid, k, k - s * w, j >= s);
	float a[3], b[3], n[3], len2, scale;

	planes->nx[k] = planes->ny[k] = planes->nz[k] = 0.0f;
	if (l == r || u == d)
		return;
	a[0] = grid->x[r] - grid->x[l], a[1] = grid->y[r] - grid->y[l],
	a[2] = grid->z[r] - grid->z[l];
	b[0] = grid->x[u] - grid->x[d], b[1] = grid->y[u] - grid->y[d],
	b[2] = grid->z[u] - grid->z[d];
	n[0] = a[1] * b[2] - a[2] * b[1];
	n[1] = a[2] * b[0] - a[0] * b[2];
	n[2] = a[0] * b[1] - a[1] * b[0];
	len2 = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
	if (len2 <= 0.0f)
		return;
	scale = 1.0f / sqrtf(len2);
	if (n[0] * grid->x[k] + n[1] * grid->y[k] + n[2] * grid->z[k] > 0.0f)
		scale = -scale;
	planes->nx[k] = n[0] * scale;
	planes->ny[k] = n[1] * scale;
	planes->nz[k] = n[2] * scale;
}

static void
tracker_planes_normals(TrackerPlanes *planes, const TrackerGrid *grid)
{
	for (int j = 0; j < grid->height; j++) {
		for (int i = 0; i < grid->width; i++) {
			int k = j * grid->width + i;

			if (grid->z[k] > 0.0f)
				tracker_planes_normal_at(planes, grid, i, j);
			else
				planes->nx[k] = planes->ny[k] = planes->nz[k] = 0.0f;
		}
	}
}

/* ---- regions ---- */

static void
tracker_planes_set(Plane *plane, TrackerVec3 n, double d)
{
	plane->n[0] = (float)n.x;
	plane->n[1] = (float)n.y;
	plane->n[2] = (float)n.z;
	plane->d = (float)d;
}

static void
tracker_planes_region_init(Region *r, TrackerVec3 n, TrackerVec3 p)
{
	TrackerVec3 a = fabs(n.x) < 0.9 ? tracker_vec3(1, 0, 0) : tracker_vec3(0, 1, 0);

	tracker_planes_set(&r->plane, n, -tracker_vec3_dot(n, p));
	r->e3 = n;
	r->e1 = tracker_vec3_normalize(tracker_vec3_cross(a, n));
	r->e2 = tracker_vec3_cross(n, r->e1);
	memset(&r->fit, 0, sizeof(r->fit));
	r->area = 0.0;
}

/* Adds cell @k's point to the region's fit and area. */
static void
tracker_planes_region_add(const TrackerPlanes *planes, Region *r, const TrackerGrid *grid, int k)
{
	TrackerVec3 p = tracker_grid_point(grid, k);
	double u = tracker_vec3_dot(p, r->e1), v = tracker_vec3_dot(p, r->e2);
	double w = tracker_vec3_dot(p, r->e3), side = tracker_grid_cell_mm(grid, p.z);
	double slant = (r->plane.n[0] * p.x + r->plane.n[1] * p.y + r->plane.n[2] * p.z) /
	               (p.z * planes->ray[k]);
	Fit *f = &r->fit;

	f->suu += u * u, f->suv += u * v, f->svv += v * v;
	f->su += u, f->sv += v, f->suw += u * w, f->svw += v * w, f->sw += w, f->n += 1.0;
	r->area += side * side / MAX(fabs(slant), SLANT_COS_MIN);
}

/* The plane through the region's points so far. */
static void
tracker_planes_region_refit(Region *r)
{
	const Fit *f = &r->fit;
	TrackerLsq3 lsq = { { { f->suu, f->suv, f->su, f->suw },
		              { f->suv, f->svv, f->sv, f->svw },
		              { f->su, f->sv, f->n, f->sw } },
		            0.0,
		            (guint)f->n };
	TrackerVec3 n;
	double c[3], len;

	if (!tracker_lsq3_solve(&lsq, c, NULL))
		return;
	/* w - a u - b v - c = 0 in the seed's frame */
	n = tracker_vec3_sub(r->e3, tracker_vec3_add(tracker_vec3_scale(r->e1, c[0]),
	                                             tracker_vec3_scale(r->e2, c[1])));
	len = tracker_vec3_length(n);
	tracker_planes_set(&r->plane, tracker_vec3_scale(n, 1.0 / len), -c[2] / len);
}

/* Whether neighbour @kk of region cell @k belongs to the region: on its
 * surface and its plane, facing its way; or, where it meets another
 * surface (a wall behind a cabinet's side) and the normals bend, right
 * on its plane. */
static inline gboolean
tracker_planes_takes(const TrackerPlanes *planes, const TrackerGrid *grid, const Region *r, int k,
                     int kk)
{
	const float *n = r->plane.n;
	float off, tol;

	if (planes->visited[kk] || !tracker_grid_same_surface(grid, k, kk))
		return FALSE;
	off = tracker_planes_distance(&r->plane, grid, kk);
	tol = tracker_planes_tolerance(grid->z[kk]);
	if (off >= tol)
		return FALSE;
	return planes->nz[kk] == 0.0f ||
	       planes->nx[kk] * n[0] + planes->ny[kk] * n[1] + planes->nz[kk] * n[2] >=
	               FACING_COS ||
	       off < ON_PLANE_SHARE * tol;
}

/* Grows a region from @seed over the queue; returns how many cells. */
static int
tracker_planes_grow(TrackerPlanes *planes, const TrackerGrid *grid, int seed, Region *r)
{
	int head = 0, tail = 0, w = grid->width, refit = 16;

	tracker_planes_region_init(
	        r, tracker_vec3(planes->nx[seed], planes->ny[seed], planes->nz[seed]),
	        tracker_grid_point(grid, seed));
	planes->visited[seed] = 1;
	planes->queue[tail++] = seed;
	while (head < tail) {
		int k = planes->queue[head++], u = k % w, v = k / w;
		int nb[4] = { u > 0 ? k - 1 : -1, u + 1 < w ? k + 1 : -1, v > 0 ? k - w : -1,
			      v + 1 < grid->height ? k + w : -1 };

		tracker_planes_region_add(planes, r, grid, k);
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
	TrackerVec3 normal = tracker_vec3(r->plane.n[0], r->plane.n[1], r->plane.n[2]);
	TrackerVec3 level = tracker_vec3_cross(up, normal), slope;
	double a0 = G_MAXDOUBLE, a1 = -G_MAXDOUBLE, s0 = G_MAXDOUBLE, s1 = -G_MAXDOUBLE;

	if (tracker_vec3_length(level) < 0.3)
		level = tracker_vec3_cross(tracker_vec3(1, 0, 0), normal);
	level = tracker_vec3_normalize(level);
	slope = tracker_vec3_cross(normal, level);
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

/* How nearly @p faces up: the cosine between its normal and @up. */
static inline double
tracker_planes_up(const Plane *p, TrackerVec3 up)
{
	return p->n[0] * up.x + p->n[1] * up.y + p->n[2] * up.z;
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

	if (fabs(tracker_planes_up(&r->plane, up)) >= LEVEL_COS)
		return r->area >= LEVEL_AREA_MM2;
	tracker_planes_extents(r, grid, up, cells, n, &across, &along);
	return (r->area >= UPRIGHT_AREA_MM2 && across >= UPRIGHT_SIDE_MM &&
	        along >= UPRIGHT_SIDE_MM) ||
	       across >= UPRIGHT_WIDE_MM || along >= UPRIGHT_TALL_MM;
}

/* Whether plane @p of the search before was the floor's: level, facing
 * up, and at the height of the one that lay farthest below the sensor
 * (@floor_d), as the floor's pieces about people's feet are. */
static gboolean
tracker_planes_was_floor(const TrackerPlanes *planes, int p, TrackerVec3 up, double floor_d)
{
	return tracker_planes_up(&planes->was[p], up) >= LEVEL_COS &&
	       planes->was[p].d >= floor_d - FLOOR_PIECE_MM;
}

/* The floor stands still: a cell on it at the search before that still
 * lies on it is on it now, though people standing on the rest of it (a
 * strip of floor before a wall) left too little of it in view to be
 * found again. The floor alone: a seat or a table top, found with a
 * person's lap or forearms on it at some search, would keep them for as
 * long as the person held still. */
static void
tracker_planes_keep_floor(TrackerPlanes *planes, const TrackerGrid *grid, guint n_was,
                          TrackerVec3 up)
{
	guint8 to[MAX_PLANES] = { 0 };
	double floor_d = -G_MAXDOUBLE;

	for (guint p = 0; p < n_was; p++) {
		if (tracker_planes_up(&planes->was[p], up) >= LEVEL_COS)
			floor_d = MAX(floor_d, planes->was[p].d);
	}
	for (int k = 0; k < grid->n; k++) {
		int was = planes->was_on[k] - 1;

		if (planes->on[k] != 0 || was < 0 || (guint)was >= n_was || grid->z[k] <= 0.0f ||
		    !tracker_planes_was_floor(planes, was, up, floor_d) ||
		    tracker_planes_distance(&planes->was[was], grid, k) >=
		            tracker_planes_tolerance(grid->z[k]))
			continue;
		if (to[was] == 0) {
			if (planes->n_planes >= MAX_PLANES)
				continue;
			planes->planes[planes->n_planes++] = planes->was[was];
			to[was] = (guint8)planes->n_planes;
		}
		planes->on[k] = to[was];
	}
}

/* Grows every region, keeping those of the room's surfaces, and keeps
 * what is left in view of the floor found before. */
static void
tracker_planes_search(TrackerPlanes *planes, const TrackerGrid *grid, TrackerVec3 up)
{
	guint n_was = planes->n_planes;

	tracker_planes_normals(planes, grid);
	memcpy(planes->was_on, planes->on, planes->n);
	memcpy(planes->was, planes->planes, n_was * sizeof(Plane));
	memset(planes->on, 0, planes->n);
	memset(planes->visited, 0, planes->n);
	planes->n_planes = 0;
	for (int k = 0; k < grid->n && planes->n_planes < MAX_PLANES; k++) {
		Region r;
		int n;

		if (planes->visited[k] || planes->nz[k] == 0.0f)
			continue;
		n = tracker_planes_grow(planes, grid, k, &r);
		if (!tracker_planes_is_structure(&r, grid, up, planes->queue, n))
			continue;
		planes->planes[planes->n_planes++] = r.plane;
		for (int i = 0; i < n; i++)
			planes->on[planes->queue[i]] = (guint8)planes->n_planes;
	}
	tracker_planes_keep_floor(planes, grid, n_was, up);
}

void
tracker_planes_find(TrackerPlanes *planes, const TrackerGrid *grid, TrackerVec3 up)
{
	if (planes->frames++ % SEARCH_EVERY == 0)
		tracker_planes_search(planes, grid, up);
	/* On its plane now: what stands in front of it now is not. */
	for (int k = 0; k < grid->n; k++) {
		guint8 on = planes->on[k];

		planes->mask[k] = on != 0 && grid->z[k] > 0.0f &&
		                  tracker_planes_distance(&planes->planes[on - 1], grid, k) <
		                          tracker_planes_tolerance(grid->z[k]);
	}
}
