#include "tracker-fresh.h"

#include <math.h>
#include <string.h>

struct _TrackerFresh {
	int n;
	float *nearest; /* mm; the nearest depth read lately, 0 for none yet */
	guint8 *frames; /* frames with a reading, up to TRACKER_FRESH_WARMUP */
	guint8 *mask;   /* the last frame's answer */
	gint64 last_us; /* the last frame's time */
	gboolean have_last;
};

TrackerFresh *
tracker_fresh_new(const TrackerGrid *grid)
{
	TrackerFresh *fresh = g_new0(TrackerFresh, 1);

	fresh->n = grid->n;
	fresh->nearest = g_new0(float, grid->n);
	fresh->frames = g_new0(guint8, grid->n);
	fresh->mask = g_new0(guint8, grid->n);
	return fresh;
}

void
tracker_fresh_free(TrackerFresh *fresh)
{
	if (fresh == NULL)
		return;
	g_free(fresh->nearest);
	g_free(fresh->frames);
	g_free(fresh->mask);
	g_free(fresh);
}

void
tracker_fresh_reset(TrackerFresh *fresh)
{
	memset(fresh->nearest, 0, fresh->n * sizeof(float));
	memset(fresh->frames, 0, fresh->n);
	memset(fresh->mask, 0, fresh->n);
	fresh->have_last = FALSE;
}

/* One cell's reading @z; @recede is the share of the way toward a farther
 * reading its nearest depth goes this frame. */
static guint8
tracker_fresh_cell(float *nearest, guint8 *frames, float z, float recede)
{
	guint8 answer;

	if (z <= 0.0f)
		return *frames >= TRACKER_FRESH_WARMUP ? TRACKER_FRESH_SEEN : TRACKER_FRESH_UNKNOWN;
	if (*frames == 0) {
		*nearest = z;
		*frames = 1;
		return TRACKER_FRESH_UNKNOWN;
	}
	if (*frames < TRACKER_FRESH_WARMUP) {
		answer = TRACKER_FRESH_UNKNOWN;
		(*frames)++;
	} else {
		answer = z < *nearest - tracker_grid_depth_error(z) ? TRACKER_FRESH_NEARER
		                                                    : TRACKER_FRESH_SEEN;
	}
	if (z < *nearest)
		*nearest = z;
	else
		*nearest += recede * (z - *nearest);
	return answer;
}

const guint8 *
tracker_fresh_update(TrackerFresh *fresh, const TrackerGrid *grid, gint64 time_us)
{
	float recede = 0.0f;

	if (fresh->have_last && time_us > fresh->last_us)
		recede = (float)MIN(1.0, (double)(time_us - fresh->last_us) /
		                                 (double)TRACKER_FRESH_RECEDE_US);
	fresh->last_us = time_us;
	fresh->have_last = TRUE;
	for (int k = 0; k < fresh->n; k++)
		fresh->mask[k] = tracker_fresh_cell(&fresh->nearest[k], &fresh->frames[k],
		                                    grid->z[k], recede);
	return fresh->mask;
}
