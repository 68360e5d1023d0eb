/* The tracker's contract: settings, time, ids over a sequence, joints
 * carried through a loss, the smoothing switch, and the asynchronous call
 * answering on the caller's main context. */
#include <string.h>

#include "demo/demo-scene.h"
#include "score.h"
#include "tracker/tracker.h"

static DepthFrame *
render(const char *name, guint64 number)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(DemoScene) scene = demo_scene_new_named(name, 1, &error);
	DepthFrame *frame = depth_frame_new();

	g_assert_no_error(error);
	demo_scene_render(scene, number, frame);
	frame->truth = NULL; /* it goes with the scene */
	return frame;
}

static void
test_settings_defaults(void)
{
	TrackerSettings s;
	g_autoptr(Tracker) tracker = NULL;

	tracker_settings_init(&s);
	g_assert_cmpuint(s.max_users, ==, 6);
	g_assert_true(s.smoothing);
	g_assert_cmpfloat(s.min_cutoff_hz, ==, 1.0);
	g_assert_cmpfloat(s.camera.fx, ==, TRACKER_KINECT_FOCAL_PX);
	tracker = tracker_new(&s, NULL);
	g_assert_nonnull(tracker);
	g_assert_cmpmem(tracker_get_settings(tracker), sizeof(s), &s, sizeof(s));
}

static void
test_settings_rejected(void)
{
	TrackerSettings s;
	g_autoptr(GError) error = NULL;

	tracker_settings_init(&s);
	s.max_users = TRACKER_MAX_USERS + 1;
	g_assert_null(tracker_new(&s, &error));
	g_assert_error(error, TRACKER_ERROR, TRACKER_ERROR_SETTINGS);
	g_clear_error(&error);
	tracker_settings_init(&s);
	s.min_cutoff_hz = 0.0;
	g_assert_null(tracker_new(&s, &error));
	g_assert_error(error, TRACKER_ERROR, TRACKER_ERROR_SETTINGS);
	g_assert_nonnull(strstr(error->message, "smoothing"));
}

static void
test_time_must_grow(void)
{
	g_autoptr(Tracker) tracker = tracker_new(NULL, NULL);
	g_autofree guint16 *mm = g_new0(guint16, DEPTH_PIXELS);
	g_autoptr(GError) error = NULL;
	TrackerFrame out;

	g_assert_true(tracker_process(tracker, mm, 0, 1000, &out, &error));
	g_assert_false(tracker_process(tracker, mm, 1, 1000, &out, &error));
	g_assert_error(error, TRACKER_ERROR, TRACKER_ERROR_TIME);
	g_clear_error(&error);
	tracker_reset(tracker);
	g_assert_true(tracker_process(tracker, mm, 2, 500, &out, &error));
	g_assert_no_error(error);
}

/* The crowd scene's three people keep their ids while they stay. */
static void
test_ids_stable(void)
{
	g_autoptr(DemoScene) scene = demo_scene_new_named("crowd", 1, NULL);
	g_autoptr(DepthFrame) frame = depth_frame_new();
	g_autoptr(Tracker) tracker = tracker_new(NULL, NULL);
	guint ids[DEMO_MAX_PEOPLE] = { 0 };

	for (guint64 k = 0; k < 60; k++) {
		TrackerFrame out;

		demo_scene_render(scene, k, frame);
		g_assert_true(tracker_process(tracker, frame->mm, k, frame->time_us, &out, NULL));
		g_assert_cmpuint(out.n_users, ==, 3);
		for (guint p = 0; p < frame->truth->n_people; p++) {
			const DemoTruthPerson *person = &frame->truth->people[p];
			guint nearest = 0;
			double best = G_MAXDOUBLE;

			for (guint u = 0; u < out.n_users; u++) {
				double d = tracker_vec3_distance(
				        out.users[u].joints[TRACKER_JOINT_HEAD].position,
				        person->joints[TRACKER_JOINT_HEAD]);
				if (d < best) {
					best = d;
					nearest = out.users[u].id;
				}
			}
			if (k == 0)
				ids[p] = nearest;
			g_assert_cmpuint(nearest, ==, ids[p]);
		}
	}
	g_assert_cmpuint(ids[0], !=, ids[1]);
	g_assert_cmpuint(ids[1], !=, ids[2]);
}

