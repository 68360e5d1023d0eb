/* Pictures of what the tracker sees: the depth image in false colour, users
 * tinted by id, each skeleton with joint names and confidences, the floor
 * and background that were cut away shown faded, and a caption. Drawn
 * with cairo; used by `skelbridge snapshot` and the live view. */
#pragma once

#include <cairo.h>
#include <gio/gio.h>

#include "tracker/tracker-types.h"

#define SNAPSHOT_CAPTION_HEIGHT 28

typedef struct {
	const guint16 *depth_mm;   /* DEPTH_PIXELS, 0 = no reading */
	const guint8 *labels;      /* TRACKER_LABEL_* per pixel, or NULL */
	const TrackerFrame *frame; /* skeletons, or NULL */
	const char *source;        /* for the caption */
	double tracker_ms;         /* for the caption; < 0 to leave out */
} SnapshotInput;

/** snapshot_draw: a new 640 x (480 + caption) ARGB image. */
cairo_surface_t *snapshot_draw(const SnapshotInput *input);

/** snapshot_write_png: writes @surface to @path. */
gboolean snapshot_write_png(cairo_surface_t *surface, const char *path, GError **error);

/* The colours, exposed for tests: 0xRRGGBB. */
guint32 snapshot_depth_colour(guint16 mm);
guint32 snapshot_user_colour(guint user_id);
guint32 snapshot_faded(guint32 rgb);
guint32 snapshot_tinted(guint32 rgb, guint user_id);
