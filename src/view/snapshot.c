#include "snapshot.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>

#include "base/depth.h"

#define NEAR_MM       500.0
#define FAR_MM        5000.0
#define MARKER_RADIUS 5.0

typedef struct {
	double r, g, b;
} Rgb;

/* Near is warm, far is cool. */
static const guint32 depth_ramp[] = {
	0xff3b1f, 0xff9a1f, 0xf3e43a, 0x6fdc5a, 0x28b6c8, 0x3456d6, 0x2a1f8a,
};

/* Distinct, bright, and far from the depth ramp's greys. */
static const guint32 user_palette[] = {
	0xff4fd8, 0x00e5ff, 0xfff200, 0x7cff4f, 0xff8c1a, 0xb26bff, 0xffffff, 0x4f8cff,
};

/* Bones: pairs of joints. */
static const TrackerJointId bones[][2] = {
	{ TRACKER_JOINT_HEAD, TRACKER_JOINT_NECK },
	{ TRACKER_JOINT_NECK, TRACKER_JOINT_TORSO },
	{ TRACKER_JOINT_NECK, TRACKER_JOINT_LEFT_SHOULDER },
	{ TRACKER_JOINT_NECK, TRACKER_JOINT_RIGHT_SHOULDER },
	{ TRACKER_JOINT_LEFT_SHOULDER, TRACKER_JOINT_LEFT_ELBOW },
	{ TRACKER_JOINT_LEFT_ELBOW, TRACKER_JOINT_LEFT_HAND },
	{ TRACKER_JOINT_RIGHT_SHOULDER, TRACKER_JOINT_RIGHT_ELBOW },
	{ TRACKER_JOINT_RIGHT_ELBOW, TRACKER_JOINT_RIGHT_HAND },
	{ TRACKER_JOINT_TORSO, TRACKER_JOINT_LEFT_HIP },
	{ TRACKER_JOINT_TORSO, TRACKER_JOINT_RIGHT_HIP },
	{ TRACKER_JOINT_LEFT_HIP, TRACKER_JOINT_LEFT_KNEE },
	{ TRACKER_JOINT_LEFT_KNEE, TRACKER_JOINT_LEFT_FOOT },
	{ TRACKER_JOINT_RIGHT_HIP, TRACKER_JOINT_RIGHT_KNEE },
	{ TRACKER_JOINT_RIGHT_KNEE, TRACKER_JOINT_RIGHT_FOOT },
};

static guint32
mix(guint32 a, guint32 b, double t)
{
	guint32 out = 0;

	for (int shift = 0; shift <= 16; shift += 8) {
		double ca = (a >> shift) & 0xff, cb = (b >> shift) & 0xff;
		out |= (guint32)lround(ca + (cb - ca) * t) << shift;
	}
	return out;
}

guint32
snapshot_depth_colour(guint16 mm)
{
	guint n = G_N_ELEMENTS(depth_ramp) - 1;
	double t = CLAMP((mm - NEAR_MM) / (FAR_MM - NEAR_MM), 0.0, 1.0) * n;
	guint k = MIN((guint)t, n - 1);

	return mix(depth_ramp[k], depth_ramp[k + 1], t - k);
}

guint32
snapshot_user_colour(guint user_id)
{
	return user_palette[user_id % G_N_ELEMENTS(user_palette)];
}

/* Cut away: grey and dim, yet still readable as depth. */
guint32
snapshot_faded(guint32 rgb)
{
	guint32 r = rgb >> 16 & 0xff, g = rgb >> 8 & 0xff, b = rgb & 0xff;
	guint32 grey = (r * 30 + g * 59 + b * 11) / 100 * 2 / 5;

	return grey << 16 | grey << 8 | grey;
}

guint32
snapshot_tinted(guint32 rgb, guint user_id)
{
	return mix(rgb, snapshot_user_colour(user_id), 0.55);
}

