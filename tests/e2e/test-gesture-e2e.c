/* End to end: gestures as OSC events. The skelbridge binary plays the demo
 * routine, which performs every gesture once, into a liblo server inside
 * the test: each scripted gesture arrives once, by the right user and
 * hand, while it is performed, and nothing else does. In process, a
 * mapping reloaded with new thresholds applies them to the next gesture. */
#include <stdio.h>
#include <string.h>

#include "bridge.h"
#include "childproc.h"
#include "demo/demo-scene.h"
#include "gesture-synth.h"
#include "oscsink.h"
#include "testutil.h"

#define WAIT_MS 10000
/* The routine is 72.5 s of demo frames, rendered as fast as they can be. */
#define RUN_MS 300000

static const char gesture_rule[] =
        "[rule gestures]\noutput = o\nfor = event\n"
        "events = swipe_left swipe_right swipe_up swipe_down push wave raise_hand clap "
        "arms_out\naddress = /gesture/{event}\nargs = user hand frame\n";

/* A mapping that sends gestures alone to @sink, after @gestures (a
 * [gestures] section, or ""). */
static char *
gesture_mapping(OscSink *sink, const char *gestures)
{
	g_autofree char *url = osc_sink_url(sink);

	return g_strdup_printf("[mapping]\nformat = 1\n%s[output o]\nkind = osc\n"
	                       "target = %s\nbundle = none\n%s",
	                       gestures, url, gesture_rule);
}

static char *
write_mapping(const char *dir, const char *text)
{
	char *path = g_build_filename(dir, "gestures.map", NULL);

	testutil_write_file(path, text, strlen(text));
	return path;
}

static gboolean
message_matches(const OscSinkMessage *m, const DemoGesture *g)
{
	g_autofree char *path = g_strconcat("/gesture/", g->gesture, NULL);
	double t;

	if (strcmp(m->path, path) != 0 || strcmp(m->types, "isi") != 0)
		return FALSE;
	t = m->args[2].i / (double)DEMO_FPS;
	return m->args[0].i == (gint32)g->actor && strcmp(m->args[1].s, g->hand) == 0 &&
	       t >= g->start && t <= g->end;
}

static void
print_message(const OscSinkMessage *m)
{
	if (strcmp(m->types, "isi") == 0)
		g_test_message("received %s user %d, %s hand, at %.2f s", m->path, m->args[0].i,
		               m->args[1].s, m->args[2].i / (double)DEMO_FPS);
	else
		g_test_message("received %s ,%s", m->path, m->types);
}

/* Every scripted gesture matches one message, and every message one gesture. */
static void
assert_gestures(const DemoGesture *gestures, guint n, GPtrArray *received)
{
	g_autofree gboolean *used = g_new0(gboolean, received->len + 1);
	gboolean ok = received->len == n;

	for (guint k = 0; k < n; k++) {
		guint i = 0;

		while (i < received->len &&
		       (used[i] || !message_matches(g_ptr_array_index(received, i), &gestures[k])))
			i++;
		if (i < received->len)
			used[i] = TRUE;
		else
			ok = FALSE;
		if (i == received->len)
			g_test_message("missed: %s by user %u, %s hand, between %.2f and %.2f s",
			               gestures[k].gesture, gestures[k].actor, gestures[k].hand,
			               gestures[k].start, gestures[k].end);
	}
	for (guint i = 0; i < received->len; i++)
		print_message(g_ptr_array_index(received, i));
	g_assert_true(ok);
	g_assert_cmpuint(received->len, ==, n);
}

static void
test_routine_truth(void)
{
	g_autoptr(DemoScene) scene = demo_scene_new_named("routine", 1, NULL);
	g_autoptr(OscSink) sink = osc_sink_new(FALSE, 0);
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *text = gesture_mapping(sink, "");
	g_autofree char *path = write_mapping(dir, text);
	const char *args[] = { "run",    "--source",  "demo:routine", "--skeletons", "truth",
		               "--fast", "--mapping", path,           NULL };
	g_autoptr(ChildProc) proc = child_proc_start(args);
	g_autoptr(GPtrArray) received = NULL;
	const DemoGesture *gestures;
	guint n;

	gestures = demo_scene_gestures(scene, &n);
	g_assert_cmpuint(n, >=, GESTURE_N_KINDS);
	g_assert_cmpint(child_proc_wait(proc, RUN_MS), ==, 0);
	osc_sink_wait_count(sink, n, WAIT_MS);
	/* Anything more would be a mistake: give it the time to show. */
	g_usleep(200000);
	received = osc_sink_take(sink);
	assert_gestures(gestures, n, received);
	testutil_rmdir(dir);
}

