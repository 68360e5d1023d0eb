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
	grid->scratch_zero = g_new0(guint16, camera->width);
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
	g_clear_pointer(&grid->scratch_zero, g_free);
	g_clear_pointer(&grid->ky, g_free);
}

#define GRID_CHUNK 16 /* columns a fixed-length inner loop takes: the compiler vectorizes it */

/* Folds the four image rows of a block row into the per-column nearest
 * (no reading, 0, wraps to the largest value), farthest, sum and count,
 * in one pass that keeps everything in registers. This and the loop
 * after it are the only loops over every pixel. */
static inline void
tracker_grid_fold_chunk(const guint16 *restrict r0, const guint16 *restrict r1,
                        const guint16 *restrict r2, const guint16 *restrict r3,
                        guint16 *restrict near, guint16 *restrict far, guint32 *restrict sum,
                        guint16 *restrict n)
{
	for (int u = 0; u < GRID_CHUNK; u++) {
		guint16 a = r0[u], b = r1[u], c = r2[u], d = r3[u];
		guint16 am = (guint16)(a - 1u), bm = (guint16)(b - 1u), cm = (guint16)(c - 1u),
		        dm = (guint16)(d - 1u);
		guint16 n1 = am < bm ? am : bm, n2 = cm < dm ? cm : dm;
		guint16 f1 = a > b ? a : b, f2 = c > d ? c : d;

		near[u] = n1 < n2 ? n1 : n2;
		far[u] = f1 > f2 ? f1 : f2;
		sum[u] = (guint32)a + b + c + d;
		n[u] = (guint16)((a != 0) + (b != 0) + (c != 0) + (d != 0));
	}
}

/* @rows holds the block row's image rows; a short last block row gets
 * rows without readings, which change nothing. */
static void
tracker_grid_fold(const guint16 *const rows[TRACKER_GRID_STEP], int width, guint16 *near,
                  guint16 *far, guint32 *sum, guint16 *n)
{
	int u = 0;

	for (; u + GRID_CHUNK <= width; u += GRID_CHUNK)
		tracker_grid_fold_chunk(rows[0] + u, rows[1] + u, rows[2] + u, rows[3] + u,
		                        near + u, far + u, sum + u, n + u);
	for (; u < width; u++) {
		near[u] = G_MAXUINT16;
		far[u] = 0;
		sum[u] = 0;
		n[u] = 0;
		for (int r = 0; r < TRACKER_GRID_STEP; r++) {
			guint16 z = rows[r][u];

			near[u] = MIN(near[u], (guint16)(z - 1u));
			far[u] = MAX(far[u], z);
			sum[u] += z;
			n[u] += z != 0;
		}
	}
}

/* A block whose readings spread wider than the tolerance (an edge, or
 * the floor seen at a slant): the mean of those near its nearest one, so
 * the nearer surface (a thin arm) keeps the block. */
static float
tracker_grid_near_mean(const guint16 *depth, int stride, int w, int h, guint near, guint8 *count)
{
	/* Readings from @near to its tolerance, without a branch: no reading
	 * (0) wraps to the largest value and is left out too. */
	guint span = tracker_grid_tolerance(near) + 1, sum = 0, n = 0;

	if (w == TRACKER_GRID_STEP && h == TRACKER_GRID_STEP) {
		for (int v = 0; v < TRACKER_GRID_STEP; v++) {
			const guint16 *row = depth + v * stride;

			for (int u = 0; u < TRACKER_GRID_STEP; u++) {
				guint in = (guint)row[u] - near < span;

				sum += in * row[u];
				n += in;
			}
		}
		h = 0;
	}
	for (int v = 0; v < h; v++) {
		const guint16 *row = depth + v * stride;

		for (int u = 0; u < w; u++) {
			guint in = (guint)row[u] - near < span;

			sum += in * row[u];
			n += in;
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

#define GRID_BAND_MAX 8 /* cells: the widest band a sensor leaves without readings */

/* Where the readings end: bands without a reading at the image's edges. */
static void
tracker_grid_seen(TrackerGrid *grid)
{
	int w = grid->width, h = grid->height;

	grid->seen_u0 = w;
	grid->seen_u1 = -1;
	grid->seen_v0 = h;
	grid->seen_v1 = -1;
	for (int j = 0; j < h; j++) {
		for (int i = 0; i < w; i++) {
			if (grid->z[j * w + i] <= 0.0f)
				continue;
			grid->seen_u0 = MIN(grid->seen_u0, i);
			grid->seen_u1 = MAX(grid->seen_u1, i);
			grid->seen_v0 = MIN(grid->seen_v0, j);
			grid->seen_v1 = MAX(grid->seen_v1, j);
		}
	}
	/* Wider than a sensor's band, it is a scene without readings there
	 * (a background cut away above a person): the edge is the image's. */
	if (grid->seen_u0 > GRID_BAND_MAX)
		grid->seen_u0 = 0;
	if (grid->seen_u1 < w - 1 - GRID_BAND_MAX)
		grid->seen_u1 = w - 1;
	if (grid->seen_v0 > GRID_BAND_MAX)
		grid->seen_v0 = 0;
	if (grid->seen_v1 < h - 1 - GRID_BAND_MAX)
		grid->seen_v1 = h - 1;
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
		const guint16 *rows[TRACKER_GRID_STEP];

		for (int v = 0; v < TRACKER_GRID_STEP; v++)
			rows[v] = v < h ? depth_mm + (v0 + v) * c->width : grid->scratch_zero;
		tracker_grid_fold(rows, c->width, near, far, sum, n);
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
	tracker_grid_seen(grid);
}
