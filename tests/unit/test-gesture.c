/* The recogniser as a whole: names and settings a mapping file uses, users
 * coming and going, joints not found, the cool-down, the log, time, and
 * ordinary movement that must not fire anything. */
#include "gesture-synth.h"

#include <math.h>
#include <string.h>

static const SynthPoint out_front = { 0.15, -0.08, 0.24 };
static const SynthPoint across_front = { -0.22, -0.08, 0.24 };

/* Changes a frame before the recogniser sees it. */
typedef void (*FrameHook)(double t, TrackerFrame *frame, gpointer data);

static void
play_hooked(SynthRun *run, double height, const SynthKey *keys, guint n_keys, FrameHook hook,
            gpointer data)
{
	guint n = (guint)ceil((keys[n_keys - 1].t + 1.0) * SYNTH_FPS);

	for (guint k = 0; k <= n; k++) {
		double t = (double)k / SYNTH_FPS;
		TrackerFrame frame = { .frame = k, .time_us = (gint64)llround(t * 1e6) };
		SynthPose pose;

		synth_pose_init(&pose, height);
		synth_keys_at(keys, n_keys, t, &pose);
		frame.n_users = 1;
		synth_user(&pose, 1, &frame.users[0]);
		if (hook != NULL)
			hook(t, &frame, data);
		synth_feed(run, &frame, t);
	}
}

/* The right hand sweeps to the user's left in 0.4 s, from 2.1 s. */
static const SynthKey swipe_keys[] = {
	{ 0.0, { { 0.02, -0.37, 0.03 }, { 0.02, -0.37, 0.03 } } },
	{ 1.5, { { 0.02, -0.37, 0.03 }, { 0.15, -0.08, 0.24 } } },
	{ 2.1, { { 0.02, -0.37, 0.03 }, { 0.15, -0.08, 0.24 } } },
	{ 2.5, { { 0.02, -0.37, 0.03 }, { -0.22, -0.08, 0.24 } } },
	{ 3.5, { { 0.02, -0.37, 0.03 }, { -0.22, -0.08, 0.24 } } },
	{ 5.0, { { 0.02, -0.37, 0.03 }, { 0.02, -0.37, 0.03 } } },
};

static SynthRun *
play_swipe(const GestureConfig *config, FrameHook hook, gpointer data)
{
	SynthRun *run = synth_run_new(config);

	play_hooked(run, SYNTH_ADULT, swipe_keys, G_N_ELEMENTS(swipe_keys), hook, data);
	return run;
}

/* ---- names ---- */

static void
test_kind_names(void)
{
	GestureKind kind;

	for (guint k = 0; k < GESTURE_N_KINDS; k++) {
		const char *name = gesture_kind_to_str(k);

		g_assert_nonnull(name);
		g_assert_true(gesture_kind_from_str(name, &kind));
		g_assert_cmpuint(kind, ==, k);
	}
	g_assert_cmpstr(gesture_kind_to_str(GESTURE_SWIPE_LEFT), ==, "swipe_left");
	g_assert_cmpstr(gesture_kind_to_str(GESTURE_RAISE_HAND), ==, "raise_hand");
	g_assert_null(gesture_kind_to_str(GESTURE_N_KINDS));
	g_assert_false(gesture_kind_from_str("swipe", &kind));
	g_assert_false(gesture_kind_from_str("Swipe_Left", &kind));
}

static void
test_hand_names(void)
{
	GestureHand hand;

	for (guint h = 0; h < GESTURE_N_HANDS; h++) {
		g_assert_true(gesture_hand_from_str(gesture_hand_to_str(h), &hand));
		g_assert_cmpuint(hand, ==, h);
	}
	g_assert_cmpstr(gesture_hand_to_str(GESTURE_HAND_LEFT), ==, "left");
	g_assert_cmpstr(gesture_hand_to_str(GESTURE_HAND_BOTH), ==, "both");
	g_assert_null(gesture_hand_to_str(GESTURE_N_HANDS));
	g_assert_false(gesture_hand_from_str("l", &hand));
}