static guint32
pixel_colour(const SnapshotInput *in, int i)
{
	guint16 mm = in->depth_mm[i];
	guint8 label = in->labels ? in->labels[i] : TRACKER_LABEL_SCENE;
	guint32 rgb;

	if (mm == 0 || label == TRACKER_LABEL_NO_READING)
		return 0x000000;
	rgb = snapshot_depth_colour(mm);
	if (label == TRACKER_LABEL_FLOOR || label == TRACKER_LABEL_BACKGROUND)
		return snapshot_faded(rgb);
	if (label >= TRACKER_LABEL_USER && in->frame != NULL &&
	    (guint)(label - TRACKER_LABEL_USER) < in->frame->n_users)
		return snapshot_tinted(rgb, in->frame->users[label - TRACKER_LABEL_USER].id);
	return rgb;
}

static void
draw_depth(cairo_surface_t *surface, const SnapshotInput *in)
{
	guint8 *data = cairo_image_surface_get_data(surface);
	int stride = cairo_image_surface_get_stride(surface);

	cairo_surface_flush(surface);
	for (int v = 0; v < DEPTH_HEIGHT; v++) {
		guint32 *row = (guint32 *)(gpointer)(data + v * stride);

		for (int u = 0; u < DEPTH_WIDTH; u++)
			row[u] = 0xff000000u | pixel_colour(in, v * DEPTH_WIDTH + u);
	}
	cairo_surface_mark_dirty(surface);
}

static Rgb
rgb(guint32 c)
{
	Rgb out = { (c >> 16 & 0xff) / 255.0, (c >> 8 & 0xff) / 255.0, (c & 0xff) / 255.0 };

	return out;
}

static void
set_colour(cairo_t *cr, guint32 c)
{
	Rgb v = rgb(c);

	cairo_set_source_rgb(cr, v.r, v.g, v.b);
}

static gboolean
joint_shown(const TrackerJoint *j)
{
	return j->confidence > 0.0;
}

static void
draw_bones(cairo_t *cr, const TrackerUser *user)
{
	cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
	for (guint b = 0; b < G_N_ELEMENTS(bones); b++) {
		const TrackerJoint *a = &user->joints[bones[b][0]];
		const TrackerJoint *z = &user->joints[bones[b][1]];

		if (!joint_shown(a) || !joint_shown(z))
			continue;
		cairo_move_to(cr, a->u, a->v);
		cairo_line_to(cr, z->u, z->v);
		set_colour(cr, 0x000000);
		cairo_set_line_width(cr, 5.0);
		cairo_stroke_preserve(cr);
		set_colour(cr, snapshot_user_colour(user->id));
		cairo_set_line_width(cr, 3.0);
		cairo_stroke(cr);
	}
}

/* A filled disc for a confident joint, a ring for a doubtful one. */
static void
draw_marker(cairo_t *cr, const TrackerUser *user, const TrackerJoint *j)
{
	/* Text leaves a current point that an arc would join with a line. */
	cairo_new_path(cr);
	cairo_arc(cr, j->u, j->v, MARKER_RADIUS, 0, 2 * G_PI);
	set_colour(cr, 0x000000);
	cairo_set_line_width(cr, 1.5);
	cairo_stroke_preserve(cr);
	set_colour(cr, snapshot_user_colour(user->id));
	if (j->confidence >= 0.5) {
		cairo_fill(cr);
		return;
	}
	cairo_set_line_width(cr, 2.0);
	cairo_stroke(cr);
}

static void
draw_text(cairo_t *cr, double x, double y, const char *text)
{
	cairo_move_to(cr, x + 1, y + 1);
	set_colour(cr, 0x000000);
	cairo_show_text(cr, text);
	cairo_move_to(cr, x, y);
	set_colour(cr, 0xffffff);
	cairo_show_text(cr, text);
}

/* Names go under the markers: a marker must stay visible where a
 * neighbour's name runs across it. */
