#include "tracker-segment.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "tracker-lsq.h"
#include "tracker-types.h"

#define MAX_BLOBS         1024
#define MAX_HEADS         16
#define MAX_TOPS          64
#define HEAD_CAP_MM       100.0 /* a head's cap: its top this deep */
#define HEAD_MIN_CAP_MM   130.0 /* ...is this wide; a raised hand is narrower */
#define HEAD_MAX_CAP_MM   220.0 /* ...and no wider than a head with hair, */
#define HEAD_EDGE_CELLS   1.5   /* ...and the cells its edges blur into */
#define HEAD_BODY_FILL    0.5   /* share of the torso box below a head that is filled */
#define ROUND_MAX_CELLS   256
#define TORSO_BEFORE_MM   200.0    /* a torso this far before its head's top */
#define TORSO_BEHIND_MM   350.0    /* ...or this far behind it */
#define HEAD_MAX_TOP_MM   2400.0   /* no one's head is higher above the floor */
#define HEAD_DEPTH_MM     200.0    /* a head's outline is this deep at most, */
#define HEAD_DEPTH_NOISE  1.0e-5   /* ...and this times its depth squared: the sensor's error */
#define NEW_PERSON_MM2    50000.0  /* a new person shows this much surface at least */
#define CUT_MIN_MM        100.0    /* cut off by the image's top: a head's part */
#define CUT_MAX_MM        600.0    /* ...up to shoulders and neck */
#define CUT_FAR_MM        3000.0   /* ...nearer than this */
#define CUT_MIN_HEIGHT_MM 900.0    /* ...this high where it is cut, when the floor says */
#define CUT_WIDE_MM       330.0    /* ...wider than this, shoulders: the head is above */
#define CUT_NECK_MM       150.0    /* a neck's length */
#define CUT_SEED_ROWS     3        /* rows of its cells that seed its person */
#define HEAD_ALONE_MM2    120000.0 /* a head and a hand over it show less than this */
#define HEAD_MIN_PIXELS   200
#define FLAT_MM           15.0   /* a surface within this of a plane is a wall, */
#define FLAT_PER_MM2      2.0e-6 /* ...and this times its depth squared: the sensor's error */
#define RANGE_MARGIN_MM   600.0  /* a head this near the end of the readings is not judged */
#define FLAT_SAMPLES      256
#define UNDER_LOOK_MM     500.0 /* how far up past no reading above a cap is looked */
#define PROJECTOR_MM      75.0  /* the Kinect's projector from its depth camera */
#define BODY_DEPTH_MM     250.0 /* a body is within this of its head's depth */
#define BRIDGE_MM         300.0 /* a split crosses this much of a surface in front */
#define HEAD_NECK_FILL    0.8   /* rows under a head's centre a body fills */
#define SHOULDER_FROM     0.17  /* the shoulders lie this far below the top */
#define SHOULDER_TO       0.30  /* ...to this far, in body heights */
#define SHOULDER_RATIO    1.25  /* ...and are this many times the head's width */
#define ARM_WALL_MM       150.0 /* a higher wall this narrow beside a head is an arm */
#define DEFAULT_HEIGHT    1750.0
#define ATTACH_MAX_SHARE  0.3 /* of the person's pixels */
#define HINT_GROWTH       3.0 /* a track continues on a surface no bigger than this many times it */
#define REACH_SHARE       0.6 /* a person's cells lie this share of their height from their head */
#define HINT_MAX_MM       600.0
#define HINT_HEAD_MOVE_MM 60.0  /* a head moves less than this in a frame */
#define HINT_HEAD_RISE_MM 150.0 /* ...and level within this */
#define HINT_APART_MM     350.0 /* two heads nearer than this are one person's */

typedef struct {
	guint n_cells, n_pixels;
	double area; /* the surface its cells show, mm^2 */
	int u0, v0, u1, v1;
	TrackerVec3 sum;
	int person; /* person index of a blob with one head, or -1 */
	guint n_heads;
	gint8 flat; /* tracker_segmenter_flat(), once known; -1 before */
} Blob;

typedef struct {
	float d;
	int cell;
} HeapEntry;

typedef struct {
	TrackerHead head;
	int blob;
	int l, r;     /* the cap's columns */
	int box[4];   /* the torso box below it: columns, rows */
	gboolean cut; /* the cap runs off the image's side */
	int seed_v1;  /* cut off by the image's top: its cells down to this row seed it */
} HeadCandidate;

struct _TrackerSegmenter {
	int width, height, n;
	guint16 *col, *row;      /* per cell: its column and row */
	guint16 *blob;           /* per cell: blob index + 1, 0 for none */
	guint16 *labels;         /* per cell: person index + 1, 0 for none */
	const guint8 *structure; /* per cell: on a flat surface of the room */
	float *heights;
	int *stack;
	float *top; /* per column, scratch */
	int *top_cell;
	guint8 *used; /* the column is in a cap looked at already */
	float *dist;  /* geodesic split */
	HeapEntry *heap;
	int *order; /* blobs in the order they are looked at */
	Blob blobs[MAX_BLOBS];
	guint n_blobs;
	HeadCandidate heads[MAX_HEADS];
	guint n_heads;
	TrackerPerson people[TRACKER_SEGMENT_MAX_PEOPLE];
	guint n_people;
};

TrackerSegmenter *
tracker_segmenter_new(const TrackerGrid *grid)
{
	TrackerSegmenter *seg = g_new0(TrackerSegmenter, 1);

	seg->width = grid->width;
	seg->height = grid->height;
	seg->n = grid->n;
	seg->col = g_new(guint16, grid->n);
	seg->row = g_new(guint16, grid->n);
	for (int k = 0; k < grid->n; k++) {
		seg->col[k] = (guint16)(k % grid->width);
		seg->row[k] = (guint16)(k / grid->width);
	}
	seg->blob = g_new0(guint16, grid->n);
	seg->labels = g_new0(guint16, grid->n);
	seg->heights = g_new0(float, grid->n);
	seg->stack = g_new(int, grid->n);
	seg->top = g_new(float, grid->width);
	seg->top_cell = g_new(int, grid->width);
	seg->used = g_new(guint8, grid->width);
	seg->dist = g_new(float, grid->n);
	/* Every cell enters the heap at most once per neighbour, and once
	 * per bridge into it (tracker_segmenter_bridge()). */
	seg->heap = g_new(HeapEntry, 9 * grid->n);
	seg->order = g_new(int, MAX_BLOBS);
	return seg;
}

void
tracker_segmenter_free(TrackerSegmenter *seg)
{
	if (seg == NULL)
		return;
	g_free(seg->col);
	g_free(seg->row);
	g_free(seg->blob);
	g_free(seg->labels);
	g_free(seg->heights);
	g_free(seg->stack);
	g_free(seg->top);
	g_free(seg->top_cell);
	g_free(seg->used);
	g_free(seg->dist);
	g_free(seg->heap);
	g_free(seg->order);
	g_free(seg);
}

const TrackerPerson *
tracker_segmenter_people(const TrackerSegmenter *seg, guint *n)
{
	*n = seg->n_people;
	return seg->people;
}

const guint16 *
tracker_segmenter_labels(const TrackerSegmenter *seg)
{
	return seg->labels;
}

const float *
tracker_segmenter_heights(const TrackerSegmenter *seg)
{
	return seg->heights;
}

guint
tracker_segmenter_cell_kind(const TrackerSegmenter *seg, const TrackerGrid *grid, int k,
                            double min_pixels)
{
	int b = seg->blob[k] - 1;

	if (grid->z[k] <= 0.0f)
		return TRACKER_LABEL_NO_READING;
	if (seg->heights[k] == -G_MAXFLOAT)
		return TRACKER_LABEL_FLOOR;
	if (seg->structure[k])
		return TRACKER_LABEL_BACKGROUND;
	if (seg->labels[k] > 0)
		return TRACKER_LABEL_USER + seg->labels[k] - 1u;
	if (b >= 0 && (seg->blobs[b].n_pixels >= min_pixels || seg->blobs[b].n_heads > 0))
		return TRACKER_LABEL_BACKGROUND;
	return TRACKER_LABEL_SCENE;
}

static int
tracker_segmenter_compare_floats(const void *a, const void *b)
{
	float x = *(const float *)a, y = *(const float *)b;

	return (x > y) - (x < y);
}

static float
tracker_segmenter_median(float *values, guint n)
{
	qsort(values, n, sizeof(float), tracker_segmenter_compare_floats);
	return values[n / 2];
}

/* ---- surfaces ---- */

