/* What the tracker made of each pixel: its users' pixels carry their
 * label, the floor is floor, walls and furniture are no one, and pixels
 * without a reading say so; before any frame there is nothing to give. */
#include <string.h>

#include "demo/demo-scene.h"
#include "tracker/tracker.h"

#define SHARE_MIN 0.9 /* of a kind's true pixels the tracker labels alike */
/* ...of a person's: two who touch split their edge by distance */
#define PERSON_SHARE_MIN 0.8

typedef struct {
	DemoScene *scene;
	DepthFrame *frame;
	Tracker *tracker;
	TrackerFrame out;
	guint8 labels[DEPTH_PIXELS];
} Shot;

static void
shot_take(Shot *shot, const char *name, double t)
{
	g_autoptr(GError) error = NULL;

	shot->scene = demo_scene_new_named(name, 1, &error);
	g_assert_no_error(error);
	shot->frame = depth_frame_new();
	demo_scene_render(shot->scene, (guint64)(t * DEMO_FPS), shot->frame);
	shot->tracker = tracker_new(NULL, &error);
	g_assert_no_error(error);
	g_assert_true(tracker_process(shot->tracker, shot->frame->mm, 0, 0, &shot->out, &error));
	g_assert_no_error(error);
	g_assert_true(tracker_get_labels(shot->tracker, shot->labels));
}

static void
shot_clear(Shot *shot)
{
	tracker_free(shot->tracker);
	depth_frame_free(shot->frame);
	demo_scene_free(shot->scene);
}

/* The index of the user whose head is nearest true person @p's. */
static guint
shot_user_of(const Shot *shot, guint p)
{
	const DemoTruthPerson *person = &shot->frame->truth->people[p];
	double best = G_MAXDOUBLE;
	guint user = G_MAXUINT;

	for (guint u = 0; u < shot->out.n_users; u++) {
		double d = tracker_vec3_distance(
		        shot->out.users[u].joints[TRACKER_JOINT_HEAD].position,
		        person->joints[TRACKER_JOINT_HEAD]);

		if (d < best) {
			best = d;
			user = u;
		}
	}
	g_assert_cmpuint(user, <, shot->out.n_users);
	return user;
}

static guint8
shot_label_at(const Shot *shot, TrackerVec3 p)
{
	TrackerCamera camera;
	double u, v;

	tracker_camera_init_kinect(&camera);
	g_assert_true(tracker_camera_project(&camera, p, &u, &v));
	g_assert_cmpfloat(u, >=, 0.0);
	g_assert_cmpfloat(v, >=, 0.0);
	g_assert_cmpfloat(u, <, DEPTH_WIDTH);
	g_assert_cmpfloat(v, <, DEPTH_HEIGHT);
	return shot->labels[(int)v * DEPTH_WIDTH + (int)u];
}

/* The share of the pixels that truth calls @truth_label that the tracker
 * labels @label. */
static double
shot_share(const Shot *shot, guint8 truth_label, guint8 label)
{
	guint all = 0, alike = 0;

	for (int i = 0; i < DEPTH_PIXELS; i++) {
		if (shot->frame->truth->labels[i] != truth_label || shot->frame->mm[i] == 0)
			continue;
		all++;
		alike += shot->labels[i] == label;
	}
	g_assert_cmpuint(all, >, 0);
	return (double)alike / all;
}

/* Each person's torso and neck, seen straight on, carry their user's
 * label; most of their pixels do. */
static void
assert_people_labelled(const Shot *shot)
{
	const DemoTruth *truth = shot->frame->truth;

	g_assert_cmpuint(shot->out.n_users, ==, truth->n_people);
	for (guint p = 0; p < truth->n_people; p++) {
		guint8 label = (guint8)(TRACKER_LABEL_USER + shot_user_of(shot, p));
		TrackerVec3 torso = truth->people[p].joints[TRACKER_JOINT_TORSO];

		/* The joint is inside the body; its surface is nearer. */
		torso.z -= 100.0;
		g_assert_cmpuint(shot_label_at(shot, torso), ==, label);
		g_assert_cmpfloat(shot_share(shot, DEMO_LABEL_PERSON(truth->people[p].id), label),
		                  >=, PERSON_SHARE_MIN);
	}
}

/* Whether pixel @i's block of 4x4 pixels has no reading at all: a block
 * with one is what that reading shows. */
