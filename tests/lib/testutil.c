#include "testutil.h"

#include <glib/gstdio.h>
#include <math.h>
#include <stdlib.h>

#include "base/stats.h"
#include "demo/demo-scene.h"
#include "sources/dump.h"
#include "skeletons/skeletons.h"
#include "demo/truth.h"

char *
testutil_tmpdir(void)
{
	g_autoptr(GError) error = NULL;
	char *dir = g_dir_make_tmp("skelbridge-test-XXXXXX", &error);

	g_assert_no_error(error);
	return dir;
}

void
testutil_rmdir(const char *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	const char *name;

	if (d == NULL)
		return;
	while ((name = g_dir_read_name(d)) != NULL) {
		g_autofree char *path = g_build_filename(dir, name, NULL);

		if (g_file_test(path, G_FILE_TEST_IS_DIR))
			testutil_rmdir(path);
		else
			g_unlink(path);
	}
	g_rmdir(dir);
}

void
testutil_pattern(guint n, guint16 *raw)
{
	for (guint i = 0; i < DEPTH_PIXELS; i++)
		raw[i] = (guint16)((i * 7 + n * 13) % 1000 + 400);
	raw[n % DEPTH_PIXELS] = DEPTH_RAW_NONE;
}

void
testutil_write_dump(const char *dir, guint n, double interval)
{
	g_autoptr(GError) error = NULL;
	g_autofree guint16 *raw = g_new(guint16, DEPTH_PIXELS);
	DumpWriter *writer = dump_writer_new(dir, &error);

	g_assert_no_error(error);
	for (guint k = 0; k < n; k++) {
		testutil_pattern(k, raw);
		dump_writer_add(writer, 1000.0 + k * interval, 100000 + k * 1000, raw, &error);
		g_assert_no_error(error);
	}
	dump_writer_close(writer, &error);
	g_assert_no_error(error);
}

void
testutil_write_file(const char *path, const void *data, gsize len)
{
	g_autoptr(GError) error = NULL;

	g_file_set_contents(path, data, len, &error);
	g_assert_no_error(error);
}

double
testutil_noise(guint32 *state)
{
	*state = *state * 1664525u + 1013904223u;
	return (*state >> 8) / (double)(1u << 23) - 1.0;
}

#define KINECT_PATCH_PX     8
#define KINECT_SHARED_STEPS 0.5
#define KINECT_PIXEL_STEPS  0.26

void
testutil_kinect_init(TestutilKinect *k, int width, int height)
{
	k->state = 12345;
	k->scale = 0.0;
	k->patches = width / KINECT_PATCH_PX;
	k->n_patches = k->patches * (height / KINECT_PATCH_PX);
	k->patch = g_new0(double, k->n_patches);
}

void
testutil_kinect_clear(TestutilKinect *k)
{
	g_clear_pointer(&k->patch, g_free);
}

void
testutil_kinect_frame(TestutilKinect *k, double scale)
{
	k->scale = scale;
	for (int p = 0; p < k->n_patches; p++)
		k->patch[p] = scale * KINECT_SHARED_STEPS * testutil_noise(&k->state);
}

guint16
testutil_kinect_read(TestutilKinect *k, int u, int v, double z, double max_mm)
{
	if (z > 0.0 && k->scale > 0.0) {
		double shared = k->patch[(v / KINECT_PATCH_PX) * k->patches + u / KINECT_PATCH_PX];
		double steps = 1.0 / (TESTUTIL_KINECT_STEP * z) + shared +
		               k->scale * KINECT_PIXEL_STEPS * testutil_noise(&k->state);

		z = 1.0 / (TESTUTIL_KINECT_STEP * round(steps));
	}
	return z > 0.0 && z < max_mm ? (guint16)lround(z) : 0;
}

double
testutil_percentile(double *values, guint n, double p)
{
	stats_sort(values, n);
	return values[(guint)MIN(n - 1, p * n)];
}

gint64
testutil_wait_ms(guint ms)
{
	return (gint64)ms * (g_getenv("SKELBRIDGE_WRAPPER") != NULL ? 10 : 1);
}

const char *
testutil_binary(void)
{
	/* The valgrind test setup runs skelbridge through a wrapper. */
	const char *wrapper = g_getenv("SKELBRIDGE_WRAPPER");
	const char *path = wrapper != NULL ? wrapper : g_getenv("SKELBRIDGE");

	g_assert_nonnull(path);
	return path;
}

void
testutil_load_raw(const char *path, guint16 *mm)
{
	g_autoptr(GError) error = NULL;
	g_autofree char *data = NULL;
	gsize len = 0;

	g_file_get_contents(path, &data, &len, &error);
	g_assert_no_error(error);
	g_assert_cmpuint(len, ==, DEPTH_PIXELS * 2);
	for (gsize i = 0; i < DEPTH_PIXELS; i++) {
		const guint8 *p = (const guint8 *)data + 2 * i;

		mm[i] = (guint16)(p[0] | (p[1] << 8));
	}
}

const char *
testutil_real_kinect_dir(void)
{
	const char *dir = g_getenv("SKELBRIDGE_REAL_KINECT");

	if (dir == NULL || !g_file_test(dir, G_FILE_TEST_IS_DIR))
		return NULL;
	return dir;
}

