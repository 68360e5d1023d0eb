/* Hands as TUIO cursors: touching, ids, positions, motion, and which
 * frames go out. Skeletons are built here, facing the sensor. */
#include <math.h>
#include <string.h>

#include "mapping/tuio.h"

#define FRAME_US  33333
#define ADULT_ARM 330.0 /* upper arm and forearm: reach 660 mm */

typedef struct {
	TrackerFrame frame;
	gint64 time_us;
} Scene;

/* A user facing the sensor, shoulders at @z, both hands hanging. */
static TrackerUser *
scene_add_user(Scene *s, guint id, double x, double z, double arm)
{
	TrackerUser *u = &s->frame.users[s->frame.n_users++];
	double shoulder_y = 400.0;

	memset(u, 0, sizeof(*u));
	u->id = id;
	for (int j = 0; j < TRACKER_N_JOINTS; j++)
		u->joints[j].confidence = 1.0;
	u->joints[TRACKER_JOINT_LEFT_SHOULDER].position = tracker_vec3(x + 180, shoulder_y, z);
	u->joints[TRACKER_JOINT_RIGHT_SHOULDER].position = tracker_vec3(x - 180, shoulder_y, z);
	for (int side = 0; side < 2; side++) {
		double sx = side == 0 ? x + 180 : x - 180;

		u->joints[TRACKER_JOINT_LEFT_ELBOW + side].position =
		        tracker_vec3(sx, shoulder_y - arm, z);
		u->joints[TRACKER_JOINT_LEFT_HAND + side].position =
		        tracker_vec3(sx, shoulder_y - 2 * arm, z);
	}
	return u;
}

/* Puts a hand @depth reaches in front of its shoulder, arm straight. */
static void
hand_forward(TrackerUser *u, int side, double depth, double arm)
{
	TrackerVec3 s = u->joints[TRACKER_JOINT_LEFT_SHOULDER + side].position;
	double reach = 2 * arm;
	double drop = sqrt(MAX(0.0, reach * reach - (depth * reach) * (depth * reach)));

	u->joints[TRACKER_JOINT_LEFT_HAND + side].position =
	        tracker_vec3(s.x, s.y - drop, s.z - depth * reach);
	u->joints[TRACKER_JOINT_LEFT_ELBOW + side].position =
	        tracker_vec3(s.x, s.y - drop / 2, s.z - depth * reach / 2);
}

static gboolean
step(TuioState *state, Scene *s, TuioFrame *out)
{
	s->frame.time_us = s->time_us;
	s->time_us += FRAME_US;
	return tuio_state_update(state, &s->frame, out);
}

static TuioState *
state_new(TuioTouch touch, gint32 seed)
{
	TuioConfig config;

	tuio_config_init(&config);
	config.touch = touch;
	return tuio_state_new(&config, seed);
}

static void
test_push_touches_with_hysteresis(void)
{
	g_autoptr(TuioState) state = state_new(TUIO_TOUCH_PUSH, 100);
	Scene s = { 0 };
	TuioFrame out;
	TrackerUser *u = scene_add_user(&s, 1, 0, 2500, ADULT_ARM);

	hand_forward(u, 1, 0.55, ADULT_ARM);
	step(state, &s, &out);
	g_assert_cmpuint(out.n_cursors, ==, 0);
	hand_forward(u, 1, 0.65, ADULT_ARM);
	step(state, &s, &out);
	g_assert_cmpuint(out.n_cursors, ==, 1);
	g_assert_cmpint(out.cursors[0].session, ==, 100);
	g_assert_cmpuint(out.cursors[0].hand, ==, TRACKER_JOINT_RIGHT_HAND);
	g_assert_cmpuint(out.cursors[0].user, ==, 1);
	/* Between release and touch depth: still touching. */
	hand_forward(u, 1, 0.55, ADULT_ARM);
	step(state, &s, &out);
	g_assert_cmpuint(out.n_cursors, ==, 1);
	g_assert_cmpint(out.cursors[0].session, ==, 100);
	hand_forward(u, 1, 0.45, ADULT_ARM);
	step(state, &s, &out);
	g_assert_cmpuint(out.n_cursors, ==, 0);
}

