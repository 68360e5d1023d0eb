/* The room as it stays: per cell, the depth that has held there for a
 * while when no one was on it. A cell that reads the room's depth again
 * is background, whatever its shape: the sofa a person sits down on, the
 * chair they lean on, the wall behind them, the coat stand by the door.
 *
 * Learning is per cell and slow on purpose. A depth held for
 * TRACKER_BACKGROUND_LEARN_US becomes the room's; a farther one replaces
 * it sooner (what stood there has gone, and the sensor sees past it); a
 * nearer one that stays for TRACKER_BACKGROUND_ABSORB_US replaces it
 * too (furniture moved in). Cells on or about a tracked person are never
 * learned, so a person who stands still for minutes stays a person. If
 * a large share of the learned room reads farther at once for a few
 * frames, the sensor moved: the model starts again. Nearer readings never
 * count toward that (a person close to the sensor hides the room), so a
 * sensor moved forward is absorbed like furniture instead. */
#pragma once

#include <glib.h>

#include "tracker-grid.h"

#define TRACKER_BACKGROUND_LEARN_US  (3 * G_USEC_PER_SEC)
#define TRACKER_BACKGROUND_ABSORB_US (20 * G_USEC_PER_SEC)

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
 * Learns from @grid, taken at @time_us, leaving out the cells where
 * @people is set (on or about the people tracked).
 */
void tracker_background_learn(TrackerBackground *bg, const TrackerGrid *grid, const guint8 *people,
                              gint64 time_us);