/* Heights, and which cells may belong to someone: not the floor. */
static void
tracker_segmenter_heights_fill(TrackerSegmenter *seg, const TrackerGrid *grid,
                               const TrackerFloor *floor)
{
	for (int i = 0; i < seg->n; i++) {
		TrackerVec3 p = tracker_grid_point(grid, i);

		seg->blob[i] = 0;
		seg->labels[i] = 0;
		if (p.z <= 0.0) {
			seg->heights[i] = -G_MAXFLOAT;
			continue;
		}
		seg->heights[i] = (float)tracker_floor_height(floor, p);
		if (floor->found && seg->heights[i] < tracker_floor_tolerance(p.z))
			seg->heights[i] = -G_MAXFLOAT;
	}
}

static inline gboolean
tracker_segmenter_free_cell(const TrackerSegmenter *seg, int k)
{
	return seg->heights[k] > -G_MAXFLOAT && seg->blob[k] == 0 && !seg->structure[k];
}

static inline gboolean
tracker_segmenter_joined(const TrackerGrid *grid, int a, int b)
{
	float za = grid->z[a], zb = grid->z[b];

	return fabsf(za - zb) < tracker_segment_jump(MIN(za, zb));
}

/* The surface cell @k shows, mm^2: its pixels' share of the view. */
static inline double
tracker_segmenter_cell_area(const TrackerGrid *grid, int k)
{
	double z = grid->z[k];

	return grid->count[k] * (z / grid->camera.fx) * (z / grid->camera.fy);
}

static void
tracker_segmenter_blob_add(Blob *blob, const TrackerGrid *grid, int k, int u, int v)
{
	blob->n_cells++;
	blob->n_pixels += grid->count[k];
	blob->area += tracker_segmenter_cell_area(grid, k);
	blob->sum = tracker_vec3_add(blob->sum, tracker_grid_point(grid, k));
	blob->u0 = MIN(blob->u0, u);
	blob->u1 = MAX(blob->u1, u);
	blob->v0 = MIN(blob->v0, v);
	blob->v1 = MAX(blob->v1, v);
}

/* Adds neighbour @kk of cell @k to blob @id if it belongs there. */
static inline void
tracker_segmenter_spread(TrackerSegmenter *seg, const TrackerGrid *grid, int k, int kk, guint16 id,
                         int *top)
{
	if (!tracker_segmenter_free_cell(seg, kk) || !tracker_segmenter_joined(grid, k, kk))
		return;
	seg->blob[kk] = id;
	seg->stack[(*top)++] = kk;
}

/* Flood fill from @seed; every cell is pushed once. Cells are found by
 * index, their column and row from tables: no division per cell. */
static void
tracker_segmenter_flood(TrackerSegmenter *seg, const TrackerGrid *grid, int seed, guint16 id)
{
	Blob *blob = &seg->blobs[id - 1];
	int top = 0, w = seg->width;

	*blob = (Blob){
		.u0 = G_MAXINT, .v0 = G_MAXINT, .u1 = -1, .v1 = -1, .person = -1, .flat = -1
	};
	seg->blob[seed] = id;
	seg->stack[top++] = seed;
	while (top > 0) {
		int k = seg->stack[--top], u = seg->col[k], v = seg->row[k];

		tracker_segmenter_blob_add(blob, grid, k, u, v);
		if (u + 1 < w)
			tracker_segmenter_spread(seg, grid, k, k + 1, id, &top);
		if (u > 0)
			tracker_segmenter_spread(seg, grid, k, k - 1, id, &top);
		if (v + 1 < seg->height)
			tracker_segmenter_spread(seg, grid, k, k + w, id, &top);
		if (v > 0)
			tracker_segmenter_spread(seg, grid, k, k - w, id, &top);
	}
}

static void
tracker_segmenter_blobs(TrackerSegmenter *seg, const TrackerGrid *grid)
{
	seg->n_blobs = 0;
	for (int k = 0; k < seg->n && seg->n_blobs < MAX_BLOBS; k++) {
		if (!tracker_segmenter_free_cell(seg, k))
			continue;
		seg->n_blobs++;
		tracker_segmenter_flood(seg, grid, k, (guint16)seg->n_blobs);
	}
}

/* ---- heads ---- */

/* The highest cell of blob @b in each of its columns. */
static void
tracker_segmenter_profile(TrackerSegmenter *seg, int b)
{
	const Blob *blob = &seg->blobs[b];

	for (int u = blob->u0; u <= blob->u1; u++) {
		seg->top[u] = -G_MAXFLOAT;
		seg->top_cell[u] = -1;
		seg->used[u] = 0;
	}
	for (int v = blob->v0; v <= blob->v1; v++) {
		for (int u = blob->u0; u <= blob->u1; u++) {
			int k = v * seg->width + u;

			if (seg->blob[k] == b + 1 && seg->heights[k] > seg->top[u]) {
				seg->top[u] = seg->heights[k];
				seg->top_cell[u] = k;
			}
		}
	}
}

/* Whether cell @k can be the body under a head of blob @b at depth @z:
 * the head's own surface, or any surface about as far (an arm crossing
 * in front of the neck can cut a head off from its body). */
static inline gboolean
tracker_segmenter_body_cell(const TrackerSegmenter *seg, const TrackerGrid *grid, int k, int b,
                            float z)
{
	return seg->blob[k] == b + 1 ||
	       (seg->blob[k] != 0 && fabsf(grid->z[k] - z) < BODY_DEPTH_MM);
}

/* Whether cell @k is a surface well in front of a body at depth @z,
 * hiding what lies behind it. */
static inline gboolean
tracker_segmenter_in_front(const TrackerSegmenter *seg, const TrackerGrid *grid, int k, float z)
{
	return seg->blob[k] != 0 && grid->z[k] < z - BODY_DEPTH_MM;
}

/* The box below a head (chest to belly), clipped to the image. A body cut
 * off by the image's bottom edge is judged on what is seen. */
static void
tracker_segmenter_body_box(const TrackerSegmenter *seg, int col, int row, double cell_mm,
                           double body, int box[4])
{
	int half = MAX(1, (int)(0.08 * body / cell_mm));

	box[0] = MAX(0, col - half);
	box[1] = MIN(seg->width - 1, col + half);
	box[2] = MIN(row + (int)(0.30 * body / cell_mm), seg->height - 3);
	box[3] = MIN(row + (int)(0.45 * body / cell_mm), seg->height - 1);
}

/* The share of what is seen that a body fills, once most of all is seen:
 * a body mostly hidden behind a surface in front is not judged at all. */
static double
tracker_segmenter_seen_share(guint filled, guint seen, guint all)
{
	return 2 * seen >= all && seen > 0 ? (double)filled / seen : 0.0;
}

/* The share of the box below a head that a body fills; with @hide, of
 * what is not hidden behind a surface in front, most of it seen. */
static double
tracker_segmenter_body_fill(const TrackerSegmenter *seg, const TrackerGrid *grid, int b,
                            const int box[4], float z, gboolean hide)
{
	guint filled = 0, seen = 0, all = 0;

	for (int v = box[2]; v <= box[3]; v++) {
		for (int u = box[0]; u <= box[1]; u++) {
			int k = v * seg->width + u;
			gboolean body = tracker_segmenter_body_cell(seg, grid, k, b, z);

			filled += body;
			seen += body || !hide || !tracker_segmenter_in_front(seg, grid, k, z);
			all++;
		}
	}
	return tracker_segmenter_seen_share(filled, seen, all);
}

/* Whether what fills the box below a head is as deep as a torso under
 * it: the middle of its depths no nearer than a head bowed forward and
 * no farther than a head held back. The hand of an arm raised toward the
 * sensor has the arm below it, but the chest below that is far behind. */
static gboolean
tracker_segmenter_torso_level(const TrackerSegmenter *seg, const TrackerGrid *grid,
                              const int box[4], float z)
{
	float depth[ROUND_MAX_CELLS];
	int all = (box[1] - box[0] + 1) * (box[3] - box[2] + 1);
	int stride = MAX(1, all / ROUND_MAX_CELLS), seen = 0;
	guint n = 0;

	for (int v = box[2]; v <= box[3]; v++) {
		for (int u = box[0]; u <= box[1]; u++) {
			int k = v * seg->width + u;

			if (seg->blob[k] != 0 && seen++ % stride == 0 && n < ROUND_MAX_CELLS)
				depth[n++] = grid->z[k];
		}
	}
	if (n == 0)
		return FALSE;
	z = tracker_segmenter_median(depth, n) - z;
	return z > -TORSO_BEFORE_MM && z < TORSO_BEHIND_MM;
}

/* The share of rows from @row down @depth_mm that a body fills in the
 * three columns around @col: a head has a neck and a torso under it.
 * With @hide, rows hidden behind a surface in front (an arm across the
 * chest, the head of someone nearer) are not judged; a third must be
 * seen, as much as head and neck are. */
