/* The bridge shows a watcher (the live view) every frame once its messages
 * went out: the depth, the skeletons, what each pixel was taken for, each
 * output's messages, and the mappings in force as they change. */
#include <string.h>

#include "bridge.h"
#include "demo/demo-scene.h"
#include "skeletons/skeletons.h"
#include "testutil.h"
#include "view/view-feed.h"

typedef struct {
	guint calls;
	gboolean had_depth;
	guint users;
	gboolean labelled;
	guint user_pixels;
	guint messages;
	char *first_address;
} Seen;

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
                                   "joints = left_hand right_hand\n"
                                   "address = /%s/{user}/{joint}\n"
                                   "args = x y z\n";

static void
watch(Bridge *bridge, const BridgeFrameInfo *info, gpointer user_data)
{
	Seen *seen = user_data;
	g_autofree guint8 *labels = g_malloc0(DEPTH_PIXELS);
	const MessageBatch *batch = bridge_output_messages(bridge, 0);

	seen->calls++;
	seen->had_depth = info->depth != NULL;
	seen->users = info->frame->n_users;
	seen->labelled = info->depth != NULL && bridge_get_labels(bridge, info->depth, labels);
	seen->user_pixels = 0;
	for (int i = 0; i < DEPTH_PIXELS; i++)
		seen->user_pixels += labels[i] == TRACKER_LABEL_USER;
	seen->messages = message_batch_length(batch);
	g_free(seen->first_address);
	seen->first_address =
	        seen->messages > 0 ? g_strdup(message_address(batch, message_batch_get(batch, 0)))
	                           : NULL;
}

static void
write_mapping(const char *path, const char *prefix)
{
	g_autofree char *text =
	        g_strdup_printf(mapping_text, testutil_free_port(G_SOCKET_TYPE_DATAGRAM), prefix);

	testutil_write_file(path, text, strlen(text));
}

static Bridge *
open_bridge(const char *path, const char *skeletons)
{
	const char *mappings[] = { path, NULL };
	BridgeOptions options = { .mappings = mappings, .skeletons = skeletons, .state_dir = "" };
	g_autoptr(GError) error = NULL;
	Bridge *bridge = bridge_new(&options, NULL, NULL, &error);

	g_assert_no_error(error);
	return bridge;
}

static void
test_frames_with_depth_labels_and_messages(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *path = g_build_filename(dir, "hands.map", NULL);
	g_autoptr(DemoScene) scene = demo_scene_new_named("poses", 1, NULL);
	g_autoptr(DepthFrame) depth = depth_frame_new();
	g_autoptr(Bridge) bridge = NULL;
	Seen seen = { 0 };

	write_mapping(path, "hand");
	bridge = open_bridge(path, "truth");
	bridge_set_watch(bridge, watch, &seen);
	demo_scene_render(scene, 3, depth);
	bridge_frame(bridge, depth);
	g_assert_cmpuint(seen.calls, ==, 1);
	g_assert_true(seen.had_depth);
	g_assert_cmpuint(seen.users, ==, 1);
	g_assert_true(seen.labelled);
	g_assert_cmpuint(seen.user_pixels, >, SKELETONS_TRUTH_MIN_PIXELS);
	g_assert_cmpuint(seen.messages, ==, 2);
	g_assert_cmpstr(seen.first_address, ==, "/hand/1/left_hand");
	/* Skeletons given directly come without depth. */
	bridge_push(bridge, &(TrackerFrame){ .frame = 9 }, g_get_real_time());
	g_assert_cmpuint(seen.calls, ==, 2);
	g_assert_false(seen.had_depth);
	g_assert_cmpuint(seen.messages, ==, 0);
	bridge_set_watch(bridge, NULL, NULL);
	bridge_frame(bridge, depth);
	g_assert_cmpuint(seen.calls, ==, 2);
	g_free(seen.first_address);
	testutil_rmdir(dir);
}

/* The tracker's labels come with the tracker; a source without truth
 * gives the truth backend nothing to label. */
static void
test_no_labels_without_truth(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *path = g_build_filename(dir, "hands.map", NULL);
	g_autoptr(DemoScene) scene = demo_scene_new_named("poses", 1, NULL);
	g_autoptr(DepthFrame) depth = depth_frame_new();
	g_autoptr(Bridge) bridge = NULL;
	Seen seen = { 0 };

	write_mapping(path, "hand");
	bridge = open_bridge(path, "truth");
	bridge_set_watch(bridge, watch, &seen);
	demo_scene_render(scene, 3, depth);
	depth->truth = NULL;
	bridge_frame(bridge, depth);
	g_assert_true(seen.had_depth);
	g_assert_false(seen.labelled);
	g_free(seen.first_address);
	testutil_rmdir(dir);
}

static void
test_describe_follows_reloads(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *path = g_build_filename(dir, "hands.map", NULL);
	g_autoptr(Bridge) bridge = NULL;
	g_autofree char *before = NULL;
	g_autofree char *after = NULL;
	guint generation;

	write_mapping(path, "hand");
	bridge = open_bridge(path, "truth");
	before = bridge_describe(bridge);
	g_assert_true(g_str_has_prefix(before, path));
	g_assert_nonnull(strstr(before, "\n  output out: osc.udp://127.0.0.1:"));
	g_assert_nonnull(
	        strstr(before, "\n  rule hands (per joint, to out): /hand/{user}/{joint}\n"));
	generation = bridge_generation(bridge);
	write_mapping(path, "palm");
	bridge_reload(bridge);
	g_assert_cmpuint(bridge_generation(bridge), >, generation);
	after = bridge_describe(bridge);
	g_assert_nonnull(strstr(after, ": /palm/{user}/{joint}\n"));
	testutil_rmdir(dir);
}

