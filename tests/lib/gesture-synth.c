#include "gesture-synth.h"

#include <math.h>
#include <string.h>

/* Proportions, in fractions of body height. */
#define UPPER_ARM     0.19
#define FOREARM       0.19 /* elbow to the hand joint */
#define ARM           0.37 /* a straight arm, a little short of full reach */
#define SHOULDER_UP   0.82 /* above the floor */
#define SHOULDER_HALF 0.10
#define SENSOR_HEIGHT 1000.0
#define DEFAULT_DEPTH 2500.0
#define MAX_CASES     64

const SynthPoint synth_rest = { 0.02, -0.37, 0.03 };

void
synth_pose_init(SynthPose *pose, double height)
{
	memset(pose, 0, sizeof(*pose));
	pose->height = height;
	pose->z = DEFAULT_DEPTH;
	pose->arm[GESTURE_HAND_LEFT].hand = synth_rest;
	pose->arm[GESTURE_HAND_RIGHT].hand = synth_rest;
}

static TrackerVec3
vec_of(SynthPoint p)
{
	return tracker_vec3(p.out, p.up, p.fwd);
}

static SynthPoint
point_of(TrackerVec3 v)
{
	SynthPoint p = { v.x, v.y, v.z };

	return p;
}

/* Two-bone reach: the elbow on the side of @pole. Moves the hand in to
 * the arm's reach if needed. */
static SynthPoint
synth_elbow(SynthPoint *hand, TrackerVec3 pole)
{
	TrackerVec3 t = vec_of(*hand);
	double d = CLAMP(tracker_vec3_length(t), 0.02, UPPER_ARM + FOREARM - 1e-6);
	TrackerVec3 u = tracker_vec3_normalize(t);
	double c = (UPPER_ARM * UPPER_ARM + d * d - FOREARM * FOREARM) / (2.0 * UPPER_ARM * d);
	double s = sqrt(MAX(0.0, 1.0 - c * c));
	TrackerVec3 p = tracker_vec3_mad(pole, u, -tracker_vec3_dot(pole, u));

	if (tracker_vec3_length(p) < 1e-6)
		p = tracker_vec3(0.0, 0.0, -1.0);
	p = tracker_vec3_normalize(p);
	*hand = point_of(tracker_vec3_scale(u, d));
	return point_of(
	        tracker_vec3_scale(tracker_vec3_mad(tracker_vec3_scale(u, c), p, s), UPPER_ARM));
}

typedef struct {
	TrackerVec3 root, left, up, forward;
	double height;
} Frame;

static Frame
synth_frame(const SynthPose *pose)
{
	double yaw = pose->yaw * G_PI / 180.0;
	Frame f = {
		tracker_vec3(pose->x, -SENSOR_HEIGHT, pose->z),
		tracker_vec3(cos(yaw), 0.0, -sin(yaw)),
		tracker_vec3(0.0, 1.0, 0.0),
		tracker_vec3(-sin(yaw), 0.0, -cos(yaw)),
		pose->height,
	};

	return f;
}

/* A point @l to the user's left, @u up from the floor, @f forward, in
 * fractions of height, in camera space. */
static TrackerVec3
synth_place(const Frame *f, double l, double u, double fw)
{
	TrackerVec3 p = tracker_vec3_mad(f->root, f->left, l * f->height);

	p = tracker_vec3_mad(p, f->up, u * f->height);
	return tracker_vec3_mad(p, f->forward, fw * f->height);
}

static void
set_joint(TrackerUser *user, TrackerJointId joint, TrackerVec3 position)
{
	user->joints[joint].position = position;
	user->joints[joint].confidence = 1.0;
}

static void
synth_arm(const Frame *f, const SynthArm *arm, GestureHand side, TrackerUser *user)
{
	double sign = side == GESTURE_HAND_LEFT ? 1.0 : -1.0;
	SynthPoint hand = arm->hand;
	/* Unless told, arms bend down, out and a little back. */
	SynthPoint elbow = synth_elbow(&hand, tracker_vec3(0.5, -1.0, -0.2));

	if (arm->elbow_given) {
		hand = arm->hand;
		elbow = arm->elbow;
	}
	set_joint(user, TRACKER_JOINT_LEFT_ELBOW + side,
	          synth_place(f, sign * (SHOULDER_HALF + elbow.out), SHOULDER_UP + elbow.up,
	                      elbow.fwd));
	set_joint(
	        user, TRACKER_JOINT_LEFT_HAND + side,
	        synth_place(f, sign * (SHOULDER_HALF + hand.out), SHOULDER_UP + hand.up, hand.fwd));
}

