/* The demo scene: deterministic, quantised like a Kinect, with truth that
 * matches the picture, and a script that does what it says. */
#include <math.h>
#include <string.h>

#include "demo/demo-scene.h"
#include "gesture/gesture.h"
#include "demo/truth.h"
#include "testutil.h"

#define FRAME_AT(seconds) ((guint64)((seconds)*DEMO_FPS))

static void
test_deterministic(void)
{
	g_autoptr(DemoScene) a = testutil_scene_new("routine");
	g_autoptr(DemoScene) b = testutil_scene_new("routine");
	g_autoptr(DemoScene) c = demo_scene_new_named("routine", 2, NULL);
	g_autoptr(DepthFrame) fa = depth_frame_new();
	g_autoptr(DepthFrame) fb = depth_frame_new();
	g_autoptr(DepthFrame) fc = depth_frame_new();

	demo_scene_render(a, 123, fa);
	demo_scene_render(b, 500, fb); /* other frames in between change nothing */
	demo_scene_render(b, 123, fb);
	demo_scene_render(c, 123, fc);
	g_assert_cmpmem(fa->mm, DEPTH_PIXELS * 2, fb->mm, DEPTH_PIXELS * 2);
	g_assert_cmpmem(fa->raw, DEPTH_PIXELS * 2, fb->raw, DEPTH_PIXELS * 2);
	g_assert_true(memcmp(fa->mm, fc->mm, DEPTH_PIXELS * 2) != 0);
	g_assert_cmpuint(fa->number, ==, 123);
	g_assert_cmpint(fa->time_us, ==, 123 * G_USEC_PER_SEC / DEMO_FPS);
}

static void
test_quantised_like_libfreenect(void)
{
	g_autoptr(DemoScene) scene = testutil_scene_new("routine");
	g_autoptr(DepthFrame) frame = depth_frame_new();
	guint readings = 0;

	demo_scene_render(scene, 60, frame);
	for (guint i = 0; i < DEPTH_PIXELS; i++) {
		g_assert_cmpuint(depth_raw_to_mm(frame->raw[i]), ==, frame->mm[i]);
		readings += frame->mm[i] != 0;
	}
	/* Mostly readings, but not everywhere: shadow and dropouts. */
	g_assert_cmpuint(readings, >, DEPTH_PIXELS * 8 / 10);
	g_assert_cmpuint(readings, <, DEPTH_PIXELS);
}

/* Joint centres are inside the body: behind the surface seen at their
 * pixel, and not far behind it. */
static void
test_truth_joints_inside_body(void)
{
	g_autoptr(DemoScene) scene = testutil_scene_new("routine");
	g_autoptr(DepthFrame) frame = depth_frame_new();
	const DemoTruthPerson *p;

	demo_scene_render(scene, FRAME_AT(1.0), frame);
	p = testutil_truth_person(frame->truth, 1);
	g_assert_nonnull(p);
	g_assert_cmpuint(p->pixels, >, 10000);
	for (int j = 0; j < TRACKER_N_JOINTS; j++) {
		int i = (int)floor(p->v[j] + 0.5) * DEPTH_WIDTH + (int)floor(p->u[j] + 0.5);
		int surface = frame->mm[i];

		g_assert_true(p->in_view[j]);
		g_assert_true(p->visible[j]);
		if (surface == 0)
			continue;
		g_assert_cmpint((int)p->joints[j].z, >, surface - 40);
		g_assert_cmpint((int)p->joints[j].z, <, surface + 200);
	}
}

static void
test_anatomical_sides(void)
{
	g_autoptr(DemoScene) scene = testutil_scene_new("routine");
	g_autoptr(DepthFrame) frame = depth_frame_new();
	const DemoTruthPerson *p;

	demo_scene_render(scene, FRAME_AT(1.0), frame);
	p = testutil_truth_person(frame->truth, 1);
	/* Facing the sensor, the user's left is on the image's right. */
	g_assert_cmpfloat(p->joints[TRACKER_JOINT_LEFT_SHOULDER].x, >, 0.0);
	g_assert_cmpfloat(p->u[TRACKER_JOINT_LEFT_HAND], >, p->u[TRACKER_JOINT_RIGHT_HAND]);
	g_assert_cmpfloat(p->joints[TRACKER_JOINT_HEAD].y, >, p->joints[TRACKER_JOINT_NECK].y);
}

/* The projector sits to the sensor's +x: objects cast a band with no
 * reading on their image-left side and none on their right. */
static void
test_shadow_band_on_left(void)
{
	g_autoptr(DemoScene) scene = testutil_scene_new("routine");
	g_autoptr(DepthFrame) frame = depth_frame_new();
	const DemoTruth *truth;
	int v, left = -1, right = -1, left_gap = 0, right_gap = 0;

	demo_scene_render(scene, FRAME_AT(1.0), frame);
	truth = frame->truth;
	v = (int)truth->people[0].v[TRACKER_JOINT_NECK] + 30;
	for (int u = 0; u < DEPTH_WIDTH; u++) {
		if (DEMO_LABEL_IS_PERSON(truth->labels[v * DEPTH_WIDTH + u])) {
			if (left < 0)
				left = u;
			right = u;
		}
	}
	g_assert_cmpint(left, >, 20);
	for (int u = left - 20; u < left; u++)
		left_gap += frame->mm[v * DEPTH_WIDTH + u] == 0;
	for (int u = right + 1; u <= right + 20; u++)
		right_gap += frame->mm[v * DEPTH_WIDTH + u] == 0;
	/* 575.8 px * 75 mm * (1/3000 - 1/4800) mm^-1 is about 5 px. */
	g_assert_cmpint(left_gap, >=, 4);
	g_assert_cmpint(right_gap, <=, 1);
}

static void
test_room_in_view(void)
{
	g_autoptr(DemoScene) scene = testutil_scene_new("routine");
	g_autoptr(DepthFrame) frame = depth_frame_new();
	const guint8 *labels;

	demo_scene_render(scene, 0, frame);
	labels = frame->truth->labels;
	g_assert_cmpuint(labels[(DEPTH_HEIGHT - 1) * DEPTH_WIDTH + 5], ==, DEMO_LABEL_FLOOR);
	g_assert_cmpuint(labels[5 * DEPTH_WIDTH + 5], ==, DEMO_LABEL_WALL);
	/* The back wall is 4.8 m away along the floor; the sensor is tilted
	 * by a degree, so its depth at the image centre is a little less. */
	g_assert_cmpint(abs(frame->mm[240 * DEPTH_WIDTH + 40] - 4799), <, 80);
}

static guint
people_in_view(DemoScene *scene, double seconds)
{
	g_autoptr(DepthFrame) frame = depth_frame_new();
	guint n = 0;

	demo_scene_render(scene, FRAME_AT(seconds), frame);
	for (guint i = 0; i < frame->truth->n_people; i++)
		n += frame->truth->people[i].pixels > 500;
	return n;
}

static void
test_routine_visitor_comes_and_goes(void)
{
	g_autoptr(DemoScene) scene = testutil_scene_new("routine");

	g_assert_cmpuint(people_in_view(scene, 10.0), ==, 1);
	g_assert_cmpuint(people_in_view(scene, 44.0), ==, 2);
	g_assert_cmpuint(people_in_view(scene, 51.9), ==, 1);
	g_assert_cmpuint(demo_scene_n_frames(scene), ==, 72.5 * DEMO_FPS);
}

