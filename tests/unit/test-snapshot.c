/* Snapshots: pixels at known places show what they should. */
#include <math.h>
#include <string.h>

#include "demo/demo-scene.h"
#include "view/snapshot.h"
#include "testutil.h"
#include "demo/truth.h"

typedef struct {
	DemoScene *scene;
	DepthFrame *depth;
	TrackerFrame frame;
	guint8 *labels;
	cairo_surface_t *surface;
} Fixture;

static void
fixture_setup(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	SnapshotInput in = { 0 };

	f->scene = demo_scene_new_named("routine", 1, NULL);
	f->depth = depth_frame_new();
	f->labels = g_new(guint8, DEPTH_PIXELS);
	demo_scene_render(f->scene, 30, f->depth);
	truth_to_tracker_frame(f->depth->truth, 30, f->depth->time_us, 500, &f->frame);
	truth_to_labels(f->depth->truth, f->depth->mm, &f->frame, f->labels);
	/* One doubtful joint, drawn as a ring. */
	f->frame.users[0].joints[TRACKER_JOINT_LEFT_KNEE].confidence = 0.3;
	in.depth_mm = f->depth->mm;
	in.labels = f->labels;
	in.frame = &f->frame;
	in.source = "demo";
	in.tracker_ms = 1.5;
	f->surface = snapshot_draw(&in);
}

static void
fixture_teardown(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	cairo_surface_destroy(f->surface);
	demo_scene_free(f->scene);
	depth_frame_free(f->depth);
	g_free(f->labels);
}

static guint32
pixel(Fixture *f, int u, int v)
{
	guint8 *data = cairo_image_surface_get_data(f->surface);
	int stride = cairo_image_surface_get_stride(f->surface);

	cairo_surface_flush(f->surface);
	return ((guint32 *)(gpointer)(data + v * stride))[u] & 0xffffff;
}

static const TrackerJoint *
joint(Fixture *f, TrackerJointId j)
{
	return &f->frame.users[0].joints[j];
}

static void
test_marker_colour_at_joint(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	guint32 colour = snapshot_user_colour(f->frame.users[0].id);

	for (int j = 0; j < TRACKER_N_JOINTS; j++) {
		const TrackerJoint *jt = joint(f, j);

		if (j == TRACKER_JOINT_LEFT_KNEE)
			continue;
		g_assert_cmphex(pixel(f, (int)lround(jt->u), (int)lround(jt->v)), ==, colour);
	}
}

static void
test_doubtful_joint_is_a_ring(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	const TrackerJoint *knee = joint(f, TRACKER_JOINT_LEFT_KNEE);
	int u = (int)lround(knee->u), v = (int)lround(knee->v);
	guint32 colour = snapshot_user_colour(f->frame.users[0].id);

	g_assert_cmphex(pixel(f, u + 5, v), ==, colour);
	g_assert_cmphex(pixel(f, u, v), !=, colour);
}

/* The first pixel of a row, left to right, with the given label. */
static int
find_label(Fixture *f, int v, guint8 label)
{
	for (int u = 0; u < DEPTH_WIDTH; u++) {
		if (f->labels[v * DEPTH_WIDTH + u] == label)
			return u;
	}
	return -1;
}

static void
test_background_and_floor_faded(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	int v_wall = 20, v_floor = DEPTH_HEIGHT - 5;
	int u_wall = find_label(f, v_wall, TRACKER_LABEL_BACKGROUND);
	int u_floor = find_label(f, v_floor, TRACKER_LABEL_FLOOR);
	guint32 wall, floor;

	g_assert_cmpint(u_wall, >=, 0);
	g_assert_cmpint(u_floor, >=, 0);
	wall = pixel(f, u_wall, v_wall);
	floor = pixel(f, u_floor, v_floor);
	g_assert_cmphex(
	        wall, ==,
	        snapshot_faded(snapshot_depth_colour(f->depth->mm[v_wall * DEPTH_WIDTH + u_wall])));
	/* Faded means grey. */
	g_assert_cmphex(wall >> 16 & 0xff, ==, wall & 0xff);
	g_assert_cmphex(floor >> 16 & 0xff, ==, floor >> 8 & 0xff);
}