/* A person who vanishes is reported a little longer, fading; the next
 * person gets a new id, even after a reset. */
static void
test_lost_user_fades(void)
{
	g_autoptr(DepthFrame) frame = render("poses", 30);
	g_autofree guint16 *nothing = g_new0(guint16, DEPTH_PIXELS);
	g_autoptr(Tracker) tracker = tracker_new(NULL, NULL);
	TrackerFrame seen, lost, gone, again;
	gint64 hold = tracker_get_settings(tracker)->joint_hold_us;

	g_assert_true(tracker_process(tracker, frame->mm, 0, 0, &seen, NULL));
	g_assert_true(tracker_process(tracker, nothing, 1, hold / 3, &lost, NULL));
	g_assert_true(tracker_process(tracker, nothing, 2, 2 * hold, &gone, NULL));
	g_assert_cmpuint(seen.n_users, ==, 1);
	g_assert_cmpuint(lost.n_users, ==, 1);
	g_assert_cmpuint(lost.users[0].id, ==, seen.users[0].id);
	g_assert_cmpfloat(lost.users[0].joints[TRACKER_JOINT_HEAD].confidence, <,
	                  seen.users[0].joints[TRACKER_JOINT_HEAD].confidence);
	g_assert_cmpfloat(lost.users[0].joints[TRACKER_JOINT_HEAD].confidence, >, 0.0);
	g_assert_cmpmem(&lost.users[0].joints[TRACKER_JOINT_HEAD].position, sizeof(TrackerVec3),
	                &seen.users[0].joints[TRACKER_JOINT_HEAD].position, sizeof(TrackerVec3));
	g_assert_cmpuint(gone.n_users, ==, 0);
	tracker_reset(tracker);
	g_assert_true(tracker_process(tracker, frame->mm, 3, 0, &again, NULL));
	g_assert_cmpuint(again.n_users, ==, 1);
	g_assert_cmpuint(again.users[0].id, >, seen.users[0].id);
}

/* Smoothing lags a moving joint behind the unsmoothed one; off, the
 * tracker reports what it measures. */
static void
test_smoothing_switch(void)
{
	g_autoptr(DepthFrame) a = render("walk", 100);
	g_autoptr(DepthFrame) b = render("walk", 103);
	TrackerSettings s;
	g_autoptr(Tracker) on = NULL, off = NULL;
	TrackerFrame on_a, on_b, off_a, off_b;
	double x_a, x_on, x_off;

	tracker_settings_init(&s);
	on = tracker_new(&s, NULL);
	s.smoothing = FALSE;
	off = tracker_new(&s, NULL);
	g_assert_true(tracker_process(on, a->mm, 0, 0, &on_a, NULL));
	g_assert_true(tracker_process(off, a->mm, 0, 0, &off_a, NULL));
	g_assert_true(tracker_process(on, b->mm, 1, 100000, &on_b, NULL));
	g_assert_true(tracker_process(off, b->mm, 1, 100000, &off_b, NULL));
	x_a = off_a.users[0].joints[TRACKER_JOINT_TORSO].position.x;
	x_on = on_b.users[0].joints[TRACKER_JOINT_TORSO].position.x;
	x_off = off_b.users[0].joints[TRACKER_JOINT_TORSO].position.x;
	/* The same first frame either way; then the smoothed torso trails. */
	g_assert_cmpfloat(on_a.users[0].joints[TRACKER_JOINT_TORSO].position.x, ==, x_a);
	g_assert_cmpfloat(fabs(x_off - x_a), >, 30.0);
	g_assert_cmpfloat(fabs(x_on - x_a), <, fabs(x_off - x_a));
	g_assert_cmpfloat(fabs(x_on - x_a), >, 0.0);
}

