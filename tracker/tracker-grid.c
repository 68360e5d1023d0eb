#include "tracker-grid.h"

#include <string.h>

/* Readings this far behind a block's nearest one belong to something
 * else; the Kinect's depth step grows with the square of the distance. */
static inline guint
tracker_grid_tolerance(guint z)
{
	return 20 + (guint)(3.0e-6 * z * z);
}

void
tracker_grid_init(TrackerGrid *grid, const TrackerCamera *camera)
{
	grid->camera = *camera;
	grid->width = (camera->width + TRACKER_GRID_STEP - 1) / TRACKER_GRID_STEP;
	grid->height = (camera->height + TRACKER_GRID_STEP - 1) / TRACKER_GRID_STEP;
	grid->n = grid->width * grid->height;
	grid->z = g_new0(float, grid->n);
	grid->x = g_new0(float, grid->n);
	grid->y = g_new0(float, grid->n);
	grid->count = g_new0(guint8, grid->n);
	grid->kx = g_new(float, grid->width);
	grid->ky = g_new(float, grid->height);
	/* A cell's point sits at the centre of its block. */
	for (int i = 0; i < grid->width; i++)
		grid->kx[i] = (float)((i * TRACKER_GRID_STEP + (TRACKER_GRID_STEP - 1) / 2.0 -
		                       camera->cx) /
		                      camera->fx);
	for (int j = 0; j < grid->height; j++)
		grid->ky[j] = (float)((camera->cy - j * TRACKER_GRID_STEP -
		                       (TRACKER_GRID_STEP - 1) / 2.0) /
		                      camera->fy);
}

void
tracker_grid_clear(TrackerGrid *grid)
{
	g_clear_pointer(&grid->z, g_free);
	g_clear_pointer(&grid->x, g_free);
	g_clear_pointer(&grid->y, g_free);
	g_clear_pointer(&grid->count, g_free);
	g_clear_pointer(&grid->kx, g_free);
	g_clear_pointer(&grid->ky, g_free);
}

/* The block at pixel (@u0, @v0), @w x @h pixels, into one depth. */
static float
tracker_grid_block(const guint16 *depth, int stride, int w, int h, guint max_depth, guint8 *count)
{
	guint near = G_MAXUINT, tol, sum = 0, n = 0;

	for (int v = 0; v < h; v++) {
		for (int u = 0; u < w; u++) {
			/* 0 wraps to the largest value: no reading is never nearest. */
			guint z = (guint16)(depth[v * stride + u] - 1u);
			near = MIN(near, z);
		}
	}
	near += 1;
	if (near > max_depth) {
		*count = 0;
		return 0.0f;
	}
	tol = near + tracker_grid_tolerance(near);
	for (int v = 0; v < h; v++) {
		for (int u = 0; u < w; u++) {
			guint z = depth[v * stride + u];

			if (z != 0 && z <= tol) {
				sum += z;
				n++;
			}
		}
	}
	*count = (guint8)n;
	return (float)sum / n;
}

void
tracker_grid_fill(TrackerGrid *grid, const guint16 *depth_mm, double max_depth_mm)
{
	const TrackerCamera *c = &grid->camera;
	guint max_depth = (guint)MIN(max_depth_mm, 65534.0);

	for (int j = 0; j < grid->height; j++) {
		int v0 = j * TRACKER_GRID_STEP, h = MIN(TRACKER_GRID_STEP, c->height - v0);

		for (int i = 0; i < grid->width; i++) {
			int u0 = i * TRACKER_GRID_STEP, w = MIN(TRACKER_GRID_STEP, c->width - u0);
			int k = j * grid->width + i;
			float z = tracker_grid_block(depth_mm + v0 * c->width + u0, c->width, w, h,
			                             max_depth, &grid->count[k]);

			grid->z[k] = z;
			grid->x[k] = z * grid->kx[i];
			grid->y[k] = z * grid->ky[j];
		}
	}
}