/* Three outputs, the one called @b sending to @port_b. */
static void
write_three(const char *path, const char *order, guint port_b)
{
	g_autoptr(GString) text = g_string_new("[mapping]\nformat = 1\n");

	for (const char *o = order; *o != '\0'; o++) {
		g_string_append_printf(text,
		                       "[output %c]\nkind = osc\ntarget = osc.udp://127.0.0.1:%u\n"
		                       "[rule r%c]\noutput = %c\nfor = frame\naddress = /%c\n",
		                       *o, *o == 'b' ? port_b : 9000u + (guint)*o, *o, *o, *o);
	}
	testutil_write_file(path, text->str, text->len);
}

/* The output in force called @name, or NULL. */
static const OscOutput *
output_called(const Bridge *bridge, const char *name)
{
	for (guint i = 0; i < bridge_n_outputs(bridge); i++) {
		const OscOutput *output = bridge_output(bridge, i, NULL);

		if (strcmp(osc_output_config(output)->name, name) == 0)
			return output;
	}
	return NULL;
}

/* A reload keeps each output that sends as before, wherever the file now
 * has it (its socket and counts go on), and opens one that changed. */
static void
test_reload_keeps_outputs(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *path = g_build_filename(dir, "three.map", NULL);
	g_autoptr(Bridge) bridge = NULL;
	const OscOutput *a, *b, *c;

	write_three(path, "abc", 9100);
	bridge = open_bridge(path, "truth");
	a = output_called(bridge, "a");
	b = output_called(bridge, "b");
	c = output_called(bridge, "c");
	g_assert_true(a != NULL && b != NULL && c != NULL);
	write_three(path, "cab", 9101);
	bridge_reload(bridge);
	g_assert_cmpuint(bridge_n_outputs(bridge), ==, 3);
	g_assert_true(output_called(bridge, "a") == a);
	g_assert_true(output_called(bridge, "c") == c);
	g_assert_true(output_called(bridge, "b") != b);
	g_assert_cmpuint(osc_output_config(output_called(bridge, "b"))->target.port, ==, 9101);
	testutil_rmdir(dir);
}

/* The live view's feed, as skelbridge run --view wires it. */
static void
test_feeds_the_view(void)
{
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *path = g_build_filename(dir, "hands.map", NULL);
	g_autoptr(DemoScene) scene = demo_scene_new_named("poses", 1, NULL);
	g_autoptr(DepthFrame) depth = depth_frame_new();
	g_autoptr(ViewFeed) feed = view_feed_new(8);
	g_autoptr(Bridge) bridge = NULL;
	g_autofree char *lines = NULL;
	g_autofree char *mapping = NULL;
	const ViewFeedFrame *taken;
	guint seen = 0, user_pixels = 0;

	write_mapping(path, "hand");
	bridge = open_bridge(path, "truth");
	bridge_set_watch(bridge, view_feed_watch, feed);
	demo_scene_render(scene, 3, depth);
	bridge_frame(bridge, depth);
	taken = view_feed_take_frame(feed);
	g_assert_nonnull(taken);
	g_assert_cmpuint(taken->frame.n_users, ==, 1);
	g_assert_cmpmem(taken->mm, sizeof(taken->mm), depth->mm, DEPTH_PIXELS * sizeof(guint16));
	g_assert_true(taken->labelled);
	for (int i = 0; i < DEPTH_PIXELS; i++)
		user_pixels += taken->labels[i] == TRACKER_LABEL_USER;
	g_assert_cmpuint(user_pixels, >, SKELETONS_TRUTH_MIN_PIXELS);
	lines = view_feed_get_lines(feed, NULL);
	g_assert_true(g_str_has_prefix(lines, "out /hand/1/right_hand "));
	g_assert_nonnull(strstr(lines, "\nout /hand/1/left_hand "));
	mapping = view_feed_get_mapping(feed, &seen);
	g_assert_nonnull(mapping);
	g_assert_true(g_str_has_prefix(mapping, path));
	/* The view wants the next frame, then is busy drawing it: the bridge
	 * skips the frames after it until the view takes it. */
	bridge_frame(bridge, depth);
	g_assert_cmpuint(view_feed_dropped(feed), ==, 0);
	demo_scene_render(scene, 4, depth);
	bridge_frame(bridge, depth);
	bridge_frame(bridge, depth);
	g_assert_cmpuint(view_feed_dropped(feed), ==, 2);
	g_assert_cmpuint(view_feed_take_frame(feed)->frame.frame, ==, 3);
	g_assert_null(view_feed_take_frame(feed));
	testutil_rmdir(dir);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/bridge/watch/frames-with-depth-labels-and-messages",
	                test_frames_with_depth_labels_and_messages);
	g_test_add_func("/bridge/watch/no-labels-without-truth", test_no_labels_without_truth);
	g_test_add_func("/bridge/watch/describe-follows-reloads", test_describe_follows_reloads);
	g_test_add_func("/bridge/watch/reload-keeps-outputs", test_reload_keeps_outputs);
	g_test_add_func("/bridge/watch/feeds-the-view", test_feeds_the_view);
	return g_test_run();
}
