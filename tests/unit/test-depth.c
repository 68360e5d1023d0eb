/* libfreenect's raw-to-millimetre table and its inverse. */
#include <math.h>

#include "base/depth.h"

/* libfreenect's formula, written out again from its registration.c:
 * const_shift 200, parameter coefficient 4, offset 0.375, reference pixel
 * size 0.1042 mm, reference distance 120 mm, emitter distance 7.5 cm. */
static double
libfreenect_formula(int raw)
{
	double metric = ((raw - 4.0 * 200.0) / 4.0 - 0.375) * 0.1042;

	return 10.0 * (metric * 120.0 / (7.5 - metric) + 120.0);
}

static void
test_table_matches_formula(void)
{
	static const int points[] = { 0, 300, 500, 600, 700, 800, 850, 900, 950, 1000, 1050, 1054 };

	for (guint i = 0; i < G_N_ELEMENTS(points); i++)
		g_assert_cmpuint(depth_raw_to_mm(points[i]), ==,
		                 (guint)floor(libfreenect_formula(points[i])));
}

/* Values worked out by hand, so that a shared mistake in formula and table
 * still shows. */
static void
test_table_known_values(void)
{
	g_assert_cmpuint(depth_raw_to_mm(0), ==, 317);
	g_assert_cmpuint(depth_raw_to_mm(600), ==, 705);
	g_assert_cmpuint(depth_raw_to_mm(800), ==, 1193);
	g_assert_cmpuint(depth_raw_to_mm(900), ==, 1824);
	g_assert_cmpuint(depth_raw_to_mm(1000), ==, 3864);
	g_assert_cmpuint(depth_raw_to_mm(1050), ==, 8767);
}

static void
test_table_cap_and_no_reading(void)
{
	g_assert_cmpuint(depth_raw_to_mm(1055), ==, DEPTH_MM_MAX);
	g_assert_cmpuint(depth_raw_to_mm(1089), ==, DEPTH_MM_MAX);
	/* Past the formula's pole: no reading, not garbage. */
	for (int raw = 1090; raw <= DEPTH_RAW_NONE; raw++)
		g_assert_cmpuint(depth_raw_to_mm(raw), ==, 0);
	g_assert_cmpuint(depth_raw_to_mm(4095), ==, 0);
}

static void
test_table_monotonic(void)
{
	for (int raw = 1; raw < 1090; raw++)
		g_assert_cmpuint(depth_raw_to_mm(raw), >=, depth_raw_to_mm(raw - 1));
}

static void
test_inverse_lossless(void)
{
	for (int raw = 0; raw < DEPTH_RAW_NONE; raw++) {
		guint16 mm = depth_raw_to_mm(raw);

		if (mm == 0)
			continue;
		g_assert_cmpuint(depth_raw_to_mm(depth_mm_to_raw(mm)), ==, mm);
	}
}

static void
test_inverse_nearest(void)
{
	/* 1000 mm is between two table values; whichever raw value it maps to
	 * must be the nearest in millimetres. */
	for (guint mm = 400; mm < DEPTH_MM_MAX; mm += 7) {
		guint16 raw = depth_mm_to_raw(mm);
		int got = depth_raw_to_mm(raw);

		if (raw > 0)
			g_assert_cmpint(abs(got - (int)mm), <=,
			                abs(depth_raw_to_mm(raw - 1) - (int)mm));
		g_assert_cmpint(abs(got - (int)mm), <=, abs(depth_raw_to_mm(raw + 1) - (int)mm));
	}
}

static void
test_inverse_no_reading(void)
{
	g_assert_cmpuint(depth_mm_to_raw(0), ==, DEPTH_RAW_NONE);
}

static void
test_exact_inverse(void)
{
	for (double mm = 500; mm < 9000; mm += 250)
		g_assert_cmpfloat_with_epsilon(depth_raw_to_mm_exact(depth_mm_to_raw_exact(mm)), mm,
		                               1e-6);
}

static void
test_convert_arrays(void)
{
	guint16 raw[4] = { 800, 2047, 1000, 5000 };
	guint16 mm[4], back[4];

	depth_convert_raw_to_mm(raw, mm, 4);
	g_assert_cmpuint(mm[0], ==, 1193);
	g_assert_cmpuint(mm[1], ==, 0);
	g_assert_cmpuint(mm[2], ==, 3864);
	g_assert_cmpuint(mm[3], ==, 0);
	depth_convert_mm_to_raw(mm, back, 4);
	g_assert_cmpuint(back[1], ==, DEPTH_RAW_NONE);
	g_assert_cmpuint(depth_raw_to_mm(back[0]), ==, 1193);
}

int
main(int argc, char **argv)
{
	g_test_init(&argc, &argv, NULL);
	g_test_add_func("/depth/raw-to-mm/matches-libfreenect-formula", test_table_matches_formula);
	g_test_add_func("/depth/raw-to-mm/known-values", test_table_known_values);
	g_test_add_func("/depth/raw-to-mm/cap-and-no-reading", test_table_cap_and_no_reading);
	g_test_add_func("/depth/raw-to-mm/monotonic", test_table_monotonic);
	g_test_add_func("/depth/mm-to-raw/lossless-for-table-values", test_inverse_lossless);
	g_test_add_func("/depth/mm-to-raw/nearest-otherwise", test_inverse_nearest);
	g_test_add_func("/depth/mm-to-raw/no-reading", test_inverse_no_reading);
	g_test_add_func("/depth/exact/inverse", test_exact_inverse);
	g_test_add_func("/depth/convert/arrays", test_convert_arrays);
	return g_test_run();
}