static const DemoTruthPerson *
person_at(DemoScene *scene, DepthFrame *frame, double seconds)
{
	demo_scene_render(scene, FRAME_AT(seconds), frame);
	return testutil_truth_person(frame->truth, 1);
}

static void
test_routine_poses(void)
{
	g_autoptr(DemoScene) scene = testutil_scene_new("routine");
	g_autoptr(DepthFrame) frame = depth_frame_new();
	const DemoTruthPerson *p;
	const TrackerVec3 *j;

	/* both arms up: hands above the head */
	p = person_at(scene, frame, 5.0);
	j = p->joints;
	g_assert_cmpfloat(j[TRACKER_JOINT_LEFT_HAND].y, >, j[TRACKER_JOINT_HEAD].y + 200);
	g_assert_cmpfloat(j[TRACKER_JOINT_RIGHT_HAND].y, >, j[TRACKER_JOINT_HEAD].y + 200);
	/* waving: right elbow near shoulder height, right hand near head height */
	p = person_at(scene, frame, 10.0);
	j = p->joints;
	g_assert_cmpfloat(fabs(j[TRACKER_JOINT_RIGHT_ELBOW].y - j[TRACKER_JOINT_RIGHT_SHOULDER].y),
	                  <, 80);
	g_assert_cmpfloat(fabs(j[TRACKER_JOINT_RIGHT_HAND].y - j[TRACKER_JOINT_HEAD].y), <, 200);
	/* pushing: the left hand well in front of the torso */
	p = person_at(scene, frame, 15.0);
	j = p->joints;
	g_assert_cmpfloat(j[TRACKER_JOINT_TORSO].z - j[TRACKER_JOINT_LEFT_HAND].z, >, 500);
	/* hands on hips: hands near the hips, elbows out */
	p = person_at(scene, frame, 19.5);
	j = p->joints;
	for (int side = 0; side < 2; side++) {
		g_assert_cmpfloat(tracker_vec3_distance(j[TRACKER_JOINT_LEFT_HAND + side],
		                                        j[TRACKER_JOINT_LEFT_HIP + side]),
		                  <, 200);
		g_assert_cmpfloat(fabs(j[TRACKER_JOINT_LEFT_ELBOW + side].x), >,
		                  fabs(j[TRACKER_JOINT_LEFT_SHOULDER + side].x) + 150);
	}
}

static void
test_routine_walks_across(void)
{
	g_autoptr(DemoScene) scene = testutil_scene_new("routine");
	g_autoptr(DepthFrame) frame = depth_frame_new();
	double x0 = person_at(scene, frame, 22.0)->joints[TRACKER_JOINT_TORSO].x;
	double x1 = person_at(scene, frame, 25.6)->joints[TRACKER_JOINT_TORSO].x;
	double x2 = person_at(scene, frame, 32.4)->joints[TRACKER_JOINT_TORSO].x;

	g_assert_cmpfloat(x1, <, x0 - 1000);
	g_assert_cmpfloat(x2, >, x0 + 1000);
}

/* The table of gestures is what the benchmark scores against: every
 * gesture the recognisers know, by actors that exist, in time order. */
static void
test_routine_gesture_table(void)
{
	g_autoptr(DemoScene) scene = testutil_scene_new("routine");
	const DemoScript *script = demo_scene_script(scene);
	gboolean seen[GESTURE_N_KINDS] = { FALSE };
	const DemoGesture *g;
	guint n;

	g = demo_scene_gestures(scene, &n);
	g_assert_cmpuint(n, >=, GESTURE_N_KINDS);
	for (guint i = 0; i < n; i++) {
		GestureKind kind;
		GestureHand hand;

		g_assert_true(gesture_kind_from_str(g[i].gesture, &kind));
		g_assert_true(gesture_hand_from_str(g[i].hand, &hand));
		g_assert_cmpuint(g[i].actor, >=, 1);
		g_assert_cmpuint(g[i].actor, <=, script->n_actors);
		g_assert_cmpfloat(g[i].start, <, g[i].end);
		g_assert_cmpfloat(g[i].end, <=, script->duration);
		if (i > 0)
			g_assert_cmpfloat(g[i - 1].start, <=, g[i].start);
		seen[kind] = TRUE;
	}
	for (guint k = 0; k < GESTURE_N_KINDS; k++)
		g_assert_true(seen[k]);
}

static double
horizontal(TrackerVec3 a, TrackerVec3 b)
{
	return hypot(a.x - b.x, a.z - b.z);
}

/* The routine's swipes, clap and arms out look like what they are. */
static void
test_routine_gesture_poses(void)
{
	g_autoptr(DemoScene) scene = testutil_scene_new("routine");
	g_autoptr(DepthFrame) frame = depth_frame_new();
	TrackerVec3 before, after, l, r;
	const TrackerVec3 *j;

	/* Swipe left: the right hand in front sweeps from its own side
	 * (image left) across the body in 0.35 s. */
	j = person_at(scene, frame, 54.0)->joints;
	before = j[TRACKER_JOINT_RIGHT_HAND];
	g_assert_cmpfloat(before.x, <, j[TRACKER_JOINT_RIGHT_SHOULDER].x);
	g_assert_cmpfloat(j[TRACKER_JOINT_TORSO].z - before.z, >, 300);
	after = person_at(scene, frame, 54.35)->joints[TRACKER_JOINT_RIGHT_HAND];
	g_assert_cmpfloat(after.x - before.x, >, 550);
	/* Swipe up: the left hand from the waist to above the head. */
	j = person_at(scene, frame, 59.5)->joints;
	g_assert_cmpfloat(j[TRACKER_JOINT_LEFT_HAND].y, <, j[TRACKER_JOINT_LEFT_SHOULDER].y - 300);
	j = person_at(scene, frame, 59.85)->joints;
	g_assert_cmpfloat(j[TRACKER_JOINT_LEFT_HAND].y, >, j[TRACKER_JOINT_HEAD].y);
	/* Clap: apart, then palms together in front of the chest. */
	j = person_at(scene, frame, 64.5)->joints;
	g_assert_cmpfloat(horizontal(j[TRACKER_JOINT_LEFT_HAND], j[TRACKER_JOINT_RIGHT_HAND]), >,
	                  450);
	j = person_at(scene, frame, 65.0)->joints;
	l = j[TRACKER_JOINT_LEFT_HAND];
	r = j[TRACKER_JOINT_RIGHT_HAND];
	g_assert_cmpfloat(tracker_vec3_distance(l, r), <, 80);
	g_assert_cmpfloat(j[TRACKER_JOINT_TORSO].z - l.z, >, 300);
	/* Arms out, level with the shoulders. */
	j = person_at(scene, frame, 69.0)->joints;
	for (int side = 0; side < 2; side++) {
		TrackerVec3 hand = j[TRACKER_JOINT_LEFT_HAND + side];

		g_assert_cmpfloat(fabs(hand.x - j[TRACKER_JOINT_TORSO].x), >, 700);
		g_assert_cmpfloat(fabs(hand.y - j[TRACKER_JOINT_LEFT_SHOULDER + side].y), <, 100);
	}
}

