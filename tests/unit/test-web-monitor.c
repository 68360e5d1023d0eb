/* The web monitor answers what a page asks for: the page's own files,
 * /state.json with the frame count, the users' joints in image
 * coordinates, the outputs and the messages out, and /depth.png drawn at
 * half size and no more often than it should be; and the frame loop keeps
 * nothing for it while nobody asks. */
#include <string.h>

#include "bridge.h"
#include "demo/demo-scene.h"
#include "testutil.h"
#include "view/web-monitor.h"

static const char mapping_text[] = "[mapping]\n"
                                   "format = 1\n"
                                   "\n"
                                   "[output out]\n"
                                   "kind = osc\n"
                                   "target = osc.udp://127.0.0.1:%d\n"
                                   "\n"
                                   "[rule hands]\n"
                                   "output = out\n"
                                   "for = joint\n"
                                   "joints = left_hand\n"
                                   "address = /hand/{user}/{joint}\n"
                                   "args = x y z\n";

typedef struct {
	char *dir;
	DemoScene *scene;
	DepthFrame *depth;
	Bridge *bridge;
	WebMonitor *monitor;
} Fixture;

static void
fixture_set_up(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	g_autofree char *path = NULL;
	g_autofree char *text =
	        g_strdup_printf(mapping_text, testutil_free_port(G_SOCKET_TYPE_DATAGRAM));
	const char *mappings[2] = { NULL, NULL };
	BridgeOptions options = { .mappings = mappings, .skeletons = "truth", .state_dir = "" };
	g_autoptr(GError) error = NULL;

	f->dir = testutil_tmpdir();
	path = g_build_filename(f->dir, "hands.map", NULL);
	testutil_write_file(path, text, strlen(text));
	mappings[0] = path;
	f->bridge = bridge_new(&options, NULL, NULL, &error);
	g_assert_no_error(error);
	f->monitor = web_monitor_new(f->bridge, "demo:poses (truth)");
	bridge_set_watch(f->bridge, web_monitor_watch, f->monitor);
	f->scene = demo_scene_new_named("poses", 1, NULL);
	f->depth = depth_frame_new();
}

static void
fixture_tear_down(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	web_monitor_free(f->monitor);
	bridge_free(f->bridge);
	demo_scene_free(f->scene);
	depth_frame_free(f->depth);
	testutil_rmdir(f->dir);
	g_free(f->dir);
}

static void
play(Fixture *f, guint frame)
{
	demo_scene_render(f->scene, frame, f->depth);
	bridge_frame(f->bridge, f->depth);
}

static char *
get_text(Fixture *f, const char *path, gint64 now_us, const char *type)
{
	const char *content_type = NULL;
	g_autoptr(GBytes) body = web_monitor_get(f->monitor, path, now_us, &content_type);
	gsize size;
	const char *data;

	g_assert_nonnull(body);
	g_assert_cmpstr(content_type, ==, type);
	data = g_bytes_get_data(body, &size);
	return g_strndup(data, size);
}

static void
test_serves_the_page(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	g_autofree char *index = get_text(f, "/", 1, "text/html; charset=utf-8");
	g_autofree char *js = get_text(f, "/monitor.js", 1, "text/javascript; charset=utf-8");
	g_autofree char *css = get_text(f, "/monitor.css", 1, "text/css; charset=utf-8");
	const char *type = NULL;

	g_assert_nonnull(strstr(index, "<script src=\"monitor.js\">"));
	g_assert_nonnull(strstr(js, "state.json"));
	g_assert_nonnull(strstr(css, "#depth"));
	g_assert_null(web_monitor_get(f->monitor, "/nothing.html", 1, &type));
	g_assert_null(web_monitor_get(f->monitor, "/osc", 1, &type));
}

static void
test_state_tells_frames_users_outputs_messages(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	g_autofree char *before = NULL;
	g_autofree char *state = NULL;
	gint64 now = g_get_monotonic_time();

	play(f, 1);
	/* Nobody asked yet: counted, nothing kept. */
	before = get_text(f, "/state.json", now, "application/json");
	g_assert_nonnull(strstr(before, "\"frame\":1,"));
	g_assert_nonnull(strstr(before, "\"users\":[]"));
	g_assert_nonnull(strstr(before, "\"messages_total\":0,"));
	play(f, 2);
	state = get_text(f, "/state.json", now, "application/json");
	g_assert_nonnull(strstr(state, "\"source\":\"demo:poses (truth)\""));
	g_assert_nonnull(strstr(state, "\"frame\":2,"));
	g_assert_nonnull(strstr(state, "\"users\":[{\"id\":1,\"joints\":{\"head\":["));
	g_assert_nonnull(strstr(state, "\"outputs\":[{\"name\":\"out\","));
	g_assert_nonnull(strstr(state, "\"last_error\":null,\"clients\":null}"));
	g_assert_nonnull(strstr(state, "\"messages\":[\"out /hand/1/left_hand "));
	g_assert_nonnull(strstr(state, "  output out: osc.udp://127.0.0.1:"));
}

static gboolean
is_png(GBytes *bytes)
{
	gsize size;
	const guint8 *data = g_bytes_get_data(bytes, &size);

	return size > 8 && memcmp(data, "\x89PNG\r\n\x1a\n", 8) == 0;
}

static void
test_picture_drawn_when_asked_and_cached(Fixture *f, gconstpointer data G_GNUC_UNUSED)
{
	const char *type = NULL;
	gint64 now = g_get_monotonic_time();
	g_autoptr(GBytes) blank = web_monitor_get(f->monitor, "/depth.png", now, &type);
	g_autoptr(GBytes) first = NULL;
	g_autoptr(GBytes) again = NULL;
	g_autoptr(GBytes) later = NULL;

	g_assert_cmpstr(type, ==, "image/png");
	g_assert_true(is_png(blank));
	play(f, 3);
	first = web_monitor_get(f->monitor, "/depth.png", now + G_USEC_PER_SEC, &type);
	g_assert_true(is_png(first));
	g_assert_false(g_bytes_equal(first, blank));
	play(f, 4);
	/* Asked again at once: the same picture, not drawn again. */
	again = web_monitor_get(f->monitor, "/depth.png", now + G_USEC_PER_SEC + 1000, &type);
	g_assert_true(again == first);
	later = web_monitor_get(f->monitor, "/depth.png", now + 2 * G_USEC_PER_SEC, &type);
	g_assert_true(later != first);
	g_assert_true(is_png(later));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add("/web-monitor/serves-the-page", Fixture, NULL, fixture_set_up,
	           test_serves_the_page, fixture_tear_down);
	g_test_add("/web-monitor/state/frames-users-outputs-messages", Fixture, NULL,
	           fixture_set_up, test_state_tells_frames_users_outputs_messages,
	           fixture_tear_down);
	g_test_add("/web-monitor/picture/drawn-when-asked-and-cached", Fixture, NULL,
	           fixture_set_up, test_picture_drawn_when_asked_and_cached, fixture_tear_down);
	return g_test_run();
}
