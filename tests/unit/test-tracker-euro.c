/* The One Euro filter against values worked out by hand from Casiez et
 * al.'s definition. */
#include <math.h>

#include "tracker/tracker-euro.h"

/* alpha(fc, Te) = 1 / (1 + tau / Te), tau = 1 / (2 pi fc).
 * fc = 1 Hz, Te = 0.1 s: tau = 0.1591549, alpha = 0.3858695. */
static void
test_alpha(void)
{
	g_assert_cmpfloat_with_epsilon(tracker_euro_alpha(1.0, 0.1), 0.3858695, 1e-6);
	/* fc = 10 Hz, Te = 1/30 s: tau = 0.0159155, alpha = 0.6768351. */
	g_assert_cmpfloat_with_epsilon(tracker_euro_alpha(10.0, 1.0 / 30.0), 0.6768351, 1e-6);
}

/* With beta 0 the filter is a low-pass at min_cutoff: 0 then 10 at
 * Te = 0.1 s gives 10 * 0.3858695, then 3.858695 + alpha * (10 - 3.858695). */
static void
test_low_pass(void)
{
	TrackerEuroParams params = { 1.0, 0.0, 1.0 };
	TrackerEuro f;

	tracker_euro_reset(&f);
	g_assert_cmpfloat(tracker_euro_filter(&f, &params, 0.0, 0), ==, 0.0);
	g_assert_cmpfloat_with_epsilon(tracker_euro_filter(&f, &params, 10.0, 100000), 3.858695,
	                               1e-5);
	g_assert_cmpfloat_with_epsilon(tracker_euro_filter(&f, &params, 10.0, 200000), 6.228438,
	                               1e-5);
}

/* With beta the cutoff follows the filtered speed. Second sample: speed
 * = (10 - 0) / 0.1 = 100, filtered at d_cutoff 1 Hz: 38.58695; cutoff =
 * 1 + 0.1 * 38.58695 = 4.858695 Hz; tau = 0.03275672, alpha = 0.7532575,
 * output 7.532575. */
static void
test_speed_raises_cutoff(void)
{
	TrackerEuroParams params = { 1.0, 0.1, 1.0 };
	TrackerEuro f;

	tracker_euro_reset(&f);
	tracker_euro_filter(&f, &params, 0.0, 0);
	g_assert_cmpfloat_with_epsilon(tracker_euro_filter(&f, &params, 10.0, 100000), 7.532575,
	                               1e-5);
	g_assert_cmpfloat_with_epsilon(f.speed, 38.58695, 1e-4);
}

/* A constant input comes out unchanged: no drift, no lag at rest. */
static void
test_constant(void)
{
	TrackerEuroParams params = { 1.0, 0.007, 1.0 };
	TrackerEuro f;

	tracker_euro_reset(&f);
	for (int i = 0; i < 100; i++)
		g_assert_cmpfloat_with_epsilon(tracker_euro_filter(&f, &params, 1234.5, i * 33333),
		                               1234.5, 1e-9);
}

/* A sample no later than the last restarts the filter. */
static void
test_time_backwards_restarts(void)
{
	TrackerEuroParams params = { 1.0, 0.0, 1.0 };
	TrackerEuro f;

	tracker_euro_reset(&f);
	tracker_euro_filter(&f, &params, 0.0, 100000);
	g_assert_cmpfloat(tracker_euro_filter(&f, &params, 50.0, 100000), ==, 50.0);
	g_assert_cmpfloat(tracker_euro_filter(&f, &params, 70.0, 50000), ==, 70.0);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/tracker/euro/alpha", test_alpha);
	g_test_add_func("/tracker/euro/low-pass-by-hand", test_low_pass);
	g_test_add_func("/tracker/euro/speed-raises-cutoff", test_speed_raises_cutoff);
	g_test_add_func("/tracker/euro/constant-passes-unchanged", test_constant);
	g_test_add_func("/tracker/euro/time-backwards-restarts", test_time_backwards_restarts);
	return g_test_run();
}