static void
test_sessions_never_reused(void)
{
	g_autoptr(TuioState) state = state_new(TUIO_TOUCH_PUSH, 7);
	Scene s = { 0 };
	TuioFrame out;
	TrackerUser *u = scene_add_user(&s, 1, 0, 2500, ADULT_ARM);
	gint32 last = 0;

	for (int i = 0; i < 3; i++) {
		hand_forward(u, 0, 0.8, ADULT_ARM);
		step(state, &s, &out);
		g_assert_cmpuint(out.n_cursors, ==, 1);
		g_assert_cmpint(out.cursors[0].session, >, last);
		last = out.cursors[0].session;
		hand_forward(u, 0, 0.1, ADULT_ARM);
		step(state, &s, &out);
		g_assert_cmpuint(out.n_cursors, ==, 0);
	}
}

static void
test_two_users_four_cursors(void)
{
	g_autoptr(TuioState) state = state_new(TUIO_TOUCH_ALWAYS, 1);
	Scene s = { 0 };
	TuioFrame out;

	scene_add_user(&s, 3, -600, 2500, ADULT_ARM);
	scene_add_user(&s, 5, 600, 2800, 250);
	step(state, &s, &out);
	g_assert_cmpuint(out.n_cursors, ==, 4);
	for (guint i = 0; i < 4; i++) {
		for (guint k = i + 1; k < 4; k++)
			g_assert_cmpint(out.cursors[i].session, !=, out.cursors[k].session);
		/* Sorted by session, so the alive list reads in order. */
		if (i > 0)
			g_assert_cmpint(out.cursors[i].session, >, out.cursors[i - 1].session);
	}
}

static void
test_user_leaving_takes_cursors(void)
{
	g_autoptr(TuioState) state = state_new(TUIO_TOUCH_ALWAYS, 1);
	Scene s = { 0 };
	TuioFrame out;

	scene_add_user(&s, 1, 0, 2500, ADULT_ARM);
	step(state, &s, &out);
	g_assert_cmpuint(out.n_cursors, ==, 2);
	s.frame.n_users = 0;
	step(state, &s, &out);
	g_assert_cmpuint(out.n_cursors, ==, 0);
	/* The same id coming back is a new touch with new sessions. */
	scene_add_user(&s, 1, 0, 2500, ADULT_ARM);
	step(state, &s, &out);
	g_assert_cmpint(out.cursors[0].session, ==, 3);
}

static void
test_low_confidence_hand_is_no_cursor(void)
{
	g_autoptr(TuioState) state = state_new(TUIO_TOUCH_ALWAYS, 1);
	Scene s = { 0 };
	TuioFrame out;
	TrackerUser *u = scene_add_user(&s, 1, 0, 2500, ADULT_ARM);

	u->joints[TRACKER_JOINT_LEFT_HAND].confidence = 0.1;
	step(state, &s, &out);
	g_assert_cmpuint(out.n_cursors, ==, 1);
	g_assert_cmpuint(out.cursors[0].hand, ==, TRACKER_JOINT_RIGHT_HAND);
}

/* The same relative push touches for a child and for an adult. */
static void
test_push_is_body_relative(void)
{
	double arms[] = { 200.0, ADULT_ARM, 400.0 };

	for (guint i = 0; i < G_N_ELEMENTS(arms); i++) {
		g_autoptr(TuioState) state = state_new(TUIO_TOUCH_PUSH, 1);
		Scene s = { 0 };
		TuioFrame out;
		TrackerUser *u = scene_add_user(&s, 1, 0, 2500, arms[i]);

		hand_forward(u, 0, 0.58, arms[i]);
		step(state, &s, &out);
		g_assert_cmpuint(out.n_cursors, ==, 0);
		hand_forward(u, 0, 0.62, arms[i]);
		step(state, &s, &out);
		g_assert_cmpuint(out.n_cursors, ==, 1);
	}
}

static void
test_raised_touches(void)
{
	g_autoptr(TuioState) state = state_new(TUIO_TOUCH_RAISED, 1);
	Scene s = { 0 };
	TuioFrame out;
	TrackerUser *u = scene_add_user(&s, 1, 0, 2500, ADULT_ARM);
	TrackerVec3 *hand = &u->joints[TRACKER_JOINT_LEFT_HAND].position;

	step(state, &s, &out);
	g_assert_cmpuint(out.n_cursors, ==, 0);
	hand->y = 400.0 + 20.0;
	step(state, &s, &out);
	g_assert_cmpuint(out.n_cursors, ==, 1);
	/* Release is a little below the shoulder: -0.08 reach = -53 mm. */
	hand->y = 400.0 - 40.0;
	step(state, &s, &out);
	g_assert_cmpuint(out.n_cursors, ==, 1);
	hand->y = 400.0 - 60.0;
	step(state, &s, &out);
	g_assert_cmpuint(out.n_cursors, ==, 0);
}

