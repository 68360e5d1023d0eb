/* Claps: both hands brought together quickly in front of the body fire
 * once, at the pace people clap, by a child and a tall adult; hands
 * brought together slowly, arms folded across each other, or hands that
 * never open do not. */
#include "gesture-synth.h"

static const SynthPoint apart = { 0.06, -0.10, 0.22 };
static const SynthPoint together = { -0.085, -0.08, 0.25 };

/* Rest, hands up and apart, @n claps of @duration each, rest. */
static SynthRun *
play_claps(double height, SynthPoint from, SynthPoint to, double duration, guint n)
{
	SynthRun *run = synth_run_new(NULL);
	SynthKey keys[2 + 4 * 8];
	guint k = 0;
	double t = 1.5;

	g_assert(n <= 8);
	keys[k++] = (SynthKey){ 0.0, { synth_rest, synth_rest } };
	for (guint i = 0; i < n; i++) {
		keys[k++] = (SynthKey){ t, { from, from } };
		keys[k++] = (SynthKey){ t + 0.5, { from, from } };
		keys[k++] = (SynthKey){ t + 0.5 + duration, { to, to } };
		keys[k++] = (SynthKey){ t + 1.0 + duration, { to, to } };
		t += 1.0 + duration + 0.6;
	}
	keys[k++] = (SynthKey){ t + 0.6, { synth_rest, synth_rest } };
	synth_play_keys(run, height, keys, k);
	return run;
}

static void
test_clap(gconstpointer data)
{
	const SynthCase *c = data;
	g_autoptr(SynthRun) run = play_claps(c->height, apart, together, c->duration, 1);

	synth_assert_only(run, GESTURE_CLAP, GESTURE_HAND_BOTH);
}

static void
test_clap_three_times(void)
{
	g_autoptr(SynthRun) run = play_claps(SYNTH_ADULT, apart, together, 0.2, 3);

	g_assert_cmpuint(synth_count(run, GESTURE_CLAP, GESTURE_HAND_BOTH), ==, 3);
	g_assert_cmpuint(run->events->len, ==, 3);
}

/* Hands that meet and spring apart at once, never at rest together. */
static void
test_clap_bounce(void)
{
	g_autoptr(SynthRun) run = synth_run_new(NULL);
	const SynthKey keys[] = {
		{ 0.0, { synth_rest, synth_rest } }, { 1.5, { apart, apart } },
		{ 2.0, { apart, apart } },           { 2.12, { together, together } },
		{ 2.24, { apart, apart } },          { 3.0, { apart, apart } },
		{ 4.5, { synth_rest, synth_rest } },
	};

	synth_play_keys(run, SYNTH_ADULT, keys, G_N_ELEMENTS(keys));
	synth_assert_only(run, GESTURE_CLAP, GESTURE_HAND_BOTH);
}

static void
test_clap_slow(void)
{
	g_autoptr(SynthRun) run = play_claps(SYNTH_ADULT, apart, together, 1.6, 1);

	synth_assert_none(run);
}

/* Arms folded quickly: the hands pass each other instead of meeting. */
static void
test_clap_folding_arms(void)
{
	SynthPoint folded = { -0.21, -0.13, 0.10 };
	g_autoptr(SynthRun) run = play_claps(SYNTH_ADULT, synth_rest, folded, 0.4, 1);

	synth_assert_none(run);
}

/* Hands already close, tapped together: they were never apart. */
static void
test_clap_never_open(void)
{
	SynthPoint close = { -0.04, -0.10, 0.24 };
	g_autoptr(SynthRun) run = play_claps(SYNTH_ADULT, close, together, 0.15, 1);

	synth_assert_none(run);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	synth_add_cases("clap", 0.5, 0.25, 0.1, test_clap);
	g_test_add_func("/gesture/clap/three-claps-fire-three-times", test_clap_three_times);
	g_test_add_func("/gesture/clap/hands-bouncing-off-each-other-fire-once", test_clap_bounce);
	g_test_add_func("/gesture/clap/hands-brought-together-slowly-do-not-fire", test_clap_slow);
	g_test_add_func("/gesture/clap/folding-arms-does-not-fire", test_clap_folding_arms);
	g_test_add_func("/gesture/clap/hands-never-apart-do-not-fire", test_clap_never_open);
	return g_test_run();
}