void
synth_user(const SynthPose *pose, guint id, TrackerUser *user)
{
	Frame f = synth_frame(pose);

	memset(user, 0, sizeof(*user));
	user->id = id;
	set_joint(user, TRACKER_JOINT_HEAD, synth_place(&f, 0.0, 0.95, 0.01));
	set_joint(user, TRACKER_JOINT_NECK, synth_place(&f, 0.0, 0.86, 0.0));
	set_joint(user, TRACKER_JOINT_TORSO, synth_place(&f, 0.0, 0.68, 0.0));
	for (int side = 0; side < 2; side++) {
		double sign = side == GESTURE_HAND_LEFT ? 1.0 : -1.0;

		set_joint(user, TRACKER_JOINT_LEFT_SHOULDER + side,
		          synth_place(&f, sign * SHOULDER_HALF, SHOULDER_UP, 0.0));
		set_joint(user, TRACKER_JOINT_LEFT_HIP + side,
		          synth_place(&f, sign * 0.05, 0.53, 0.0));
		set_joint(user, TRACKER_JOINT_LEFT_KNEE + side,
		          synth_place(&f, sign * 0.05, 0.29, 0.01));
		set_joint(user, TRACKER_JOINT_LEFT_FOOT + side,
		          synth_place(&f, sign * 0.05, 0.04, 0.03));
		synth_arm(&f, &pose->arm[side], side, user);
	}
	user->centre = user->joints[TRACKER_JOINT_TORSO].position;
	user->n_pixels = 10000;
}

static TrackerVec3
segment(double angle, double fwd, double length)
{
	double a = angle * G_PI / 180.0;

	return tracker_vec3_scale(tracker_vec3_normalize(tracker_vec3(sin(a), -cos(a), fwd)),
	                          length);
}

SynthPoint
synth_arm_angle(double angle, double fwd)
{
	return point_of(segment(angle, fwd, ARM));
}

SynthArm
synth_arm_angles(double upper, double fore, double fwd)
{
	TrackerVec3 elbow = segment(upper, fwd, UPPER_ARM);
	SynthArm arm = { point_of(tracker_vec3_add(elbow, segment(fore, fwd, FOREARM))), TRUE,
		         point_of(elbow) };

	return arm;
}

SynthArm
synth_arm_reach(SynthPoint hand, SynthPoint pole)
{
	SynthArm arm = { hand, TRUE, { 0, 0, 0 } };

	arm.elbow = synth_elbow(&arm.hand, vec_of(pole));
	return arm;
}

SynthPoint
synth_lerp(SynthPoint a, SynthPoint b, double w)
{
	w = CLAMP(w, 0.0, 1.0);
	w = w * w * (3.0 - 2.0 * w);
	return point_of(tracker_vec3_lerp(vec_of(a), vec_of(b), w));
}

void
synth_keys_at(const SynthKey *keys, guint n_keys, double t, SynthPose *pose)
{
	guint i = 0;
	double w;

	while (i + 1 < n_keys && keys[i + 1].t <= t)
		i++;
	if (i + 1 == n_keys) {
		pose->arm[0].hand = keys[i].hand[0];
		pose->arm[1].hand = keys[i].hand[1];
		return;
	}
	w = (t - keys[i].t) / (keys[i + 1].t - keys[i].t);
	for (int side = 0; side < 2; side++)
		pose->arm[side].hand = synth_lerp(keys[i].hand[side], keys[i + 1].hand[side], w);
}

static void
synth_log(const char *message, gpointer data)
{
	g_string_append_printf(data, "%s\n", message);
}

SynthRun *
synth_run_new(const GestureConfig *config)
{
	SynthRun *run = g_new0(SynthRun, 1);

	run->recognizer = gesture_recognizer_new(config);
	run->events = g_array_new(FALSE, FALSE, sizeof(GestureEvent));
	run->log = g_string_new(NULL);
	gesture_recognizer_set_log_func(run->recognizer, synth_log, run->log);
	return run;
}

void
synth_run_free(SynthRun *run)
{
	gesture_recognizer_free(run->recognizer);
	g_array_unref(run->events);
	g_string_free(run->log, TRUE);
	g_free(run);
}