typedef struct {
	GMainContext *context;
	GMainContext *called_in;
	Tracker *tracker;
	TrackerFrame frame;
	GError *error;
	gboolean ok;
	guint calls;
} AsyncRun;

static void
async_done(GObject *source G_GNUC_UNUSED, GAsyncResult *result, gpointer data)
{
	AsyncRun *run = data;

	run->called_in = g_main_context_get_thread_default();
	run->ok = tracker_process_finish(run->tracker, result, &run->frame, &run->error);
	run->calls++;
}

/* The result comes on the caller's thread-default context, the same as
 * the synchronous call gives. */
static void
test_async_on_callers_context(void)
{
	g_autoptr(DepthFrame) frame = render("poses", 200);
	g_autoptr(Tracker) tracker = tracker_new(NULL, NULL);
	g_autoptr(Tracker) sync = tracker_new(NULL, NULL);
	g_autoptr(GMainContext) context = g_main_context_new();
	AsyncRun run = { context, NULL, tracker, { 0 }, NULL, FALSE, 0 };
	TrackerFrame expected;

	g_main_context_push_thread_default(context);
	tracker_process_async(tracker, frame->mm, 5, 1000, NULL, async_done, &run);
	while (run.calls == 0)
		g_main_context_iteration(context, TRUE);
	g_main_context_pop_thread_default(context);
	g_assert_no_error(run.error);
	g_assert_true(run.ok);
	g_assert_true(run.called_in == context);
	g_assert_true(tracker_process(sync, frame->mm, 5, 1000, &expected, NULL));
	g_assert_cmpuint(run.frame.frame, ==, 5);
	g_assert_cmpuint(run.frame.n_users, ==, 1);
	g_assert_cmpmem(run.frame.users[0].joints, sizeof(expected.users[0].joints),
	                expected.users[0].joints, sizeof(expected.users[0].joints));
}

/* A second call while the first is under way is refused, and says so. */
static void
test_async_busy(void)
{
	g_autoptr(DepthFrame) frame = render("crowd", 0);
	g_autoptr(Tracker) tracker = tracker_new(NULL, NULL);
	g_autoptr(GMainContext) context = g_main_context_new();
	AsyncRun first = { context, NULL, tracker, { 0 }, NULL, FALSE, 0 };
	AsyncRun second = first;
	g_autoptr(GError) error = NULL;
	TrackerFrame out;

	g_main_context_push_thread_default(context);
	tracker_process_async(tracker, frame->mm, 0, 0, NULL, async_done, &first);
	tracker_process_async(tracker, frame->mm, 1, 1, NULL, async_done, &second);
	g_assert_false(tracker_process(tracker, frame->mm, 2, 2, &out, &error));
	g_assert_error(error, TRACKER_ERROR, TRACKER_ERROR_BUSY);
	while (first.calls == 0 || second.calls == 0)
		g_main_context_iteration(context, TRUE);
	g_main_context_pop_thread_default(context);
	g_assert_true(first.ok);
	g_assert_false(second.ok);
	g_assert_error(second.error, TRACKER_ERROR, TRACKER_ERROR_BUSY);
	g_clear_error(&second.error);
	g_assert_cmpuint(first.frame.n_users, ==, 3);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/tracker/settings/defaults", test_settings_defaults);
	g_test_add_func("/tracker/settings/out-of-range-rejected", test_settings_rejected);
	g_test_add_func("/tracker/time/must-grow-until-reset", test_time_must_grow);
	g_test_add_func("/tracker/ids/stable-over-a-sequence", test_ids_stable);
	g_test_add_func("/tracker/ids/lost-user-fades-then-new-id", test_lost_user_fades);
	g_test_add_func("/tracker/smoothing/lags-when-on-not-when-off", test_smoothing_switch);
	g_test_add_func("/tracker/async/answers-on-callers-context", test_async_on_callers_context);
	g_test_add_func("/tracker/async/second-call-is-busy", test_async_busy);
	return g_test_run();
}