/* ---- reloading, in process ---- */

static const SynthPoint apart = { 0.06, -0.10, 0.22 };
static const SynthPoint together = { -0.085, -0.08, 0.25 };

/* One clap by user 1, from @t0 seconds on, through @b; returns the time
 * after it. */
static double
push_clap(Bridge *b, double t0)
{
	const SynthKey keys[] = {
		{ 0.0, { synth_rest, synth_rest } }, { 1.0, { apart, apart } },
		{ 1.5, { apart, apart } },           { 1.75, { together, together } },
		{ 2.3, { together, together } },     { 3.3, { synth_rest, synth_rest } },
	};
	const double duration = 4.0;
	TrackerFrame frame = { 0 };
	SynthPose pose;

	synth_pose_init(&pose, SYNTH_ADULT);
	for (guint k = 0; k <= duration * SYNTH_FPS; k++) {
		double t = k / (double)SYNTH_FPS;

		synth_keys_at(keys, G_N_ELEMENTS(keys), t, &pose);
		frame.time_us = (gint64)((t0 + t) * G_USEC_PER_SEC);
		frame.frame = (guint64)((t0 + t) * SYNTH_FPS + 0.5);
		frame.n_users = 1;
		synth_user(&pose, 1, &frame.users[0]);
		bridge_push(b, &frame, g_get_real_time());
		while (g_main_context_iteration(NULL, FALSE))
			;
	}
	return t0 + duration + 1.0 / SYNTH_FPS;
}

static guint
count_claps(OscSink *sink)
{
	g_autoptr(GPtrArray) received = NULL;
	guint n = 0;

	/* Loopback UDP: what was sent is there at once, or in a moment. */
	osc_sink_wait_count(sink, 1, 500);
	received = osc_sink_take(sink);
	for (guint i = 0; i < received->len; i++) {
		const OscSinkMessage *m = g_ptr_array_index(received, i);

		g_assert_cmpstr(m->path, ==, "/gesture/clap");
		g_assert_cmpint(m->args[0].i, ==, 1);
		g_assert_cmpstr(m->args[1].s, ==, "both");
		n++;
	}
	return n;
}

static void
ignore_log(GLogLevelFlags level G_GNUC_UNUSED, const char *message G_GNUC_UNUSED,
           gpointer user_data G_GNUC_UNUSED)
{
}

static void
rewrite(const char *path, const char *text)
{
	g_autoptr(GError) error = NULL;

	g_file_set_contents(path, text, -1, &error);
	g_assert_no_error(error);
}

/* The recogniser in force takes a reloaded mapping's thresholds: a clap
 * too slow for them is none, and one is again once they are back. */
static void
test_reload_applies_thresholds(void)
{
	g_autoptr(OscSink) sink = osc_sink_new(FALSE, 0);
	g_autofree char *dir = testutil_tmpdir();
	g_autofree char *plain = gesture_mapping(sink, "");
	g_autofree char *strict = gesture_mapping(sink, "[gestures]\nclap_min_speed = 50\n");
	g_autofree char *path = write_mapping(dir, plain);
	const char *mappings[] = { path, NULL };
	BridgeOptions options = { .mappings = mappings, .skeletons = "truth", .state_dir = "" };
	g_autoptr(GError) error = NULL;
	g_autoptr(Bridge) b = bridge_new(&options, ignore_log, NULL, &error);
	double t = 0.0;

	g_assert_no_error(error);
	t = push_clap(b, t);
	g_assert_cmpuint(count_claps(sink), ==, 1);
	rewrite(path, strict);
	bridge_reload(b);
	t = push_clap(b, t);
	g_assert_cmpuint(count_claps(sink), ==, 0);
	rewrite(path, plain);
	bridge_reload(b);
	push_clap(b, t);
	g_assert_cmpuint(count_claps(sink), ==, 1);
	testutil_rmdir(dir);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/gesture/e2e/routine/truth", test_routine_truth);
	g_test_add_func("/gesture/e2e/reload-applies-thresholds", test_reload_applies_thresholds);
	return g_test_run();
}
