/* Holds: a hand raised above the head and held, and both arms held out to
 * the sides, fire once per hold, however fast the arm goes up and however
 * long it stays, by a child and a tall adult; a hold too short, a hand
 * that keeps moving, one arm, or a body walking along does not. */
#include "gesture-synth.h"

#include <math.h>

typedef struct {
	double height;
	double rise;  /* s to raise the arm(s) */
	double hold;  /* s held */
	double angle; /* degrees from hanging at the top (180: straight up) */
	gboolean left, right;
	double walk;  /* mm/s the body moves sideways meanwhile */
	double shake; /* fractions of height every hand jitters by, frame to frame */
	double jolt;  /* s: one frame then with both hands thrown forward, or 0 */
} Hold;

#define LOWER 1.0 /* s to lower the arm(s) */

static double
hold_angle(const Hold *h, double t)
{
	double w;

	if (t < 0.5 + h->rise)
		w = (t - 0.5) / h->rise;
	else
		w = 1.0 - (t - 0.5 - h->rise - h->hold) / LOWER;
	w = CLAMP(w, 0.0, 1.0);
	w = w * w * (3.0 - 2.0 * w);
	return 5.0 + (h->angle - 5.0) * w;
}

/* Straight arms, raised out to the side: how people raise a hand to be
 * seen and how they hold their arms out. */
static void
hold_motion(double t, SynthPose *pose, gpointer data)
{
	const Hold *h = data;
	double a = hold_angle(h, t);

	pose->x = h->walk * t;
	if (h->left)
		pose->arm[GESTURE_HAND_LEFT].hand = synth_arm_angle(a, 0.05);
	if (h->right)
		pose->arm[GESTURE_HAND_RIGHT].hand = synth_arm_angle(a, 0.05);
	for (int side = 0; side < 2; side++) {
		/* A tracker's jitter: the same for the same frame, every run. */
		guint32 k = ((guint32)llround(t * SYNTH_FPS) * 2 + side) * 2654435761u;

		pose->arm[side].hand.up += h->shake * ((int)((k >> 8) % 201) - 100) / 100.0;
		pose->arm[side].hand.fwd += h->shake * ((int)((k >> 16) % 201) - 100) / 100.0;
		/* A tracker's glitch: a tenth of the height, half a shoulder width. */
		if (h->jolt > 0.0 && llround(t * SYNTH_FPS) == llround(h->jolt * SYNTH_FPS))
			pose->arm[side].hand.fwd += 0.1;
	}
}

static SynthRun *
play_hold(const Hold *h)
{
	SynthRun *run = synth_run_new(NULL);

	synth_play(run, h->height, h->rise + h->hold + LOWER + 1.5, hold_motion, (gpointer)h);
	return run;
}

static void
test_raise(gconstpointer data)
{
	const SynthCase *c = data;
	Hold h = { c->height, c->duration, 2.0, 170.0, FALSE, TRUE, 0.0, 0.0, 0.0 };
	g_autoptr(SynthRun) run = play_hold(&h);

	synth_assert_only(run, GESTURE_RAISE_HAND, GESTURE_HAND_RIGHT);
}

static void
test_raise_short(void)
{
	Hold h = { SYNTH_ADULT, 0.8, 0.5, 170.0, FALSE, TRUE, 0.0, 0.0, 0.0 };
	g_autoptr(SynthRun) run = play_hold(&h);

	synth_assert_none(run);
}

static void
test_raise_long(void)
{
	Hold h = { SYNTH_ADULT, 0.8, 8.0, 170.0, FALSE, TRUE, 0.0, 0.0, 0.0 };
	g_autoptr(SynthRun) run = play_hold(&h);

	synth_assert_only(run, GESTURE_RAISE_HAND, GESTURE_HAND_RIGHT);
}

/* Both hands up: each hand is raised, once. */
static void
test_raise_both(void)
{
	Hold h = { SYNTH_ADULT, 0.8, 2.0, 170.0, TRUE, TRUE, 0.0, 0.0, 0.0 };
	g_autoptr(SynthRun) run = play_hold(&h);

	g_assert_cmpuint(synth_count(run, GESTURE_RAISE_HAND, GESTURE_HAND_LEFT), ==, 1);
	g_assert_cmpuint(synth_count(run, GESTURE_RAISE_HAND, GESTURE_HAND_RIGHT), ==, 1);
	g_assert_cmpuint(run->events->len, ==, 2);
}