void
synth_feed(SynthRun *run, const TrackerFrame *frame, double t)
{
	GestureEvent events[GESTURE_MAX_EVENTS];
	guint n = gesture_recognizer_process(run->recognizer, frame, (gint64)llround(t * 1e6),
	                                     events);

	g_array_append_vals(run->events, events, n);
}

void
synth_feed_pose(SynthRun *run, const SynthPose *pose, double t)
{
	TrackerFrame frame = { .frame = (guint64)llround(t * SYNTH_FPS), .n_users = 1 };

	frame.time_us = (gint64)llround(t * 1e6);
	synth_user(pose, 1, &frame.users[0]);
	synth_feed(run, &frame, t);
}

void
synth_play(SynthRun *run, double height, double duration, SynthMotion motion, gpointer data)
{
	guint n = (guint)ceil(duration * SYNTH_FPS);

	for (guint k = 0; k <= n; k++) {
		double t = (double)k / SYNTH_FPS;
		SynthPose pose;

		synth_pose_init(&pose, height);
		motion(t, &pose, data);
		synth_feed_pose(run, &pose, t);
	}
}

typedef struct {
	const SynthKey *keys;
	guint n;
} Keys;

static void
keys_motion(double t, SynthPose *pose, gpointer data)
{
	const Keys *k = data;

	synth_keys_at(k->keys, k->n, t, pose);
}

void
synth_play_keys(SynthRun *run, double height, const SynthKey *keys, guint n_keys)
{
	Keys k = { keys, n_keys };

	synth_play(run, height, keys[n_keys - 1].t + 1.0, keys_motion, &k);
}

guint
synth_count(const SynthRun *run, GestureKind kind, GestureHand hand)
{
	guint n = 0;

	for (guint i = 0; i < run->events->len; i++) {
		const GestureEvent *e = &g_array_index(run->events, GestureEvent, i);

		n += e->kind == kind && e->hand == hand;
	}
	return n;
}

static void
synth_report(const SynthRun *run)
{
	for (guint i = 0; i < run->events->len; i++) {
		const GestureEvent *e = &g_array_index(run->events, GestureEvent, i);

		g_test_message("event: user %u %s %s at %.3f s", e->user,
		               gesture_hand_to_str(e->hand), gesture_kind_to_str(e->kind),
		               e->time_us / 1e6);
	}
	g_test_message("log:\n%s", run->log->str);
}

void
synth_assert_only(const SynthRun *run, GestureKind kind, GestureHand hand)
{
	const GestureEvent *e;

	if (run->events->len != 1)
		synth_report(run);
	g_assert_cmpuint(run->events->len, ==, 1);
	e = &g_array_index(run->events, GestureEvent, 0);
	if (e->kind != kind || e->hand != hand || e->user != 1)
		synth_report(run);
	g_assert_cmpstr(gesture_kind_to_str(e->kind), ==, gesture_kind_to_str(kind));
	g_assert_cmpstr(gesture_hand_to_str(e->hand), ==, gesture_hand_to_str(hand));
	g_assert_cmpuint(e->user, ==, 1);
}

void
synth_assert_none(const SynthRun *run)
{
	if (run->events->len != 0)
		synth_report(run);
	g_assert_cmpuint(run->events->len, ==, 0);
}

void
synth_add_cases(const char *gesture, double slow, double normal, double fast, GTestDataFunc test)
{
	static SynthCase cases[MAX_CASES];
	static guint n_cases;
	const struct {
		const char *name;
		double duration;
	} speeds[] = { { "slow", slow }, { "normal", normal }, { "fast", fast } };
	const struct {
		const char *name;
		double height;
	} bodies[] = { { "small", SYNTH_SMALL }, { "tall", SYNTH_TALL } };

	for (guint s = 0; s < G_N_ELEMENTS(speeds); s++) {
		for (guint b = 0; b < G_N_ELEMENTS(bodies); b++) {
			SynthCase *c = &cases[n_cases++];
			g_autofree char *path = NULL;

			g_assert(n_cases <= MAX_CASES);
			c->name = speeds[s].name;
			c->duration = speeds[s].duration;
			c->height = bodies[b].height;
			path = g_strdup_printf("/gesture/%s/fires-once-%s-%s-body", gesture,
			                       speeds[s].name, bodies[b].name);
			g_test_add_data_func(path, c, test);
		}
	}
}