static void
test_event_fields(void)
{
	GestureEvent e = { GESTURE_PUSH, 3, GESTURE_HAND_LEFT,      2500000, 2000000, 1200.0,
		           600.0,        0, { 10.0, -20.0, 2400.0 } };
	const char *const *fields = gesture_event_fields();
	const struct {
		const char *field;
		double value;
	} expected[] = {
		{ "user", 3 },       { "time", 2.5 },       { "duration", 0.5 },
		{ "speed", 1200.0 }, { "distance", 600.0 }, { "count", 0 },
		{ "x", 10.0 },       { "y", -20.0 },        { "z", 2400.0 },
	};
	double value;

	g_assert_cmpuint(g_strv_length((char **)fields), ==, G_N_ELEMENTS(expected));
	for (guint i = 0; i < G_N_ELEMENTS(expected); i++) {
		g_assert_cmpstr(fields[i], ==, expected[i].field);
		g_assert_true(gesture_event_get(&e, expected[i].field, &value));
		g_assert_cmpfloat_with_epsilon(value, expected[i].value, 1e-9);
	}
	g_assert_false(gesture_event_get(&e, "hand", &value));
}

/* ---- settings ---- */

static guint
n_config_keys(void)
{
	guint n = 0;

	while (gesture_config_key_info(n) != NULL)
		n++;
	return n;
}

/* Every field of GestureConfig has a name, a default in range, and no
 * name is given twice: a mapping file can set every threshold. */
static void
test_config_every_field_named(void)
{
	GestureConfig config;
	guint n = n_config_keys();

	gesture_config_init(&config);
	g_assert_cmpuint(n, ==, sizeof(GestureConfig) / sizeof(double));
	for (guint i = 0; i < n; i++) {
		const GestureConfigKeyInfo *info = gesture_config_key_info(i);
		double value;

		g_assert_true(gesture_config_get(&config, info->key, &value));
		g_assert_cmpfloat(value, ==, info->default_value);
		g_assert_cmpfloat(info->min, <=, value);
		g_assert_cmpfloat(value, <=, info->max);
		g_assert_cmpuint(strlen(info->description), >, 10);
		for (guint j = 0; j < i; j++)
			g_assert_cmpstr(gesture_config_key_info(j)->key, !=, info->key);
	}
}

/* Setting each key changes its own field and no other. */
static void
test_config_set_every_key(void)
{
	guint n = n_config_keys();

	for (guint i = 0; i < n; i++) {
		const GestureConfigKeyInfo *info = gesture_config_key_info(i);
		double target = info->whole ? floor((info->min + info->max) / 2)
		                            : (info->min + info->max) / 2;
		GestureConfig config, defaults;
		g_autoptr(GError) error = NULL;
		double value;

		if (target == info->default_value)
			target = info->max;
		gesture_config_init(&config);
		gesture_config_init(&defaults);
		g_assert_true(gesture_config_set(&config, info->key, target, &error));
		g_assert_no_error(error);
		g_assert_true(gesture_config_get(&config, info->key, &value));
		g_assert_cmpfloat(value, ==, target);
		for (guint j = 0; j < n; j++) {
			const char *other = gesture_config_key_info(j)->key;
			double a, b;

			if (j == i)
				continue;
			g_assert_true(gesture_config_get(&config, other, &a));
			g_assert_true(gesture_config_get(&defaults, other, &b));
			g_assert_cmpfloat(a, ==, b);
		}
	}
}

static void
test_config_unknown_key(void)
{
	GestureConfig config, before;
	g_autoptr(GError) error = NULL;
	double value;

	gesture_config_init(&config);
	before = config;
	g_assert_false(gesture_config_set(&config, "swipe_speed", 1.0, &error));
	g_assert_error(error, GESTURE_ERROR, GESTURE_ERROR_UNKNOWN_KEY);
	g_assert_cmpstr(error->message, ==, "no gesture setting called 'swipe_speed'");
	g_assert_false(gesture_config_get(&config, "swipe_speed", &value));
	g_assert_cmpmem(&config, sizeof(config), &before, sizeof(before));
}