static void
hand_set(TrackerUser *u, int side, TrackerHandState state)
{
	u->hands[side].state = state;
	u->hands[side].confidence = state == TRACKER_HAND_UNKNOWN ? 0.0 : 0.9;
}

/* touch = grip: a closed hand touches wherever it is; it keeps touching
 * (one session) through frames the tracker cannot tell it, for up to
 * MAPPING_GRIP_RELEASE_US, and lets go once it opens or that has passed. */
static void
test_grip_touches(void)
{
	g_autoptr(TuioState) state = state_new(TUIO_TOUCH_GRIP, 7);
	Scene s = { 0 };
	TuioFrame out;
	TrackerUser *u = scene_add_user(&s, 1, 0, 2500, ADULT_ARM);

	hand_set(u, 1, TRACKER_HAND_OPEN);
	step(state, &s, &out);
	g_assert_cmpuint(out.n_cursors, ==, 0);
	hand_set(u, 1, TRACKER_HAND_CLOSED);
	step(state, &s, &out);
	g_assert_cmpuint(out.n_cursors, ==, 1);
	g_assert_cmpint(out.cursors[0].session, ==, 7);
	g_assert_cmpuint(out.cursors[0].hand, ==, TRACKER_JOINT_RIGHT_HAND);
	/* Unsure for 9 frames (267 ms): the same touch goes on. */
	hand_set(u, 1, TRACKER_HAND_UNKNOWN);
	for (int i = 0; i < 9; i++) {
		step(state, &s, &out);
		g_assert_cmpuint(out.n_cursors, ==, 1);
		g_assert_cmpint(out.cursors[0].session, ==, 7);
	}
	hand_set(u, 1, TRACKER_HAND_CLOSED);
	step(state, &s, &out);
	g_assert_cmpint(out.cursors[0].session, ==, 7);
	hand_set(u, 1, TRACKER_HAND_OPEN);
	step(state, &s, &out);
	g_assert_cmpuint(out.n_cursors, ==, 0);
	/* Closed again: a new touch; unsure for longer than the release time: let go. */
	hand_set(u, 1, TRACKER_HAND_CLOSED);
	step(state, &s, &out);
	g_assert_cmpint(out.cursors[0].session, ==, 8);
	hand_set(u, 1, TRACKER_HAND_UNKNOWN);
	for (int i = 0; i < 9; i++)
		step(state, &s, &out);
	g_assert_cmpuint(out.n_cursors, ==, 1);
	/* 300 ms after the first unsure frame (frames are 33.333 ms apart). */
	step(state, &s, &out);
	step(state, &s, &out);
	g_assert_cmpuint(out.n_cursors, ==, 0);
	/* A closed hand whose joint is not found is no cursor. */
	hand_set(u, 0, TRACKER_HAND_CLOSED);
	u->joints[TRACKER_JOINT_LEFT_HAND].confidence = 0.0;
	step(state, &s, &out);
	g_assert_cmpuint(out.n_cursors, ==, 0);
	u->joints[TRACKER_JOINT_LEFT_HAND].confidence = 1.0;
	step(state, &s, &out);
	g_assert_cmpuint(out.n_cursors, ==, 1);
	g_assert_cmpuint(out.cursors[0].hand, ==, TRACKER_JOINT_LEFT_HAND);
}

static void
test_body_box_positions(void)
{
	g_autoptr(TuioState) state = state_new(TUIO_TOUCH_ALWAYS, 1);
	Scene s = { 0 };
	TuioFrame out;
	TrackerUser *u = scene_add_user(&s, 1, 100, 2500, ADULT_ARM);
	TrackerVec3 *right = &u->joints[TRACKER_JOINT_RIGHT_HAND].position;
	double reach = 2 * ADULT_ARM;

	/* The reach is measured on the left arm only. */
	u->joints[TRACKER_JOINT_RIGHT_ELBOW].confidence = 0.0;
	/* At the box centre: between the shoulders, 0.1 reach below them. */
	*right = tracker_vec3(100, 400 - 0.1 * reach, 2000);
	step(state, &s, &out);
	g_assert_cmpfloat_with_epsilon(out.cursors[1].x, 0.5, 1e-4);
	g_assert_cmpfloat_with_epsilon(out.cursors[1].y, 0.5, 1e-4);
	/* To the user's right (the image's left) by a quarter of the box:
	 * mirrored, so toward the surface's right. */
	right->x -= 0.3 * reach;
	right->y += 0.25 * reach;
	step(state, &s, &out);
	g_assert_cmpfloat_with_epsilon(out.cursors[1].x, 0.75, 1e-4);
	g_assert_cmpfloat_with_epsilon(out.cursors[1].y, 0.25, 1e-4);
	/* Far outside: clamped to the edge. */
	right->x -= 5000;
	step(state, &s, &out);
	g_assert_cmpfloat(out.cursors[1].x, ==, 1.0f);
}