static double
tracker_segmenter_below(const TrackerSegmenter *seg, const TrackerGrid *grid, int b, int col,
                        int row, double cell_mm, double depth_mm, float z, gboolean hide)
{
	int r1 = MIN(seg->height - 1, row + (int)(depth_mm / cell_mm));
	guint filled = 0, seen = 0, all = 0;

	for (int v = row; v <= r1; v++) {
		gboolean any = FALSE, hidden = FALSE;

		for (int u = MAX(0, col - 1); u <= MIN(seg->width - 1, col + 1); u++) {
			any |= tracker_segmenter_body_cell(seg, grid, v * seg->width + u, b, z);
			hidden |= hide &&
			          tracker_segmenter_in_front(seg, grid, v * seg->width + u, z);
		}
		filled += any;
		seen += any || !hidden;
		all++;
	}
	return 3 * seen >= all && seen > 0 ? (double)filled / seen : 0.0;
}

/* The widest run of body cells through column @col in the rows from
 * @row0 to @row1, in cells. */
static int
tracker_segmenter_widest(const TrackerSegmenter *seg, const TrackerGrid *grid, int b, int col,
                         int row0, int row1, float z)
{
	int widest = 0;

	for (int v = MAX(0, row0); v <= MIN(seg->height - 1, row1); v++) {
		int l = col, r = col, base = v * seg->width;

		if (!tracker_segmenter_body_cell(seg, grid, base + col, b, z))
			continue;
		while (l > 0 && tracker_segmenter_body_cell(seg, grid, base + l - 1, b, z))
			l--;
		while (r + 1 < seg->width &&
		       tracker_segmenter_body_cell(seg, grid, base + r + 1, b, z))
			r++;
		widest = MAX(widest, r - l + 1);
	}
	return widest;
}

/* How many of rows @row0..@row1 of column @col are hidden behind a
 * surface in front of a body at depth @z, and how many there are. */
static int
tracker_segmenter_hidden_rows(const TrackerSegmenter *seg, const TrackerGrid *grid, int col,
                              int row0, int row1, float z, int *all)
{
	int hidden = 0;

	*all = 0;
	for (int v = MAX(0, row0); v <= MIN(seg->height - 1, row1); v++, (*all)++)
		hidden += tracker_segmenter_in_front(seg, grid, v * seg->width + col, z);
	return hidden;
}

/* A head sits on shoulders: the body a little below it is wider than
 * the head, even seen side-on (chest and arms). The side of a cabinet
 * under its top, or a post, is as wide below as at its top. With @hide,
 * shoulders mostly hidden behind something in front (the arm of someone
 * nearer) are not judged: the body box under them is. */
static gboolean
tracker_segmenter_shoulders(const TrackerSegmenter *seg, const TrackerGrid *grid, int b, int l,
                            int r, int row, double cell_mm, double body, float z, gboolean hide)
{
	int row0 = row + (int)(SHOULDER_FROM * body / cell_mm),
	    row1 = row + (int)(SHOULDER_TO * body / cell_mm), all;

	if (hide &&
	    2 * tracker_segmenter_hidden_rows(seg, grid, (l + r) / 2, row0, row1, z, &all) > all)
		return TRUE;
	/* A cell more: a narrow cap's width is a cell or so out. */
	return tracker_segmenter_widest(seg, grid, b, (l + r) / 2, row0, row1, z) >=
	       SHOULDER_RATIO * (r - l + 1) + 1;
}

/* The blob, other than @b, that fills most of @box: the body of a head
 * that an arm in front of its neck cut off from it. */
static int
tracker_segmenter_blob_below(const TrackerSegmenter *seg, const int box[4], int b)
{
	guint counts[8] = { 0 };
	int ids[8], n = 0, best = -1;

	for (int v = box[2]; v <= box[3]; v++) {
		for (int u = box[0]; u <= box[1]; u++) {
			int id = seg->blob[v * seg->width + u] - 1, i = 0;

			if (id < 0 || id == b)
				continue;
			while (i < n && ids[i] != id)
				i++;
			if (i == n && n < 8)
				ids[n++] = id;
			if (i < n)
				counts[i]++;
		}
	}
	for (int i = 0; i < n; i++)
		if (best < 0 || counts[i] > counts[best])
			best = i;
	return best >= 0 ? ids[best] : -1;
}

/* How many cells wide the projector's shadow of something at depth
 * @near is on a surface at @far (the projector sits a baseline to the
 * camera's side). No reading for farther than that between a top and
 * something nearer above it is not that thing's shadow: far background
 * the sensor does not read, with the top's outline against it. */
static inline int
tracker_segmenter_shadow(const TrackerGrid *grid, float near, float far)
{
	return near >= far ? 0
	                   : (int)(grid->camera.fx * PROJECTOR_MM * (1.0 / near - 1.0 / far) /
	                           TRACKER_GRID_STEP);
}

/* Whether the cap's top edge is an outline against what lies behind it,
 * as a head's is, rather than the lower edge of something nearer (a
 * patch of wall under an arm) or where a flat surface of the room was
 * cut away from it (the side of a cabinet under its top). The first
 * reading above each column counts: the projector's shadow may lie
 * between a patch and the arm over it. Nothing above, or no reading
 * for longer than a shadow would be, is an outline against what the
 * sensor cannot read (too far, a window). */
static gboolean
tracker_segmenter_outline(const TrackerSegmenter *seg, const TrackerGrid *grid, int l, int r)
{
	guint against = 0, under = 0;

	for (int u = l; u <= r; u++) {
		int k = seg->top_cell[u], above = k - seg->width, look, gap = 0;

		if (k < 0)
			continue;
		/* The shadow of an arm held near the sensor over something
		 * far is tens of cells: look up half a metre, there. */
		look = (int)(UNDER_LOOK_MM / tracker_grid_cell_mm(grid, grid->z[k]));
		for (; gap < look && above >= 0 && grid->z[above] <= 0.0f; gap++)
			above -= seg->width;
		if (above < 0 || grid->z[above] <= 0.0f ||
		    gap > tracker_segmenter_shadow(grid, grid->z[above], grid->z[k]) + 2) {
			against++;
			continue;
		}
		if (grid->z[above] < grid->z[k] - tracker_segment_jump(grid->z[above]) ||
		    (seg->structure[above] &&
		     fabsf(grid->z[above] - grid->z[k]) < tracker_segment_jump(grid->z[k])))
			under++;
		else
			against++;
	}
	return against >= under;
}

/* Whether blob @b is flat: a patch of wall, which a person is not. The
 * spread of its depths about the plane z = a x + b y + c through them,
 * against the sensor's error at their depth. */
static gboolean
tracker_segmenter_flat(TrackerSegmenter *seg, const TrackerGrid *grid, int b)
{
	Blob *blob = &seg->blobs[b];
	int stride = MAX(1, (int)(blob->n_cells / FLAT_SAMPLES)), seen = 0;
	TrackerLsq3 lsq;
	double c[3], mse, flat;

	tracker_lsq3_init(&lsq);
	for (int v = blob->v0; v <= blob->v1; v++) {
		for (int k = v * seg->width + blob->u0; k <= v * seg->width + blob->u1; k++) {
			if (seg->blob[k] == b + 1 && seen++ % stride == 0)
				tracker_lsq3_add(&lsq, grid->x[k], grid->y[k], 1.0, grid->z[k]);
		}
	}
	flat = FLAT_MM +
	       FLAT_PER_MM2 * (blob->sum.z / blob->n_cells) * (blob->sum.z / blob->n_cells);
	blob->flat = lsq.n >= 10 && tracker_lsq3_solve(&lsq, c, &mse) && mse < flat * flat;
	return blob->flat;
}

/* Whether cell @k is well within the sensor's readings: where they stop,
 * some of a surface's readings are and some are not, and its outline is
 * wherever they stopped. */
static inline gboolean
tracker_segmenter_in_range(const TrackerGrid *grid, int k, const TrackerSegmentParams *params)
{
	return grid->z[k] < params->max_depth - RANGE_MARGIN_MM;
}

/* The widest a head's cap is measured, in cells of @cell_mm: a head with
 * hair, and the cells its edges blur into. */
static inline double
tracker_segmenter_head_width(double cell_mm)
{
	return HEAD_MAX_CAP_MM + HEAD_EDGE_CELLS * cell_mm;
}

/* Centre and radius of a head from its cap (@l..@r, @width_mm wide at
 * HEAD_CAP_MM below the top): a sphere's cap of depth c and half-width w
 * has radius (w^2 + c^2) / 2c. Cells show the sphere's front, on average
 * two thirds of a radius before its centre. */