/* Level with the head is not above it. */
static void
test_raise_not_high_enough(void)
{
	Hold h = { SYNTH_ADULT, 0.8, 2.0, 125.0, FALSE, TRUE, 0.0, 0.0, 0.0 };
	g_autoptr(SynthRun) run = play_hold(&h);

	synth_assert_none(run);
}

static void
test_arms_out(gconstpointer data)
{
	const SynthCase *c = data;
	Hold h = { c->height, c->duration, 2.5, 90.0, TRUE, TRUE, 0.0, 0.0, 0.0 };
	g_autoptr(SynthRun) run = play_hold(&h);

	synth_assert_only(run, GESTURE_ARMS_OUT, GESTURE_HAND_BOTH);
}

/* Held out through a tracker's jitter of about 10 mm: still a hold. */
static void
test_arms_out_jitter(void)
{
	Hold h = { SYNTH_ADULT, 1.0, 2.5, 90.0, TRUE, TRUE, 0.0, 0.006, 0.0 };
	g_autoptr(SynthRun) run = play_hold(&h);

	synth_assert_only(run, GESTURE_ARMS_OUT, GESTURE_HAND_BOTH);
}

/* One frame of the hands out of place, halfway through the hold, is a
 * tracker's glitch, not the arms moving: still a hold. */
static void
test_arms_out_glitch(void)
{
	Hold h = { SYNTH_ADULT, 1.0, 2.5, 90.0, TRUE, TRUE, 0.0, 0.0, 2.5 };
	g_autoptr(SynthRun) run = play_hold(&h);

	synth_assert_only(run, GESTURE_ARMS_OUT, GESTURE_HAND_BOTH);
}

static void
test_arms_out_one_arm(void)
{
	Hold h = { SYNTH_ADULT, 0.8, 2.5, 90.0, FALSE, TRUE, 0.0, 0.0, 0.0 };
	g_autoptr(SynthRun) run = play_hold(&h);

	synth_assert_none(run);
}

static void
test_arms_out_short(void)
{
	Hold h = { SYNTH_ADULT, 0.8, 1.0, 90.0, TRUE, TRUE, 0.0, 0.0, 0.0 };
	g_autoptr(SynthRun) run = play_hold(&h);

	synth_assert_none(run);
}

/* Arms out while walking along, as children play aeroplane: not still. */
static void
test_arms_out_walking(void)
{
	Hold h = { SYNTH_ADULT, 0.8, 2.5, 90.0, TRUE, TRUE, 600.0, 0.0, 0.0 };
	g_autoptr(SynthRun) run = play_hold(&h);

	synth_assert_none(run);
}

/* Arms up in a V: out, but not out to the sides. */
static void
test_arms_out_too_high(void)
{
	Hold h = { SYNTH_ADULT, 0.8, 2.5, 135.0, TRUE, TRUE, 0.0, 0.0, 0.0 };
	g_autoptr(SynthRun) run = play_hold(&h);

	synth_assert_none(run);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	synth_add_cases("raise-hand", 2.0, 1.0, 0.4, test_raise);
	synth_add_cases("arms-out", 2.0, 1.0, 0.4, test_arms_out);
	g_test_add_func("/gesture/raise-hand/held-too-short-does-not-fire", test_raise_short);
	g_test_add_func("/gesture/raise-hand/held-long-fires-once", test_raise_long);
	g_test_add_func("/gesture/raise-hand/both-hands-fire-once-each", test_raise_both);
	g_test_add_func("/gesture/raise-hand/at-head-height-does-not-fire",
	                test_raise_not_high_enough);
	g_test_add_func("/gesture/arms-out/held-through-jitter-fires-once", test_arms_out_jitter);
	g_test_add_func("/gesture/arms-out/held-through-a-glitch-fires-once", test_arms_out_glitch);
	g_test_add_func("/gesture/arms-out/one-arm-does-not-fire", test_arms_out_one_arm);
	g_test_add_func("/gesture/arms-out/held-too-short-does-not-fire", test_arms_out_short);
	g_test_add_func("/gesture/arms-out/walking-along-does-not-fire", test_arms_out_walking);
	g_test_add_func("/gesture/arms-out/arms-up-in-a-v-does-not-fire", test_arms_out_too_high);
	return g_test_run();
}