static void
test_camera_box_positions(void)
{
	TuioConfig config;
	g_autoptr(TuioState) state = NULL;
	Scene s = { 0 };
	TuioFrame out;
	TrackerUser *u = scene_add_user(&s, 1, 0, 2500, ADULT_ARM);

	tuio_config_init(&config);
	config.touch = TUIO_TOUCH_ALWAYS;
	config.box = TUIO_BOX_CAMERA;
	config.camera_min = tracker_vec3(-1000, 0, 1000);
	config.camera_max = tracker_vec3(1000, 1000, 3000);
	config.mirror = FALSE;
	state = tuio_state_new(&config, 1);
	u->joints[TRACKER_JOINT_LEFT_HAND].position = tracker_vec3(500, 750, 1500);
	step(state, &s, &out);
	g_assert_cmpfloat_with_epsilon(out.cursors[0].x, 0.75, 1e-5);
	g_assert_cmpfloat_with_epsilon(out.cursors[0].y, 0.25, 1e-5);
	g_assert_cmpfloat_with_epsilon(out.cursors[0].z, 0.75, 1e-5);
}

static void
test_velocity_and_acceleration(void)
{
	g_autoptr(TuioState) state = state_new(TUIO_TOUCH_ALWAYS, 1);
	Scene s = { 0 };
	TuioFrame out;
	TrackerUser *u = scene_add_user(&s, 1, 0, 2500, ADULT_ARM);
	TrackerVec3 *left = &u->joints[TRACKER_JOINT_LEFT_HAND].position;
	double box_width = 1.2 * 2 * ADULT_ARM;

	u->joints[TRACKER_JOINT_LEFT_ELBOW].confidence = 0.0;
	double dt = FRAME_US / 1e6;

	*left = tracker_vec3(0, 300, 2000);
	step(state, &s, &out);
	g_assert_cmpfloat(out.cursors[0].vx, ==, 0.0f);
	g_assert_cmpfloat(out.cursors[0].accel, ==, 0.0f);
	/* Moving toward the user's left: the surface's left, 0.05 per frame. */
	left->x += 0.05 * box_width;
	step(state, &s, &out);
	g_assert_cmpfloat_with_epsilon(out.cursors[0].vx, -0.05 / dt, 1e-2);
	g_assert_cmpfloat_with_epsilon(out.cursors[0].vy, 0.0, 1e-4);
	g_assert_cmpfloat_with_epsilon(out.cursors[0].accel, (0.05 / dt) / dt, 1.0);
	left->x += 0.05 * box_width;
	step(state, &s, &out);
	g_assert_cmpfloat_with_epsilon(out.cursors[0].accel, 0.0, 1e-2);
}

static void
test_frames_sent_and_sequence(void)
{
	g_autoptr(TuioState) state = state_new(TUIO_TOUCH_ALWAYS, 500);
	Scene s = { 0 };
	TuioFrame out;
	guint sent = 0;

	/* The first frame goes out even when empty. */
	g_assert_true(step(state, &s, &out));
	g_assert_cmpint(out.fseq, ==, 500);
	/* Idle: nothing until a second has passed (30 frames of 33.333 ms
	 * make 999.99 ms). */
	for (int i = 0; i < 30; i++)
		sent += step(state, &s, &out);
	g_assert_cmpuint(sent, ==, 0);
	g_assert_true(step(state, &s, &out));
	g_assert_cmpint(out.fseq, ==, 501);
	scene_add_user(&s, 1, 0, 2500, ADULT_ARM);
	g_assert_true(step(state, &s, &out));
	g_assert_cmpint(out.fseq, ==, 502);
	s.frame.n_users = 0;
	/* The last cursor gone: five empty frames, then quiet again. */
	for (int i = 0; i < 5; i++) {
		g_assert_true(step(state, &s, &out));
		g_assert_cmpuint(out.n_cursors, ==, 0);
		g_assert_cmpint(out.fseq, ==, 503 + i);
	}
	g_assert_false(step(state, &s, &out));
	tuio_state_finish(state, s.time_us, &out);
	g_assert_cmpuint(out.n_cursors, ==, 0);
	g_assert_cmpint(out.fseq, ==, 508);
}