/* Five minutes, two people, no gestures: what false events are counted
 * against. */
static void
test_ordinary(void)
{
	g_autoptr(DemoScene) scene = testutil_scene_new("ordinary");
	g_autoptr(DepthFrame) frame = depth_frame_new();
	const TrackerVec3 *j;
	guint n;

	g_assert_cmpuint(demo_scene_n_frames(scene), >=, 300 * DEMO_FPS);
	demo_scene_gestures(scene, &n);
	g_assert_cmpuint(n, ==, 0);
	g_assert_cmpuint(people_in_view(scene, 100.0), ==, 2);
	g_assert_cmpuint(people_in_view(scene, 290.0), ==, 1);
	/* Scratching the head: the hand on top of it. */
	j = person_at(scene, frame, 17.5)->joints;
	g_assert_cmpfloat(j[TRACKER_JOINT_RIGHT_HAND].y, >, j[TRACKER_JOINT_HEAD].y);
	g_assert_cmpfloat(horizontal(j[TRACKER_JOINT_RIGHT_HAND], j[TRACKER_JOINT_HEAD]), <, 150);
}

static void
test_library_scenes_render(void)
{
	const char *const *names = demo_scene_names();

	for (guint i = 0; names[i] != NULL; i++) {
		g_autoptr(DemoScene) scene = testutil_scene_new(names[i]);
		g_autoptr(DepthFrame) frame = depth_frame_new();

		demo_scene_render(scene, demo_scene_n_frames(scene) / 2, frame);
		if (demo_scene_script(scene)->n_actors == 0)
			g_assert_cmpuint(frame->truth->n_people, ==, 0);
		else
			g_assert_cmpuint(frame->truth->n_people, >=, 1);
	}
}

static void
test_truth_as_tracker_frame(void)
{
	g_autoptr(DemoScene) scene = testutil_scene_new("routine");
	g_autoptr(DepthFrame) frame = depth_frame_new();
	TrackerFrame out;
	const TrackerUser *user;

	/* The visitor is still out of view at 37.6 s: only one user. */
	demo_scene_render(scene, FRAME_AT(37.6), frame);
	g_assert_cmpuint(frame->truth->n_people, ==, 2);
	truth_to_tracker_frame(frame->truth, frame->number, frame->time_us, 500, &out);
	g_assert_cmpuint(out.n_users, ==, 1);
	g_assert_cmpuint(out.frame, ==, FRAME_AT(37.6));
	user = tracker_frame_find_user(&out, 1);
	g_assert_nonnull(user);
	g_assert_null(tracker_frame_find_user(&out, 2));
	for (int j = 0; j < TRACKER_N_JOINTS; j++) {
		g_assert_cmpfloat(user->joints[j].confidence, ==, 1.0);
		g_assert_cmpfloat(user->joints[j].position.z, ==,
		                  frame->truth->people[0].joints[j].z);
	}
}

/* The hand of zone-grip's person as a perfect tracker reports it at
 * @seconds. */
static TrackerHand
zone_grip_hand(DemoScene *scene, double seconds, int side)
{
	g_autoptr(DepthFrame) frame = depth_frame_new();
	TrackerFrame out;

	demo_scene_render(scene, FRAME_AT(seconds), frame);
	truth_to_tracker_frame(frame->truth, frame->number, frame->time_us, 500, &out);
	g_assert_cmpuint(out.n_users, ==, 1);
	return out.users[0].hands[side];
}

/* zone-grip's right hand is open, then a fist from 4 to 6 s, open, a
 * fist from 7 to 8 s; relaxed while walking and lowered; the left hand
 * hangs relaxed throughout. Relaxed hands say nothing: unknown. */
static void
test_truth_hand_states(void)
{
	g_autoptr(DemoScene) scene = testutil_scene_new("zone-grip");
	static const struct {
		double seconds;
		TrackerHandState right;
	} at[] = {
		{ 1.0, TRACKER_HAND_UNKNOWN }, { 3.6, TRACKER_HAND_OPEN },
		{ 5.0, TRACKER_HAND_CLOSED },  { 6.5, TRACKER_HAND_OPEN },
		{ 7.5, TRACKER_HAND_CLOSED },  { 8.5, TRACKER_HAND_OPEN },
		{ 9.5, TRACKER_HAND_UNKNOWN },
	};

	for (guint k = 0; k < G_N_ELEMENTS(at); k++) {
		TrackerHand right = zone_grip_hand(scene, at[k].seconds, TRACKER_HAND_RIGHT);
		TrackerHand left = zone_grip_hand(scene, at[k].seconds, TRACKER_HAND_LEFT);

		g_test_message("%.1f s: right %d", at[k].seconds, right.state);
		g_assert_cmpint(right.state, ==, at[k].right);
		g_assert_cmpfloat(right.confidence, ==,
		                  at[k].right == TRACKER_HAND_UNKNOWN ? 0.0 : 1.0);
		g_assert_cmpint(left.state, ==, TRACKER_HAND_UNKNOWN);
		g_assert_cmpfloat(left.confidence, ==, 0.0);
	}
}

/* The scenes that tests and benchmark figures were made with render the
 * same pictures and truth for the same seed, whatever the renderer learns
 * later: a new feature is opt-in. First 16 hex digits of the SHA-256 of
 * the millimetres, the labels and every person's joints. */
static const struct {
	const char *scene;
	guint64 frame;
	const char *sha256;
} pinned_frames[] = {
	{ "routine", 0, "af0a627f0d748806" },
	{ "routine", 100, "f066f047f85529cb" },
	{ "routine", 300, "06e88ff3fd9f4ce5" },
	{ "poses", 0, "af0a627f0d748806" },
	{ "poses", 100, "6f9243ea7f90b5b0" },
	{ "poses", 300, "20fa7097f82eec3f" },
	{ "near", 0, "28b0266c7917417c" },
	{ "near", 100, "9f001c3413087949" },
	{ "near", 300, "864c4cca094e0c89" },
	{ "far", 0, "1d30a192234d4bee" },
	{ "far", 100, "ea3d8b2dbaa5244c" },
	{ "far", 300, "a89189c398d41ece" },
	{ "child", 0, "70a11c630e688318" },
	{ "child", 100, "7f6463e0739baf0a" },
	{ "child", 300, "fa11a725be0b0438" },
	{ "tall", 0, "1019fd61b9ac6619" },
	{ "tall", 100, "20943091b3505fa0" },
	{ "tall", 300, "759943f8e09ca94e" },
	{ "turned", 0, "146a5ef480391bf7" },
	{ "turned", 100, "8b8daa17d6de88ba" },
	{ "turned", 300, "1b0004104fa41e33" },
	{ "crowd", 0, "7113fd839fc9513b" },
	{ "crowd", 100, "8b2f98d597db0571" },
	{ "crowd", 300, "a4ca504e12a69c68" },
	{ "walk", 0, "9410f245b9c6612f" },
	{ "walk", 100, "98072e1ee9258d30" },
	{ "walk", 300, "1710592e8bb1e1b9" },
	{ "furniture", 0, "c135322e73f49eb9" },
	{ "furniture", 100, "f1164382d43ffde9" },
	{ "furniture", 300, "5805b4d6e3e28375" },
	{ "ordinary", 0, "3eeae8320daeb23a" },
	{ "ordinary", 100, "d9fe8032af2d4ba3" },
	{ "ordinary", 300, "dd88f2014ecdaeb7" },
	{ "tuio-drag", 0, "7ed87d5225fea684" },
	{ "tuio-drag", 100, "51f5b210b7433c0b" },
	{ "tuio-drag", 300, "2182b4e1dcd592ce" },
	{ "tuio-two", 0, "94058f83952e335b" },
	{ "tuio-two", 100, "a4ec7837cacd64c3" },
	{ "tuio-two", 300, "35195f616fee9fa7" },
	{ "empty", 0, "c135322e73f49eb9" },
	{ "empty", 100, "be54c877568d921d" },
	{ "empty", 300, "bb1672982ec23ee2" },
	{ "camera-roll", 0, "38094d8399aefd10" },
	{ "camera-roll", 150, "0fd1e7830489be91" },
	{ "camera-low", 150, "30785f01049a0515" },
	{ "camera-high", 150, "da8d681c70a0e035" },
	{ "desk-wave", 150, "6f5c57cdf5e3aa55" },
	{ "seated-sofa", 150, "a8f11b11ec88fb5a" },
	{ "five-walk", 150, "5349089ac43e6197" },
	{ "clutter-walk", 150, "5effaecc2441e734" },
	{ "sideon-folder", 150, "3a60208451400465" },
	{ "zone-grip", 150, "09354a10c485cc4e" },
	{ "five-row", 150, "1bea3815205c08ae" },
};

