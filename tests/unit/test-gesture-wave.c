/* Waves: a hand above its elbow swinging side to side fires once per wave,
 * however long it goes on, at any pace people wave, by a child and a tall
 * adult; too few swings, a wiggle or a hand below the elbow does not. */
#include "gesture-synth.h"

#include <math.h>

typedef struct {
	double height;
	double frequency;  /* Hz: full cycles a second */
	guint half_cycles; /* swings from one side to the other */
	double amplitude;  /* degrees the forearm swings each way */
	double upper;      /* upper arm, degrees from hanging (90: elbow out) */
	double pause;      /* s: a still pause, then the same wave again; 0: once */
	double fwd;        /* how far the arm leans forward (see synth_arm_angles) */
} Wave;

#define RAISE 1.0 /* s to bring the hand up, and to lower it */

static double
wave_duration(const Wave *w)
{
	double swing = w->half_cycles / (2.0 * w->frequency);

	return w->pause > 0.0 ? 2.0 * swing + w->pause : swing;
}

/* The forearm's angle while waving: it starts at one side and swings
 * back and forth, @t seconds into the waving. */
static double
wave_fore(const Wave *w, double t)
{
	double swing = w->half_cycles / (2.0 * w->frequency);

	if (w->pause > 0.0 && t > swing)
		t = t < swing + w->pause ? swing : t - swing - w->pause;
	t = MIN(t, swing);
	return 180.0 - w->amplitude * cos(2.0 * G_PI * w->frequency * t);
}

static void
wave_motion(double t, SynthPose *pose, gpointer data)
{
	const Wave *w = data;
	double start = 180.0 - w->amplitude;
	double end = wave_fore(w, wave_duration(w));
	double up = 0.0, fore;

	if (t < 0.5 + RAISE) {
		up = CLAMP((t - 0.5) / RAISE, 0.0, 1.0);
		fore = start;
	} else if (t < 0.5 + RAISE + wave_duration(w)) {
		up = 1.0;
		fore = wave_fore(w, t - 0.5 - RAISE);
	} else {
		up = 1.0 - CLAMP((t - 0.8 - RAISE - wave_duration(w)) / RAISE, 0.0, 1.0);
		fore = end;
	}
	up = up * up * (3.0 - 2.0 * up);
	pose->arm[GESTURE_HAND_RIGHT] =
	        synth_arm_angles(5.0 + (w->upper - 5.0) * up, 5.0 + (fore - 5.0) * up, w->fwd);
}

static SynthRun *
play_wave(const Wave *w)
{
	SynthRun *run = synth_run_new(NULL);

	synth_play(run, w->height, wave_duration(w) + 2 * RAISE + 1.5, wave_motion, (gpointer)w);
	return run;
}

static void
test_wave(gconstpointer data)
{
	const SynthCase *c = data;
	/* The case's duration is one half-cycle. */
	Wave w = { c->height, 0.5 / c->duration, 6, 30.0, 85.0, 0.0, 0.1 };
	g_autoptr(SynthRun) run = play_wave(&w);

	synth_assert_only(run, GESTURE_WAVE, GESTURE_HAND_RIGHT);
	g_assert_cmpuint(g_array_index(run->events, GestureEvent, 0).count, ==, 3);
}

static void
test_wave_two_half_cycles(void)
{
	Wave w = { SYNTH_ADULT, 1.5, 2, 30.0, 85.0, 0.0, 0.1 };
	g_autoptr(SynthRun) run = play_wave(&w);

	synth_assert_none(run);
}

static void
test_wave_three_half_cycles(void)
{
	Wave w = { SYNTH_ADULT, 1.5, 3, 30.0, 85.0, 0.0, 0.1 };
	g_autoptr(SynthRun) run = play_wave(&w);

	synth_assert_only(run, GESTURE_WAVE, GESTURE_HAND_RIGHT);
}

static void
test_wave_long(void)
{
	Wave w = { SYNTH_ADULT, 1.5, 24, 30.0, 85.0, 0.0, 0.1 };
	g_autoptr(SynthRun) run = play_wave(&w);

	synth_assert_only(run, GESTURE_WAVE, GESTURE_HAND_RIGHT);
}