static int
testutil_compare_strings(gconstpointer a, gconstpointer b)
{
	return g_strcmp0(*(char *const *)a, *(char *const *)b);
}

char **
testutil_real_kinect_files(const char *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	GPtrArray *files = g_ptr_array_new();
	const char *name;

	while (d != NULL && (name = g_dir_read_name(d)) != NULL) {
		if (g_str_has_prefix(name, "depth-data-"))
			g_ptr_array_add(files, g_build_filename(dir, name, NULL));
	}
	g_ptr_array_sort(files, testutil_compare_strings);
	g_ptr_array_add(files, NULL);
	return (char **)g_ptr_array_free(files, FALSE);
}

const char *
testutil_real_rooms_dir(void)
{
	const char *dir = g_getenv("SKELBRIDGE_REAL_ROOMS");

	if (dir == NULL || !g_file_test(dir, G_FILE_TEST_IS_DIR))
		return NULL;
	return dir;
}

char **
testutil_real_rooms_files(const char *dir)
{
	g_autoptr(GDir) d = g_dir_open(dir, 0, NULL);
	GPtrArray *files = g_ptr_array_new();
	const char *name;

	while (d != NULL && (name = g_dir_read_name(d)) != NULL) {
		if (g_str_has_suffix(name, ".raw"))
			g_ptr_array_add(files, g_build_filename(dir, name, NULL));
	}
	g_ptr_array_sort(files, testutil_compare_strings);
	g_ptr_array_add(files, NULL);
	return (char **)g_ptr_array_free(files, FALSE);
}

char *
testutil_real_rooms_marks(void)
{
	const char *root = g_getenv("SKELBRIDGE_SOURCE_ROOT");

	if (root == NULL)
		return NULL;
	return g_build_filename(root, "tests", "data", "real-rooms.csv", NULL);
}

void
testutil_spawned_clear(TestutilSpawned *s)
{
	g_clear_pointer(&s->out, g_free);
	g_clear_pointer(&s->err, g_free);
}

void
testutil_spawn(TestutilSpawned *s, const char *const *argv)
{
	g_autoptr(GError) error = NULL;

	g_spawn_sync(NULL, (char **)argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &s->out, &s->err,
	             &s->status, &error);
	g_assert_no_error(error);
	g_test_message("%s: %s", argv[0], s->err);
}

guint64
testutil_summary_count(const char *err, const char *before, const char *after)
{
	g_autofree char *pattern = g_strdup_printf("^skelbridge: %s([0-9]+)%s", before, after);
	g_autoptr(GRegex) regex = g_regex_new(pattern, G_REGEX_MULTILINE, 0, NULL);
	g_autoptr(GMatchInfo) match = NULL;
	g_autofree char *digits = NULL;

	if (!g_regex_match(regex, err, 0, &match))
		return 0;
	digits = g_match_info_fetch(match, 1);
	return g_ascii_strtoull(digits, NULL, 10);
}

TrackerFrame *
testutil_scene_frames(const char *scene, guint n)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(DemoScene) demo = demo_scene_new_named(scene, 1, &error);
	g_autoptr(DepthFrame) depth = depth_frame_new();
	TrackerFrame *frames = g_new0(TrackerFrame, n);

	g_assert_no_error(error);
	for (guint k = 0; k < n; k++) {
		demo_scene_render(demo, k, depth);
		truth_to_tracker_frame(depth->truth, k, depth->time_us, SKELETONS_TRUTH_MIN_PIXELS,
		                       &frames[k]);
	}
	return frames;
}

DemoScene *
testutil_scene_new(const char *name)
{
	g_autoptr(GError) error = NULL;
	DemoScene *scene = demo_scene_new_named(name, 1, &error);

	g_assert_no_error(error);
	return scene;
}

const DemoTruthPerson *
testutil_truth_person(const DemoTruth *truth, guint id)
{
	for (guint i = 0; i < truth->n_people; i++) {
		if (truth->people[i].id == id)
			return &truth->people[i];
	}
	return NULL;
}

gboolean
testutil_joint_found(const TrackerJoint *joint)
{
	return joint->confidence >= 0.5;
}

gboolean
testutil_user_complete(const TrackerUser *user)
{
	for (guint j = 0; j < TRACKER_N_JOINTS; j++) {
		if (!testutil_joint_found(&user->joints[j]))
			return FALSE;
	}
	return TRUE;
}

int
testutil_free_port(GSocketType type)
{
	g_autoptr(GSocket) socket = g_socket_new(G_SOCKET_FAMILY_IPV4, type, 0, NULL);
	g_autoptr(GInetAddress) loopback = g_inet_address_new_loopback(G_SOCKET_FAMILY_IPV4);
	g_autoptr(GSocketAddress) any = g_inet_socket_address_new(loopback, 0);
	g_autoptr(GSocketAddress) bound = NULL;

	g_assert_true(g_socket_bind(socket, any, TRUE, NULL));
	bound = g_socket_get_local_address(socket, NULL);
	return g_inet_socket_address_get_port(G_INET_SOCKET_ADDRESS(bound));
}