static void
test_pinned_scenes_unchanged(void)
{
	g_autoptr(DemoScene) scene = NULL;

	for (guint k = 0; k < G_N_ELEMENTS(pinned_frames); k++) {
		g_autoptr(DepthFrame) frame = depth_frame_new();
		g_autoptr(GChecksum) sum = g_checksum_new(G_CHECKSUM_SHA256);
		g_autofree char *digest = NULL;
		const DemoTruth *truth;

		if (scene == NULL ||
		    strcmp(demo_scene_script(scene)->name, pinned_frames[k].scene) != 0) {
			g_clear_pointer(&scene, demo_scene_free);
			scene = testutil_scene_new(pinned_frames[k].scene);
		}
		demo_scene_render(scene, pinned_frames[k].frame, frame);
		truth = frame->truth;
		g_checksum_update(sum, (const guchar *)frame->mm, DEPTH_PIXELS * sizeof(guint16));
		g_checksum_update(sum, truth->labels, DEPTH_PIXELS);
		for (guint p = 0; p < truth->n_people; p++)
			g_checksum_update(sum, (const guchar *)truth->people[p].joints,
			                  sizeof(truth->people[p].joints));
		g_test_message("%s frame %" G_GUINT64_FORMAT, pinned_frames[k].scene,
		               pinned_frames[k].frame);
		digest = g_strndup(g_checksum_get_string(sum), 16);
		g_assert_cmpstr(digest, ==, pinned_frames[k].sha256);
	}
}

/* ---- rooms, sensors and bodies ---- */

#define DEG (G_PI / 180.0)

/* One person standing at @x, @z facing the sensor for two seconds. */
static const DemoKey standing_keys[] = {
	{ .t = 0.0, .z = 2500, .legs = DEMO_LEGS_STAND },
	{ .t = 2.0, .z = 2500, .legs = DEMO_LEGS_STAND },
};

static DemoScript
script_standing(DemoRoom room, const DemoActor *actor)
{
	DemoScript script = { .name = "test",
		              .description = "test",
		              .group = "test",
		              .duration = 2.0,
		              .room = room,
		              .actors = actor,
		              .n_actors = 1 };

	return script;
}

static DemoRoom
room_plain(double height, double pitch_deg, double roll_deg)
{
	DemoRoom room = { .camera_height = height,
		          .pitch = pitch_deg * DEG,
		          .roll = roll_deg * DEG,
		          .wall_z = 4500.0,
		          .noise = TRUE };

	return room;
}

/* The angle from the image's vertical at which the trunk (torso to neck,
 * a vertical line in the world) is seen: positive leans to the right. */
static double
trunk_lean_deg(double roll_deg)
{
	DemoActor actor = { .height = 1750, .keys = standing_keys, .n_keys = 2 };
	DemoScript script = script_standing(room_plain(1000, 0, roll_deg), &actor);
	g_autoptr(DemoScene) scene = demo_scene_new(&script, 1);
	g_autoptr(DepthFrame) frame = depth_frame_new();
	const DemoTruthPerson *p;

	demo_scene_render(scene, 10, frame);
	p = testutil_truth_person(frame->truth, 1);
	g_assert_nonnull(p);
	return atan2(p->u[TRACKER_JOINT_NECK] - p->u[TRACKER_JOINT_TORSO],
	             p->v[TRACKER_JOINT_TORSO] - p->v[TRACKER_JOINT_NECK]) /
	       DEG;
}

/* Positive roll turns the sensor counter-clockwise as seen from behind:
 * upright people lean to the image's right, world up being (sin r, cos r,
 * 0) in camera space at zero pitch. */
static void
test_roll_convention(void)
{
	g_assert_cmpfloat(fabs(trunk_lean_deg(0.0)), <, 0.01);
	g_assert_cmpfloat(fabs(trunk_lean_deg(8.0) - 8.0), <, 0.3);
	g_assert_cmpfloat(fabs(trunk_lean_deg(-6.0) + 6.0), <, 0.3);
}

static void
test_roll_scene_head_right_of_feet(void)
{
	g_autoptr(DemoScene) scene = testutil_scene_new("camera-roll");
	g_autoptr(DepthFrame) frame = depth_frame_new();
	const DemoTruthPerson *p = person_at(scene, frame, 5.0);
	double feet = (p->u[TRACKER_JOINT_LEFT_FOOT] + p->u[TRACKER_JOINT_RIGHT_FOOT]) / 2.0;

	g_assert_cmpfloat(demo_scene_script(scene)->room.roll, >, 0.0);
	g_assert_cmpfloat(p->u[TRACKER_JOINT_HEAD], >, feet + 20.0);
}

/* Cameras high, low and level all see the person, with or without a
 * floor in view. */
static void
test_camera_poses(void)
{
	const struct {
		double height, pitch;
		gboolean floor;
	} poses[] = {
		{ 400, -15, TRUE }, { 1650, 0, TRUE }, { 2300, 30, TRUE }, { 1000, -15, FALSE }
	};

	for (guint k = 0; k < G_N_ELEMENTS(poses); k++) {
		DemoActor actor = { .height = 1750, .keys = standing_keys, .n_keys = 2 };
		DemoScript script =
		        script_standing(room_plain(poses[k].height, poses[k].pitch, 0), &actor);
		g_autoptr(DemoScene) scene = demo_scene_new(&script, 1);
		g_autoptr(DepthFrame) frame = depth_frame_new();
		guint floor = 0;

		demo_scene_render(scene, 10, frame);
		for (guint i = 0; i < DEPTH_PIXELS; i++)
			floor += frame->truth->labels[i] == DEMO_LABEL_FLOOR;
		g_assert_cmpuint(frame->truth->people[0].pixels, >, 3000);
		g_assert_true(frame->truth->people[0].visible[TRACKER_JOINT_TORSO]);
		if (poses[k].floor)
			g_assert_cmpuint(floor, >, 1000);
		else
			g_assert_cmpuint(floor, ==, 0);
	}
}

