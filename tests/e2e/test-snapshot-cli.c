/* End to end: skelbridge snapshot writes PNGs that show, at known pixels,
 * what the tracker saw: joint markers in their user's colour where the
 * joints are, cut-away floor and background faded, users tinted. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "demo/demo-scene.h"
#include "skeletons/skeletons.h"
#include "view/snapshot.h"
#include "sources/source.h"
#include "testutil.h"
#include "demo/truth.h"

/* The demo frame the binary pictures, as the test renders it itself. */
typedef struct {
	DemoScene *scene;
	DepthFrame *depth;
	TrackerFrame frame;
	guint8 labels[DEPTH_PIXELS];
} Expected;

static Expected *
expected_demo(const char *scene, guint n)
{
	Expected *e = g_new0(Expected, 1);
	g_autoptr(GError) error = NULL;

	e->scene = demo_scene_new_named(scene, 1, &error);
	g_assert_no_error(error);
	e->depth = depth_frame_new();
	demo_scene_render(e->scene, n, e->depth);
	truth_to_tracker_frame(e->depth->truth, n, e->depth->time_us, SKELETONS_TRUTH_MIN_PIXELS,
	                       &e->frame);
	truth_to_labels(e->depth->truth, e->depth->mm, &e->frame, e->labels);
	return e;
}

static void
expected_free(Expected *e)
{
	demo_scene_free(e->scene);
	depth_frame_free(e->depth);
	g_free(e);
}
G_DEFINE_AUTOPTR_CLEANUP_FUNC(Expected, expected_free)

static void
snapshot(TestutilSpawned *s, const char *const *args)
{
	g_autoptr(GPtrArray) argv = g_ptr_array_new();

	g_ptr_array_add(argv, (gpointer)testutil_binary());
	g_ptr_array_add(argv, "snapshot");
	for (guint i = 0; args[i] != NULL; i++)
		g_ptr_array_add(argv, (gpointer)args[i]);
	g_ptr_array_add(argv, NULL);
	testutil_spawn(s, (const char *const *)argv->pdata);
}

static cairo_surface_t *
load_png(const char *path)
{
	cairo_surface_t *surface = cairo_image_surface_create_from_png(path);

	g_assert_cmpint(cairo_surface_status(surface), ==, CAIRO_STATUS_SUCCESS);
	g_assert_cmpint(cairo_image_surface_get_width(surface), ==, DEPTH_WIDTH);
	g_assert_cmpint(cairo_image_surface_get_height(surface), ==,
	                DEPTH_HEIGHT + SNAPSHOT_CAPTION_HEIGHT);
	return surface;
}

static guint32
pixel(cairo_surface_t *surface, double u, double v)
{
	guint8 *data = cairo_image_surface_get_data(surface);
	int stride = cairo_image_surface_get_stride(surface);

	return ((guint32 *)(gpointer)(data + (int)lround(v) * stride))[(int)lround(u)] & 0xffffff;
}

/* A picture of frame @n of a demo scene with its true skeletons. */
static cairo_surface_t *
snapshot_demo(const char *dir, const char *scene, guint n)
{
	g_autofree char *path = g_build_filename(dir, "shot.png", NULL);
	g_autofree char *spec = g_strconcat("demo:", scene, NULL);
	g_autofree char *frame = g_strdup_printf("%u", n);
	const char *args[] = { "--source", spec,  "--skeletons", "truth",
		               "--frame",  frame, path,          NULL };
	g_autofree char *listed = g_strconcat(path, "\n", NULL);
	g_auto(TestutilSpawned) s = { 0 };

	snapshot(&s, args);
	g_assert_cmpint(s.status, ==, 0);
	g_assert_cmpstr(s.out, ==, listed);
	return load_png(path);
}

static void
test_demo_joint_markers(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autoptr(Expected) e = expected_demo("routine", 30);
	cairo_surface_t *surface = snapshot_demo(dir, "routine", 30);
	const TrackerUser *user = &e->frame.users[0];

	g_assert_cmpuint(e->frame.n_users, ==, 1);
	for (int j = 0; j < TRACKER_N_JOINTS; j++) {
		g_assert_cmpfloat(user->joints[j].confidence, >=, 0.5);
		g_assert_cmphex(pixel(surface, user->joints[j].u, user->joints[j].v), ==,
		                snapshot_user_colour(user->id));
	}
	cairo_surface_destroy(surface);
	testutil_rmdir(dir);
}