static void
test_config_out_of_range(void)
{
	GestureConfig config, before;
	g_autoptr(GError) error = NULL;
	g_autoptr(GError) whole = NULL;
	g_autoptr(GError) nan_error = NULL;

	gesture_config_init(&config);
	before = config;
	g_assert_false(gesture_config_set(&config, "min_confidence", 1.5, &error));
	g_assert_error(error, GESTURE_ERROR, GESTURE_ERROR_OUT_OF_RANGE);
	g_assert_cmpstr(error->message, ==, "min_confidence: 1.5 is out of range; expected 0 to 1");
	g_assert_false(gesture_config_set(&config, "wave_min_half_cycles", 2.5, &whole));
	g_assert_error(whole, GESTURE_ERROR, GESTURE_ERROR_OUT_OF_RANGE);
	g_assert_false(gesture_config_set(&config, "cooldown", NAN, &nan_error));
	g_assert_error(nan_error, GESTURE_ERROR, GESTURE_ERROR_OUT_OF_RANGE);
	g_assert_cmpmem(&config, sizeof(config), &before, sizeof(before));
}

static void
test_config_parse(void)
{
	static const char *const bad[] = { "", "1,5", "abc", "1.5x", " 1.5", "1.5 ", "1e999" };
	GestureConfig config;
	double value;

	gesture_config_init(&config);
	g_assert_true(gesture_config_parse(&config, "swipe_min_distance", "1.5", NULL));
	g_assert_true(gesture_config_get(&config, "swipe_min_distance", &value));
	g_assert_cmpfloat(value, ==, 1.5);
	for (guint i = 0; i < G_N_ELEMENTS(bad); i++) {
		g_autoptr(GError) error = NULL;
		g_autofree char *expected =
		        g_strdup_printf("swipe_min_distance: expected a number, got '%s'", bad[i]);

		g_assert_false(gesture_config_parse(&config, "swipe_min_distance", bad[i], &error));
		g_assert_error(error, GESTURE_ERROR, GESTURE_ERROR_INVALID);
		g_assert_cmpstr(error->message, ==, expected);
	}
	g_assert_true(gesture_config_get(&config, "swipe_min_distance", &value));
	g_assert_cmpfloat(value, ==, 1.5);
}

/* A threshold set by name changes what fires, also on a running
 * recogniser. */
static void
test_config_takes_effect(void)
{
	GestureConfig config;
	g_autoptr(SynthRun) normal = play_swipe(NULL, NULL, NULL);
	g_autoptr(SynthRun) strict = NULL;

	g_assert_cmpuint(synth_count(normal, GESTURE_SWIPE_LEFT, GESTURE_HAND_RIGHT), ==, 1);
	gesture_config_init(&config);
	g_assert_true(gesture_config_set(&config, "swipe_min_distance", 3.0, NULL));
	strict = play_swipe(&config, NULL, NULL);
	synth_assert_none(strict);

	/* The first recogniser, made strict, ignores the same swipe again. */
	gesture_recognizer_set_config(normal->recognizer, &config);
	g_assert_cmpfloat(gesture_recognizer_get_config(normal->recognizer)->swipe_min_distance, ==,
	                  3.0);
	play_hooked(normal, SYNTH_ADULT, swipe_keys, G_N_ELEMENTS(swipe_keys), NULL, NULL);
	g_assert_cmpuint(normal->events->len, ==, 1);
}

/* ---- users ---- */

/* The right arm waving at 1.5 Hz, from 1 s on, @half_cycles swings. */
static void
wave_pose(double t, guint half_cycles, SynthPose *pose)
{
	double swing = half_cycles / 3.0;
	double w = CLAMP(t - 0.2, 0.0, 0.8) / 0.8;
	double s = CLAMP(t - 1.0, 0.0, swing);

	w = w * w * (3.0 - 2.0 * w);
	pose->arm[GESTURE_HAND_RIGHT] = synth_arm_angles(
	        5.0 + 80.0 * w, 5.0 + (145.0 + 30.0 * (1.0 - cos(3.0 * G_PI * s)) - 5.0) * w, 0.1);
}

/* The user is gone for @gone seconds from @leave (0: stays). */
static SynthRun *
play_wave_leaving(guint half_cycles, double leave, double gone)
{
	SynthRun *run = synth_run_new(NULL);

	for (guint k = 0; k <= 5 * SYNTH_FPS; k++) {
		double t = (double)k / SYNTH_FPS;
		TrackerFrame frame = { .frame = k, .time_us = (gint64)llround(t * 1e6) };
		SynthPose pose;

		synth_pose_init(&pose, SYNTH_ADULT);
		wave_pose(t, half_cycles, &pose);
		if (gone == 0.0 || t < leave || t >= leave + gone) {
			frame.n_users = 1;
			synth_user(&pose, 1, &frame.users[0]);
		}
		synth_feed(run, &frame, t);
	}
	return run;
}

