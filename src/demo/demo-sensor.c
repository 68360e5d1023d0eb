#include "demo-sensor.h"

#include <math.h>
#include <string.h>

#include "base/depth.h"
#include "base/stats.h"

#define NEAR_MM         450.0  /* the Kinect reads nothing nearer */
#define FAR_MM          9000.0 /* nor farther */
#define DISPARITY_SIGMA 0.33   /* raw units */
#define GRAZING_COS     0.30   /* dropouts start below this |cos| */

/* The Kinect model. Its noise is the plain model's split into a part
 * shared by neighbouring pixels and a part of each pixel's own. */
#define SHARED_SIGMA 0.30 /* raw units, over NOISE_CELL pixels */
#define PIXEL_SIGMA  0.15
#define NOISE_CELL   8
#define EDGE_CELL    7    /* px: the length of bumps along an edge */
#define HOLE_CELL    6    /* px: the size of holes */
#define PATCH_CELL   32   /* px: holes come in patches of about this size */
#define EDGE_JUMP    0.06 /* a neighbour nearer by this share of its depth */
#define EDGE_MIN_MM  40.0
#define EDGE_REACH   4      /* px: how far the near surface may bleed */
#define GRAZING_LOSS 0.6    /* the share lost at a grazing angle of 90 degrees */
#define FADE_MM      4500.0 /* the pattern fades beyond this: readings thin out... */
#define FADE_LOSS    0.10   /* ...losing this share more with every metre */
#define FLY          0.15   /* the share of pixels beside an edge that read in between */
#define N_LEVELS     256

/* What happens beside an edge, by the distance from it: shares of pixels
 * where the near surface bleeds outwards over the far one, where the far
 * one reads nothing, and where the near surface's own rim reads nothing.
 * One smooth field decides all three, so an edge bulges out in one place
 * and recedes, leaving a gap, in another, as real edges do. */
static const double edge_bleed[EDGE_REACH + 1] = { 0.0, 0.45, 0.28, 0.14, 0.05 };
static const double edge_gap[EDGE_REACH + 1] = { 0.0, 0.35, 0.18, 0.06, 0.0 };
static const double edge_rim[EDGE_REACH + 1] = { 0.0, 0.22, 0.10, 0.03, 0.0 };
/* The projector's shadow has as ragged an outline: beside it a share of
 * readings goes missing, and a share of the shadow reads after all. */
static const double shadow_grows[EDGE_REACH + 1] = { 0.0, 0.30, 0.12, 0.0, 0.0 };
#define SHADOW_SHRINKS 0.25

/* A smooth field on a grid of cells, drawn anew each frame. */
typedef struct {
	int cell, width, height;
	float *values;
} Field;