static guint
readings_in_columns(const DepthFrame *frame, int u0, int u1)
{
	guint n = 0;

	for (int v = 0; v < DEPTH_HEIGHT; v++) {
		for (int u = u0; u < u1; u++)
			n += frame->mm[v * DEPTH_WIDTH + u] != 0;
	}
	return n;
}

/* libfreenect's last 8 columns read nothing, with the Kinect model only. */
static void
test_right_band_only_when_asked(void)
{
	DemoSensorModel models[] = { DEMO_SENSOR_PLAIN, DEMO_SENSOR_KINECT,
		                     DEMO_SENSOR_REGISTERED };

	for (guint k = 0; k < G_N_ELEMENTS(models); k++) {
		DemoActor actor = { .height = 1750, .keys = standing_keys, .n_keys = 2 };
		DemoRoom room = room_plain(1000, 3, 0);
		DemoScript script;
		g_autoptr(DemoScene) scene = NULL;
		g_autoptr(DepthFrame) frame = depth_frame_new();
		guint band, beside;

		room.sensor = models[k];
		script = script_standing(room, &actor);
		scene = demo_scene_new(&script, 1);
		demo_scene_render(scene, 10, frame);
		band = readings_in_columns(frame, DEPTH_WIDTH - 8, DEPTH_WIDTH);
		beside = readings_in_columns(frame, DEPTH_WIDTH - 40, DEPTH_WIDTH - 32);
		g_assert_cmpuint(beside, >, 8 * DEPTH_HEIGHT * 8 / 10);
		if (models[k] == DEMO_SENSOR_PLAIN)
			g_assert_cmpuint(band, >, 8 * DEPTH_HEIGHT * 8 / 10);
		else
			g_assert_cmpuint(band, ==, 0);
		if (models[k] == DEMO_SENSOR_REGISTERED) {
			g_assert_cmpuint(readings_in_columns(frame, 0, 8), ==, 0);
			g_assert_cmpuint(frame->mm[10 * DEPTH_WIDTH + 320], ==, 0);
		}
	}
}

/* The share of @id's pixels with a reading, among those within @radius
 * pixels of (u, v) and above it by at least @above pixels. */
static double
reading_share(const DepthFrame *frame, guint id, double u, double v, double radius, double above)
{
	guint n = 0, read = 0;

	for (int y = MAX(0, (int)(v - radius)); y <= MIN(DEPTH_HEIGHT - 1, (int)(v + radius));
	     y++) {
		for (int x = MAX(0, (int)(u - radius));
		     x <= MIN(DEPTH_WIDTH - 1, (int)(u + radius)); x++) {
			int i = y * DEPTH_WIDTH + x;

			if (hypot(x - u, y - v) > radius || v - y < above ||
			    frame->truth->labels[i] != DEMO_LABEL_PERSON(id))
				continue;
			n++;
			read += frame->mm[i] != 0;
		}
	}
	g_assert_cmpuint(n, >, 50);
	return (double)read / n;
}

static const DepthFrame *
kinect_person(DepthFrame *frame, DemoLook look, DemoScene **scene_out)
{
	static DemoActor actor;
	static DemoScript script;
	DemoRoom room = room_plain(1500, 10, 0);

	room.sensor = DEMO_SENSOR_KINECT;
	actor = (DemoActor){ .height = 1750, .keys = standing_keys, .n_keys = 2, .look = look };
	script = script_standing(room, &actor);
	*scene_out = demo_scene_new(&script, 7);
	demo_scene_render(*scene_out, 10, frame);
	return frame;
}

/* Hair loses readings on top of the head and not on the face; dark cloth
 * loses some; matte surfaces hardly any. */
static void
test_materials_lose_readings(void)
{
	DemoLook hair = { .hair = DEMO_MATERIAL_HAIR };
	DemoLook dark = { .top = DEMO_MATERIAL_DARK, .legs = DEMO_MATERIAL_DARK };
	DemoLook bald = { .hair = DEMO_MATERIAL_MATTE };
	g_autoptr(DepthFrame) frame = depth_frame_new();
	DemoScene *scene;
	const DemoTruthPerson *p;
	double top, face, trunk_bald, trunk_dark;

	p = &kinect_person(frame, hair, &scene)->truth->people[0];
	top = reading_share(frame, 1, p->u[TRACKER_JOINT_HEAD], p->v[TRACKER_JOINT_HEAD], 40, 12);
	face = reading_share(frame, 1, p->u[TRACKER_JOINT_HEAD], p->v[TRACKER_JOINT_HEAD] + 14, 10,
	                     -100);
	demo_scene_free(scene);
	g_assert_cmpfloat(top, <, 0.8);
	g_assert_cmpfloat(face, >, 0.95);
	p = &kinect_person(frame, bald, &scene)->truth->people[0];
	g_assert_cmpfloat(
	        reading_share(frame, 1, p->u[TRACKER_JOINT_HEAD], p->v[TRACKER_JOINT_HEAD], 40, 12),
	        >, top + 0.1);
	trunk_bald = reading_share(frame, 1, p->u[TRACKER_JOINT_TORSO], p->v[TRACKER_JOINT_TORSO],
	                           25, -100);
	demo_scene_free(scene);
	p = &kinect_person(frame, dark, &scene)->truth->people[0];
	trunk_dark = reading_share(frame, 1, p->u[TRACKER_JOINT_TORSO], p->v[TRACKER_JOINT_TORSO],
	                           25, -100);
	demo_scene_free(scene);
	g_assert_cmpfloat(trunk_bald, >, 0.98);
	g_assert_cmpfloat(trunk_dark, <, trunk_bald - 0.01);
}

/* Silhouettes are ragged with the Kinect model: along a body's edge the
 * first reading beside it is sometimes the body's, sometimes missing. */
static void
test_kinect_edges_ragged(void)
{
	DemoLook bald = { .hair = DEMO_MATERIAL_MATTE };
	g_autoptr(DepthFrame) frame = depth_frame_new();
	DemoScene *scene;
	guint bleed = 0, straight = 0, rows = 0;
	const DemoTruthPerson *p = &kinect_person(frame, bald, &scene)->truth->people[0];
	int v0 = (int)p->v[TRACKER_JOINT_NECK] + 20, v1 = (int)p->v[TRACKER_JOINT_TORSO];

	/* The right edge of the trunk (the image-right side casts no shadow). */
	for (int v = v0; v < v1; v++) {
		int edge = -1;

		for (int u = 0; u < DEPTH_WIDTH; u++) {
			if (DEMO_LABEL_IS_PERSON(frame->truth->labels[v * DEPTH_WIDTH + u]))
				edge = u;
		}
		rows++;
		/* A body reading just outside its true outline: it bled. */
		bleed += frame->mm[v * DEPTH_WIDTH + edge + 1] != 0 &&
		         abs(frame->mm[v * DEPTH_WIDTH + edge + 1] -
		             frame->mm[v * DEPTH_WIDTH + edge - 3]) < 100;
		straight += frame->mm[v * DEPTH_WIDTH + edge] != 0 &&
		            frame->mm[v * DEPTH_WIDTH + edge + 1] != 0 &&
		            frame->mm[v * DEPTH_WIDTH + edge + 1] >
		                    frame->mm[v * DEPTH_WIDTH + edge] + 300;
	}
	demo_scene_free(scene);
	g_assert_cmpuint(rows, >, 30);
	g_assert_cmpuint(bleed, >, rows / 10);
	g_assert_cmpuint(bleed, <, rows * 9 / 10);
	g_assert_cmpuint(straight, <, rows * 9 / 10);
}