/* Two swings, gone for a moment, two more: the first two were forgotten. */
static void
test_user_leaves_mid_wave(void)
{
	g_autoptr(SynthRun) stays = play_wave_leaving(4, 0.0, 0.0);
	g_autoptr(SynthRun) leaves = play_wave_leaving(4, 1.0 + 2.2 / 3.0, 0.1);

	synth_assert_only(stays, GESTURE_WAVE, GESTURE_HAND_RIGHT);
	synth_assert_none(leaves);
	g_assert_nonnull(strstr(leaves->log->str, "user 1 left"));
	g_assert_nonnull(strstr(strstr(leaves->log->str, "user 1 left"), "user 1 appeared"));
}

static void
raise_hook(double t, TrackerFrame *frame, gpointer data)
{
	const double *leave = data;

	if (t >= *leave && t < *leave + 0.1)
		frame->n_users = 0;
}

/* Gone for a moment while holding a hand up: the hold starts again. */
static void
test_user_leaves_mid_hold(void)
{
	const SynthPoint up = synth_arm_angle(170.0, 0.05);
	const SynthKey keys[] = {
		{ 0.0, { synth_rest, synth_rest } },
		{ 1.0, { synth_rest, up } },
		{ 2.3, { synth_rest, up } },
		{ 3.0, { synth_rest, synth_rest } },
	};
	double never = 100.0, leave = 1.7;
	g_autoptr(SynthRun) stays = synth_run_new(NULL);
	g_autoptr(SynthRun) leaves = synth_run_new(NULL);

	play_hooked(stays, SYNTH_ADULT, keys, G_N_ELEMENTS(keys), raise_hook, &never);
	play_hooked(leaves, SYNTH_ADULT, keys, G_N_ELEMENTS(keys), raise_hook, &leave);
	synth_assert_only(stays, GESTURE_RAISE_HAND, GESTURE_HAND_RIGHT);
	synth_assert_none(leaves);
}

/* A tall adult swipes while a child beside them waves: each gets their own. */
static void
test_two_users(void)
{
	g_autoptr(SynthRun) run = synth_run_new(NULL);

	for (guint k = 0; k <= 5 * SYNTH_FPS; k++) {
		double t = (double)k / SYNTH_FPS;
		TrackerFrame frame = { .frame = k, .time_us = (gint64)llround(t * 1e6) };
		SynthPose adult, child;

		synth_pose_init(&adult, SYNTH_TALL);
		synth_keys_at(swipe_keys, G_N_ELEMENTS(swipe_keys), t, &adult);
		adult.x = -500.0;
		synth_pose_init(&child, SYNTH_SMALL);
		wave_pose(t, 6, &child);
		child.x = 500.0;
		frame.n_users = 2;
		synth_user(&adult, 7, &frame.users[0]);
		synth_user(&child, 9, &frame.users[1]);
		synth_feed(run, &frame, t);
	}
	g_assert_cmpuint(run->events->len, ==, 2);
	for (guint i = 0; i < 2; i++) {
		const GestureEvent *e = &g_array_index(run->events, GestureEvent, i);

		g_assert_cmpuint(e->user, ==, e->kind == GESTURE_WAVE ? 9 : 7);
		g_assert_cmpuint(e->hand, ==, GESTURE_HAND_RIGHT);
		g_assert_true(e->kind == GESTURE_WAVE || e->kind == GESTURE_SWIPE_LEFT);
	}
}

/* ---- joints not found ---- */

typedef struct {
	TrackerJointId joint;
	double confidence;
	double from, to;   /* s: when */
	gboolean scramble; /* move the joint somewhere else as well */
} Confidence;

static void
confidence_hook(double t, TrackerFrame *frame, gpointer data)
{
	const Confidence *c = data;
	TrackerJoint *joint = &frame->users[0].joints[c->joint];

	if (t < c->from || t >= c->to)
		return;
	joint->confidence = c->confidence;
	if (c->scramble)
		joint->position = tracker_vec3(t * 1000.0, 0.0, 0.0);
}