static gboolean
block_empty(const guint16 *mm, int i)
{
	int u0 = i % DEPTH_WIDTH / 4 * 4, v0 = i / DEPTH_WIDTH / 4 * 4;

	for (int v = v0; v < v0 + 4; v++) {
		for (int u = u0; u < u0 + 4; u++) {
			if (mm[v * DEPTH_WIDTH + u] != 0)
				return FALSE;
		}
	}
	return TRUE;
}

static void
test_before_first_frame(void)
{
	g_autoptr(Tracker) tracker = tracker_new(NULL, NULL);
	g_autofree guint8 *labels = g_malloc(DEPTH_PIXELS);

	memset(labels, 0x5a, DEPTH_PIXELS);
	g_assert_false(tracker_get_labels(tracker, labels));
	for (int i = 0; i < DEPTH_PIXELS; i++)
		g_assert_cmpuint(labels[i], ==, 0x5a);
}

/* One person in a room: user, floor, walls, and the pixels with none. */
static void
test_one_person(void)
{
	Shot shot = { 0 };
	guint none = 0;

	shot_take(&shot, "poses", 1.0);
	assert_people_labelled(&shot);
	g_assert_cmpfloat(shot_share(&shot, DEMO_LABEL_FLOOR, TRACKER_LABEL_FLOOR), >=, SHARE_MIN);
	g_assert_cmpfloat(shot_share(&shot, DEMO_LABEL_WALL, TRACKER_LABEL_BACKGROUND), >=,
	                  SHARE_MIN);
	for (int i = 0; i < DEPTH_PIXELS; i++) {
		if (!block_empty(shot.frame->mm, i))
			continue;
		none++;
		g_assert_cmpuint(shot.labels[i], ==, TRACKER_LABEL_NO_READING);
	}
	g_assert_cmpuint(none, >, 0);
	shot_clear(&shot);
}

/* Three people, two of them touching: each has their own label. */
static void
test_crowd(void)
{
	Shot shot = { 0 };

	shot_take(&shot, "crowd", 0.0);
	assert_people_labelled(&shot);
	shot_clear(&shot);
}

/* A chair, a box and a cabinet are nobody. */
static void
test_furniture(void)
{
	Shot shot = { 0 };

	shot_take(&shot, "furniture", 0.5);
	g_assert_cmpuint(shot.out.n_users, ==, 0);
	for (int i = 0; i < DEPTH_PIXELS; i++)
		g_assert_cmpuint(shot.labels[i], <, TRACKER_LABEL_USER);
	g_assert_cmpfloat(shot_share(&shot, DEMO_LABEL_PROP, TRACKER_LABEL_BACKGROUND), >=,
	                  SHARE_MIN);
	shot_clear(&shot);
}

typedef struct {
	Tracker *tracker;
	gboolean ok;
	guint calls;
	TrackerFrame frame;
} AsyncRun;

static void
async_done(GObject *source G_GNUC_UNUSED, GAsyncResult *result, gpointer data)
{
	AsyncRun *run = data;

	run->ok = tracker_process_finish(run->tracker, result, &run->frame, NULL);
	run->calls++;
}

/* The labels of the frame an asynchronous call returned: the same as the
 * synchronous call gives for it, whatever came before. */
static void
test_async(void)
{
	Shot shot = { 0 };
	g_autoptr(GMainContext) context = g_main_context_new();
	g_autoptr(Tracker) tracker = tracker_new(NULL, NULL);
	g_autofree guint8 *labels = g_malloc(DEPTH_PIXELS);
	AsyncRun run = { tracker, FALSE, 0, { 0 } };
	TrackerFrame out;

	shot_take(&shot, "crowd", 0.0);
	g_assert_true(tracker_process(tracker, shot.frame->mm, 0, 0, &out, NULL));
	tracker_reset(tracker);
	g_main_context_push_thread_default(context);
	tracker_process_async(tracker, shot.frame->mm, 1, 1000, NULL, async_done, &run);
	while (run.calls == 0)
		g_main_context_iteration(context, TRUE);
	g_main_context_pop_thread_default(context);
	g_assert_true(run.ok);
	g_assert_true(tracker_get_labels(tracker, labels));
	g_assert_cmpmem(labels, DEPTH_PIXELS, shot.labels, DEPTH_PIXELS);
	shot_clear(&shot);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/tracker/labels/before-first-frame", test_before_first_frame);
	g_test_add_func("/tracker/labels/one-person", test_one_person);
	g_test_add_func("/tracker/labels/crowd", test_crowd);
	g_test_add_func("/tracker/labels/furniture", test_furniture);
	g_test_add_func("/tracker/labels/async", test_async);
	return g_test_run();
}
