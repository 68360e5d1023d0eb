#include "demo-sensor.h"

#include <math.h>
#include <string.h>

#include "depth.h"

#define NEAR_MM         450.0  /* the Kinect reads nothing nearer */
#define FAR_MM          9000.0 /* nor farther */
#define DISPARITY_SIGMA 0.33   /* raw units */
#define GRAZING_COS     0.30   /* dropouts start below this |cos| */

/* The Kinect model. Its noise is the plain model's split into a part
 * shared by neighbouring pixels and a part of each pixel's own. */
#define SHARED_SIGMA 0.30 /* raw units, over NOISE_CELL pixels */
#define PIXEL_SIGMA  0.15
#define NOISE_CELL   8
#define BLOB_CELL    3    /* px: the size of holes and of bumps on edges */
#define EDGE_JUMP    0.06 /* a neighbour nearer by this share of its depth */
#define EDGE_MIN_MM  40.0

/* What happens beside an edge, as shares of the pixels there: the near
 * surface bleeds outwards, the far one breaks up, a few pixels read in
 * between, and the near surface's own rim loses some readings. */
#define BLEED_1 0.30 /* one pixel out */
#define HOLE_1  0.25
#define FLY_1   0.06
#define BLEED_2 0.10 /* two pixels out */
#define HOLE_2  0.08
#define RIM     0.18

/* A field of values in [0, 1) on a grid of cells, drawn anew each frame. */
typedef struct {
	int cell, width, height;
	float *values;
} Field;

struct _DemoSensor {
	DemoSensorModel model;
	gboolean noise;
	double fx;
	float *drawn;         /* the depth as drawn, before edges change it */
	float *near1, *near2; /* nearest depth within 1 and 2 pixels */
	float *far1;          /* farthest within 1 pixel */
	float *scratch;       /* between the passes of a separable filter */
	Field blobs, holes, ripple;
};

