/* Order statistics of a few thousand doubles at most, where sorting them
 * is fast enough: the demo scene's noise levels, a calibration's medians
 * over frames, benchmarks' figures. (The tracker, per frame, selects its
 * medians without sorting, in its own library.) */
#pragma once

#include <glib.h>

/** stats_sort: sorts the @n @values in place, smallest first. */
void stats_sort(double *values, guint n);

/**
 * stats_median:
 * The median of the @n @values (n > 0), the mean of the middle two when n
 * is even. Sorts @values in place.
 */
double stats_median(double *values, guint n);