struct _DemoSensor {
	DemoSensorModel model;
	gboolean noise;
	double fx;
	float *drawn;           /* the depth as drawn, before edges change it */
	guint8 *mark, *scratch; /* pixels near a step in depth */
	Field edges, holes, patches, ripple;
	/* The field's value below which a share k / (N_LEVELS - 1) of
	 * pixels fall: smooth fields are not uniform. */
	float levels[N_LEVELS];
	/* The levels for the shares beside an edge. */
	float bleed_level[EDGE_REACH + 1], gap_level[EDGE_REACH + 1], rim_level[EDGE_REACH + 1];
	float shadow_level[EDGE_REACH + 1], shrink_level;
	/* The pixels d away, ring after ring, as offsets in the image. */
	int ring_offsets[4 * EDGE_REACH * (EDGE_REACH + 1)];
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

/* The same for depth registered to the colour camera: the picture is
 * seen from the colour camera, which sits between the infrared camera and
 * the projector. A point reads when the projector, @to_projector mm to
 * the +x, lights it and the infrared camera, @to_camera mm to the -x,
 * sees it: a band on the image-left side of things and a narrower one on
 * their right. */
static void
cast_shadows_registered(float *z_all, double fx, double to_projector, double to_camera)
{
	for (int v = 0; v < DEPTH_HEIGHT; v++) {
		float *z = z_all + v * DEPTH_WIDTH;
		double min_up = INFINITY, max_uc = -INFINITY;

		for (int u = DEPTH_WIDTH - 1; u >= 0; u--) {
			double up = u - fx * to_projector / z[u];

			if (!isfinite(z[u]))
				continue;
			if (up >= min_up)
				z[u] = NAN;
			else
				min_up = up;
		}
		for (int u = 0; u < DEPTH_WIDTH; u++) {
			double uc = u + fx * to_camera / z[u];

			if (!isfinite(z[u]))
				continue;
			if (uc <= max_uc)
				z[u] = NAN;
			else
				max_uc = uc;
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

static double
smooth_weight(double x)
{
	return x * x * (3.0 - 2.0 * x);
}

/* The field at a pixel, in [0, 1): values interpolated between cells. */
static double
field_at(const Field *f, int u, int v)
{
	double x = (double)u / f->cell, y = (double)v / f->cell;
	int cu = (int)x, cv = (int)y;
	double wx = smooth_weight(x - cu), wy = smooth_weight(y - cv);
	const float *row0 = f->values + cv * f->width + cu, *row1 = row0 + f->width;
	double top = row0[0] + (row0[1] - row0[0]) * wx;
	double bottom = row1[0] + (row1[1] - row1[0]) * wx;

	return top + (bottom - top) * wy;
}

/* A row of the field: field_at() for every pixel of row @v. */
static void
field_row(const Field *f, int v, float *row)
{
	double y = (double)v / f->cell;
	int cv = (int)y;
	double wy = smooth_weight(y - cv);
	const float *row0 = f->values + cv * f->width, *row1 = row0 + f->width;

	for (int u = 0; u < DEPTH_WIDTH; u++) {
		int cu = u / f->cell;
		double wx = smooth_weight((double)(u - cu * f->cell) / f->cell);
		double top = row0[cu] + (row0[cu + 1] - row0[cu]) * wx;
		double bottom = row1[cu] + (row1[cu + 1] - row1[cu]) * wx;

		row[u] = (float)(top + (bottom - top) * wy);
	}
}

/* The levels of a field of @cell, from a sample of one frame's. */
static void
field_levels(float *levels, int cell)
{
	Field f;
	GArray *sample = g_array_new(FALSE, FALSE, sizeof(double));

	field_init(&f, cell);
	field_fill(&f, 0x1e7e15);
	for (int v = 0; v < DEPTH_HEIGHT; v += 3) {
		for (int u = 0; u < DEPTH_WIDTH; u += 3) {
			double x = field_at(&f, u, v);

			g_array_append_val(sample, x);
		}
	}
	stats_sort((double *)sample->data, sample->len);
	for (int k = 0; k < N_LEVELS; k++)
		levels[k] = (float)g_array_index(sample, double,
		                                 (sample->len - 1) * k / (N_LEVELS - 1));
	g_array_free(sample, TRUE);
	g_free(f.values);
}

/* The field's value below which a share @share of pixels fall. */
static float
level(const DemoSensor *s, double share)
{
	if (share <= 0.0)
		return -1.0f;
	if (share >= 1.0)
		return 2.0f;
	return s->levels[(int)(share * (N_LEVELS - 1) + 0.5)];
}

/* ---- edges ---- */

/* Whether @near is an edge in front of @z. */
static inline gboolean
nearer(float near, float z)
{
	return near < z - MAX((float)EDGE_MIN_MM, near * (float)EDGE_JUMP);
}

/* A step in depth, or the edge of the projector's shadow (NaN). */
static inline gboolean
step(float a, float b)
{
	return nearer(a, b) || nearer(b, a) || isnan(a) != isnan(b);
}

/* Marks pixels on either side of a step in depth. */
static void
find_steps(const float *z, guint8 *mark)
{
	memset(mark, 0, DEPTH_PIXELS);
	for (int v = 0; v < DEPTH_HEIGHT; v++) {
		for (int u = 0; u < DEPTH_WIDTH; u++) {
			int i = v * DEPTH_WIDTH + u;

			if (u + 1 < DEPTH_WIDTH && step(z[i], z[i + 1]))
				mark[i] = mark[i + 1] = 1;
			if (v + 1 < DEPTH_HEIGHT && step(z[i], z[i + DEPTH_WIDTH]))
				mark[i] = mark[i + DEPTH_WIDTH] = 1;
		}
	}
}

/* Grows the marks by @reach pixels in every direction (a square). */
static void
grow_marks(guint8 *mark, guint8 *scratch, int reach)
{
	memset(scratch, 0, DEPTH_PIXELS);
	for (int i = 0; i < DEPTH_PIXELS; i++) {
		int u = i % DEPTH_WIDTH;

		if (mark[i])
			memset(scratch + i - MIN(u, reach), 1,
			       MIN(u, reach) + 1 + MIN(DEPTH_WIDTH - 1 - u, reach));
	}
	memset(mark, 0, DEPTH_PIXELS);
	for (int i = 0; i < DEPTH_PIXELS; i++) {
		int v = i / DEPTH_WIDTH;

		if (!scratch[i])
			continue;
		for (int dv = -MIN(v, reach); dv <= MIN(DEPTH_HEIGHT - 1 - v, reach); dv++)
			mark[i + dv * DEPTH_WIDTH] = 1;
	}
}

/* Pixels without a reading take no part in the nearest and farthest
 * (comparisons with NaN are false). */
/* What lies around a pixel: nearest and farthest depth, and whether
 * there is a pixel without a reading, within d pixels for d from 1 to
 * EDGE_REACH. */
typedef struct {
	float near[EDGE_REACH + 1], far[EDGE_REACH + 1];
	gboolean unread[EDGE_REACH + 1];
} Around;

static void
neighbourhood_slow(const float *z, int u, int v, Around *a)
{
	for (int d = 1; d <= EDGE_REACH; d++) {
		a->near[d] = INFINITY;
		a->far[d] = -INFINITY;
		a->unread[d] = FALSE;
	}
	for (int dv = -EDGE_REACH; dv <= EDGE_REACH; dv++) {
		if (v + dv < 0 || v + dv >= DEPTH_HEIGHT)
			continue;
		for (int du = -EDGE_REACH; du <= EDGE_REACH; du++) {
			int ring = MAX(ABS(du), ABS(dv));
			float x;

			if (ring == 0 || u + du < 0 || u + du >= DEPTH_WIDTH)
				continue;
			x = z[(v + dv) * DEPTH_WIDTH + u + du];
			a->near[ring] = x < a->near[ring] ? x : a->near[ring];
			a->far[ring] = x > a->far[ring] ? x : a->far[ring];
			a->unread[ring] |= isnan(x);
		}
	}
}

/* The same away from the image's border, ring by ring through a table of
 * offsets: this runs for every pixel near an edge. */
static void
neighbourhood(const DemoSensor *s, const float *z, int u, int v, Around *a)
{
	const float *centre = z + v * DEPTH_WIDTH + u;
	int k = 0;

	if (u < EDGE_REACH || v < EDGE_REACH || u >= DEPTH_WIDTH - EDGE_REACH ||
	    v >= DEPTH_HEIGHT - EDGE_REACH) {
		neighbourhood_slow(z, u, v, a);
	} else {
		for (int d = 1; d <= EDGE_REACH; d++) {
			float lo = INFINITY, hi = -INFINITY;
			gboolean unread = FALSE;

			for (int n = 0; n < 8 * d; n++, k++) {
				float x = centre[s->ring_offsets[k]];

				lo = x < lo ? x : lo;
				hi = x > hi ? x : hi;
				unread |= isnan(x);
			}
			a->near[d] = lo;
			a->far[d] = hi;
			a->unread[d] = unread;
		}
	}
	for (int d = 2; d <= EDGE_REACH; d++) {
		a->near[d] = MIN(a->near[d], a->near[d - 1]);
		a->far[d] = MAX(a->far[d], a->far[d - 1]);
		a->unread[d] |= a->unread[d - 1];
	}
}

static void
ring_offsets(int *offsets)
{
	int k = 0;

	for (int d = 1; d <= EDGE_REACH; d++) {
		for (int dv = -d; dv <= d; dv++) {
			for (int du = -d; du <= d; du++) {
				if (MAX(ABS(du), ABS(dv)) == d)
					offsets[k++] = dv * DEPTH_WIDTH + du;
			}
		}
	}
}

/* The reading at a pixel that sees @z, @f the edge field there. */
/* A pixel in the projector's shadow reads what is beside it, sometimes;
 * beside the thing that casts it, a few read in between. */
static float
shadow_pixel(const DemoSensor *s, const Around *a, double f, guint64 bits)
{
	float near = a->near[1], far = a->far[EDGE_REACH];

	if (isfinite(near) && isfinite(far) && nearer(near, far) && unit(bits) < FLY)
		return near + (far - near) * (float)unit(bits * 3);
	return isfinite(a->far[1]) && f >= s->shrink_level ? a->far[1] : NAN;
}

static float
edge_pixel(const DemoSensor *s, float z, const Around *a, double f, guint64 bits)
{
	if (isnan(z))
		return shadow_pixel(s, a, f, bits);
	for (int d = 1; d <= EDGE_REACH; d++) {
		if (!nearer(a->near[d], z))
			continue;
		if (d == 1 && isfinite(z) && unit(bits) < FLY)
			return a->near[d] + (z - a->near[d]) * (float)unit(bits * 3);
		if (f >= s->bleed_level[d])
			return a->near[d];
		return f < s->gap_level[d] ? NAN : z;
	}
	for (int d = 1; d < EDGE_REACH && isfinite(z); d++) {
		if (nearer(z, a->far[d]))
			return f < s->rim_level[d] ? NAN : z;
	}
	for (int d = 1; d <= EDGE_REACH; d++) {
		if (a->unread[d])
			return f < s->shadow_level[d] ? NAN : z;
	}
	return z;
}

static void
ragged_edges(DemoSensor *s, float *z, guint64 seed)
{
	memcpy(s->drawn, z, DEPTH_PIXELS * sizeof(float));
	find_steps(s->drawn, s->mark);
	grow_marks(s->mark, s->scratch, EDGE_REACH);
	field_fill(&s->edges, seed ^ 0xed9e5);
	for (int i = 0; i < DEPTH_PIXELS; i++) {
		int u = i % DEPTH_WIDTH, v = i / DEPTH_WIDTH;
		Around around;

		if (!s->mark[i])
			continue;
		neighbourhood(s, s->drawn, u, v, &around);
		z[i] = edge_pixel(s, s->drawn[i], &around, field_at(&s->edges, u, v),
		                  pixel_bits(seed, i));
	}
}

/* ---- holes and the reading ---- */

static double
grazing_loss(float cosine)
{
	return cosine < GRAZING_COS ? GRAZING_LOSS * (GRAZING_COS - cosine) / GRAZING_COS : 0.0;
}

static double
range_loss(float z)
{
	return z > FADE_MM ? MIN(0.6, FADE_LOSS * (z - FADE_MM) / 1000.0) : 0.0;
}

/* Readings lost in blobs: on what the material loses and where the
 * surface is seen at a grazing angle. The blobs gather in patches, some
 * places losing up to twice the share and others none, as on real cloth. */
static void
holes(DemoSensor *s, DemoSensorView *view, guint64 seed)
{
	float hole_row[DEPTH_WIDTH], patch_row[DEPTH_WIDTH];

	field_fill(&s->holes, seed ^ 0x401e5);
	field_fill(&s->patches, seed ^ 0x9a7c4);
	for (int v = 0; v < DEPTH_HEIGHT; v++) {
		field_row(&s->holes, v, hole_row);
		field_row(&s->patches, v, patch_row);
		for (int u = 0; u < DEPTH_WIDTH; u++) {
			int i = v * DEPTH_WIDTH + u;
			double keep = (1.0 - view->loss[i]) *
			              (1.0 - grazing_loss(view->cosine[i])) *
			              (1.0 - range_loss(view->z[i]));
			double patch = CLAMP(1.0 + 4.0 * (patch_row[u] - 0.5), 0.0, 2.0);

			if (keep < 1.0 && hole_row[u] < level(s, MIN(1.0, (1.0 - keep) * patch)))
				view->z[i] = NAN;
		}
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

	if (s->model == DEMO_SENSOR_REGISTERED)
		cast_shadows_registered(view->z, s->fx, DEMO_SENSOR_RGB_TO_PROJECTOR_MM,
		                        DEMO_SENSOR_RGB_TO_CAMERA_MM);
	else
		cast_shadow(view->z, s->fx);
	ragged_edges(s, view->z, seed);
	holes(s, view, seed);
	field_fill(&s->ripple, seed ^ 0x41991e);
	for (int v = 0; v < DEPTH_HEIGHT; v++) {
		float ripple[DEPTH_WIDTH];

		field_row(&s->ripple, v, ripple);
		for (int u = 0; u < DEPTH_WIDTH; u++) {
			int i = v * DEPTH_WIDTH + u;
			guint64 bits = pixel_bits(seed ^ 0x5e75e, i);
			/* A smooth field's standard deviation is about 0.215. */
			double noise = SHARED_SIGMA / 0.215 * (ripple[u] - 0.5) +
			               PIXEL_SIGMA * gaussian(bits);

			raw[i] = DEPTH_RAW_NONE;
			if (!in_border(s->model, u, v, bits >> 50) && isfinite(view->z[i]))
				raw[i] = quantise(view->z[i], exact_raw(view, i) + noise);
			mm[i] = table[raw[i]];
			if (mm[i] == 0)
				raw[i] = DEPTH_RAW_NONE;
		}
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
	s->mark = g_new(guint8, DEPTH_PIXELS);
	s->scratch = g_new(guint8, DEPTH_PIXELS);
	/* One cell size's levels serve both fields: the shape of a smooth
	 * field's spread does not depend on its cells' size. */
	field_init(&s->edges, EDGE_CELL);
	field_init(&s->holes, HOLE_CELL);
	field_init(&s->patches, PATCH_CELL);
	field_init(&s->ripple, NOISE_CELL);
	field_levels(s->levels, EDGE_CELL);
	ring_offsets(s->ring_offsets);
	s->shrink_level = level(s, 1.0 - SHADOW_SHRINKS);
	for (int d = 1; d <= EDGE_REACH; d++) {
		s->bleed_level[d] = level(s, 1.0 - edge_bleed[d]);
		s->gap_level[d] = level(s, edge_gap[d]);
		s->rim_level[d] = level(s, edge_rim[d]);
		s->shadow_level[d] = level(s, shadow_grows[d]);
	}
	return s;
}

void
demo_sensor_free(DemoSensor *s)
{
	if (s == NULL)
		return;
	g_free(s->drawn);
	g_free(s->mark);
	g_free(s->scratch);
	g_free(s->edges.values);
	g_free(s->holes.values);
	g_free(s->patches.values);
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