static const DemoKey sitting_keys[] = {
	{ .t = 0.0, .z = 2500, .legs = DEMO_LEGS_SIT, .seat = DEMO_KIT_CHAIR_SEAT },
	{ .t = 2.0, .z = 2500, .legs = DEMO_LEGS_SIT, .seat = DEMO_KIT_CHAIR_SEAT },
	{ .t = 3.0, .z = 2200, .legs = DEMO_LEGS_STAND },
};

static void
sitting_skeleton(double height, double t, DemoSkeleton *sk, DemoBody *body)
{
	DemoActor actor = { .height = height, .keys = sitting_keys, .n_keys = 3 };
	DemoScript script = script_standing(room_plain(1000, 3, 0), &actor);
	g_autoptr(DemoScene) scene = demo_scene_new(&script, 1);
	guint ids[DEMO_MAX_PEOPLE];

	g_assert_cmpuint(demo_scene_skeletons(scene, t, sk, ids), ==, 1);
	demo_body_init(body, height, 1.0);
}

/* Seated: hips on the seat, thighs forward about level, feet on the floor
 * (a tall body's shins slant, a child's hang); the truth in camera space
 * says the same. */
static void
test_seated_pose(void)
{
	const double heights[] = { 1250, 1750, 1980 };
	DemoItem chair = { .kind = DEMO_KIT_CHAIR };

	g_assert_cmpfloat(demo_kit_seat_height(&chair), ==, DEMO_KIT_CHAIR_SEAT);
	for (guint k = 0; k < G_N_ELEMENTS(heights); k++) {
		DemoSkeleton sk;
		DemoBody body;
		const TrackerVec3 *j = sk.joints;
		double H = heights[k];

		sitting_skeleton(H, 1.0, &sk, &body);
		g_assert_cmpfloat(
		        fabs(sk.pelvis.y - DEMO_KIT_CHAIR_SEAT - demo_body_seat_contact(&body)), <,
		        1.0);
		/* the thighs' undersides (radius 0.045 H) rest on the seat */
		g_assert_cmpfloat(fabs(sk.pelvis.y - 0.045 * H - DEMO_KIT_CHAIR_SEAT), <,
		                  0.015 * H);
		for (int side = 0; side < 2; side++) {
			TrackerVec3 hip = j[TRACKER_JOINT_LEFT_HIP + side];
			TrackerVec3 knee = j[TRACKER_JOINT_LEFT_KNEE + side];
			TrackerVec3 foot = j[TRACKER_JOINT_LEFT_FOOT + side];

			g_assert_cmpfloat(fabs(hip.y - sk.pelvis.y), <, 1.0);
			/* facing the sensor: forward is -z */
			g_assert_cmpfloat(hip.z - knee.z, >, 0.2 * H);
			g_assert_cmpfloat(fabs(knee.y - hip.y), <, 0.08 * H);
			g_assert_cmpfloat(foot.y, >, 0.039 * H - 1.0);
			if (H > 1500)
				g_assert_cmpfloat(foot.y, <, 0.039 * H + 1.0);
			else
				g_assert_cmpfloat(foot.y, >, 0.039 * H + 30.0);
		}
		/* seated, the head is well below its standing height */
		g_assert_cmpfloat(j[TRACKER_JOINT_HEAD].y, <, H - body.head_radius - 0.1 * H);
	}
}

/* Getting up blends: halfway, the pelvis is between the seat and its
 * standing height, and the feet stay on the floor. */
static void
test_getting_up(void)
{
	DemoSkeleton seated, half, standing;
	DemoBody body;

	sitting_skeleton(1750, 2.0, &seated, &body);
	sitting_skeleton(1750, 2.5, &half, &body);
	sitting_skeleton(1750, 3.0, &standing, &body);
	g_assert_cmpfloat(half.pelvis.y, >, seated.pelvis.y + 50);
	g_assert_cmpfloat(half.pelvis.y, <, standing.pelvis.y - 50);
	g_assert_cmpfloat(standing.pelvis.y, >, 0.5 * 1750);
	for (int side = 0; side < 2; side++)
		g_assert_cmpfloat(half.joints[TRACKER_JOINT_LEFT_FOOT + side].y, >=,
		                  0.039 * 1750 - 1.0);
}

/* Walking side-on to +x: the right hand is on the sensor's side. */
static const DemoKey side_on_keys[] = {
	{ .t = 0.0,
	  .x = -600,
	  .z = 2500,
	  .yaw_deg = -90,
	  .left = DEMO_ARM_SWING,
	  .right = DEMO_ARM_SWING,
	  .legs = DEMO_LEGS_WALK },
	{ .t = 2.0,
	  .x = 600,
	  .z = 2500,
	  .yaw_deg = -90,
	  .left = DEMO_ARM_SWING,
	  .right = DEMO_ARM_SWING,
	  .legs = DEMO_LEGS_WALK },
};

/* Counts prop pixels, and those of them over 100 pixels from (u, v). */
static guint
count_props(const DemoTruth *truth, double u, double v, guint *far)
{
	guint n = 0;

	*far = 0;
	for (int i = 0; i < DEPTH_PIXELS; i++) {
		if (truth->labels[i] != DEMO_LABEL_PROP)
			continue;
		n++;
		*far += hypot(i % DEPTH_WIDTH - u, i / DEPTH_WIDTH - v) > 100;
	}
	return n;
}

/* A folder in the hand is a prop, near the hand; the person is still the
 * person. */
static void
test_carried_folder_is_a_prop(void)
{
	for (int carry = 0; carry < 2; carry++) {
		DemoActor actor = { .height = 1800,
			            .keys = side_on_keys,
			            .n_keys = 2,
			            .carry = carry ? DEMO_CARRY_FOLDER_RIGHT : DEMO_CARRY_NOTHING };
		DemoScript script = script_standing(room_plain(1000, 3, 0), &actor);
		g_autoptr(DemoScene) scene = demo_scene_new(&script, 1);
		g_autoptr(DepthFrame) frame = depth_frame_new();
		const DemoTruthPerson *p;
		guint prop, far;
		int hand;

		demo_scene_render(scene, 30, frame);
		p = testutil_truth_person(frame->truth, 1);
		prop = count_props(frame->truth, p->u[TRACKER_JOINT_RIGHT_HAND],
		                   p->v[TRACKER_JOINT_RIGHT_HAND], &far);
		hand = (int)p->v[TRACKER_JOINT_RIGHT_HAND] * DEPTH_WIDTH +
		       (int)p->u[TRACKER_JOINT_RIGHT_HAND];
		g_assert_cmpuint(p->pixels, >, 5000);
		if (!carry) {
			g_assert_cmpuint(prop, ==, 0);
			continue;
		}
		g_assert_cmpuint(prop, >, 1500);
		g_assert_cmpuint(far, <, prop / 20);
		g_assert_true(p->visible[TRACKER_JOINT_RIGHT_HAND] ||
		              frame->truth->labels[hand] == DEMO_LABEL_PROP);
	}
}