static void
test_seed_from_clock(void)
{
	gint64 t = (gint64)1790000000 * G_USEC_PER_SEC;
	gint32 a = tuio_seed_from_clock(t);
	gint32 b = tuio_seed_from_clock(t + 10 * G_USEC_PER_SEC);

	g_assert_cmpint(a, >, 0);
	g_assert_cmpint(b - a, ==, 300);
	for (gint64 k = 0; k < 1000; k++) {
		gint32 seed = tuio_seed_from_clock(t + k * 3600 * G_USEC_PER_SEC);

		g_assert_cmpint(seed, >, 0);
		g_assert_cmpint(seed, <, TUIO_ID_LIMIT);
	}
}

/* Pd reads numbers as 32-bit floats: exact only below 2^24. */
static void
test_ids_wrap_below_float_precision(void)
{
	g_autoptr(TuioState) state = state_new(TUIO_TOUCH_ALWAYS, TUIO_ID_LIMIT - 2);
	Scene s = { 0 };
	TuioFrame out;

	scene_add_user(&s, 1, 0, 2500, ADULT_ARM);
	step(state, &s, &out);
	g_assert_cmpint(out.fseq, ==, TUIO_ID_LIMIT - 2);
	g_assert_cmpint(out.cursors[0].session, ==, TUIO_ID_LIMIT - 2);
	g_assert_cmpint(out.cursors[1].session, ==, TUIO_ID_LIMIT - 1);
	g_assert_cmpfloat((float)out.cursors[1].session, ==, (double)(TUIO_ID_LIMIT - 1));
	step(state, &s, &out);
	g_assert_cmpint(out.fseq, ==, TUIO_ID_LIMIT - 1);
	step(state, &s, &out);
	g_assert_cmpint(out.fseq, ==, 1);
}

/* Spreads are deterministic, in range, and far apart for different texts. */
static void
test_seed_spread(void)
{
	guint32 a = tuio_seed_spread("skelbridge@stage osc.udp://127.0.0.1:3333");
	guint32 b = tuio_seed_spread("skelbridge@stage osc.udp://127.0.0.1:3334");
	guint32 low = G_MAXUINT32, high = 0;

	g_assert_cmpuint(a, ==, tuio_seed_spread("skelbridge@stage osc.udp://127.0.0.1:3333"));
	g_assert_cmpuint(a, !=, b);
	/* A thousand names reach across the whole range. */
	for (guint i = 0; i < 1000; i++) {
		g_autofree char *text = g_strdup_printf("bridge%u@host", i);
		guint32 v = tuio_seed_spread(text);

		g_assert_cmpuint(v, <, TUIO_ID_LIMIT - 1);
		low = MIN(low, v);
		high = MAX(high, v);
	}
	g_assert_cmpuint(low, <, TUIO_ID_LIMIT / 100);
	g_assert_cmpuint(high, >, TUIO_ID_LIMIT - TUIO_ID_LIMIT / 100);
}

static void
test_seed_mix_wraps(void)
{
	g_assert_cmpint(tuio_seed_mix(5, 0), ==, 5);
	g_assert_cmpint(tuio_seed_mix(5, 10), ==, 15);
	g_assert_cmpint(tuio_seed_mix(TUIO_ID_LIMIT - 1, 1), ==, 1);
	g_assert_cmpint(tuio_seed_mix(TUIO_ID_LIMIT - 2, 3), ==, 2);
	g_assert_cmpint(tuio_seed_mix(7, TUIO_ID_LIMIT - 1), ==, 7);
	g_assert_cmpint(tuio_seed_mix(1, G_MAXUINT32), >, 0);
	g_assert_cmpint(tuio_seed_mix(TUIO_ID_LIMIT - 1, G_MAXUINT32), <, TUIO_ID_LIMIT);
}