static void
draw_skeleton(cairo_t *cr, const TrackerUser *user)
{
	char text[48];

	draw_bones(cr, user);
	cairo_set_font_size(cr, 9.0);
	for (int k = 0; k < TRACKER_N_JOINTS; k++) {
		const TrackerJoint *j = &user->joints[k];

		g_snprintf(text, sizeof(text), "%s %.2f", tracker_joint_name(k), j->confidence);
		if (joint_shown(j))
			draw_text(cr, j->u + MARKER_RADIUS + 3, j->v + 3, text);
	}
	for (int k = 0; k < TRACKER_N_JOINTS; k++) {
		if (joint_shown(&user->joints[k]))
			draw_marker(cr, user, &user->joints[k]);
	}
	if (joint_shown(&user->joints[TRACKER_JOINT_HEAD])) {
		g_snprintf(text, sizeof(text), "user %u", user->id);
		cairo_set_font_size(cr, 13.0);
		draw_text(cr, user->joints[TRACKER_JOINT_HEAD].u - 20,
		          user->joints[TRACKER_JOINT_HEAD].v - 14, text);
	}
}

static void
draw_caption(cairo_t *cr, const SnapshotInput *in)
{
	g_autoptr(GString) text = g_string_new(in->source ? in->source : "");
	guint n_users = in->frame ? in->frame->n_users : 0;

	cairo_rectangle(cr, 0, DEPTH_HEIGHT, DEPTH_WIDTH, SNAPSHOT_CAPTION_HEIGHT);
	set_colour(cr, 0x202020);
	cairo_fill(cr);
	if (in->frame != NULL)
		g_string_append_printf(text, "   frame %" G_GUINT64_FORMAT, in->frame->frame);
	g_string_append_printf(text, "   %u user%s", n_users, n_users == 1 ? "" : "s");
	if (in->tracker_ms >= 0.0)
		g_string_append_printf(text, "   %.2f ms", in->tracker_ms);
	cairo_set_font_size(cr, 14.0);
	draw_text(cr, 8, DEPTH_HEIGHT + 19, text->str);
}

cairo_surface_t *
snapshot_draw(const SnapshotInput *in)
{
	cairo_surface_t *surface = cairo_image_surface_create(
	        CAIRO_FORMAT_RGB24, DEPTH_WIDTH, DEPTH_HEIGHT + SNAPSHOT_CAPTION_HEIGHT);
	cairo_t *cr;

	draw_depth(surface, in);
	cr = cairo_create(surface);
	cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
	for (guint k = 0; in->frame != NULL && k < in->frame->n_users; k++)
		draw_skeleton(cr, &in->frame->users[k]);
	draw_caption(cr, in);
	cairo_destroy(cr);
	return surface;
}

/* The stream cairo writes to, keeping the system's reason for a failure
 * (cairo's own says only "error while writing to output stream"). */
typedef struct {
	FILE *file;
	int error; /* errno of the first failed write, or 0 */
} SnapshotStream;

static cairo_status_t
snapshot_stream_write(void *closure, const unsigned char *data, unsigned int length)
{
	SnapshotStream *stream = closure;

	if (fwrite(data, 1, length, stream->file) == length)
		return CAIRO_STATUS_SUCCESS;
	stream->error = errno ? errno : EIO;
	return CAIRO_STATUS_WRITE_ERROR;
}

static gboolean
snapshot_write_fail(const char *path, const char *why, GError **error)
{
	g_set_error(error, G_IO_ERROR, G_IO_ERROR_FAILED, "%s: cannot write the picture: %s", path,
	            why);
	return FALSE;
}

gboolean
snapshot_write_png(cairo_surface_t *surface, const char *path, GError **error)
{
	SnapshotStream stream = { g_fopen(path, "wb"), 0 };
	cairo_status_t status;

	if (stream.file == NULL)
		return snapshot_write_fail(path, g_strerror(errno), error);
	status = cairo_surface_write_to_png_stream(surface, snapshot_stream_write, &stream);
	if (fclose(stream.file) != 0 && stream.error == 0)
		stream.error = errno;
	if (stream.error != 0)
		return snapshot_write_fail(path, g_strerror(stream.error), error);
	if (status != CAIRO_STATUS_SUCCESS)
		return snapshot_write_fail(path, cairo_status_to_string(status), error);
	return TRUE;
}
