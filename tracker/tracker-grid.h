/* The depth image at a quarter of its resolution: one cell per 4x4 block
 * of pixels, with the cell's camera-space point. Everything after this
 * works on cells, so this is the only pass over every pixel.
 *
 * A block's depth is the mean of the readings within a small tolerance of
 * its nearest reading: a block on an edge takes the nearer object (a thin
 * arm survives), and averaging the rest beats the sensor's quantisation.
 */
#pragma once

#include <glib.h>

#include "tracker-camera.h"
#include "tracker-vec.h"

#define TRACKER_GRID_STEP 4 /* pixels per cell side */

typedef struct {
	TrackerCamera camera;
	int width, height, n; /* cells */
	float *z;             /* mm; 0 for no reading */
	float *x, *y;         /* camera space, mm */
	guint8 *count;        /* pixels averaged into the cell */
	/* The cells the sensor reads at all: the first and last column and
	 * row with a reading. A Kinect reads nothing in a band at the right
	 * of its image, and an image registered to colour has bands at its
	 * top and left: what reaches them is cut off by the image's edge. */
	int seen_u0, seen_u1, seen_v0, seen_v1;
	float *kx, *ky; /* per column x/z, per row y/z of cell centres */
	guint16 *scratch_near, *scratch_far, *scratch_n; /* per image column */
	guint32 *scratch_sum;
	guint16 *scratch_zero; /* an image row without readings */
} TrackerGrid;

/** tracker_grid_init: allocates a grid for images from @camera. */
void tracker_grid_init(TrackerGrid *grid, const TrackerCamera *camera);
void tracker_grid_clear(TrackerGrid *grid);

/**
 * tracker_grid_fill:
 * Downsamples @depth_mm (camera width x height, 0 = no reading); readings
 * beyond @max_depth_mm count as none.
 */
void tracker_grid_fill(TrackerGrid *grid, const guint16 *depth_mm, double max_depth_mm);

/** tracker_grid_point: the camera-space point of cell @i (z = 0: none). */
static inline TrackerVec3
tracker_grid_point(const TrackerGrid *grid, int i)
{
	return tracker_vec3(grid->x[i], grid->y[i], grid->z[i]);
}

/**
 * tracker_grid_locate:
 * The cell that camera-space point @p falls in, in continuous cell
 * coordinates (@gu, @gv; cell (i, j) spans [i, i+1)). FALSE behind the
 * camera.
 */
static inline gboolean
tracker_grid_locate(const TrackerGrid *grid, TrackerVec3 p, double *gu, double *gv)
{
	const TrackerCamera *c = &grid->camera;

	if (p.z <= 1.0)
		return FALSE;
	*gu = (c->cx + c->fx * p.x / p.z + 0.5) / TRACKER_GRID_STEP;
	*gv = (c->cy - c->fy * p.y / p.z + 0.5) / TRACKER_GRID_STEP;
	return TRUE;
}

/** tracker_grid_index: the cell at (@gu, @gv), or -1 outside the grid. */
static inline int
tracker_grid_index(const TrackerGrid *grid, double gu, double gv)
{
	if (!(gu >= 0.0 && gv >= 0.0 && gu < grid->width && gv < grid->height))
		return -1;
	return (int)gv * grid->width + (int)gu;
}

/**
 * tracker_grid_same_surface:
 * Whether neighbouring cells @a and @b lie on one surface: both have a
 * reading and their depths differ by less than a jump that grows with
 * the square of the distance, as the sensor's depth step does.
 */
static inline gboolean
tracker_grid_same_surface(const TrackerGrid *grid, int a, int b)
{
	float za = grid->z[a], zb = grid->z[b], near = za < zb ? za : zb;

	return za > 0.0f && zb > 0.0f &&
	       (za > zb ? za - zb : zb - za) < 50.0f + 1.0e-5f * near * near;
}

/* Cells this near where the readings end are at the edge: the last
 * cells before a band are part readings, part none. */
#define TRACKER_GRID_EDGE 2

/** tracker_grid_at_side: whether column @u is at the image's left or right edge. */
static inline gboolean
tracker_grid_at_side(const TrackerGrid *grid, int u)
{
	return u < grid->seen_u0 + TRACKER_GRID_EDGE || u > grid->seen_u1 - TRACKER_GRID_EDGE;
}

/** tracker_grid_at_top: whether row @v is at the image's top edge. */
static inline gboolean
tracker_grid_at_top(const TrackerGrid *grid, int v)
{
	return v < grid->seen_v0 + TRACKER_GRID_EDGE;
}

/** tracker_grid_on_side: whether column @u is the outermost with readings,
 * at the image's left or right. */
static inline gboolean
tracker_grid_on_side(const TrackerGrid *grid, int u)
{
	return u <= grid->seen_u0 || u >= grid->seen_u1;
}

/**
 * tracker_grid_depth_error: how far apart two readings of one surface at
 * depth @z (mm) may be: the sensor's error there, its depth step growing
 * with the square of the distance.
 */
static inline float
tracker_grid_depth_error(float z)
{
	return 20.0f + 3.0e-6f * z * z;
}

/**
 * tracker_grid_same_depth: whether a reading @z (mm) is of the surface
 * that read @held: within the sensor's error at @z.
 */
static inline gboolean
tracker_grid_same_depth(float z, float held)
{
	return fabsf(z - held) < tracker_grid_depth_error(z);
}

/** tracker_grid_cell_mm: the size of one cell at depth @z, in mm. */
static inline double
tracker_grid_cell_mm(const TrackerGrid *grid, double z)
{
	return TRACKER_GRID_STEP * z / grid->camera.fx;
}