static void
tracker_segmenter_head_shape(const TrackerSegmenter *seg, const TrackerGrid *grid,
                             const TrackerFloor *floor, int l, int r, double width_mm, int top_cell,
                             TrackerHead *head)
{
	double w = width_mm / 2.0, radius = (w * w + HEAD_CAP_MM * HEAD_CAP_MM) / (2 * HEAD_CAP_MM);
	double top_h = seg->heights[top_cell];
	TrackerVec3 sum = tracker_vec3(0, 0, 0), mean, centre;
	guint n = 0;

	radius = CLAMP(radius, 60.0, 140.0);
	for (int u = l; u <= r; u++) {
		int k = seg->top_cell[u];

		for (; k >= 0 && k < seg->n; k += seg->width) {
			if (seg->blob[k] != seg->blob[top_cell] ||
			    seg->heights[k] < top_h - 2 * radius)
				break;
			sum = tracker_vec3_add(sum, tracker_grid_point(grid, k));
			n++;
		}
	}
	mean = tracker_vec3_scale(sum, 1.0 / MAX(n, 1u));
	centre = tracker_vec3_mad(mean, tracker_vec3_normalize(mean), 2.0 / 3.0 * radius);
	/* Put the centre one radius below the top. */
	centre = tracker_vec3_mad(centre, floor->up,
	                          top_h - radius - tracker_floor_height(floor, centre));
	head->found = TRUE;
	head->hinted = FALSE;
	head->cut_top = FALSE;
	head->above = FALSE;
	head->centre = centre;
	head->radius = radius;
	head->top_height = top_h;
}

/* A head's outline is all of one head: its top cells lie within a
 * head's depth of one another. The top of a forearm raised across the
 * face and the shoulder beside it make a cap, but not a head's. */
static gboolean
tracker_segmenter_one_depth(const TrackerSegmenter *seg, const TrackerGrid *grid, int l, int r)
{
	float near = G_MAXFLOAT, far = 0.0f;

	for (int u = l; u <= r; u++) {
		float z = grid->z[seg->top_cell[u]];

		near = MIN(near, z);
		far = MAX(far, z);
	}
	return far - near < HEAD_DEPTH_MM + HEAD_DEPTH_NOISE * near * near;
}

/* How many columns from @u on (going by @dir) rise above @level. */
static int
tracker_segmenter_wall(const TrackerSegmenter *seg, const Blob *blob, int u, int dir, float level)
{
	int n = 0;

	for (; u >= blob->u0 && u <= blob->u1 && seg->top[u] > level; u += dir)
		n++;
	return n;
}

/* One side of a cap: walks from @peak by @dir while the top stays within
 * HEAD_CAP_MM. A higher column ends the walk: if it starts a wall as
 * narrow as an arm, that is a raised arm beside the head; a wider one
 * means @peak is a bump on the side of something bigger (FALSE). */
static gboolean
tracker_segmenter_cap_side(const TrackerSegmenter *seg, const Blob *blob, int peak, int dir,
                           double cell_mm, float z, int *end)
{
	/* Higher by more than the sensor's error: a flat top is one cap. */
	float limit = seg->top[peak] - (float)HEAD_CAP_MM,
	      above = seg->top[peak] + 10.0f + 2.0e-6f * z * z;
	int u = peak;

	while (u + dir >= blob->u0 && u + dir <= blob->u1 && seg->top[u + dir] >= limit) {
		if (seg->top[u + dir] > above) {
			*end = u;
			return tracker_segmenter_wall(seg, blob, u + dir, dir, above) * cell_mm <=
			       ARM_WALL_MM;
		}
		u += dir;
	}
	*end = u;
	return TRUE;
}

/* The cap around top column @peak: the columns on either side whose top
 * is within HEAD_CAP_MM of it. */
static gboolean
tracker_segmenter_cap(const TrackerSegmenter *seg, const TrackerGrid *grid, const Blob *blob,
                      int peak, int *l, int *r)
{
	float z = grid->z[seg->top_cell[peak]];
	double cell_mm = tracker_grid_cell_mm(grid, z);

	return tracker_segmenter_cap_side(seg, blob, peak, -1, cell_mm, z, l) &&
	       tracker_segmenter_cap_side(seg, blob, peak, 1, cell_mm, z, r);
}

/* How many of the columns @l..@r of row @v are blob @b's. */
static int
tracker_segmenter_run_in(const TrackerSegmenter *seg, int b, int l, int r, int v)
{
	int n = 0;

	for (int u = l; u <= r; u++)
		n += seg->blob[v * seg->width + u] == b + 1;
	return n;
}

static gboolean
tracker_segmenter_is_head(TrackerSegmenter *seg, const TrackerGrid *grid, const TrackerFloor *floor,
                          const TrackerSegmentParams *params, int b, int l, int r, int peak,
                          double *width_mm, int box[4])
{
	int k = seg->top_cell[peak];
	double cell_mm = tracker_grid_cell_mm(grid, grid->z[k]);
	double body = floor->found ? seg->heights[k] : DEFAULT_HEIGHT;
	/* A cap cut by the image's side is judged on the part in view: a
	 * person walking in shows half a head before a whole one. */
	gboolean cut = tracker_grid_at_side(grid, l) || tracker_grid_at_side(grid, r);

	/* ...and must be its surface's top: a wall's edge is not a head. A
	 * cap the image's top cuts narrower than a head's is judged whole:
	 * a crown just touching it, or a head with a raised forearm going
	 * up past it beside its top; cut wider, it is judged as cut off
	 * (tracker_segmenter_cut_tops()). */
	if ((tracker_grid_at_top(grid, k / seg->width) &&
	     tracker_segmenter_run_in(seg, b, l, r, k / seg->width) * cell_mm >= HEAD_MIN_CAP_MM) ||
	    (cut && k / seg->width > seg->blobs[b].v0))
		return FALSE;
	*width_mm = (r - l + 1) * cell_mm;
	if (*width_mm < (cut ? 0.5 : 1.0) * HEAD_MIN_CAP_MM ||
	    *width_mm > tracker_segmenter_head_width(cell_mm) ||
	    !tracker_segmenter_in_range(grid, k, params))
		return FALSE;
	if (floor->found &&
	    (seg->heights[k] < params->min_head_height || seg->heights[k] > HEAD_MAX_TOP_MM))
		return FALSE;
	tracker_segmenter_body_box(seg, (l + r) / 2, k / seg->width, cell_mm, body, box);
	/* A whole head on shoulders is judged on the body that is not hidden
	 * behind something in front; half a head at the side on all of it. */
	return tracker_segmenter_one_depth(seg, grid, l, r) &&
	       tracker_segmenter_outline(seg, grid, l, r) &&
	       (cut ? !tracker_segmenter_flat(seg, grid, b)
	            : tracker_segmenter_shoulders(seg, grid, b, l, r, k / seg->width, cell_mm, body,
	                                          grid->z[k], TRUE)) &&
	       tracker_segmenter_below(seg, grid, b, (l + r) / 2, k / seg->width, cell_mm,
	                               0.35 * body, grid->z[k], !cut) >= HEAD_NECK_FILL &&
	       tracker_segmenter_body_fill(seg, grid, b, box, grid->z[k], !cut) >= HEAD_BODY_FILL &&
	       tracker_segmenter_torso_level(seg, grid, box, grid->z[k]);
}

static int
tracker_segmenter_compare_tops(const void *a, const void *b, void *data)
{
	const float *top = data;
	float x = top[*(const int *)a], y = top[*(const int *)b];

	return (x < y) - (x > y);
}

/* The blob's local tops, highest first. */
static int
tracker_segmenter_tops(TrackerSegmenter *seg, const Blob *blob, int *tops, int max)
{
	int n = 0;

	for (int u = blob->u0; u <= blob->u1 && n < max; u++) {
		float left = u > blob->u0 ? seg->top[u - 1] : -G_MAXFLOAT;
		float right = u < blob->u1 ? seg->top[u + 1] : -G_MAXFLOAT;

		if (seg->top_cell[u] >= 0 && seg->top[u] >= left && seg->top[u] >= right)
			tops[n++] = u;
	}
	g_qsort_with_data(tops, n, sizeof(int), tracker_segmenter_compare_tops, seg->top);
	return n;
}

/* A cap cut by the image's side beside a whole head on the same surface
 * is that person's arm reaching out of view, not a second head. */
static void
tracker_segmenter_drop_cut(TrackerSegmenter *seg, int b, guint first)
{
	gboolean whole = FALSE;
	guint n = first;

	for (guint h = first; h < seg->n_heads; h++)
		whole |= !seg->heads[h].cut;
	if (!whole)
		return;
	for (guint h = first; h < seg->n_heads; h++) {
		if (seg->heads[h].cut)
			seg->blobs[b].n_heads--;
		else
			seg->heads[n++] = seg->heads[h];
	}
	seg->n_heads = n;
}

/* ---- people cut off by the image's top ---- */

