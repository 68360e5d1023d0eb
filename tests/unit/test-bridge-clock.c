/* Bundle timetags: the frame's time on the wall clock, never in the future. */
#include "bridge.h"
#include "testutil.h"

#define WALL (G_GINT64_CONSTANT(1700000000) * G_USEC_PER_SEC)

/* Frames coming at their own pace keep their own spacing, whatever the
 * jitter of their delivery. */
static void
test_clock_keeps_spacing(void)
{
	BridgeClock clock = { 0 };

	g_assert_cmpint(bridge_clock_timetag(&clock, 5000000, WALL + 2000), ==, WALL + 2000);
	g_assert_cmpint(bridge_clock_timetag(&clock, 5033333, WALL + 38000), ==, WALL + 35333);
	g_assert_cmpint(bridge_clock_timetag(&clock, 5066667, WALL + 69000), ==, WALL + 68667);
}

/* A replay played faster than recorded would stamp the future: receivers
 * like liblo's would then hold the bundles back. */
static void
test_clock_never_ahead(void)
{
	BridgeClock clock = { 0 };

	bridge_clock_timetag(&clock, 0, WALL);
	g_assert_cmpint(bridge_clock_timetag(&clock, 33333, WALL + 1000), ==, WALL + 1000);
	g_assert_cmpint(bridge_clock_timetag(&clock, 66667, WALL + 2000), ==, WALL + 2000);
}

/* A source whose time jumps back (a loop) or stalls starts afresh. */
static void
test_clock_restarts(void)
{
	BridgeClock clock = { 0 };

	bridge_clock_timetag(&clock, 9000000, WALL);
	g_assert_cmpint(bridge_clock_timetag(&clock, 0, WALL + 33000), ==, WALL + 33000);
	g_assert_cmpint(bridge_clock_timetag(&clock, 33333, WALL + 3000000), ==, WALL + 3000000);
	g_assert_cmpint(bridge_clock_timetag(&clock, 66666, WALL + 3033400), ==, WALL + 3033333);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/bridge/clock/keeps-frame-spacing", test_clock_keeps_spacing);
	g_test_add_func("/bridge/clock/never-in-the-future", test_clock_never_ahead);
	g_test_add_func("/bridge/clock/restarts-after-a-jump-or-stall", test_clock_restarts);
	return g_test_run();
}
