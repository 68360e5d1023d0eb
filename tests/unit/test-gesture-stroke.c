/* Swipes and pushes: one fast stroke of a hand fires once, at the speeds
 * people swipe and push, by a child and by a tall adult; a slow reach, a
 * stroke off its axis or out of reach, and either gesture's motion taken
 * for the other do not. */
#include "gesture-synth.h"

/* Hand positions in front of the body (see gesture-synth.h). */
static const SynthPoint out_front = { 0.15, -0.08, 0.24 };
static const SynthPoint across_front = { -0.22, -0.08, 0.24 };
static const SynthPoint low_front = { -0.05, -0.24, 0.22 };
static const SynthPoint high_front = { -0.05, 0.20, 0.24 };
static const SynthPoint chest = { -0.02, -0.05, 0.10 };
static const SynthPoint reach_forward = { 0.0, -0.02, 0.36 };

typedef struct {
	double height;
	double yaw;
	GestureHand side;
	SynthPoint from, to;
	double duration;
} Stroke;

static void
stroke_motion(double t, SynthPose *pose, gpointer data)
{
	const Stroke *s = data;
	SynthPoint rest = synth_rest;
	SynthKey keys[] = {
		{ 0.0, { rest, rest } },
		{ 1.5, { rest, rest } },
		{ 2.1, { rest, rest } },
		{ 2.1 + s->duration, { rest, rest } },
		{ 3.1 + s->duration, { rest, rest } },
		{ 4.6 + s->duration, { rest, rest } },
	};

	/* Calmly to the start, hold, the stroke, hold, calmly back. */
	keys[1].hand[s->side] = keys[2].hand[s->side] = s->from;
	keys[3].hand[s->side] = keys[4].hand[s->side] = s->to;
	pose->yaw = s->yaw;
	synth_keys_at(keys, G_N_ELEMENTS(keys), t, pose);
}

static void
play_stroke(SynthRun *run, const Stroke *stroke)
{
	synth_play(run, stroke->height, stroke->duration + 5.6, stroke_motion, (gpointer)stroke);
}

static void
check_stroke(const SynthCase *c, GestureHand side, SynthPoint from, SynthPoint to, GestureKind kind)
{
	g_autoptr(SynthRun) run = synth_run_new(NULL);
	Stroke stroke = { c->height, 0.0, side, from, to, c->duration };

	play_stroke(run, &stroke);
	synth_assert_only(run, kind, side);
}

/* Right hand from its own side across to the left: toward the user's left. */
static void
test_swipe_left(gconstpointer data)
{
	check_stroke(data, GESTURE_HAND_RIGHT, out_front, across_front, GESTURE_SWIPE_LEFT);
}

/* The left hand, mirrored: from its own side across toward the user's right. */
static void
test_swipe_right(gconstpointer data)
{
	check_stroke(data, GESTURE_HAND_LEFT, out_front, across_front, GESTURE_SWIPE_RIGHT);
}

static void
test_swipe_up(gconstpointer data)
{
	check_stroke(data, GESTURE_HAND_RIGHT, low_front, high_front, GESTURE_SWIPE_UP);
}

static void
test_swipe_down(gconstpointer data)
{
	check_stroke(data, GESTURE_HAND_LEFT, high_front, low_front, GESTURE_SWIPE_DOWN);
}

static void
test_push(gconstpointer data)
{
	check_stroke(data, GESTURE_HAND_RIGHT, chest, reach_forward, GESTURE_PUSH);
}

static void
check_stroke_none(GestureHand side, SynthPoint from, SynthPoint to, double duration)
{
	g_autoptr(SynthRun) run = synth_run_new(NULL);
	Stroke stroke = { SYNTH_ADULT, 0.0, side, from, to, duration };

	play_stroke(run, &stroke);
	synth_assert_none(run);
}

/* The same path as a swipe, at the pace of reaching for something. */
static void
test_swipe_slow_reach(void)
{
	check_stroke_none(GESTURE_HAND_RIGHT, out_front, across_front, 2.2);
}

/* Fast, but too short to be more than a flick of the wrist. */
static void
test_swipe_too_short(void)
{
	SynthPoint near = { 0.05, -0.08, 0.24 };

	check_stroke_none(GESTURE_HAND_RIGHT, out_front, near, 0.2);
}