/* The mean point of blob @b's cells in columns @l..@r, rows @v0..@v1. */
static TrackerVec3
tracker_segmenter_mean(const TrackerSegmenter *seg, const TrackerGrid *grid, int b, int l, int r,
                       int v0, int v1)
{
	TrackerVec3 sum = tracker_vec3(0, 0, 0);
	guint n = 0;

	for (int v = v0; v <= MIN(v1, seg->height - 1); v++) {
		for (int u = l; u <= r; u++) {
			int k = v * seg->width + u;

			if (seg->blob[k] != b + 1)
				continue;
			sum = tracker_vec3_add(sum, tracker_grid_point(grid, k));
			n++;
		}
	}
	return tracker_vec3_scale(sum, 1.0 / MAX(n, 1u));
}

/* Where the head of a person cut off at row @v by the image's top is:
 * over the middle of their cells there, part of a radius behind them.
 * A run no wider than a head is the head, partly in view, its centre at
 * the edge; a wider one crosses the neck where it meets the shoulders,
 * the head's centre a radius above; one wider than a neck and its
 * shoulders' slope crosses the shoulders, the head a neck higher still.
 * Left at the edge, a head all above the picture pulled the trunk and
 * arms hung from it a head's height too low. */
static void
tracker_segmenter_cut_head(const TrackerSegmenter *seg, const TrackerGrid *grid,
                           const TrackerFloor *floor, const HeadCandidate *h, double width_mm,
                           TrackerHead *head)
{
	TrackerVec3 front =
	        tracker_segmenter_mean(seg, grid, h->blob, h->l, h->r, h->seed_v1 - 1, h->seed_v1);
	double radius = CLAMP(width_mm / 2.0, 70.0, 120.0),
	       edge = tracker_floor_height(floor, front);

	head->found = TRUE;
	head->hinted = FALSE;
	head->cut_top = TRUE;
	head->radius = radius;
	head->centre = tracker_vec3_mad(front, tracker_vec3_normalize(front), 2.0 / 3.0 * radius);
	/* Wider than a head: all of it is above, where is a guess. */
	head->above = width_mm > tracker_segmenter_head_width(tracker_grid_cell_mm(grid, front.z));
	if (width_mm > CUT_WIDE_MM)
		head->centre = tracker_vec3_mad(head->centre, floor->up, CUT_NECK_MM + radius);
	else if (head->above)
		head->centre = tracker_vec3_mad(head->centre, floor->up, radius);
	head->top_height = tracker_floor_height(floor, head->centre) + radius;
	head->top_height = MAX(head->top_height, edge);
}

/* Under a head or a neck cut by the image's top, the shoulders are wider;
 * a run already as wide as shoulders (the top crosses them, arms down)
 * has a chest under it no narrower. */
static gboolean
tracker_segmenter_cut_shoulders(const TrackerSegmenter *seg, const TrackerGrid *grid, int b, int l,
                                int r, int v, double cell_mm, double body, float z)
{
	if ((r - l + 1) * cell_mm <= CUT_WIDE_MM)
		return tracker_segmenter_shoulders(seg, grid, b, l, r, v, cell_mm, body, z, FALSE);
	return tracker_segmenter_widest(seg, grid, b, (l + r) / 2,
	                                v + (int)(SHOULDER_FROM * body / cell_mm),
	                                v + (int)(SHOULDER_TO * body / cell_mm), z) >= r - l;
}

/* Whether the run @l..@r of blob @b's cells along the image's top (row
 * @v) is a person cut off there: a head or a neck at one depth, over a
 * body as a head is (shoulders wider than it, a torso at its depth). A
 * person close to the sensor, or under one looking down, shows nothing
 * above the shoulders. A run that also reaches the image's side is judged
 * on the part in view, as a head cut by the side is: the last of a row of
 * people, near the sensor, stands in the picture's corner. */
static gboolean
tracker_segmenter_is_cut_top(TrackerSegmenter *seg, const TrackerGrid *grid,
                             const TrackerFloor *floor, const TrackerSegmentParams *params, int b,
                             int l, int r, int v, double *width_mm, int box[4])
{
	int k = v * seg->width + (l + r) / 2;
	double cell_mm = tracker_grid_cell_mm(grid, grid->z[k]);
	double body = floor->found ? MAX(seg->heights[k] + 200.0, 1200.0) : DEFAULT_HEIGHT;

	*width_mm = (r - l + 1) * cell_mm;
	if (*width_mm < CUT_MIN_MM || *width_mm > CUT_MAX_MM || grid->z[k] > CUT_FAR_MM ||
	    !tracker_segmenter_in_range(grid, k, params))
		return FALSE;
	if (floor->found && seg->heights[k] < CUT_MIN_HEIGHT_MM)
		return FALSE;
	tracker_segmenter_body_box(seg, (l + r) / 2, v, cell_mm, body, box);
	return tracker_segmenter_cut_shoulders(seg, grid, b, l, r, v, cell_mm, body, grid->z[k]) &&
	       tracker_segmenter_below(seg, grid, b, (l + r) / 2, v, cell_mm, 0.35 * body,
	                               grid->z[k], FALSE) >= HEAD_NECK_FILL &&
	       tracker_segmenter_body_fill(seg, grid, b, box, grid->z[k], FALSE) >=
	               HEAD_BODY_FILL &&
	       tracker_segmenter_torso_level(seg, grid, box, grid->z[k]) &&
	       !tracker_segmenter_flat(seg, grid, b);
}

/* Whether a head of blob @b has any of the columns @l..@r. */
static gboolean
tracker_segmenter_columns_taken(const TrackerSegmenter *seg, int b, int l, int r)
{
	for (guint h = 0; h < seg->n_heads; h++) {
		if (seg->heads[h].blob == b && seg->heads[h].l <= r && seg->heads[h].r >= l)
			return TRUE;
	}
	return FALSE;
}

/* People cut off by the image's top in blob @b: its runs of cells along
 * the top row, each a head or a neck. Runs in columns a head of the
 * blob already took are its own. */
static void
tracker_segmenter_cut_tops(TrackerSegmenter *seg, const TrackerGrid *grid,
                           const TrackerFloor *floor, const TrackerSegmentParams *params, int b)
{
	Blob *blob = &seg->blobs[b];
	int v = blob->v0;

	if (!tracker_grid_at_top(grid, v))
		return;
	for (int u = blob->u0; u <= blob->u1 && seg->n_heads < MAX_HEADS; u++) {
		HeadCandidate *h = &seg->heads[seg->n_heads];
		double width_mm;
		int l = u;

		if (seg->blob[v * seg->width + u] != b + 1)
			continue;
		while (u + 1 <= blob->u1 && seg->blob[v * seg->width + u + 1] == b + 1)
			u++;
		if (tracker_segmenter_columns_taken(seg, b, l, u) ||
		    !tracker_segmenter_is_cut_top(seg, grid, floor, params, b, l, u, v, &width_mm,
		                                  h->box))
			continue;
		h->blob = b;
		h->l = l;
		h->r = u;
		h->cut = FALSE;
		h->seed_v1 = v + CUT_SEED_ROWS;
		tracker_segmenter_cut_head(seg, grid, floor, h, width_mm, &h->head);
		seg->n_heads++;
		blob->n_heads++;
	}
}

static void
tracker_segmenter_heads_in_blob(TrackerSegmenter *seg, const TrackerGrid *grid,
                                const TrackerFloor *floor, const TrackerSegmentParams *params,
                                int b)
{
	Blob *blob = &seg->blobs[b];
	int tops[MAX_TOPS], n_tops, l, r;
	guint first;
	double width_mm;

	tracker_segmenter_profile(seg, b);
	n_tops = tracker_segmenter_tops(seg, blob, tops, MAX_TOPS);
	first = seg->n_heads;
	for (int i = 0; i < n_tops && seg->n_heads < MAX_HEADS; i++) {
		int peak = tops[i];
		HeadCandidate *h;

		/* A top on a plateau shares its cap with a top seen already. */
		if (seg->used[peak] || !tracker_segmenter_cap(seg, grid, blob, peak, &l, &r))
			continue;
		memset(seg->used + l, 1, r - l + 1);
		h = &seg->heads[seg->n_heads];
		if (!tracker_segmenter_is_head(seg, grid, floor, params, b, l, r, peak, &width_mm,
		                               h->box))
			continue;
		seg->n_heads++;
		h->blob = b;
		h->l = l;
		h->r = r;
		h->cut = tracker_grid_at_side(grid, l) || tracker_grid_at_side(grid, r);
		h->seed_v1 = 0;
		tracker_segmenter_head_shape(seg, grid, floor, l, r, width_mm, seg->top_cell[peak],
		                             &h->head);
		blob->n_heads++;
	}
	tracker_segmenter_drop_cut(seg, b, first);
	tracker_segmenter_cut_tops(seg, grid, floor, params, b);
}

