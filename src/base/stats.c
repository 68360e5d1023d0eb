#include "stats.h"

#include <stdlib.h>

static int
stats_compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void
stats_sort(double *values, guint n)
{
	qsort(values, n, sizeof(double), stats_compare_double);
}

double
stats_median(double *values, guint n)
{
	g_return_val_if_fail(values != NULL && n > 0, 0.0);

	stats_sort(values, n);
	return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}