/* 0.6 is how sure the tracker is of a hand it barely sees (a quarter of
 * the forearm, as when the arm is behind the body): a guess, which makes
 * no gesture. */
static void
test_low_confidence_hand(void)
{
	Confidence low = { TRACKER_JOINT_RIGHT_HAND, 0.6, 0.0, 100.0, FALSE };
	Confidence fair = { TRACKER_JOINT_RIGHT_HAND, 0.8, 0.0, 100.0, FALSE };
	g_autoptr(SynthRun) ignored = play_swipe(NULL, confidence_hook, &low);
	g_autoptr(SynthRun) used = play_swipe(NULL, confidence_hook, &fair);

	synth_assert_none(ignored);
	synth_assert_only(used, GESTURE_SWIPE_LEFT, GESTURE_HAND_RIGHT);
}

/* The hand lost for two frames halfway through the sweep: what is left
 * of the sweep is too short to be a swipe. */
static void
test_dropout_mid_swipe(void)
{
	Confidence lost = { TRACKER_JOINT_RIGHT_HAND, 0.0, 2.28, 2.34, TRUE };
	g_autoptr(SynthRun) run = play_swipe(NULL, confidence_hook, &lost);

	synth_assert_none(run);
}

/* Confidence 0 means not found even when every confidence is accepted. */
static void
test_zero_confidence_never_used(void)
{
	Confidence lost = { TRACKER_JOINT_RIGHT_HAND, 0.0, 0.0, 100.0, FALSE };
	GestureConfig config;
	g_autoptr(SynthRun) run = NULL;

	gesture_config_init(&config);
	config.min_confidence = 0.0;
	run = play_swipe(&config, confidence_hook, &lost);
	synth_assert_none(run);
}

/* Without both shoulders there is no body to measure against. */
static void
test_no_shoulder(void)
{
	Confidence lost = { TRACKER_JOINT_LEFT_SHOULDER, 0.2, 0.0, 100.0, FALSE };
	g_autoptr(SynthRun) run = play_swipe(NULL, confidence_hook, &lost);

	synth_assert_none(run);
}

static void
test_no_head_no_raise(void)
{
	const SynthPoint up = synth_arm_angle(170.0, 0.05);
	const SynthKey keys[] = {
		{ 0.0, { synth_rest, synth_rest } },
		{ 1.0, { synth_rest, up } },
		{ 3.0, { synth_rest, up } },
		{ 4.0, { synth_rest, synth_rest } },
	};
	Confidence lost = { TRACKER_JOINT_HEAD, 0.0, 0.0, 100.0, FALSE };
	g_autoptr(SynthRun) run = synth_run_new(NULL);

	play_hooked(run, SYNTH_ADULT, keys, G_N_ELEMENTS(keys), confidence_hook, &lost);
	synth_assert_none(run);
}

/* ---- the cool-down ---- */

/* A swipe to the left and, straight away, as fast, back to the right. */
static SynthRun *
play_swipe_and_back(const GestureConfig *config, double pause)
{
	const SynthKey keys[] = {
		{ 0.0, { synth_rest, synth_rest } },
		{ 1.5, { synth_rest, out_front } },
		{ 2.1, { synth_rest, out_front } },
		{ 2.4, { synth_rest, across_front } },
		{ 2.4 + pause, { synth_rest, across_front } },
		{ 2.7 + pause, { synth_rest, out_front } },
		{ 3.5 + pause, { synth_rest, out_front } },
		{ 5.0 + pause, { synth_rest, synth_rest } },
	};
	SynthRun *run = synth_run_new(config);

	play_hooked(run, SYNTH_ADULT, keys, G_N_ELEMENTS(keys), NULL, NULL);
	return run;
}

static void
test_cooldown_swing_back(void)
{
	GestureConfig config;
	g_autoptr(SynthRun) run = play_swipe_and_back(NULL, 0.0);
	g_autoptr(SynthRun) no_cooldown = NULL;

	synth_assert_only(run, GESTURE_SWIPE_LEFT, GESTURE_HAND_RIGHT);
	/* It is the cool-down that swallows the swing back. */
	gesture_config_init(&config);
	config.cooldown = 0.0;
	no_cooldown = play_swipe_and_back(&config, 0.0);
	g_assert_cmpuint(synth_count(no_cooldown, GESTURE_SWIPE_LEFT, GESTURE_HAND_RIGHT), ==, 1);
	g_assert_cmpuint(synth_count(no_cooldown, GESTURE_SWIPE_RIGHT, GESTURE_HAND_RIGHT), ==, 1);
}