/* Whether a head found this frame is the one @hint had, or stands so
 * near it that @hint's would be the same person's (a track that lost its
 * person must not keep a second copy of them alive). */
static gboolean
tracker_segmenter_hint_seen(const TrackerSegmenter *seg, const TrackerFloor *floor,
                            const TrackerSegmentHint *hint)
{
	for (guint h = 0; h < seg->n_heads; h++) {
		TrackerVec3 d = tracker_vec3_sub(seg->heads[h].head.centre, hint->head);
		double rise = tracker_vec3_dot(d, floor->up);

		/* Level with it: a raised hand beside a head is not that head. */
		d = tracker_vec3_mad(d, floor->up, -rise);
		if (tracker_vec3_length(d) < HINT_APART_MM && fabs(rise) < HINT_HEAD_RISE_MM)
			return TRUE;
	}
	return FALSE;
}

/* The cells around where @hint's head was that are still a head there:
 * enough of them, in one blob. Their box and blob go into @h. */
static guint
tracker_segmenter_hint_cells(const TrackerSegmenter *seg, const TrackerGrid *grid,
                             const TrackerSegmentHint *hint, HeadCandidate *h, TrackerVec3 *sum)
{
	double gu, gv, reach = hint->head_radius + HINT_HEAD_MOVE_MM, cell_mm, disc;
	int half;
	guint n = 0;

	if (!tracker_grid_locate(grid, hint->head, &gu, &gv))
		return 0;
	cell_mm = tracker_grid_cell_mm(grid, hint->head.z);
	half = (int)ceil(reach / cell_mm);
	disc = G_PI * (hint->head_radius / cell_mm) * (hint->head_radius / cell_mm);
	h->blob = -1;
	h->l = G_MAXINT;
	h->r = -1;
	for (int v = MAX(0, (int)gv - half); v <= MIN(seg->height - 1, (int)gv + half); v++) {
		for (int u = MAX(0, (int)gu - half); u <= MIN(seg->width - 1, (int)gu + half);
		     u++) {
			int k = v * seg->width + u;

			if (seg->blob[k] == 0 ||
			    tracker_vec3_distance(tracker_grid_point(grid, k), hint->head) >
			            reach ||
			    (h->blob >= 0 && seg->blob[k] != h->blob + 1))
				continue;
			h->blob = seg->blob[k] - 1;
			h->l = MIN(h->l, u);
			h->r = MAX(h->r, u);
			*sum = tracker_vec3_add(*sum, tracker_grid_point(grid, k));
			n++;
		}
	}
	/* Half a head's disc is still a head; less may be its last corner
	 * leaving the image, or someone else's arm. */
	return n >= 0.5 * disc ? n : 0;
}

/* Heads of tracked people that the outlines did not show this frame. */
static void
tracker_segmenter_hinted_heads(TrackerSegmenter *seg, const TrackerGrid *grid,
                               const TrackerFloor *floor, const TrackerSegmentHint *hints,
                               guint n_hints)
{
	for (guint i = 0; i < n_hints && seg->n_heads < MAX_HEADS; i++) {
		HeadCandidate *h = &seg->heads[seg->n_heads];
		TrackerVec3 sum = tracker_vec3(0, 0, 0);
		guint n;

		if (!hints[i].has_head || tracker_segmenter_hint_seen(seg, floor, &hints[i]))
			continue;
		n = tracker_segmenter_hint_cells(seg, grid, &hints[i], h, &sum);
		if (n == 0)
			continue;
		/* The cells round it take in neck and arms: the head stays
		 * where it was, known to be still there. */
		h->head.found = TRUE;
		h->head.radius = hints[i].head_radius;
		h->head.centre = hints[i].head;
		h->head.top_height = tracker_floor_height(floor, h->head.centre) + h->head.radius;
		h->head.hinted = TRUE;
		h->head.cut_top = FALSE;
		h->head.above = FALSE;
		h->seed_v1 = 0;
		/* Someone's shoulder under where a head was is not a head. */
		if (floor->found && h->head.top_height < 0.85 * hints[i].height)
			continue;
		seg->blobs[h->blob].n_heads++;
		seg->n_heads++;
	}
}

/* Whether head @h is under another head of its blob: two heads that
 * near are one person's, and the lower is a shoulder under an arm raised
 * over the head. */
static gboolean
tracker_segmenter_under_head(const TrackerSegmenter *seg, const TrackerFloor *floor, guint h)
{
	const TrackerHead *head = &seg->heads[h].head;

	for (guint o = 0; o < seg->n_heads; o++) {
		const TrackerHead *other = &seg->heads[o].head;
		TrackerVec3 d = tracker_vec3_sub(other->centre, head->centre);
		double rise = tracker_vec3_dot(d, floor->up);

		if (o == h || seg->heads[o].blob != seg->heads[h].blob)
			continue;
		d = tracker_vec3_mad(d, floor->up, -rise);
		if (tracker_vec3_length(d) < HINT_APART_MM && rise > 0.0)
			return TRUE;
	}
	return FALSE;
}

/* Whether head @h is below where a tracked person's head was, so near
 * it that it would be theirs: a person has one head, and it does not
 * drop in a frame. A shoulder under an arm raised over the head has a
 * head's outline while the head is hidden. */
static gboolean
tracker_segmenter_off_tracked_head(const TrackerSegmenter *seg, const TrackerFloor *floor, guint h,
                                   const TrackerSegmentHint *hints, guint n_hints)
{
	const TrackerHead *head = &seg->heads[h].head;

	for (guint i = 0; i < n_hints; i++) {
		TrackerVec3 d = tracker_vec3_sub(head->centre, hints[i].head);
		double rise = tracker_vec3_dot(d, floor->up);

		if (!hints[i].has_body)
			continue;
		d = tracker_vec3_mad(d, floor->up, -rise);
		if (tracker_vec3_length(d) < HINT_APART_MM && rise <= -HINT_HEAD_RISE_MM)
			return TRUE;
	}
	return FALSE;
}

/* One head per person: the heads under another go, and those off where
 * a tracked person's head was. */
static void
tracker_segmenter_one_head_each(TrackerSegmenter *seg, const TrackerFloor *floor,
                                const TrackerSegmentHint *hints, guint n_hints)
{
	guint n = 0;

	for (guint h = 0; h < seg->n_heads; h++) {
		if (tracker_segmenter_under_head(seg, floor, h) ||
		    tracker_segmenter_off_tracked_head(seg, floor, h, hints, n_hints))
			seg->blobs[seg->heads[h].blob].n_heads--;
		else
			seg->heads[n++] = seg->heads[h];
	}
	seg->n_heads = n;
}

/* Moves blob @a's cells into blob @b. */
static void
tracker_segmenter_merge(TrackerSegmenter *seg, int a, int b)
{
	Blob *from = &seg->blobs[a], *to = &seg->blobs[b];

	for (int v = from->v0; v <= from->v1; v++) {
		for (int u = from->u0; u <= from->u1; u++) {
			if (seg->blob[v * seg->width + u] == a + 1)
				seg->blob[v * seg->width + u] = (guint16)(b + 1);
		}
	}
	to->n_cells += from->n_cells;
	to->n_pixels += from->n_pixels;
	to->area += from->area;
	to->sum = tracker_vec3_add(to->sum, from->sum);
	to->u0 = MIN(to->u0, from->u0);
	to->v0 = MIN(to->v0, from->v0);
	to->u1 = MAX(to->u1, from->u1);
	to->v1 = MAX(to->v1, from->v1);
	to->n_heads += from->n_heads;
	memset(from, 0, sizeof(*from));
	from->person = -1;
	for (guint h = 0; h < seg->n_heads; h++) {
		if (seg->heads[h].blob == a)
			seg->heads[h].blob = b;
	}
}

/* A head on a surface too small to be a person (a head and the hand
 * scratching it, say) is the head of the body below it, cut off by an
 * arm in front of the neck. */
static void
tracker_segmenter_join_heads(TrackerSegmenter *seg, const TrackerSegmentParams *params)
{
	for (guint h = 0; h < seg->n_heads; h++) {
		HeadCandidate *head = &seg->heads[h];
		const Blob *blob = &seg->blobs[head->blob];
		int below;

		if (blob->n_pixels >= params->min_person_pixels && blob->area >= HEAD_ALONE_MM2)
			continue;
		below = tracker_segmenter_blob_below(seg, head->box, head->blob);
		if (below >= 0 && seg->blobs[below].area > blob->area)
			tracker_segmenter_merge(seg, head->blob, below);
	}
}

/* ---- people ---- */

