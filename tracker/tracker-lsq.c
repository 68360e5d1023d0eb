#include "tracker-lsq.h"

#include <math.h>
#include <string.h>

void
tracker_lsq3_init(TrackerLsq3 *lsq)
{
	memset(lsq, 0, sizeof(*lsq));
}

void
tracker_lsq3_add(TrackerLsq3 *lsq, double a, double b, double d, double z)
{
	double r[3] = { a, b, d };

	for (int i = 0; i < 3; i++) {
		for (int j = 0; j < 3; j++)
			lsq->m[i][j] += r[i] * r[j];
		lsq->m[i][3] += r[i] * z;
	}
	lsq->zz += z * z;
	lsq->n++;
}

/* The determinant of columns @c0, @c1, @c2 of the normal equations. */
static double
tracker_lsq3_det(const TrackerLsq3 *lsq, int c0, int c1, int c2)
{
	const double(*m)[4] = lsq->m;

	return m[0][c0] * (m[1][c1] * m[2][c2] - m[1][c2] * m[2][c1]) -
	       m[0][c1] * (m[1][c0] * m[2][c2] - m[1][c2] * m[2][c0]) +
	       m[0][c2] * (m[1][c0] * m[2][c1] - m[1][c1] * m[2][c0]);
}

gboolean
tracker_lsq3_solve(const TrackerLsq3 *lsq, double c[3], double *mse)
{
	double det = tracker_lsq3_det(lsq, 0, 1, 2);

	if (lsq->n < 3 || fabs(det) < 1e-9)
		return FALSE;
	/* Cramer's rule: each unknown's column replaced by the right side. */
	c[0] = tracker_lsq3_det(lsq, 3, 1, 2) / det;
	c[1] = tracker_lsq3_det(lsq, 0, 3, 2) / det;
	c[2] = tracker_lsq3_det(lsq, 0, 1, 3) / det;
	if (mse != NULL)
		*mse = (lsq->zz - c[0] * lsq->m[0][3] - c[1] * lsq->m[1][3] - c[2] * lsq->m[2][3]) /
		       lsq->n;
	return TRUE;
}