static void
test_cooldown_over(void)
{
	g_autoptr(SynthRun) run = play_swipe_and_back(NULL, 1.5);

	g_assert_cmpuint(synth_count(run, GESTURE_SWIPE_LEFT, GESTURE_HAND_RIGHT), ==, 1);
	g_assert_cmpuint(synth_count(run, GESTURE_SWIPE_RIGHT, GESTURE_HAND_RIGHT), ==, 1);
	g_assert_cmpuint(run->events->len, ==, 2);
}

/* ---- the log and time ---- */

static void
test_log_transitions(void)
{
	static const char *const lines[] = {
		"s: user 1 appeared\n",
		"s: user 1 right swipe: IDLE -> MOVING on FAST\n",
		"s: user 1 right: swipe_left\n",
		"s: user 1 right swipe: MOVING -> COOLDOWN on STILL: travel ",
		"s: user 1 right swipe: COOLDOWN -> IDLE on STILL\n",
	};
	g_autoptr(SynthRun) run = play_swipe(NULL, NULL, NULL);
	const char *at = run->log->str;

	/* In this order. */
	for (guint i = 0; i < G_N_ELEMENTS(lines); i++) {
		at = strstr(at, lines[i]);
		if (at == NULL)
			g_test_message("missing '%s' in:\n%s", lines[i], run->log->str);
		g_assert_nonnull(at);
	}
}

/* Every frame given twice: the second copy changes nothing. */
static void
test_time_repeated_frame(void)
{
	g_autoptr(SynthRun) run = synth_run_new(NULL);

	for (guint k = 0; k <= 6 * SYNTH_FPS; k++) {
		double t = (double)k / SYNTH_FPS;
		SynthPose pose;

		synth_pose_init(&pose, SYNTH_ADULT);
		synth_keys_at(swipe_keys, G_N_ELEMENTS(swipe_keys), t, &pose);
		synth_feed_pose(run, &pose, t);
		pose.x += 300.0;
		synth_feed_pose(run, &pose, t);
	}
	synth_assert_only(run, GESTURE_SWIPE_LEFT, GESTURE_HAND_RIGHT);
}

static SynthRun *
play_swipe_clocked(double (*clock)(guint k, gpointer data), gpointer data)
{
	SynthRun *run = synth_run_new(NULL);
	double t = 0.0;

	for (guint k = 0; t <= 6.0; k++) {
		SynthPose pose;

		t = clock(k, data);
		synth_pose_init(&pose, SYNTH_ADULT);
		synth_keys_at(swipe_keys, G_N_ELEMENTS(swipe_keys), t, &pose);
		synth_feed_pose(run, &pose, t);
	}
	return run;
}

static double
steady_clock(guint k, gpointer data)
{
	return k / *(const double *)data;
}

/* 30 frames a second on average, each late or early by up to 12 ms, and
 * every seventh frame lost. */
static double
irregular_clock(guint k, gpointer data G_GNUC_UNUSED)
{
	guint n = k + k / 6;
	guint32 h = n * 2654435761u;

	return n / 30.0 + ((int)((h >> 16) % 25) - 12) / 1000.0;
}

/* Time is what the caller says: the same swipe fires once whatever the
 * frame rate, and with a clock that wavers and loses frames. */
static void
test_time_frame_rates(void)
{
	static const double rates[] = { 15.0, 30.0, 60.0, 120.0 };

	for (guint i = 0; i < G_N_ELEMENTS(rates); i++) {
		g_autoptr(SynthRun) run = play_swipe_clocked(steady_clock, (gpointer)&rates[i]);

		synth_assert_only(run, GESTURE_SWIPE_LEFT, GESTURE_HAND_RIGHT);
	}
	{
		g_autoptr(SynthRun) run = play_swipe_clocked(irregular_clock, NULL);

		synth_assert_only(run, GESTURE_SWIPE_LEFT, GESTURE_HAND_RIGHT);
	}
}