static void
tracker_segmenter_heap_push(TrackerSegmenter *seg, int *n, int cell, float d)
{
	int i = (*n)++;

	while (i > 0) {
		int parent = (i - 1) / 2;

		if (seg->heap[parent].d <= d)
			break;
		seg->heap[i] = seg->heap[parent];
		i = parent;
	}
	seg->heap[i] = (HeapEntry){ d, cell };
}

static HeapEntry
tracker_segmenter_heap_pop(TrackerSegmenter *seg, int *n)
{
	HeapEntry top = seg->heap[0], last = seg->heap[--(*n)];
	int i = 0;

	for (;;) {
		int child = 2 * i + 1;

		if (child >= *n)
			break;
		if (child + 1 < *n && seg->heap[child + 1].d < seg->heap[child].d)
			child++;
		if (seg->heap[child].d >= last.d)
			break;
		seg->heap[i] = seg->heap[child];
		i = child;
	}
	seg->heap[i] = last;
	return top;
}

/* The cell of @k's blob that lies past what hides it from @k going by
 * (@du, @dv): a surface well in front of @k (an arm across a neck, the
 * head of someone nearer) and its shadow, no more than BRIDGE_MM of it;
 * -1 for none. A body an arm in front cuts in two is one body under it. */
static int
tracker_segmenter_bridge(const TrackerSegmenter *seg, const TrackerGrid *grid, int k, int du,
                         int dv)
{
	int u = seg->col[k], v = seg->row[k], steps = 0, limit = -1;

	for (;;) {
		gboolean front;
		int kk;

		u += du;
		v += dv;
		if (u < 0 || v < 0 || u >= seg->width || v >= seg->height)
			return -1;
		kk = v * seg->width + u;
		if (seg->blob[kk] == seg->blob[k])
			return limit >= 0 ? kk : -1;
		front = tracker_segmenter_in_front(seg, grid, kk, grid->z[k]);
		if (!front && grid->z[kk] > 0.0f)
			return -1;
		if (front && limit < 0)
			limit = (int)(BRIDGE_MM / tracker_grid_cell_mm(grid, grid->z[kk]));
		if (++steps > MAX(limit, 2))
			return -1;
	}
}

/* Reaches cell @kk from @k, at @p, if that way is shorter than any before. */
static void
tracker_segmenter_reach(TrackerSegmenter *seg, const TrackerGrid *grid, int k, TrackerVec3 p,
                        int kk, int *n)
{
	float dd = seg->dist[k] + (float)tracker_vec3_distance(p, tracker_grid_point(grid, kk));

	if (dd >= seg->dist[kk])
		return;
	seg->dist[kk] = dd;
	seg->labels[kk] = seg->labels[k];
	tracker_segmenter_heap_push(seg, n, kk, dd);
}

/* Relaxes the four neighbours of @k within its blob, and across what
 * hides its blob in front of it. A cell can sit in the heap more than
 * once, at most once per edge into it. */
static void
tracker_segmenter_relax(TrackerSegmenter *seg, const TrackerGrid *grid, int k, int *n)
{
	static const int du[4] = { 1, -1, 0, 0 }, dv[4] = { 0, 0, 1, -1 };
	int u = seg->col[k], v = seg->row[k];
	TrackerVec3 p = tracker_grid_point(grid, k);

	for (int d = 0; d < 4; d++) {
		int uu = u + du[d], vv = v + dv[d], kk = vv * seg->width + uu;

		if (uu < 0 || vv < 0 || uu >= seg->width || vv >= seg->height)
			continue;
		/* Across a depth jump (a head joined to its body past an arm)
		 * the step costs the jump: the geodesic stays fair. So does
		 * the way under a surface in front. */
		if (seg->blob[kk] != seg->blob[k])
			kk = tracker_segmenter_bridge(seg, grid, k, du[d], dv[d]);
		if (kk >= 0)
			tracker_segmenter_reach(seg, grid, k, p, kk, n);
	}
}

/* Seeds the split with head @h's cells, labelled @label. */
static void
tracker_segmenter_seed(TrackerSegmenter *seg, const TrackerGrid *grid, const HeadCandidate *h,
                       guint16 label, int *n)
{
	const Blob *blob = &seg->blobs[h->blob];

	for (int v = blob->v0; v <= (h->head.cut_top ? h->seed_v1 : blob->v1); v++) {
		for (int u = h->l; u <= h->r; u++) {
			int k = v * seg->width + u;

			if (seg->blob[k] != h->blob + 1 ||
			    (!h->head.cut_top &&
			     tracker_vec3_distance(tracker_grid_point(grid, k), h->head.centre) >
			             1.2 * h->head.radius))
				continue;
			seg->dist[k] = 0.0f;
			seg->labels[k] = label;
			tracker_segmenter_heap_push(seg, n, k, 0.0f);
		}
	}
}

/* Splits blob @b between the people whose heads it holds: every cell goes
 * to the head nearest along the surface. @first is the label of the
 * blob's first head; its others follow in order, @n_people of them in all
 * (the heads past the people's limit have no person, so no label). */
static void
tracker_segmenter_split(TrackerSegmenter *seg, const TrackerGrid *grid, int b, guint16 first,
                        guint n_people)
{
	const Blob *blob = &seg->blobs[b];
	guint16 label = first;
	int n = 0;

	for (int v = blob->v0; v <= blob->v1; v++)
		for (int u = blob->u0; u <= blob->u1; u++)
			seg->dist[v * seg->width + u] = G_MAXFLOAT;
	for (guint h = 0; h < seg->n_heads && label < first + n_people; h++) {
		if (seg->heads[h].blob == b)
			tracker_segmenter_seed(seg, grid, &seg->heads[h], label++, &n);
	}
	while (n > 0) {
		HeapEntry e = tracker_segmenter_heap_pop(seg, &n);

		/* A stale entry: the cell was reached by a shorter path since. */
		if (e.d <= seg->dist[e.cell])
			tracker_segmenter_relax(seg, grid, e.cell, &n);
	}
}

/* Labels every cell of blob @b with @label. */
static void
tracker_segmenter_label_blob(TrackerSegmenter *seg, int b, guint16 label)
{
	const Blob *blob = &seg->blobs[b];

	for (int v = blob->v0; v <= blob->v1; v++) {
		for (int u = blob->u0; u <= blob->u1; u++) {
			int k = v * seg->width + u;

			if (seg->blob[k] == b + 1)
				seg->labels[k] = label;
		}
	}
}

static TrackerPerson *
tracker_segmenter_add_person(TrackerSegmenter *seg, const TrackerHead *head, int hint)
{
	TrackerPerson *p;

	if (seg->n_people >= TRACKER_SEGMENT_MAX_PEOPLE)
		return NULL;
	p = &seg->people[seg->n_people++];
	memset(p, 0, sizeof(*p));
	p->label = (guint16)seg->n_people;
	if (head != NULL)
		p->head = *head;
	p->hint = hint;
	return p;
}

/* People with a head: one per head, splitting blobs with several. */
static void
tracker_segmenter_headed(TrackerSegmenter *seg, const TrackerGrid *grid)
{
	for (guint b = 0; b < seg->n_blobs; b++) {
		guint16 first = (guint16)(seg->n_people + 1);
		guint added = 0;

		if (seg->blobs[b].n_heads == 0)
			continue;
		for (guint h = 0; h < seg->n_heads; h++) {
			if (seg->heads[h].blob == (int)b &&
			    tracker_segmenter_add_person(seg, &seg->heads[h].head, -1) != NULL)
				added++;
		}
		if (added == 1)
			tracker_segmenter_label_blob(seg, b, first);
		else if (added > 1)
			tracker_segmenter_split(seg, grid, b, first, added);
		seg->blobs[b].person = added > 0 ? first - 1 : -1;
	}
}

static TrackerVec3
tracker_segmenter_blob_centre(const Blob *blob)
{
	return tracker_vec3_scale(blob->sum, 1.0 / MAX(blob->n_cells, 1u));
}

/* Where a person's reach is measured from: their head, or for one
 * continued without it, where their head was. */
static gboolean
tracker_segmenter_anchor(const TrackerPerson *person, const TrackerSegmentHint *hints,
                         TrackerVec3 *at)
{
	if (person->head.found)
		*at = person->head.centre;
	else if (person->hint >= 0 && hints[person->hint].has_body)
		*at = hints[person->hint].head;
	else
		return FALSE;
	return TRUE;
}

/* The person a headless blob is a loose part of (a hand seen apart from
 * its arm, a body an arm in front of it cut in two): smaller, in front
 * of the person's body and within reach. */