static inline guint64
splitmix64(guint64 *state)
{
	guint64 z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Random bits for pixel @i under @seed, in any order. */
static inline guint64
pixel_bits(guint64 seed, int i)
{
	guint64 state = seed ^ ((guint64)i * 0xd1b54a32d192ed03ULL);

	return splitmix64(&state);
}

static double
unit(guint64 bits)
{
	return (bits >> 11) * (1.0 / 9007199254740992.0);
}

/* Irwin-Hall: four 12-bit uniforms make a near-Gaussian of unit variance. */
static double
gaussian(guint64 bits)
{
	double sum = (bits & 0xfff) + ((bits >> 12) & 0xfff) + ((bits >> 24) & 0xfff) +
	             ((bits >> 36) & 0xfff);

	return (sum / 4096.0 - 2.0) * sqrt(3.0);
}

/* ---- the plain model ---- */

/* Points the projector cannot light: scanning a row from the right, a
 * point is in shadow when something to its right lands at or left of it in
 * the projector's view. */
static void
cast_shadow(float *z_all, double fx)
{
	double fb = fx * DEMO_PROJECTOR_BASELINE_MM;

	for (int v = 0; v < DEPTH_HEIGHT; v++) {
		float *z = z_all + v * DEPTH_WIDTH;
		double min_up = INFINITY;

		for (int u = DEPTH_WIDTH - 1; u >= 0; u--) {
			double up;

			if (!isfinite(z[u]))
				continue;
			up = u - fb / z[u];
			if (up >= min_up)
				z[u] = NAN;
			else
				min_up = up;
		}
	}
}

/* @raw_exact is the disparity of @z before noise and rounding. */
static guint16
sense_pixel(float z, double raw_exact, float cosine, guint64 bits, gboolean noise)
{
	double raw = raw_exact;

	if (!(z >= NEAR_MM && z <= FAR_MM))
		return DEPTH_RAW_NONE;
	if (noise) {
		/* Irwin-Hall: four uniforms make a near-Gaussian. */
		double g = ((bits & 0xfff) + ((bits >> 12) & 0xfff) + ((bits >> 24) & 0xfff) +
		            ((bits >> 36) & 0xfff)) /
		                   4096.0 -
		           2.0;
		double drop = (bits >> 48) / 65536.0;

		if (cosine < GRAZING_COS && drop < 0.85 * (GRAZING_COS - cosine) / GRAZING_COS)
			return DEPTH_RAW_NONE;
		raw += DISPARITY_SIGMA * sqrt(3.0) * g;
	}
	/* Positive here, so truncating rounds. */
	if (raw < 0.0 || raw >= DEPTH_RAW_NONE - 0.5)
		return DEPTH_RAW_NONE;
	return (guint16)(raw + 0.5);
}

static double
exact_raw(const DemoSensorView *view, int i)
{
	/* The room's disparity is known; only what moves needs working out. */
	return view->z[i] == view->room_z[i] ? view->room_raw[i]
	                                     : depth_mm_to_raw_exact(view->z[i]);
}

static void
read_plain(const DemoSensor *s, DemoSensorView *view, guint64 seed, guint16 *raw, guint16 *mm)
{
	const guint16 *table = depth_raw_to_mm_table();
	guint64 state = seed * 0x2545f4914f6cdd1dULL + 0x1234567;

	if (s->noise)
		cast_shadow(view->z, s->fx);
	for (int i = 0; i < DEPTH_PIXELS; i++) {
		raw[i] = sense_pixel(view->z[i], exact_raw(view, i), view->cosine[i],
		                     splitmix64(&state), s->noise);
		mm[i] = table[raw[i]];
		if (mm[i] == 0)
			raw[i] = DEPTH_RAW_NONE;
	}
}

/* ---- fields ---- */

static void
field_init(Field *f, int cell)
{
	f->cell = cell;
	f->width = DEPTH_WIDTH / cell + 3;
	f->height = DEPTH_HEIGHT / cell + 3;
	f->values = g_new(float, f->width * f->height);
}

static void
field_fill(Field *f, guint64 seed)
{
	for (int k = 0; k < f->width * f->height; k++)
		f->values[k] = (float)unit(pixel_bits(seed, k));
}

/* The value of the cell a pixel falls in, the pixel moved by up to one
 * pixel at random first, so that blobs get ragged outlines. Every pixel
 * takes one cell's value: shares of the field below a level are shares of
 * pixels. */
static float
field_blob(const Field *f, int u, int v, guint64 bits)
{
	int du = (int)(bits & 3) - 1, dv = (int)((bits >> 2) & 3) - 1;
	int cu = (u + du + f->cell) / f->cell, cv = (v + dv + f->cell) / f->cell;

	return f->values[cv * f->width + cu];
}

static double
smooth_weight(double x)
{
	return x * x * (3.0 - 2.0 * x);
}

/* A smooth field, centred on zero: values interpolated between cells. */
static double
field_smooth(const Field *f, int u, int v)
{
	double x = (double)u / f->cell, y = (double)v / f->cell;
	int cu = (int)x, cv = (int)y;
	double wx = smooth_weight(x - cu), wy = smooth_weight(y - cv);
	const float *row0 = f->values + cv * f->width + cu, *row1 = row0 + f->width;
	double top = row0[0] + (row0[1] - row0[0]) * wx;
	double bottom = row1[0] + (row1[1] - row1[0]) * wx;

	return top + (bottom - top) * wy - 0.5;
}

/* ---- edges ---- */

/* One pass of a min (or max) filter of @radius along rows (@step 1) or
 * columns (@step DEPTH_WIDTH); NaN (no reading) takes no part. */
static void
filter_pass(const float *src, float *dst, int radius, int step, gboolean take_max)
{
	int along = step == 1 ? DEPTH_WIDTH : DEPTH_HEIGHT;

	for (int i = 0; i < DEPTH_PIXELS; i++) {
		int pos = step == 1 ? i % DEPTH_WIDTH : i / DEPTH_WIDTH;
		float best = src[i];

		for (int d = -radius; d <= radius; d++) {
			if (d == 0 || pos + d < 0 || pos + d >= along)
				continue;
			best = take_max ? fmaxf(best, src[i + d * step])
			                : fminf(best, src[i + d * step]);
		}
		dst[i] = best;
	}
}

static void
filter_square(DemoSensor *s, float *dst, int radius, gboolean take_max)
{
	filter_pass(s->drawn, s->scratch, radius, 1, take_max);
	filter_pass(s->scratch, dst, radius, DEPTH_WIDTH, take_max);
}

static gboolean
nearer(float near, float z)
{
	return near < z - fmaxf(EDGE_MIN_MM, near * EDGE_JUMP);
}

/* The reading at a pixel beside an edge, from what was drawn there (@z)
 * and nearby. */
static float
edge_pixel(const DemoSensor *s, int i, float z, float blob, guint64 bits)
{
	if (nearer(s->near1[i], z)) {
		if (blob < BLEED_1)
			return s->near1[i];
		if (blob < BLEED_1 + HOLE_1)
			return NAN;
		if (unit(bits) < FLY_1 && isfinite(z))
			return s->near1[i] + (z - s->near1[i]) * (float)unit(bits * 3);
		return z;
	}
	if (nearer(s->near2[i], z)) {
		if (blob < BLEED_2)
			return s->near2[i];
		return blob < BLEED_2 + HOLE_2 ? NAN : z;
	}
	if (isfinite(z) && !nearer(z, s->far1[i]))
		return z;
	return blob < RIM && isfinite(z) ? NAN : z;
}

static void
ragged_edges(DemoSensor *s, float *z, guint64 seed)
{
	memcpy(s->drawn, z, DEPTH_PIXELS * sizeof(float));
	filter_square(s, s->near1, 1, FALSE);
	filter_square(s, s->near2, 2, FALSE);
	filter_square(s, s->far1, 1, TRUE);
	field_fill(&s->blobs, seed ^ 0xed9e5);
	for (int i = 0; i < DEPTH_PIXELS; i++) {
		guint64 bits = pixel_bits(seed, i);

		if (isnan(s->drawn[i]))
			continue;
		z[i] = edge_pixel(s, i, s->drawn[i],
		                  field_blob(&s->blobs, i % DEPTH_WIDTH, i / DEPTH_WIDTH, bits),
		                  bits >> 8);
	}
}

/* ---- holes and the reading ---- */

static double
grazing_loss(float cosine)
{
	return cosine < GRAZING_COS ? 0.85 * (GRAZING_COS - cosine) / GRAZING_COS : 0.0;
}

/* Readings lost in blobs: on what the material loses and where the
 * surface is seen at a grazing angle. */
static void
holes(DemoSensor *s, DemoSensorView *view, guint64 seed)
{
	field_fill(&s->holes, seed ^ 0x401e5);
	for (int i = 0; i < DEPTH_PIXELS; i++) {
		double keep = (1.0 - view->loss[i]) * (1.0 - grazing_loss(view->cosine[i]));
		guint64 bits = pixel_bits(seed ^ 0x401e5, i);

		if (keep < 1.0 &&
		    field_blob(&s->holes, i % DEPTH_WIDTH, i / DEPTH_WIDTH, bits) >= keep)
			view->z[i] = NAN;
	}
}

static gboolean
in_border(DemoSensorModel model, int u, int v, guint64 bits)
{
	if (model == DEMO_SENSOR_KINECT)
		return u >= DEPTH_WIDTH - DEMO_SENSOR_RIGHT_BAND;
	if (u < DEMO_SENSOR_REGISTERED_LEFT || u >= DEPTH_WIDTH - DEMO_SENSOR_REGISTERED_RIGHT ||
	    v < DEMO_SENSOR_REGISTERED_TOP)
		return TRUE;
	/* The bottom rows thin out towards the edge. */
	return v >= DEPTH_HEIGHT - DEMO_SENSOR_REGISTERED_BOTTOM &&
	       unit(bits) < (v - (DEPTH_HEIGHT - DEMO_SENSOR_REGISTERED_BOTTOM) + 1.0) /
	                            (DEMO_SENSOR_REGISTERED_BOTTOM + 1.0);
}

static guint16
quantise(float z, double raw)
{
	if (!(z >= NEAR_MM && z <= FAR_MM) || raw < 0.0 || raw >= DEPTH_RAW_NONE - 0.5)
		return DEPTH_RAW_NONE;
	return (guint16)(raw + 0.5);
}

static void
read_kinect(DemoSensor *s, DemoSensorView *view, guint64 seed, guint16 *raw, guint16 *mm)
{
	const guint16 *table = depth_raw_to_mm_table();

	cast_shadow(view->z, s->fx);
	ragged_edges(s, view->z, seed);
	holes(s, view, seed);
	field_fill(&s->ripple, seed ^ 0x41991e);
	for (int i = 0; i < DEPTH_PIXELS; i++) {
		int u = i % DEPTH_WIDTH, v = i / DEPTH_WIDTH;
		guint64 bits = pixel_bits(seed ^ 0x5e75e, i);
		double noise = SHARED_SIGMA * 2.0 * sqrt(3.0) * field_smooth(&s->ripple, u, v) +
		               PIXEL_SIGMA * gaussian(bits);

		raw[i] = DEPTH_RAW_NONE;
		if (!in_border(s->model, u, v, bits >> 50) && isfinite(view->z[i]))
			raw[i] = quantise(view->z[i], exact_raw(view, i) + noise);
		mm[i] = table[raw[i]];
		if (mm[i] == 0)
			raw[i] = DEPTH_RAW_NONE;
	}
}

/* ---- the sensor ---- */

DemoSensor *
demo_sensor_new(DemoSensorModel model, gboolean noise, double fx)
{
	DemoSensor *s = g_new0(DemoSensor, 1);

	s->model = noise ? model : DEMO_SENSOR_PLAIN;
	s->noise = noise;
	s->fx = fx;
	if (s->model == DEMO_SENSOR_PLAIN)
		return s;
	s->drawn = g_new(float, DEPTH_PIXELS);
	s->near1 = g_new(float, DEPTH_PIXELS);
	s->near2 = g_new(float, DEPTH_PIXELS);
	s->far1 = g_new(float, DEPTH_PIXELS);
	s->scratch = g_new(float, DEPTH_PIXELS);
	field_init(&s->blobs, BLOB_CELL);
	field_init(&s->holes, BLOB_CELL);
	field_init(&s->ripple, NOISE_CELL);
	return s;
}

void
demo_sensor_free(DemoSensor *s)
{
	if (s == NULL)
		return;
	g_free(s->drawn);
	g_free(s->near1);
	g_free(s->near2);
	g_free(s->far1);
	g_free(s->scratch);
	g_free(s->blobs.values);
	g_free(s->holes.values);
	g_free(s->ripple.values);
	g_free(s);
}

void
demo_sensor_read(DemoSensor *s, DemoSensorView *view, guint64 seed, guint16 *raw, guint16 *mm)
{
	if (s->model == DEMO_SENSOR_PLAIN)
		read_plain(s, view, seed, raw, mm);
	else
		read_kinect(s, view, seed, raw, mm);
}