/* A clock that jumps back (a replay starting over) forgets every user. */
static void
test_time_going_back(void)
{
	const SynthPoint up = synth_arm_angle(170.0, 0.05);
	g_autoptr(SynthRun) run = synth_run_new(NULL);

	/* Up and held for half a second, twice: never the whole second. */
	for (guint pass = 0; pass < 2; pass++) {
		for (guint k = 0; k <= 54; k++) {
			double t = (double)k / SYNTH_FPS;
			SynthPose pose;

			synth_pose_init(&pose, SYNTH_ADULT);
			pose.arm[GESTURE_HAND_RIGHT].hand = synth_lerp(synth_rest, up, t / 1.2);
			synth_feed_pose(run, &pose, t);
		}
	}
	synth_assert_none(run);
	g_assert_nonnull(strstr(run->log->str, "0.000 s: time went back from 1.800 s"));
}

/* ---- ordinary movement ---- */

/* By a child and by an adult. */
static void
play_ordinary(SynthMotion motion, double duration)
{
	static const double heights[] = { SYNTH_SMALL, SYNTH_ADULT };

	for (guint i = 0; i < G_N_ELEMENTS(heights); i++) {
		g_autoptr(SynthRun) run = synth_run_new(NULL);

		synth_play(run, heights[i], duration, motion, NULL);
		synth_assert_none(run);
	}
}

/* Across the room and back at 1.2 m/s, turning at the end, the arms
 * swinging forward and back against the legs. */
static void
walking(double t, SynthPose *pose, gpointer data G_GNUC_UNUSED)
{
	double s = 0.45 * sin(2.0 * G_PI * 0.9 * t);
	double turn = CLAMP((t - 3.5) / 0.8, 0.0, 1.0);

	pose->x = t < 4.0 ? -2000.0 + 1200.0 * MIN(t, 3.5) : 2200.0 - 1200.0 * (t - 4.3);
	pose->yaw = -50.0 + 100.0 * turn;
	for (int side = 0; side < 2; side++) {
		double a = side == GESTURE_HAND_LEFT ? s : -s;
		SynthPoint hand = { 0.03, -0.37 * cos(a), 0.37 * sin(a) };

		pose->arm[side].hand = hand;
	}
}

static void
test_ordinary_walking(void)
{
	play_ordinary(walking, 8.0);
}

/* Shifting weight from foot to foot, swaying, arms hanging. */
static void
shifting(double t, SynthPose *pose, gpointer data G_GNUC_UNUSED)
{
	pose->x = 120.0 * sin(2.0 * G_PI * 0.4 * t);
	pose->yaw = 8.0 * sin(2.0 * G_PI * 0.25 * t);
}

static void
test_ordinary_shifting(void)
{
	play_ordinary(shifting, 8.0);
}

/* Up to the top of the head, a scratch, and down again. */
static void
scratching(double t, SynthPose *pose, gpointer data G_GNUC_UNUSED)
{
	const SynthPoint head = { -0.07, 0.17, 0.02 }, out = { 1.0, 0.3, 0.0 };
	double w = t < 2.5 ? (t - 0.5) / 1.0 : 1.0 - (t - 4.5) / 1.0;
	SynthPoint hand = synth_lerp(synth_rest, head, w);

	if (t > 1.5 && t < 4.5)
		hand.out += 0.015 * sin(2.0 * G_PI * 3.0 * t);
	pose->arm[GESTURE_HAND_RIGHT] = synth_arm_reach(hand, out);
}

static void
test_ordinary_scratching(void)
{
	play_ordinary(scratching, 6.5);
}

/* Pointing at something across the room, then letting the arm drop. */
static void
pointing(double t, SynthPose *pose, gpointer data G_GNUC_UNUSED)
{
	const SynthPoint there = { 0.18, 0.05, 0.32 };
	double w = t < 2.0 ? (t - 0.5) / 0.7 : 1.0 - (t - 3.5) / 0.8;

	pose->arm[GESTURE_HAND_LEFT].hand = synth_lerp(synth_rest, there, w);
}

static void
test_ordinary_pointing(void)
{
	play_ordinary(pointing, 5.5);
}

/* Hands to the hips, elbows out, and down again. */
static void
hands_on_hips(double t, SynthPose *pose, gpointer data G_GNUC_UNUSED)
{
	const SynthPoint hip = { -0.02, -0.26, -0.02 }, out = { 1.0, 0.0, -0.5 };
	double w = t < 2.5 ? (t - 0.5) / 1.0 : 1.0 - (t - 4.5) / 1.0;

	for (int side = 0; side < 2; side++)
		pose->arm[side] = synth_arm_reach(synth_lerp(synth_rest, hip, w), out);
}

