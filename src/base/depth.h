/* Depth frames and libfreenect's raw-to-millimetre conversion.
 *
 * A Kinect v1 reports 11-bit raw disparity values (2047 = no reading);
 * libfreenect turns them into millimetres with one table built from the
 * device's zero-plane constants. We build the same table from the
 * documented defaults so that a live Kinect, a fakenect dump and our own
 * recordings all give the same millimetres. */
#pragma once

#include <glib.h>

#define DEPTH_WIDTH    640
#define DEPTH_HEIGHT   480
#define DEPTH_PIXELS   (DEPTH_WIDTH * DEPTH_HEIGHT)
#define DEPTH_RAW_MAX  2047  /* one past the largest raw value */
#define DEPTH_RAW_NONE 2047  /* raw value for "no reading" */
#define DEPTH_MM_MAX   10000 /* libfreenect caps millimetres here */

struct _DemoTruth;

/* One depth frame. Both arrays are DEPTH_PIXELS long, row-major, row 0 at
 * the top; mm is 0 where there is no reading, raw is DEPTH_RAW_NONE there. */
typedef struct {
	guint16 *mm;
	guint16 *raw;
	guint64 number; /* frames delivered by this source, from 0 */
	/* Frames a live source let newer ones replace since the last it delivered. */
	guint64 skipped;
	guint32 timestamp; /* the device's own timestamp */
	gint64 time_us;    /* frame time in microseconds on the source's clock */
	/* Unrelated to the frame before (raw stills): trackers start afresh. */
	gboolean still;
	/* The scene's truth, when the source knows it (the demo), or NULL. */
	const struct _DemoTruth *truth;
} DepthFrame;

/** depth_frame_new: a frame with both arrays allocated and empty. */
DepthFrame *depth_frame_new(void);
void depth_frame_free(DepthFrame *frame);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(DepthFrame, depth_frame_free)

/** depth_frame_copy: copies pixels and metadata (not the truth pointer). */
void depth_frame_copy(DepthFrame *dest, const DepthFrame *src);

/**
 * depth_raw_to_mm_exact:
 * libfreenect's formula before rounding: raw shift value to millimetres.
 * Only meaningful below the pole near raw 1089 where the formula diverges.
 */
double depth_raw_to_mm_exact(double raw);

/** depth_mm_to_raw_exact: the inverse of depth_raw_to_mm_exact. */
double depth_mm_to_raw_exact(double mm);

/**
 * depth_raw_to_mm:
 * The table lookup: floor of the formula, capped at DEPTH_MM_MAX, and 0 for
 * DEPTH_RAW_NONE and for values past the formula's pole.
 */
guint16 depth_raw_to_mm(guint16 raw);

/** depth_raw_to_mm_table: the whole table, DEPTH_RAW_MAX + 1 entries, for hot loops. */
const guint16 *depth_raw_to_mm_table(void);

/**
 * depth_mm_to_raw:
 * A raw value that depth_raw_to_mm() turns back into @mm when @mm is one of
 * the table's values (so mm -> raw -> mm is lossless for any libfreenect
 * output), otherwise the raw value whose millimetres are nearest.
 * 0 mm gives DEPTH_RAW_NONE.
 */
guint16 depth_mm_to_raw(guint16 mm);

void depth_convert_raw_to_mm(const guint16 *raw, guint16 *mm, gsize n);
void depth_convert_mm_to_raw(const guint16 *mm, guint16 *raw, gsize n);