/* The first pixel of row @v with @label, from the left. */
static int
find_label(const Expected *e, int v, guint8 label)
{
	for (int u = 0; u < DEPTH_WIDTH; u++) {
		if (e->labels[v * DEPTH_WIDTH + u] == label)
			return u;
	}
	g_assert_not_reached();
}

static void
assert_faded(cairo_surface_t *surface, const Expected *e, int v, guint8 label)
{
	int u = find_label(e, v, label);
	guint32 shown = pixel(surface, u, v);

	g_assert_cmphex(shown, ==,
	                snapshot_faded(snapshot_depth_colour(e->depth->mm[v * DEPTH_WIDTH + u])));
	g_assert_cmphex(shown >> 16, ==, shown & 0xff);
}

static void
test_demo_cut_away_faded(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autoptr(Expected) e = expected_demo("routine", 30);
	cairo_surface_t *surface = snapshot_demo(dir, "routine", 30);

	assert_faded(surface, e, 20, TRACKER_LABEL_BACKGROUND);
	assert_faded(surface, e, DEPTH_HEIGHT - 2, TRACKER_LABEL_FLOOR);
	cairo_surface_destroy(surface);
	testutil_rmdir(dir);
}

static void
test_demo_user_tinted(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autoptr(Expected) e = expected_demo("routine", 30);
	cairo_surface_t *surface = snapshot_demo(dir, "routine", 30);
	const TrackerUser *user = &e->frame.users[0];
	const TrackerJoint *hip = &user->joints[TRACKER_JOINT_RIGHT_HIP];
	const TrackerJoint *knee = &user->joints[TRACKER_JOINT_RIGHT_KNEE];
	/* On the thigh, clear of bones, markers and names. */
	int u = (int)lround((hip->u + knee->u) / 2) - 6, v = (int)lround((hip->v + knee->v) / 2);

	g_assert_cmpuint(e->labels[v * DEPTH_WIDTH + u], ==, TRACKER_LABEL_USER);
	g_assert_cmphex(pixel(surface, u, v), ==,
	                snapshot_tinted(snapshot_depth_colour(e->depth->mm[v * DEPTH_WIDTH + u]),
	                                user->id));
	cairo_surface_destroy(surface);
	testutil_rmdir(dir);
}

static char *
record(const char *dir, const char *scene, const char *frames)
{
	g_autofree char *dump = g_build_filename(dir, "dump", NULL);
	const char *argv[] = { testutil_binary(), "record", "--source", scene, "--fast",
		               "--frames",        frames,   dump,       NULL };
	g_auto(TestutilSpawned) s = { 0 };

	testutil_spawn(&s, argv);
	g_assert_cmpint(s.status, ==, 0);
	return g_strconcat("replay:", dump, NULL);
}

/* "\"NAME\":{...\"u\":U,\"v\":V,\"confidence\":C}" in a track --json line. */
static gboolean
json_joint(const char *line, const char *name, TrackerJoint *joint)
{
	g_autofree char *key = g_strdup_printf("\"%s\":{", name);
	const char *at = strstr(line, key);

	if (at == NULL)
		return FALSE;
	at = strstr(at, "\"u\":");
	g_assert_nonnull(at);
	g_assert_cmpint(sscanf(at, "\"u\":%lf,\"v\":%lf,\"confidence\":%lf", &joint->u, &joint->v,
	                       &joint->confidence),
	                ==, 3);
	return TRUE;
}

/* The joints `skelbridge track` reports for frame @n of @spec. */
static guint
tracked_joints(const char *spec, guint n, TrackerJoint *joints, guint *id)
{
	const char *argv[] = { testutil_binary(), "track", "--source", spec, "--json", NULL };
	g_auto(TestutilSpawned) s = { 0 };
	g_auto(GStrv) lines = NULL;
	guint found = 0;

	testutil_spawn(&s, argv);
	g_assert_cmpint(s.status, ==, 0);
	lines = g_strsplit(s.out, "\n", -1);
	g_assert_cmpuint(g_strv_length(lines), >, n);
	g_assert_cmpint(
	        sscanf(lines[n], "{\"frame\":%*u,\"timestamp\":%*u,\"users\":[{\"id\":%u", id), ==,
	        1);
	for (int j = 0; j < TRACKER_N_JOINTS; j++) {
		joints[j].confidence = 0;
		found += json_joint(lines[n], tracker_joint_name(j), &joints[j]);
	}
	return found;
}