static void
test_ordinary_hands_on_hips(void)
{
	play_ordinary(hands_on_hips, 6.5);
}

/* Standing still while the tracker jitters every joint by up to 12 mm. */
static void
jittery(double t, SynthPose *pose, gpointer data G_GNUC_UNUSED)
{
	guint32 k = (guint32)llround(t * SYNTH_FPS) * 2654435761u;

	pose->x = 12.0 * ((k >> 8) % 1000 / 500.0 - 1.0);
	for (int side = 0; side < 2; side++) {
		k = k * 1664525u + 1013904223u;
		pose->arm[side].hand.fwd += 0.006 * ((k >> 8) % 1000 / 500.0 - 1.0);
		k = k * 1664525u + 1013904223u;
		pose->arm[side].hand.out += 0.006 * ((k >> 8) % 1000 / 500.0 - 1.0);
	}
}

static void
test_ordinary_jitter(void)
{
	play_ordinary(jittery, 10.0);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/gesture/names/kinds-round-trip", test_kind_names);
	g_test_add_func("/gesture/names/hands-round-trip", test_hand_names);
	g_test_add_func("/gesture/event/every-field-by-name", test_event_fields);
	g_test_add_func("/gesture/config/every-field-has-a-documented-key",
	                test_config_every_field_named);
	g_test_add_func("/gesture/config/each-key-sets-its-own-field", test_config_set_every_key);
	g_test_add_func("/gesture/config/error/unknown-key", test_config_unknown_key);
	g_test_add_func("/gesture/config/error/out-of-range", test_config_out_of_range);
	g_test_add_func("/gesture/config/parse-numbers-and-reject-the-rest", test_config_parse);
	g_test_add_func("/gesture/config/thresholds-take-effect", test_config_takes_effect);
	g_test_add_func("/gesture/user/leaving-mid-wave-forgets-it", test_user_leaves_mid_wave);
	g_test_add_func("/gesture/user/leaving-mid-hold-starts-it-again",
	                test_user_leaves_mid_hold);
	g_test_add_func("/gesture/user/two-users-each-get-their-own", test_two_users);
	g_test_add_func("/gesture/confidence/low-confidence-hand-never-fires",
	                test_low_confidence_hand);
	g_test_add_func("/gesture/confidence/dropout-mid-swipe-cancels-it", test_dropout_mid_swipe);
	g_test_add_func("/gesture/confidence/zero-is-never-used", test_zero_confidence_never_used);
	g_test_add_func("/gesture/confidence/no-shoulder-no-gesture", test_no_shoulder);
	g_test_add_func("/gesture/confidence/no-head-no-raised-hand", test_no_head_no_raise);
	g_test_add_func("/gesture/cooldown/swing-back-after-a-swipe-is-swallowed",
	                test_cooldown_swing_back);
	g_test_add_func("/gesture/cooldown/second-swipe-after-it-fires", test_cooldown_over);
	g_test_add_func("/gesture/log/transitions-in-order", test_log_transitions);
	g_test_add_func("/gesture/time/repeated-frame-is-ignored", test_time_repeated_frame);
	g_test_add_func("/gesture/time/going-back-forgets-everyone", test_time_going_back);
	g_test_add_func("/gesture/time/any-frame-rate-or-irregular-clock", test_time_frame_rates);
	g_test_add_func("/gesture/ordinary/walking-with-swinging-arms-fires-nothing",
	                test_ordinary_walking);
	g_test_add_func("/gesture/ordinary/shifting-weight-fires-nothing", test_ordinary_shifting);
	g_test_add_func("/gesture/ordinary/scratching-the-head-fires-nothing",
	                test_ordinary_scratching);
	g_test_add_func("/gesture/ordinary/pointing-fires-nothing", test_ordinary_pointing);
	g_test_add_func("/gesture/ordinary/hands-on-hips-fire-nothing",
	                test_ordinary_hands_on_hips);
	g_test_add_func("/gesture/ordinary/jittery-joints-fire-nothing", test_ordinary_jitter);
	return g_test_run();
}