static void
test_user_tinted(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	/* Between the hip and the knee, clear of markers and names. */
	const TrackerJoint *hip = joint(f, TRACKER_JOINT_RIGHT_HIP);
	const TrackerJoint *knee = joint(f, TRACKER_JOINT_RIGHT_KNEE);
	int u = (int)lround((hip->u + knee->u) / 2) - 6, v = (int)lround((hip->v + knee->v) / 2);
	int i = v * DEPTH_WIDTH + u;

	g_assert_cmpuint(f->labels[i], ==, TRACKER_LABEL_USER);
	g_assert_cmphex(
	        pixel(f, u, v), ==,
	        snapshot_tinted(snapshot_depth_colour(f->depth->mm[i]), f->frame.users[0].id));
}

static void
test_no_reading_black(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	for (int i = 0; i < DEPTH_PIXELS; i += 97) {
		int u = i % DEPTH_WIDTH, v = i / DEPTH_WIDTH;

		/* Away from the skeleton's drawing. */
		if (f->depth->mm[i] == 0 && fabs(u - joint(f, TRACKER_JOINT_TORSO)->u) > 120) {
			g_assert_cmphex(pixel(f, u, v), ==, 0x000000);
			return;
		}
	}
	g_assert_not_reached();
}

static guint
white_pixels(Fixture *f, int u0, int v0, int u1, int v1)
{
	guint n = 0;

	for (int v = v0; v < v1; v++) {
		for (int u = u0; u < u1; u++)
			n += pixel(f, u, v) == 0xffffff;
	}
	return n;
}

static void
test_names_and_caption_written(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	const TrackerJoint *hand = joint(f, TRACKER_JOINT_LEFT_HAND);
	int u = (int)lround(hand->u), v = (int)lround(hand->v);

	g_assert_cmpint(cairo_image_surface_get_height(f->surface), ==,
	                DEPTH_HEIGHT + SNAPSHOT_CAPTION_HEIGHT);
	g_assert_cmpuint(white_pixels(f, u + 8, v - 8, u + 80, v + 6), >, 20);
	g_assert_cmpuint(
	        white_pixels(f, 0, DEPTH_HEIGHT, 300, DEPTH_HEIGHT + SNAPSHOT_CAPTION_HEIGHT), >,
	        50);
	g_assert_cmphex(pixel(f, DEPTH_WIDTH - 3, DEPTH_HEIGHT + 3), ==, 0x202020);
}

static void
test_write_png(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *path = g_build_filename(dir, "shot.png", NULL);
	g_autofree char *bad = g_build_filename(dir, "missing", "shot.png", NULL);
	g_autofree char *contents = NULL;
	g_autoptr(GError) error = NULL;
	gsize len = 0;

	g_assert_true(snapshot_write_png(f->surface, path, &error));
	g_assert_no_error(error);
	g_assert_true(g_file_get_contents(path, &contents, &len, NULL));
	g_assert_cmpmem(contents, 8, "\x89PNG\r\n\x1a\n", 8);
	g_assert_false(snapshot_write_png(f->surface, bad, &error));
	g_assert_true(g_str_has_prefix(error->message, bad));
	testutil_rmdir(dir);
}

#define ADD(path, func) g_test_add(path, Fixture, NULL, fixture_setup, func, fixture_teardown)

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	ADD("/snapshot/marker-colour-at-joint", test_marker_colour_at_joint);
	ADD("/snapshot/doubtful-joint-is-a-ring", test_doubtful_joint_is_a_ring);
	ADD("/snapshot/background-and-floor-faded", test_background_and_floor_faded);
	ADD("/snapshot/user-tinted", test_user_tinted);
	ADD("/snapshot/no-reading-black", test_no_reading_black);
	ADD("/snapshot/names-and-caption-written", test_names_and_caption_written);
	ADD("/snapshot/write-png", test_write_png);
	return g_test_run();
}