/* Markers drawn later cover earlier ones that are close. */
static gboolean
marker_clear(const TrackerJoint *joints, int j)
{
	for (int k = j + 1; k < TRACKER_N_JOINTS; k++) {
		if (joints[k].confidence > 0 &&
		    hypot(joints[k].u - joints[j].u, joints[k].v - joints[j].v) < 8)
			return FALSE;
	}
	return TRUE;
}

/* The share of pixels labelled @label that show @label's colour. */
static double
share_shown(cairo_surface_t *surface, const DepthFrame *depth, const guint8 *labels,
            const TrackerFrame *frame, guint8 label)
{
	guint n = 0, shown = 0;

	for (int i = 0; i < DEPTH_PIXELS; i++) {
		guint32 colour;

		if (labels[i] != label || depth->mm[i] == 0)
			continue;
		colour = snapshot_depth_colour(depth->mm[i]);
		if (label == TRACKER_LABEL_FLOOR || label == TRACKER_LABEL_BACKGROUND)
			colour = snapshot_faded(colour);
		else if (label >= TRACKER_LABEL_USER)
			colour = snapshot_tinted(colour,
			                         frame->users[label - TRACKER_LABEL_USER].id);
		n++;
		shown += pixel(surface, i % DEPTH_WIDTH, i / DEPTH_WIDTH) == colour;
	}
	g_assert_cmpuint(n, >, 1000);
	g_test_message("label %u: %u of %u pixels shown", label, shown, n);
	return shown / (double)n;
}

/* The tracker's own labels for frame @n of @spec, run here as the binary
 * runs it, show in the picture: the user tinted, floor and walls faded.
 * Skeletons and names cover part of the user. */
static void
assert_tracker_labels(cairo_surface_t *surface, const char *spec, guint n)
{
	g_autoptr(Source) source = NULL;
	g_autoptr(Skeletons) skeletons = NULL;
	g_autoptr(GError) error = NULL;
	g_autofree guint8 *labels = g_malloc(DEPTH_PIXELS);
	const DepthFrame *depth = NULL;
	TrackerFrame frame;

	source = source_open(spec, &(SourceOptions){ .fast = TRUE }, &error);
	g_assert_no_error(error);
	skeletons = skeletons_open("tracker", &error);
	g_assert_no_error(error);
	for (guint k = 0; k <= n; k++) {
		depth = source_read(source, &error);
		g_assert_nonnull(depth);
		skeletons_process(skeletons, depth, &frame, NULL);
	}
	g_assert_true(skeletons_get_labels(skeletons, depth, &frame, labels));
	g_assert_cmpuint(frame.n_users, ==, 1);
	g_assert_cmpfloat(share_shown(surface, depth, labels, &frame, TRACKER_LABEL_USER), >, 0.5);
	g_assert_cmpfloat(share_shown(surface, depth, labels, &frame, TRACKER_LABEL_FLOOR), >,
	                  0.95);
	g_assert_cmpfloat(share_shown(surface, depth, labels, &frame, TRACKER_LABEL_BACKGROUND), >,
	                  0.95);
}

/* A recording through the tracker: markers where `skelbridge track` puts
 * the joints, the tracker's labels in the picture. */
static void
test_replay_tracker(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *spec = record(dir, "demo:poses", "12");
	g_autofree char *path = g_build_filename(dir, "shot.png", NULL);
	const char *args[] = { "--source", spec, "--frame", "10", path, NULL };
	g_auto(TestutilSpawned) s = { 0 };
	TrackerJoint joints[TRACKER_N_JOINTS];
	cairo_surface_t *surface;
	guint id, checked = 0;

	g_assert_cmpuint(tracked_joints(spec, 10, joints, &id), >=, 10);
	snapshot(&s, args);
	g_assert_cmpint(s.status, ==, 0);
	surface = load_png(path);
	for (int j = 0; j < TRACKER_N_JOINTS; j++) {
		if (joints[j].confidence < 0.5 || !marker_clear(joints, j))
			continue;
		g_assert_cmphex(pixel(surface, joints[j].u, joints[j].v), ==,
		                snapshot_user_colour(id));
		checked++;
	}
	g_assert_cmpuint(checked, >=, 8);
	assert_tracker_labels(surface, spec, 10);
	cairo_surface_destroy(surface);
	testutil_rmdir(dir);
}

