#include "depth.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* libfreenect's zero-plane defaults (registration.c). */
#define CONST_SHIFT      200.0
#define PARAMETER_COEFF  4.0
#define S2D_CONST_OFFSET 0.375
#define REF_PIXEL_SIZE   0.1042 /* mm */
#define REF_DISTANCE     120.0  /* mm */
#define EMITTER_DISTANCE 7.5    /* cm */
#define SHIFT_SCALE      10.0

typedef struct {
	guint16 raw_to_mm[DEPTH_RAW_MAX + 1];
	guint16 mm_to_raw[DEPTH_MM_MAX + 1];
} DepthTables;

double
depth_raw_to_mm_exact(double raw)
{
	double fixed_ref_x =
	        (raw - PARAMETER_COEFF * CONST_SHIFT) / PARAMETER_COEFF - S2D_CONST_OFFSET;
	double metric = fixed_ref_x * REF_PIXEL_SIZE;

	return SHIFT_SCALE * (metric * REF_DISTANCE / (EMITTER_DISTANCE - metric) + REF_DISTANCE);
}

double
depth_mm_to_raw_exact(double mm)
{
	double d = mm / SHIFT_SCALE - REF_DISTANCE;
	double metric = EMITTER_DISTANCE * d / (REF_DISTANCE + d);
	double fixed_ref_x = metric / REF_PIXEL_SIZE;

	return (fixed_ref_x + S2D_CONST_OFFSET) * PARAMETER_COEFF + PARAMETER_COEFF * CONST_SHIFT;
}

static guint16
table_value(guint raw)
{
	double mm;

	if (raw >= DEPTH_RAW_NONE)
		return 0;
	mm = depth_raw_to_mm_exact(raw);
	/* Past the pole the formula turns negative: libfreenect's cast is
	 * undefined there, we call it no reading. */
	if (mm < 0.0)
		return 0;
	return mm >= DEPTH_MM_MAX ? DEPTH_MM_MAX : (guint16)floor(mm);
}

/* Every millimetre value gets the raw value whose table entry is nearest;
 * a value that is in the table gets the first raw value producing it. The
 * table rises monotonically from raw 0 up to the pole, then holds zeros. */
static void
build_inverse(DepthTables *t)
{
	guint n_valid = 0;
	guint r = 0;

	while (n_valid < DEPTH_RAW_NONE && t->raw_to_mm[n_valid] != 0)
		n_valid++;
	t->mm_to_raw[0] = DEPTH_RAW_NONE;
	for (guint mm = 1; mm <= DEPTH_MM_MAX; mm++) {
		guint best;

		while (r + 1 < n_valid && t->raw_to_mm[r] < mm)
			r++;
		best = r;
		if (t->raw_to_mm[r] != mm && r > 0 &&
		    mm - t->raw_to_mm[r - 1] < (guint)abs((int)t->raw_to_mm[r] - (int)mm))
			best = r - 1;
		t->mm_to_raw[mm] = best;
	}
}

static gpointer
build_tables(gpointer data G_GNUC_UNUSED)
{
	DepthTables *t = g_new0(DepthTables, 1);

	for (guint raw = 0; raw <= DEPTH_RAW_MAX; raw++)
		t->raw_to_mm[raw] = table_value(raw);
	build_inverse(t);
	return t;
}

static const DepthTables *
depth_tables(void)
{
	static GOnce once = G_ONCE_INIT;

	g_once(&once, build_tables, NULL);
	return once.retval;
}

guint16
depth_raw_to_mm(guint16 raw)
{
	return raw > DEPTH_RAW_MAX ? 0 : depth_tables()->raw_to_mm[raw];
}

const guint16 *
depth_raw_to_mm_table(void)
{
	return depth_tables()->raw_to_mm;
}

guint16
depth_mm_to_raw(guint16 mm)
{
	return depth_tables()->mm_to_raw[MIN(mm, DEPTH_MM_MAX)];
}

void
depth_convert_raw_to_mm(const guint16 *raw, guint16 *mm, gsize n)
{
	const guint16 *table = depth_tables()->raw_to_mm;

	for (gsize i = 0; i < n; i++)
		mm[i] = raw[i] > DEPTH_RAW_MAX ? 0 : table[raw[i]];
}

void
depth_convert_mm_to_raw(const guint16 *mm, guint16 *raw, gsize n)
{
	const guint16 *table = depth_tables()->mm_to_raw;

	for (gsize i = 0; i < n; i++)
		raw[i] = table[MIN(mm[i], DEPTH_MM_MAX)];
}

DepthFrame *
depth_frame_new(void)
{
	DepthFrame *frame = g_new0(DepthFrame, 1);

	frame->mm = g_new0(guint16, DEPTH_PIXELS);
	frame->raw = g_new(guint16, DEPTH_PIXELS);
	for (gsize i = 0; i < DEPTH_PIXELS; i++)
		frame->raw[i] = DEPTH_RAW_NONE;
	return frame;
}

void
depth_frame_free(DepthFrame *frame)
{
	if (frame == NULL)
		return;
	g_free(frame->mm);
	g_free(frame->raw);
	g_free(frame);
}

void
depth_frame_copy(DepthFrame *dest, const DepthFrame *src)
{
	memcpy(dest->mm, src->mm, DEPTH_PIXELS * sizeof(guint16));
	memcpy(dest->raw, src->raw, DEPTH_PIXELS * sizeof(guint16));
	dest->number = src->number;
	dest->skipped = src->skipped;
	dest->timestamp = src->timestamp;
	dest->time_us = src->time_us;
	dest->still = src->still;
	dest->truth = NULL;
}
