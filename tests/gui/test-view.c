/* End to end: skelbridge run --view on a virtual X display (Xvfb, started
 * here) opens a window whose screenshot shows the depth image with a
 * skeleton on it and a side panel with text, while the bridge runs and
 * stops as usual; without a display, the bridge runs without the view. */
#include <cairo.h>
#include <string.h>
#include <sys/wait.h>

#include "childproc.h"
#include "base/depth.h"
#include "view/snapshot.h"
#include "testutil.h"
#include "xvfb.h"

#define WAIT_MS 60000

static guint32
pixel(cairo_surface_t *surface, int u, int v)
{
	guint8 *data = cairo_image_surface_get_data(surface);
	int stride = cairo_image_surface_get_stride(surface);

	return ((guint32 *)(gpointer)(data + v * stride))[u] & 0xffffff;
}

typedef gboolean (*PixelTest)(guint32 rgb, gconstpointer data);

static double
share(cairo_surface_t *surface, int u0, int v0, int u1, int v1, PixelTest test, gconstpointer data)
{
	guint n = 0, yes = 0;

	for (int v = v0; v < v1; v++) {
		for (int u = u0; u < u1; u++) {
			yes += test(pixel(surface, u, v), data);
			n++;
		}
	}
	return yes / (double)n;
}

static gboolean
is_colour(guint32 rgb, gconstpointer data)
{
	return rgb == *(const guint32 *)data;
}

static gboolean
is_faded(guint32 rgb, gconstpointer data G_GNUC_UNUSED)
{
	return rgb != 0 && (rgb >> 16) == (rgb & 0xff) && (rgb >> 16) == (rgb >> 8 & 0xff);
}

static gboolean
is_coloured(guint32 rgb, gconstpointer data G_GNUC_UNUSED)
{
	int r = rgb >> 16, g = rgb >> 8 & 0xff, b = rgb & 0xff;

	return MAX(r, MAX(g, b)) - MIN(r, MIN(g, b)) > 40;
}

/* Text on the panel: pixels far darker than its light background. */
static gboolean
is_ink(guint32 rgb, gconstpointer data)
{
	guint32 paper = *(const guint32 *)data;
	int light = (rgb >> 16) + (rgb >> 8 & 0xff) + (rgb & 0xff);
	int paper_light = (paper >> 16) + (paper >> 8 & 0xff) + (paper & 0xff);

	return paper_light - light > 200;
}

static void
check_screenshot(const char *path)
{
	cairo_surface_t *shot = cairo_image_surface_create_from_png(path);
	guint32 user = snapshot_user_colour(1);
	guint32 paper;
	int width, height;

	g_assert_cmpint(cairo_surface_status(shot), ==, CAIRO_STATUS_SUCCESS);
	width = cairo_image_surface_get_width(shot);
	height = cairo_image_surface_get_height(shot);
	g_test_message("screenshot %dx%d", width, height);
	g_assert_cmpint(width, >, DEPTH_WIDTH + 200);
	g_assert_cmpint(height, >=, DEPTH_HEIGHT + SNAPSHOT_CAPTION_HEIGHT);
	/* The demo's wall and floor, faded; the person, tinted; a skeleton. */
	g_assert_cmpfloat(share(shot, 0, 0, DEPTH_WIDTH, DEPTH_HEIGHT, is_faded, NULL), >, 0.3);
	g_assert_cmpfloat(share(shot, 0, 0, DEPTH_WIDTH, DEPTH_HEIGHT, is_coloured, NULL), >, 0.02);
	g_assert_cmpfloat(share(shot, 0, 0, DEPTH_WIDTH, DEPTH_HEIGHT, is_colour, &user), >, 0.001);
	/* The caption: white text on its dark band. */
	g_assert_cmphex(pixel(shot, DEPTH_WIDTH - 3, DEPTH_HEIGHT + 3), ==, 0x202020);
	/* The panel: its messages and mappings written on it. */
	paper = pixel(shot, width - 2, height - 2);
	g_assert_cmpfloat(share(shot, DEPTH_WIDTH + 8, 0, width, height / 3, is_ink, &paper), >,
	                  0.02);
	g_assert_cmpfloat(share(shot, DEPTH_WIDTH + 8, height / 2, width, height, is_ink, &paper),
	                  >, 0.05);
	cairo_surface_destroy(shot);
}

static char *
udp_target(void)
{
	return g_strdup_printf("osc.udp://127.0.0.1:%d",
	                       testutil_free_port(G_SOCKET_TYPE_DATAGRAM));
}

static void
test_window_screenshot(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *png = g_build_filename(dir, "view.png", NULL);
	g_autofree char *target = udp_target();
	const char *args[] = { "run",
		               "--view",
		               "--source",
		               "demo",
		               "--skeletons",
		               "truth",
		               "--target",
		               target,
		               "--view-screenshot",
		               png,
		               "--view-screenshot-after",
		               "20",
		               NULL };
	g_autoptr(Xvfb) x = NULL;
	g_autoptr(ChildProc) proc = NULL;
	g_autofree char *log = NULL;

	g_autofree char *xvfb = g_find_program_in_path("Xvfb");

	if (xvfb == NULL) {
		g_test_fail_printf("Xvfb is not installed (tools/setup installs xvfb)");
		return;
	}
	x = xvfb_start();
	proc = child_proc_start(args);
	g_assert_true(child_proc_wait_log(proc, "view: screenshot", WAIT_MS));
	child_proc_signal(proc, SIGTERM);
	g_assert_cmpint(child_proc_wait(proc, WAIT_MS), ==, 0);
	log = child_proc_log(proc);
	g_assert_null(strstr(log, "running without the view"));
	g_assert_nonnull(strstr(log, " frames in "));
	check_screenshot(png);
	testutil_rmdir(dir);
}

static void
test_no_display(void)
{
	g_autofree char *target = udp_target();
	const char *argv[] = { testutil_binary(), "run",    "--view",   "--source",
		               "demo:poses",      "--fast", "--frames", "10",
		               "--target",        target,   NULL };
	g_auto(TestutilSpawned) s = { 0 };

	g_unsetenv("DISPLAY");
	g_unsetenv("WAYLAND_DISPLAY");
	testutil_spawn(&s, argv);
	g_assert_cmpint(s.status, ==, 0);
	g_assert_nonnull(strstr(s.err, "skelbridge: --view: no display: DISPLAY and "
	                               "WAYLAND_DISPLAY are unset; running without the view"));
	g_assert_nonnull(strstr(s.err, "demo:poses: 10 frames in"));
}

static void
test_built_without_view(void)
{
	g_test_skip("skelbridge was built without the view (meson -Dview=disabled or no GTK 4)");
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	if (!SKELBRIDGE_VIEW) {
		g_test_add_func("/view/built-without-view", test_built_without_view);
		return g_test_run();
	}
	g_test_add_func("/view/window-screenshot", test_window_screenshot);
	g_test_add_func("/view/no-display", test_no_display);
	return g_test_run();
}