static int
tracker_segmenter_owner(const TrackerSegmenter *seg, const TrackerFloor *floor, const Blob *blob,
                        const TrackerSegmentHint *hints)
{
	TrackerVec3 c = tracker_segmenter_blob_centre(blob), at;
	double best = G_MAXDOUBLE;
	int owner = -1;

	for (guint p = 0; p < seg->n_people; p++) {
		const TrackerPerson *person = &seg->people[p];
		double reach, d;

		if (!tracker_segmenter_anchor(person, hints, &at) ||
		    blob->n_pixels > ATTACH_MAX_SHARE * person->n_pixels)
			continue;
		/* Heights are from the camera when there is no floor. */
		reach = 0.75 * (floor->found && person->head.found
		                        ? MAX(person->head.top_height, 1000.0)
		                        : DEFAULT_HEIGHT);
		d = tracker_vec3_distance(c, at);
		if (d < reach && d < best && c.z < person->centre.z + 100.0) {
			best = d;
			owner = (int)p;
		}
	}
	return owner;
}

/* The hint a headless blob continues: big enough, near where a tracked
 * person was, and that person not found with their head this frame. */
static int
tracker_segmenter_hinted(const TrackerSegmenter *seg, int b, const TrackerSegmentParams *params,
                         const TrackerSegmentHint *hints, guint n_hints)
{
	const Blob *blob = &seg->blobs[b];
	TrackerVec3 c = tracker_segmenter_blob_centre(blob);
	double best = HINT_MAX_MM;
	int hint = -1;

	if (blob->n_pixels < params->min_person_pixels)
		return -1;
	for (guint h = 0; h < n_hints; h++) {
		double d = tracker_vec3_distance(c, hints[h].centre);
		gboolean taken = blob->n_pixels > HINT_GROWTH * hints[h].n_pixels;

		for (guint p = 0; p < seg->n_people && !taken; p++)
			taken = seg->people[p].head.found &&
			        tracker_vec3_distance(seg->people[p].centre, hints[h].centre) <
			                HINT_MAX_MM;
		if (!taken && d < best) {
			best = d;
			hint = (int)h;
		}
	}
	return hint;
}

static void
tracker_segmenter_stats(TrackerSegmenter *seg, const TrackerGrid *grid)
{
	for (guint p = 0; p < seg->n_people; p++) {
		TrackerPerson *person = &seg->people[p];

		person->n_cells = person->n_pixels = 0;
		person->area = 0.0;
		person->centre = tracker_vec3(0, 0, 0);
		person->box[0] = person->box[1] = G_MAXINT;
		person->box[2] = person->box[3] = -1;
	}
	for (int k = 0; k < seg->n; k++) {
		TrackerPerson *p;
		int u = seg->col[k], v = seg->row[k];

		if (seg->labels[k] == 0)
			continue;
		p = &seg->people[seg->labels[k] - 1];
		p->n_cells++;
		p->n_pixels += grid->count[k];
		p->area += grid->count[k] * (grid->z[k] / grid->camera.fx) *
		           (grid->z[k] / grid->camera.fy);
		p->centre = tracker_vec3_add(p->centre, tracker_grid_point(grid, k));
		p->box[0] = MIN(p->box[0], u);
		p->box[1] = MIN(p->box[1], v);
		p->box[2] = MAX(p->box[2], u);
		p->box[3] = MAX(p->box[3], v);
	}
	for (guint p = 0; p < seg->n_people; p++)
		seg->people[p].centre = tracker_vec3_scale(seg->people[p].centre,
		                                           1.0 / MAX(seg->people[p].n_cells, 1u));
}

static int
tracker_segmenter_compare_blobs(const void *a, const void *b, void *data)
{
	const Blob *blobs = data;
	guint x = blobs[*(const int *)a].n_pixels, y = blobs[*(const int *)b].n_pixels;

	return (x < y) - (x > y);
}

/* Headless blobs, biggest first: loose parts of people, or people whose
 * head is out of view or hidden, where a tracked person was. */
static void
tracker_segmenter_headless(TrackerSegmenter *seg, const TrackerFloor *floor,
                           const TrackerSegmentParams *params, const TrackerSegmentHint *hints,
                           guint n_hints)
{
	int *order = seg->order, n = 0;

	for (guint b = 0; b < seg->n_blobs; b++) {
		if (seg->blobs[b].n_heads == 0 && seg->blobs[b].n_cells > 0)
			order[n++] = (int)b;
	}
	g_qsort_with_data(order, n, sizeof(int), tracker_segmenter_compare_blobs, seg->blobs);
	for (int i = 0; i < n; i++) {
		Blob *blob = &seg->blobs[order[i]];
		int owner = tracker_segmenter_owner(seg, floor, blob, hints), hint;
		TrackerPerson *p;

		if (owner >= 0) {
			tracker_segmenter_label_blob(seg, order[i], seg->people[owner].label);
			continue;
		}
		hint = tracker_segmenter_hinted(seg, order[i], params, hints, n_hints);
		if (hint < 0 || (p = tracker_segmenter_add_person(seg, NULL, hint)) == NULL)
			continue;
		tracker_segmenter_label_blob(seg, order[i], p->label);
		/* Its size and place until the cells are counted. */
		p->n_pixels = blob->n_pixels;
		p->centre = tracker_segmenter_blob_centre(blob);
		blob->person = (int)p->label - 1;
	}
}

/* Keeps each person's cells within reach of their head: a person who
 * touches a wall or a cabinet does not take it along. */
static void
tracker_segmenter_trim_reach(TrackerSegmenter *seg, const TrackerGrid *grid,
                             const TrackerFloor *floor)
{
	for (int k = 0; k < seg->n; k++) {
		const TrackerPerson *p;
		TrackerVec3 d;
		double rise, reach;

		if (seg->labels[k] == 0 || !seg->people[seg->labels[k] - 1].head.found)
			continue;
		p = &seg->people[seg->labels[k] - 1];
		reach = REACH_SHARE * (floor->found ? p->head.top_height : DEFAULT_HEIGHT);
		d = tracker_vec3_sub(tracker_grid_point(grid, k), p->head.centre);
		rise = tracker_vec3_dot(d, floor->up);
		d = tracker_vec3_mad(d, floor->up, -rise);
		if (tracker_vec3_dot(d, d) > reach * reach || rise > reach)
			seg->labels[k] = 0;
	}
}

/* Whether @p is a person to report: enough depth pixels, and a new
 * person (not one tracked, found where they were) enough of a body: a
 * hand raised over a tracked person's head has a head's outline, but
 * less surface than a head and shoulders. */
static gboolean
tracker_segmenter_big_enough(const TrackerPerson *p, const TrackerSegmentParams *params)
{
	gboolean tracked = p->hint >= 0 || p->head.hinted;

	return p->n_pixels >= params->min_person_pixels && (tracked || p->area >= NEW_PERSON_MM2);
}

/* Drops people too small to report, keeping labels 1..n dense. */
static void
tracker_segmenter_prune(TrackerSegmenter *seg, const TrackerSegmentParams *params)
{
	guint16 map[TRACKER_SEGMENT_MAX_PEOPLE + 1] = { 0 };
	guint n = 0;

	for (guint p = 0; p < seg->n_people; p++) {
		if (!tracker_segmenter_big_enough(&seg->people[p], params) ||
		    n >= params->max_people)
			continue;
		seg->people[n] = seg->people[p];
		seg->people[n].label = (guint16)(n + 1);
		map[p + 1] = (guint16)(n + 1);
		n++;
	}
	seg->n_people = n;
	for (int k = 0; k < seg->n; k++)
		seg->labels[k] = map[seg->labels[k]];
}

guint
tracker_segmenter_run(TrackerSegmenter *seg, const TrackerGrid *grid, const TrackerFloor *floor,
                      const guint8 *structure, const TrackerSegmentParams *params,
                      const TrackerSegmentHint *hints, guint n_hints)
{
	seg->structure = structure;
	seg->n_heads = 0;
	seg->n_people = 0;
	tracker_segmenter_heights_fill(seg, grid, floor);
	tracker_segmenter_blobs(seg, grid);
	for (guint b = 0; b < seg->n_blobs; b++) {
		/* A head alone is a few hundred pixels. */
		if (seg->blobs[b].n_pixels >= HEAD_MIN_PIXELS)
			tracker_segmenter_heads_in_blob(seg, grid, floor, params, (int)b);
	}
	tracker_segmenter_join_heads(seg, params);
	tracker_segmenter_one_head_each(seg, floor, hints, n_hints);
	tracker_segmenter_hinted_heads(seg, grid, floor, hints, n_hints);
	tracker_segmenter_headed(seg, grid);
	tracker_segmenter_trim_reach(seg, grid, floor);
	tracker_segmenter_stats(seg, grid);
	tracker_segmenter_headless(seg, floor, params, hints, n_hints);
	tracker_segmenter_stats(seg, grid);
	tracker_segmenter_prune(seg, params);
	return seg->n_people;
}
