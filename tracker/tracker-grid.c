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
	grid->scratch_near = g_new(guint16, camera->width);
	grid->scratch_far = g_new(guint16, camera->width);
	grid->scratch_n = g_new(guint16, camera->width);
	grid->scratch_sum = g_new(guint32, camera->width);
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
	g_clear_pointer(&grid->scratch_near, g_free);
	g_clear_pointer(&grid->scratch_far, g_free);
	g_clear_pointer(&grid->scratch_sum, g_free);
	g_clear_pointer(&grid->scratch_n, g_free);
	g_clear_pointer(&grid->ky, g_free);
}

#define GRID_CHUNK 16 /* columns a fixed-length inner loop takes: the compiler vectorizes it */

/* Folds image row @row into the per-column nearest (no reading, 0, wraps
 * to the largest value), farthest, sum and count. This and the loop after
 * it are the only loops over every pixel. */
static inline void
tracker_grid_fold_chunk(const guint16 *restrict row, guint16 *restrict near, guint16 *restrict far,
                        guint32 *restrict sum, guint16 *restrict n)
{
	for (int u = 0; u < GRID_CHUNK; u++) {
		guint16 z = row[u], zm = (guint16)(z - 1u);

		near[u] = near[u] < zm ? near[u] : zm;
		far[u] = far[u] > z ? far[u] : z;
		sum[u] += z;
		n[u] += z != 0;
	}
}

static void
tracker_grid_fold(const guint16 *row, int width, guint16 *near, guint16 *far, guint32 *sum,
                  guint16 *n)
{
	int u = 0;

	for (; u + GRID_CHUNK <= width; u += GRID_CHUNK)
		tracker_grid_fold_chunk(row + u, near + u, far + u, sum + u, n + u);
	for (; u < width; u++) {
		guint16 z = row[u];

		near[u] = MIN(near[u], (guint16)(z - 1u));
		far[u] = MAX(far[u], z);
		sum[u] += z;
		n[u] += z != 0;
	}
}

/* A block whose readings spread wider than the tolerance (an edge, or
 * the floor seen at a slant): the mean of those near its nearest one, so
 * the nearer surface (a thin arm) keeps the block. */
static float
tracker_grid_near_mean(const guint16 *depth, int stride, int w, int h, guint near, guint8 *count)
{
	guint tol = near + tracker_grid_tolerance(near), sum = 0, n = 0;

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

/* One block from its columns' folds: the mean of its readings, or -1 (a
 * block for tracker_grid_near_mean()) when they spread too wide. */
static float
tracker_grid_block(const guint16 *near, const guint16 *far, const guint32 *sum, const guint16 *n,
                   int w, guint max_depth, guint8 *count, guint *nearest)
{
	guint lo, hi, total, readings;

	if (w == TRACKER_GRID_STEP) {
		lo = MIN(MIN(near[0], near[1]), MIN(near[2], near[3]));
		hi = MAX(MAX(far[0], far[1]), MAX(far[2], far[3]));
		total = sum[0] + sum[1] + sum[2] + sum[3];
		readings = (guint)n[0] + n[1] + n[2] + n[3];
	} else {
		lo = G_MAXUINT;
		hi = total = readings = 0;
		for (int u = 0; u < w; u++) {
			lo = MIN(lo, near[u]);
			hi = MAX(hi, far[u]);
			total += sum[u];
			readings += n[u];
		}
	}
	lo += 1;
	*count = (guint8)readings;
	*nearest = lo;
	if (lo > max_depth) {
		*count = 0;
		return 0.0f;
	}
	if (hi > lo + tracker_grid_tolerance(lo))
		return -1.0f;
	return (float)total / readings;
}

void
tracker_grid_fill(TrackerGrid *grid, const guint16 *depth_mm, double max_depth_mm)
{
	const TrackerCamera *c = &grid->camera;
	guint max_depth = (guint)MIN(max_depth_mm, 65534.0);
	guint16 *near = grid->scratch_near, *far = grid->scratch_far, *n = grid->scratch_n;
	guint32 *sum = grid->scratch_sum;

	for (int j = 0; j < grid->height; j++) {
		int v0 = j * TRACKER_GRID_STEP, h = MIN(TRACKER_GRID_STEP, c->height - v0);

		memset(near, 0xff, c->width * sizeof(guint16));
		memset(far, 0, c->width * sizeof(guint16));
		memset(sum, 0, c->width * sizeof(guint32));
		memset(n, 0, c->width * sizeof(guint16));
		for (int v = 0; v < h; v++)
			tracker_grid_fold(depth_mm + (v0 + v) * c->width, c->width, near, far, sum,
			                  n);
		for (int i = 0; i < grid->width; i++) {
			int k = j * grid->width + i, u0 = i * TRACKER_GRID_STEP;
			int w = MIN(TRACKER_GRID_STEP, c->width - u0);
			guint nearest;
			float z = tracker_grid_block(near + u0, far + u0, sum + u0, n + u0, w,
			                             max_depth, &grid->count[k], &nearest);

			if (z < 0.0f)
				z = tracker_grid_near_mean(depth_mm + v0 * c->width + u0, c->width,
				                           w, h, nearest, &grid->count[k]);

			grid->z[k] = z;
			grid->x[k] = z * grid->kx[i];
			grid->y[k] = z * grid->ky[j];
		}
	}
}