static void
test_fseq_after_counts_past_the_wrap(void)
{
	g_assert_true(tuio_fseq_after(101, 100));
	g_assert_false(tuio_fseq_after(100, 101));
	g_assert_false(tuio_fseq_after(100, 100));
	g_assert_true(tuio_fseq_after(1, TUIO_ID_LIMIT - 1));
	g_assert_false(tuio_fseq_after(TUIO_ID_LIMIT - 1, 1));
	/* More than half the range ahead is behind. */
	g_assert_false(tuio_fseq_after(TUIO_ID_LIMIT - 10, 10));
}

/* The sequence jumps forward to a floor and never back below what it sent. */
static void
test_fseq_raised_never_back(void)
{
	g_autoptr(TuioState) state = NULL;
	TuioConfig config;
	Scene s = { 0 };
	TuioFrame out;

	tuio_config_init(&config);
	config.touch = TUIO_TOUCH_ALWAYS;
	state = tuio_state_new_full(&config, 40, 1000);
	g_assert_cmpint(tuio_state_last_fseq(state), ==, 0);
	scene_add_user(&s, 1, 0, 2500, ADULT_ARM);
	tuio_state_raise_fseq(state, 900);
	step(state, &s, &out);
	g_assert_cmpint(out.fseq, ==, 1000);
	g_assert_cmpint(out.cursors[0].session, ==, 40);
	tuio_state_raise_fseq(state, 1000);
	step(state, &s, &out);
	g_assert_cmpint(out.fseq, ==, 1001);
	tuio_state_raise_fseq(state, 5000);
	step(state, &s, &out);
	g_assert_cmpint(out.fseq, ==, 5000);
	g_assert_cmpint(tuio_state_last_fseq(state), ==, 5000);
	tuio_state_finish(state, s.time_us, &out);
	g_assert_cmpint(out.fseq, ==, 5001);
	g_assert_cmpint(tuio_state_last_fseq(state), ==, 5001);
}

/* Two bridges started in the same second: their clock seeds agree, their
 * spreads put them far apart, beyond the clients' window of 100 late
 * frames. */
static void
test_seed_bridges_same_second_apart(void)
{
	gint32 clock = tuio_seed_from_clock((gint64)1790000000 * G_USEC_PER_SEC);
	gint32 a = tuio_seed_mix(clock, tuio_seed_spread("left@stage osc.udp://10.0.0.2:3333"));
	gint32 b = tuio_seed_mix(clock, tuio_seed_spread("right@stage osc.udp://10.0.0.2:3333"));
	gint32 distance = ABS(a - b);

	g_assert_cmpint(MIN(distance, TUIO_ID_LIMIT - 1 - distance), >, 100);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/tuio/push/touches-with-hysteresis", test_push_touches_with_hysteresis);
	g_test_add_func("/tuio/push/body-relative", test_push_is_body_relative);
	g_test_add_func("/tuio/raised/touches-with-hysteresis", test_raised_touches);
	g_test_add_func("/tuio/session/never-reused", test_sessions_never_reused);
	g_test_add_func("/tuio/session/two-users-four-cursors", test_two_users_four_cursors);
	g_test_add_func("/tuio/user-leaving-takes-cursors", test_user_leaving_takes_cursors);
	g_test_add_func("/tuio/low-confidence-hand-is-no-cursor",
	                test_low_confidence_hand_is_no_cursor);
	g_test_add_func("/tuio/grip/touches-while-closed", test_grip_touches);
	g_test_add_func("/tuio/box/body", test_body_box_positions);
	g_test_add_func("/tuio/box/camera", test_camera_box_positions);
	g_test_add_func("/tuio/motion/velocity-and-acceleration", test_velocity_and_acceleration);
	g_test_add_func("/tuio/frames/sent-and-sequence", test_frames_sent_and_sequence);
	g_test_add_func("/tuio/seed-from-clock", test_seed_from_clock);
	g_test_add_func("/tuio/ids-wrap-below-float-precision",
	                test_ids_wrap_below_float_precision);
	g_test_add_func("/tuio/seed/spread", test_seed_spread);
	g_test_add_func("/tuio/seed/mix-wraps", test_seed_mix_wraps);
	g_test_add_func("/tuio/seed/bridges-same-second-apart",
	                test_seed_bridges_same_second_apart);
	g_test_add_func("/tuio/fseq/after-counts-past-the-wrap",
	                test_fseq_after_counts_past_the_wrap);
	g_test_add_func("/tuio/fseq/raised-never-back", test_fseq_raised_never_back);
	return g_test_run();
}