/* Broad people are broader than thin ones of the same height. */
static void
test_girth(void)
{
	const double girths[] = { 0.85, 1.0, 1.3 };
	double width[3];
	guint pixels[3];

	for (guint k = 0; k < 3; k++) {
		DemoActor actor = {
			.height = 1750, .keys = standing_keys, .n_keys = 2, .girth = girths[k]
		};
		DemoScript script = script_standing(room_plain(1000, 3, 0), &actor);
		g_autoptr(DemoScene) scene = demo_scene_new(&script, 1);
		g_autoptr(DepthFrame) frame = depth_frame_new();
		const DemoTruthPerson *p;

		demo_scene_render(scene, 10, frame);
		p = testutil_truth_person(frame->truth, 1);
		width[k] = p->joints[TRACKER_JOINT_LEFT_SHOULDER].x -
		           p->joints[TRACKER_JOINT_RIGHT_SHOULDER].x;
		pixels[k] = p->pixels;
	}
	g_assert_cmpfloat(width[0], <, width[1] - 30);
	g_assert_cmpfloat(width[2], >, width[1] + 60);
	g_assert_cmpuint(pixels[0], <, pixels[1]);
	g_assert_cmpuint(pixels[2], >, pixels[1] * 11 / 10);
}

/* A leaning body keeps its feet and moves its head back. */
static void
test_lean(void)
{
	DemoBody body;
	DemoBodyState state = { .root = tracker_vec3(0, 0, 3000) };
	DemoSkeleton upright, leaning;

	demo_body_init(&body, 1700, 1.0);
	demo_body_limbs(DEMO_ARM_DOWN, DEMO_ARM_DOWN, DEMO_LEGS_STAND, 0.0, &state.limbs);
	demo_body_pose(&body, &state, &upright);
	state.lean = 10.0 * DEG;
	demo_body_pose(&body, &state, &leaning);
	/* facing the sensor, back is +z */
	g_assert_cmpfloat(leaning.joints[TRACKER_JOINT_HEAD].z -
	                          upright.joints[TRACKER_JOINT_HEAD].z,
	                  >, 100);
	g_assert_cmpfloat(tracker_vec3_distance(leaning.joints[TRACKER_JOINT_LEFT_FOOT],
	                                        upright.joints[TRACKER_JOINT_LEFT_FOOT]),
	                  <, 1e-6);
}

/* Every kit fits its parts, stands on the floor, and turns as people do:
 * at yaw 90 its front faces -x. */
static void
test_kits(void)
{
	for (int kind = 0; kind < DEMO_N_KITS; kind++) {
		DemoItem item = { .kind = kind };
		DemoKitParts parts = { .n_blocks = 0 };
		double low = INFINITY;

		demo_kit_build(&item, 0, 3000, 0, &parts);
		g_assert_cmpuint(parts.n_blocks + parts.n_capsules, >, 0);
		g_assert_cmpuint(parts.n_blocks, <, DEMO_KIT_MAX_BLOCKS);
		g_assert_cmpuint(parts.n_capsules, <, DEMO_KIT_MAX_CAPSULES);
		for (guint b = 0; b < parts.n_blocks; b++)
			low = MIN(low, parts.blocks[b].centre.y - parts.blocks[b].half[1]);
		for (guint c = 0; c < parts.n_capsules; c++)
			low = MIN(low, MIN(parts.capsules[c].a.y, parts.capsules[c].b.y) -
			                       parts.capsules[c].r);
		g_assert_cmpfloat(fabs(low), <, 10.0);
	}
}

static void
test_kit_turns(void)
{
	DemoItem monitor = { .kind = DEMO_KIT_MONITOR };
	DemoKitParts parts = { .n_blocks = 0 };
	const DemoBlock *screen;

	demo_kit_build(&monitor, 0, 3000, 90, &parts);
	screen = &parts.blocks[0];
	g_assert_cmpint(screen->material, ==, DEMO_MATERIAL_BLACK);
	/* thin across its front... */
	g_assert_cmpfloat(fabs(screen->axis[2].x), >, 0.999);
	/* ...whose front is on the -x side of the stand */
	g_assert_cmpfloat(screen->centre.x, <, parts.blocks[2].centre.x);
}

/* A doorway opens on the space beyond it. */
static void
test_doorway(void)
{
	g_autoptr(DemoScene) scene = testutil_scene_new("sideon-folder");
	g_autoptr(DepthFrame) frame = depth_frame_new();
	int door = 240 * DEPTH_WIDTH + 320, wall = 240 * DEPTH_WIDTH + 470;

	/* the walker is still far to the left */
	demo_scene_render(scene, 0, frame);
	g_assert_cmpuint(frame->truth->labels[door], ==, DEMO_LABEL_WALL);
	g_assert_cmpuint(frame->truth->labels[wall], ==, DEMO_LABEL_WALL);
	g_assert_cmpint(frame->mm[door], >, 5500);
	g_assert_cmpint(abs(frame->mm[wall] - 3950), <, 150);
}

/* Pixels that are a prop in one label image and not in the other, where
 * neither shows a person. */
static guint
props_differ(const guint8 *a, const guint8 *b)
{
	guint n = 0;

	for (int i = 0; i < DEPTH_PIXELS; i++) {
		if (!DEMO_LABEL_IS_PERSON(a[i]) && !DEMO_LABEL_IS_PERSON(b[i]))
			n += (a[i] == DEMO_LABEL_PROP) != (b[i] == DEMO_LABEL_PROP);
	}
	return n;
}

static guint8 *
labels_at(DemoScene *scene, double seconds)
{
	g_autoptr(DepthFrame) frame = depth_frame_new();

	demo_scene_render(scene, FRAME_AT(seconds), frame);
	return g_memdup2(frame->truth->labels, DEPTH_PIXELS);
}

/* Furniture that someone moves changes place on the way, then stays. */
static void
test_moved_chair(void)
{
	g_autoptr(DemoScene) scene = testutil_scene_new("clutter-chair");
	g_autofree guint8 *before = labels_at(scene, 1.0);
	g_autofree guint8 *moving = labels_at(scene, 6.5);
	g_autofree guint8 *after = labels_at(scene, 10.0);
	g_autofree guint8 *later = labels_at(scene, 12.5);

	g_assert_cmpuint(props_differ(before, after), >, 2000);
	g_assert_cmpuint(props_differ(before, moving), >, 1000);
	g_assert_cmpuint(props_differ(moving, after), >, 1000);
	g_assert_cmpuint(props_differ(after, later), ==, 0);
}

/* At the desk the legs are under it, out of sight; close up the head
 * leaves the picture while the shoulders stay. */