static guint
count_files(const char *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	guint n = 0;

	g_assert_nonnull(d);
	while (g_dir_read_name(d) != NULL)
		n++;
	return n;
}

static void
assert_picture(const char *dir, const char *name)
{
	g_autofree char *path = g_build_filename(dir, name, NULL);

	cairo_surface_destroy(load_png(path));
}

static void
test_every_count(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *shots = g_build_filename(dir, "shots", NULL);
	const char *args[] = { "--source", "demo:poses", "--skeletons", "truth", "--frame", "2",
		               "--every",  "5",          "--count",     "3",     shots,     NULL };
	g_auto(TestutilSpawned) s = { 0 };
	g_auto(GStrv) lines = NULL;

	snapshot(&s, args);
	g_assert_cmpint(s.status, ==, 0);
	g_assert_cmpuint(count_files(shots), ==, 3);
	assert_picture(shots, "frame-000002.png");
	assert_picture(shots, "frame-000007.png");
	assert_picture(shots, "frame-000012.png");
	lines = g_strsplit(s.out, "\n", -1);
	g_assert_cmpuint(g_strv_length(lines), ==, 4);
	g_assert_true(g_str_has_suffix(lines[2], "frame-000012.png"));
	testutil_rmdir(dir);
}

static void
test_every_until_end(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *spec = record(dir, "demo:poses", "5");
	g_autofree char *shots = g_build_filename(dir, "shots", NULL);
	const char *args[] = { "--source", spec, "--every", "2", shots, NULL };
	g_auto(TestutilSpawned) s = { 0 };

	snapshot(&s, args);
	g_assert_cmpint(s.status, ==, 0);
	g_assert_cmpuint(count_files(shots), ==, 3);
	assert_picture(shots, "frame-000000.png");
	assert_picture(shots, "frame-000002.png");
	assert_picture(shots, "frame-000004.png");
	testutil_rmdir(dir);
}

static void
test_error_past_the_end(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *spec = record(dir, "demo:poses", "5");
	g_autofree char *path = g_build_filename(dir, "shot.png", NULL);
	const char *args[] = { "--source", spec, "--frame", "50", path, NULL };
	g_auto(TestutilSpawned) s = { 0 };

	snapshot(&s, args);
	g_assert_cmpint(WEXITSTATUS(s.status), ==, 1);
	g_assert_nonnull(strstr(s.err, "the source ended after 5 frames, before frame 50"));
	g_assert_false(g_file_test(path, G_FILE_TEST_EXISTS));
	testutil_rmdir(dir);
}

static void
test_error_usage(void)
{
	const char *none[] = { "--source", "demo:poses", NULL };
	const char *count[] = { "--count", "3", "out.png", NULL };
	g_auto(TestutilSpawned) a = { 0 };
	g_auto(TestutilSpawned) b = { 0 };

	snapshot(&a, none);
	g_assert_cmpint(WEXITSTATUS(a.status), ==, 2);
	g_assert_nonnull(strstr(a.err, "give one OUT"));
	snapshot(&b, count);
	g_assert_cmpint(WEXITSTATUS(b.status), ==, 2);
	g_assert_nonnull(strstr(b.err, "--count goes with --every"));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/snapshot-cli/demo/joint-markers", test_demo_joint_markers);
	g_test_add_func("/snapshot-cli/demo/cut-away-faded", test_demo_cut_away_faded);
	g_test_add_func("/snapshot-cli/demo/user-tinted", test_demo_user_tinted);
	g_test_add_func("/snapshot-cli/replay/tracker", test_replay_tracker);
	g_test_add_func("/snapshot-cli/every/count", test_every_count);
	g_test_add_func("/snapshot-cli/every/until-end", test_every_until_end);
	g_test_add_func("/snapshot-cli/error/past-the-end", test_error_past_the_end);
	g_test_add_func("/snapshot-cli/error/usage", test_error_usage);
	return g_test_run();
}