/* Fast and far, diagonally: neither across nor up. */
static void
test_swipe_diagonal(void)
{
	check_stroke_none(GESTURE_HAND_RIGHT, low_front, across_front, 0.3);
	check_stroke_none(GESTURE_HAND_RIGHT, out_front, (SynthPoint){ -0.15, 0.18, 0.24 }, 0.3);
}

/* A fast sweep with the hand down by the side, in the body's plane: the
 * arm swinging, not a swipe made to be seen. */
static void
test_swipe_by_the_side(void)
{
	SynthPoint side_out = { 0.20, -0.25, 0.0 }, side_in = { -0.12, -0.28, 0.02 };

	check_stroke_none(GESTURE_HAND_RIGHT, side_out, side_in, 0.3);
}

/* The direction is the user's own even when they stand turned away. */
static void
test_swipe_turned_user(void)
{
	static const double yaws[] = { -40.0, 40.0 };

	for (guint i = 0; i < G_N_ELEMENTS(yaws); i++) {
		g_autoptr(SynthRun) run = synth_run_new(NULL);
		Stroke stroke = { SYNTH_ADULT, yaws[i],      GESTURE_HAND_RIGHT,
			          out_front,   across_front, 0.4 };

		play_stroke(run, &stroke);
		synth_assert_only(run, GESTURE_SWIPE_LEFT, GESTURE_HAND_RIGHT);
	}
}

static void
test_push_slow_reach(void)
{
	check_stroke_none(GESTURE_HAND_RIGHT, chest, reach_forward, 1.6);
}

/* Pulling the hand back in, however fast, is no push. */
static void
test_push_pull_back(void)
{
	check_stroke_none(GESTURE_HAND_RIGHT, reach_forward, chest, 0.2);
}

/* A quick jab that stops with the arm still bent does not reach. */
static void
test_push_short_of_reach(void)
{
	SynthPoint bent = { -0.02, -0.05, 0.22 };

	check_stroke_none(GESTURE_HAND_RIGHT, chest, bent, 0.15);
}

/* Quickly forward and far enough, but with the elbow bent and the hand
 * before the middle of the chest, as in holding something up to it: a
 * push ends with the arm nearly straight. */
static void
test_push_bent_arm(void)
{
	SynthPoint before_chest = { -0.10, -0.05, 0.27 };

	check_stroke_none(GESTURE_HAND_RIGHT, chest, before_chest, 0.2);
}

/* Up more than forward, as in reaching for a high shelf: neither a push
 * nor (being too far off the vertical) a swipe up. */
static void
test_push_upward(void)
{
	SynthPoint up_forward = { 0.0, 0.21, 0.25 };

	check_stroke_none(GESTURE_HAND_RIGHT, chest, up_forward, 0.2);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	synth_add_cases("swipe-left", 0.8, 0.4, 0.15, test_swipe_left);
	synth_add_cases("swipe-right", 0.8, 0.4, 0.15, test_swipe_right);
	synth_add_cases("swipe-up", 0.8, 0.4, 0.15, test_swipe_up);
	synth_add_cases("swipe-down", 0.8, 0.4, 0.15, test_swipe_down);
	synth_add_cases("push", 0.6, 0.3, 0.15, test_push);
	g_test_add_func("/gesture/swipe/slow-reach-does-not-fire", test_swipe_slow_reach);
	g_test_add_func("/gesture/swipe/short-flick-does-not-fire", test_swipe_too_short);
	g_test_add_func("/gesture/swipe/diagonal-does-not-fire", test_swipe_diagonal);
	g_test_add_func("/gesture/swipe/sweep-by-the-side-does-not-fire", test_swipe_by_the_side);
	g_test_add_func("/gesture/swipe-left/user-turned-40-degrees-either-way",
	                test_swipe_turned_user);
	g_test_add_func("/gesture/push/slow-reach-does-not-fire", test_push_slow_reach);
	g_test_add_func("/gesture/push/pulling-back-does-not-fire", test_push_pull_back);
	g_test_add_func("/gesture/push/bent-arm-jab-does-not-fire", test_push_short_of_reach);
	g_test_add_func("/gesture/push/reaching-upward-does-not-fire", test_push_upward);
	g_test_add_func("/gesture/push/bent-arm-before-the-chest-does-not-fire",
	                test_push_bent_arm);
	return g_test_run();
}