static void
test_desk_and_closeup_truth(void)
{
	g_autoptr(DemoScene) desk = testutil_scene_new("desk-wave");
	g_autoptr(DemoScene) torso = testutil_scene_new("closeup-torso");
	g_autoptr(DepthFrame) frame = depth_frame_new();
	const DemoTruthPerson *p = person_at(desk, frame, 1.0);

	for (int side = 0; side < 2; side++) {
		g_assert_false(p->visible[TRACKER_JOINT_LEFT_KNEE + side]);
		g_assert_false(p->visible[TRACKER_JOINT_LEFT_FOOT + side]);
	}
	g_assert_true(p->visible[TRACKER_JOINT_NECK]);
	g_assert_cmpfloat(p->joints[TRACKER_JOINT_TORSO].z, <, 900);
	p = person_at(torso, frame, 1.0);
	g_assert_false(p->in_view[TRACKER_JOINT_HEAD]);
	g_assert_true(p->visible[TRACKER_JOINT_LEFT_SHOULDER]);
	g_assert_true(p->visible[TRACKER_JOINT_RIGHT_SHOULDER]);
	g_assert_true(p->visible[TRACKER_JOINT_TORSO]);
}

/* The new scenes: every one has a group and a description, lasts 8 to 30
 * s, and the lot stays within six minutes. */
static void
test_room_scenes(void)
{
	const char *const groups[] = { "wall",   "desk",   "closeup", "five",    "sideon",
		                       "camera", "seated", "lean",    "clutter", "range" };
	const char *const *names = demo_scene_names();
	guint seen[G_N_ELEMENTS(groups)] = { 0 };
	double total = 0.0;

	g_assert_null(demo_scene_find_script("ballet"));
	for (guint i = 0; names[i] != NULL; i++) {
		const DemoScript *script = demo_scene_find_script(names[i]);
		gboolean known = FALSE;

		g_assert_nonnull(script->group);
		g_assert_nonnull(script->description);
		for (guint g = 0; g < G_N_ELEMENTS(groups); g++) {
			if (strcmp(script->group, groups[g]) == 0) {
				seen[g]++;
				known = TRUE;
			}
		}
		if (!known)
			continue;
		g_assert_cmpint(script->room.sensor, !=, DEMO_SENSOR_PLAIN);
		g_assert_cmpfloat(script->duration, >=, 8.0);
		g_assert_cmpfloat(script->duration, <=, 30.0);
		total += script->duration;
	}
	for (guint g = 0; g < G_N_ELEMENTS(groups); g++)
		g_assert_cmpuint(seen[g], >=, 1);
	g_assert_cmpfloat(total, <=, 6.0 * 60.0);
}

/* The Kinect model is as deterministic as the plain one. */
static void
test_kinect_deterministic(void)
{
	g_autoptr(DemoScene) a = testutil_scene_new("clutter-walk");
	g_autoptr(DemoScene) b = testutil_scene_new("clutter-walk");
	g_autoptr(DemoScene) c = demo_scene_new_named("clutter-walk", 2, NULL);
	g_autoptr(DepthFrame) fa = depth_frame_new();
	g_autoptr(DepthFrame) fb = depth_frame_new();

	demo_scene_render(a, 150, fa);
	demo_scene_render(b, 10, fb);
	demo_scene_render(b, 150, fb);
	g_assert_cmpmem(fa->mm, DEPTH_PIXELS * 2, fb->mm, DEPTH_PIXELS * 2);
	demo_scene_render(c, 150, fb);
	g_assert_true(memcmp(fa->mm, fb->mm, DEPTH_PIXELS * 2) != 0);
	for (guint i = 0; i < DEPTH_PIXELS; i++)
		g_assert_cmpuint(depth_raw_to_mm(fa->raw[i]), ==, fa->mm[i]);
}

static void
test_unknown_scene(void)
{
	g_autoptr(GError) error = NULL;
	g_autoptr(DemoScene) scene = demo_scene_new_named("ballet", 1, &error);

	g_assert_null(scene);
	g_assert_error(error, DEMO_SCENE_ERROR, 0);
	g_assert_true(g_str_has_prefix(
	        error->message, "no demo scene called 'ballet'; scenes are: routine, poses"));
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/demo/deterministic", test_deterministic);
	g_test_add_func("/demo/quantised-like-libfreenect", test_quantised_like_libfreenect);
	g_test_add_func("/demo/truth/joints-inside-body", test_truth_joints_inside_body);
	g_test_add_func("/demo/truth/anatomical-sides", test_anatomical_sides);
	g_test_add_func("/demo/noise/shadow-band-on-image-left", test_shadow_band_on_left);
	g_test_add_func("/demo/room/floor-and-wall", test_room_in_view);
	g_test_add_func("/demo/routine/visitor-comes-and-goes",
	                test_routine_visitor_comes_and_goes);
	g_test_add_func("/demo/routine/poses", test_routine_poses);
	g_test_add_func("/demo/routine/walks-across", test_routine_walks_across);
	g_test_add_func("/demo/routine/gesture-table-covers-every-gesture",
	                test_routine_gesture_table);
	g_test_add_func("/demo/routine/gesture-poses", test_routine_gesture_poses);
	g_test_add_func("/demo/ordinary/two-people-five-minutes-no-gesture", test_ordinary);
	g_test_add_func("/demo/library/every-scene-renders", test_library_scenes_render);
	g_test_add_func("/demo/library/unknown-scene", test_unknown_scene);
	g_test_add_func("/demo/truth/as-tracker-frame", test_truth_as_tracker_frame);
	g_test_add_func("/demo/truth/hand-states", test_truth_hand_states);
	g_test_add_func("/demo/library/pinned-scenes-unchanged", test_pinned_scenes_unchanged);
	g_test_add_func("/demo/library/room-scenes", test_room_scenes);
	g_test_add_func("/demo/room/roll-convention", test_roll_convention);
	g_test_add_func("/demo/room/roll-scene-head-right-of-feet",
	                test_roll_scene_head_right_of_feet);
	g_test_add_func("/demo/room/camera-poses", test_camera_poses);
	g_test_add_func("/demo/room/moved-chair", test_moved_chair);
	g_test_add_func("/demo/room/kits", test_kits);
	g_test_add_func("/demo/room/kit-turns", test_kit_turns);
	g_test_add_func("/demo/room/doorway", test_doorway);
	g_test_add_func("/demo/noise/right-band-only-when-asked", test_right_band_only_when_asked);
	g_test_add_func("/demo/noise/materials-lose-readings", test_materials_lose_readings);
	g_test_add_func("/demo/noise/kinect-edges-ragged", test_kinect_edges_ragged);
	g_test_add_func("/demo/noise/kinect-deterministic", test_kinect_deterministic);
	g_test_add_func("/demo/body/seated", test_seated_pose);
	g_test_add_func("/demo/body/getting-up", test_getting_up);
	g_test_add_func("/demo/body/lean", test_lean);
	g_test_add_func("/demo/body/girth", test_girth);
	g_test_add_func("/demo/body/carried-folder-is-a-prop", test_carried_folder_is_a_prop);
	g_test_add_func("/demo/truth/desk-and-closeup", test_desk_and_closeup_truth);
	return g_test_run();
}