/* Waving, a still moment with the hand up, waving again: two waves. */
static void
test_wave_twice(void)
{
	Wave w = { SYNTH_ADULT, 1.5, 6, 30.0, 85.0, 2.0, 0.1 };
	g_autoptr(SynthRun) run = play_wave(&w);

	g_assert_cmpuint(synth_count(run, GESTURE_WAVE, GESTURE_HAND_RIGHT), ==, 2);
	g_assert_cmpuint(run->events->len, ==, 2);
}

static void
test_wave_wiggle(void)
{
	Wave w = { SYNTH_ADULT, 3.0, 12, 5.0, 85.0, 0.0, 0.1 };
	g_autoptr(SynthRun) run = play_wave(&w);

	synth_assert_none(run);
}

/* The hand hanging below the elbow, swinging: the arm dangling, no wave. */
static void
test_wave_below_elbow(void)
{
	Wave w = { SYNTH_ADULT, 1.5, 6, 30.0, 85.0, 0.0, 0.1 };
	g_autoptr(SynthRun) run = synth_run_new(NULL);
	guint n = (guint)(wave_duration(&w) * SYNTH_FPS);

	for (guint k = 0; k <= n; k++) {
		double t = (double)k / SYNTH_FPS;
		SynthPose pose;

		synth_pose_init(&pose, SYNTH_ADULT);
		pose.arm[GESTURE_HAND_RIGHT] =
		        synth_arm_angles(60.0, 180.0 - wave_fore(&w, t), w.fwd);
		synth_feed_pose(run, &pose, t);
	}
	synth_assert_none(run);
}

/* A wide, fast wave moves the hand as far as a swipe: still only a wave. */
static void
test_wave_wide_no_swipe(void)
{
	Wave w = { SYNTH_ADULT, 1.2, 6, 55.0, 85.0, 0.0, 0.1 };
	g_autoptr(SynthRun) run = play_wave(&w);

	synth_assert_only(run, GESTURE_WAVE, GESTURE_HAND_RIGHT);
}

/* The same, with the arm well forward, where swipes are made: the elbow
 * staying put tells the wave from a swipe. */
static void
test_wave_wide_in_front_no_swipe(void)
{
	Wave w = { SYNTH_ADULT, 1.2, 6, 55.0, 85.0, 0.0, 0.8 };
	g_autoptr(SynthRun) run = play_wave(&w);

	synth_assert_only(run, GESTURE_WAVE, GESTURE_HAND_RIGHT);
}

/* Waving with the hand high above the head: a wave, not a raised hand. */
static void
test_wave_above_head(void)
{
	Wave w = { SYNTH_ADULT, 1.5, 8, 30.0, 150.0, 0.0, 0.1 };
	g_autoptr(SynthRun) run = play_wave(&w);

	synth_assert_only(run, GESTURE_WAVE, GESTURE_HAND_RIGHT);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	/* Half-cycles of 0.6, 0.33 and 0.17 s: 0.8, 1.5 and 3 waves a second. */
	synth_add_cases("wave", 0.6, 0.33, 0.17, test_wave);
	g_test_add_func("/gesture/wave/two-half-cycles-do-not-fire", test_wave_two_half_cycles);
	g_test_add_func("/gesture/wave/three-half-cycles-fire", test_wave_three_half_cycles);
	g_test_add_func("/gesture/wave/long-wave-fires-once", test_wave_long);
	g_test_add_func("/gesture/wave/pause-and-wave-again-fires-twice", test_wave_twice);
	g_test_add_func("/gesture/wave/small-wiggle-does-not-fire", test_wave_wiggle);
	g_test_add_func("/gesture/wave/hand-below-elbow-does-not-fire", test_wave_below_elbow);
	g_test_add_func("/gesture/wave/wide-wave-gives-no-swipe", test_wave_wide_no_swipe);
	g_test_add_func("/gesture/wave/wide-wave-in-front-gives-no-swipe",
	                test_wave_wide_in_front_no_swipe);
	g_test_add_func("/gesture/wave/above-the-head-gives-no-raised-hand", test_wave_above_head);
	return g_test_run();
}
