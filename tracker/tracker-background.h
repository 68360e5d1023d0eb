/* The room as it stays: per cell, the depth that has held there for a
 * while when no one was on it. A cell that reads the room's depth again
 * is background, whatever its shape: the sofa a person sits down on, the
 * chair they lean on, the wall behind them, the coat stand by the door.
 *
 * Learning is per cell and slow on purpose. A depth held for
 * TRACKER_BACKGROUND_LEARN_US becomes the room's; a farther one replaces
 * it sooner (what stood there has gone, and the sensor sees past it); a
 * nearer one that stays for TRACKER_BACKGROUND_ABSORB_US replaces it
 * too (furniture moved in). Something nearer that passes in front of a
 * depth not yet learned does not start its time again: it must itself
 * hold for the learn time to replace it (someone walking past the sofa
 * in the first seconds).
 *
 * Cells on or about a tracked person learn nothing of the person, so a
 * person who stands still for minutes stays a person. What such a cell
 * has read since before that person was first seen is still the room's
 * (the desk they walk behind, the chair their outline spills onto): it
 * keeps its depth and its time while the person is in front, and it is
 * learned as anywhere else while it reads that depth. So is a reading
 * farther back than the person reaches. A person the tracker finds only
 * after standing still for longer than TRACKER_BACKGROUND_SEEN_US is
 * taken for the room like anything else that stays.
 *
 * If a large share of the learned room reads farther at once for a few
 * frames, the sensor moved: the model starts again. Nearer readings never
 * count toward that (a person close to the sensor hides the room), so a
 * sensor moved forward is absorbed like furniture instead. */
#pragma once

#include <glib.h>

#include "tracker-grid.h"

#define TRACKER_BACKGROUND_LEARN_US  (3 * G_USEC_PER_SEC)
#define TRACKER_BACKGROUND_ABSORB_US (20 * G_USEC_PER_SEC)
/* A person in view is first seen within this of coming into view. */
#define TRACKER_BACKGROUND_SEEN_US (G_USEC_PER_SEC / 2)
#define TRACKER_BACKGROUND_NO_ONE  G_MAXINT64

/* Who is on or about a cell, for tracker_background_learn(). */
typedef struct {
	gint64 seen_us; /* when first seen (the earliest, of several); TRACKER_BACKGROUND_NO_ONE */
	float far_mm;   /* how far from the sensor they reach there */
} TrackerBackgroundPerson;

typedef struct _TrackerBackground TrackerBackground;

TrackerBackground *tracker_background_new(const TrackerGrid *grid);
void tracker_background_free(TrackerBackground *bg);

/** tracker_background_reset: forgets the room. */
void tracker_background_reset(TrackerBackground *bg);

/**
 * tracker_background_mask:
 * Per cell of @grid, whether it reads the room's depth now: 1 for
 * background. Valid until the next call.
 */
const guint8 *tracker_background_mask(TrackerBackground *bg, const TrackerGrid *grid);

/**
 * tracker_background_learn:
 * Learns from @grid, taken at @time_us; @people gives, per cell, the
 * person tracked on or about it, if any.
 */
void tracker_background_learn(TrackerBackground *bg, const TrackerGrid *grid,
                              const TrackerBackgroundPerson *people, gint64 time_us);
