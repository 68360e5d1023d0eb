/* Linear least squares with three unknowns: z = c0 a + c1 b + c2 d over
 * many samples, by the normal equations. The floor's plane and the
 * flatness of a surface are both this. */
#pragma once

#include <glib.h>

typedef struct {
	double m[3][4]; /* the normal equations, right-hand side last */
	double zz;      /* sum of z squared, for the residual */
	guint n;
} TrackerLsq3;

/** tracker_lsq3_init: no samples yet. */
void tracker_lsq3_init(TrackerLsq3 *lsq);

/** tracker_lsq3_add: adds the sample z = c0 @a + c1 @b + c2 @d. */
void tracker_lsq3_add(TrackerLsq3 *lsq, double a, double b, double d, double z);

/**
 * tracker_lsq3_solve:
 * The coefficients into @c, and the mean squared residual into @mse (or
 * NULL). FALSE when the samples do not determine them.
 */
gboolean tracker_lsq3_solve(const TrackerLsq3 *lsq, double c[3], double *mse);
