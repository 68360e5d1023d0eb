/* What has just come into view: per cell, the nearest depth it has read
 * lately, and whether it reads nearer than that now. Furniture reads what
 * it always read; a person walking in, turning or raising an arm puts a
 * surface where the sensor saw farther before.
 *
 * A cell's nearest depth is the nearest of its readings, so a cell on an
 * edge that flickers between two surfaces keeps the nearer; it recedes
 * toward farther readings over TRACKER_FRESH_RECEDE_US, so a place a
 * person stood on is not theirs for ever. A cell says nothing until it
 * has read TRACKER_FRESH_WARMUP frames: what is in view from the first
 * frames (after the start or a reset) is not fresh, whatever it is. */
#pragma once

#include <glib.h>

#include "tracker-grid.h"

#define TRACKER_FRESH_WARMUP    8
#define TRACKER_FRESH_RECEDE_US (10 * G_USEC_PER_SEC)

typedef struct _TrackerFresh TrackerFresh;

TrackerFresh *tracker_fresh_new(const TrackerGrid *grid);
void tracker_fresh_free(TrackerFresh *fresh);

/** tracker_fresh_reset: forgets what every cell read. */
void tracker_fresh_reset(TrackerFresh *fresh);

enum { TRACKER_FRESH_UNKNOWN = 0, TRACKER_FRESH_SEEN = 1, TRACKER_FRESH_NEARER = 2 };

/**
 * tracker_fresh_update:
 * Compares @grid's frame, taken at @time_us, with what each cell read
 * before, then learns it. Returns per cell: TRACKER_FRESH_UNKNOWN for a
 * cell that has not read enough frames to tell, TRACKER_FRESH_SEEN for
 * one that reads what it read before (or farther), TRACKER_FRESH_NEARER
 * for one that reads nearer than it has lately. Valid until the next
 * call.
 */
const guint8 *tracker_fresh_update(TrackerFresh *fresh, const TrackerGrid *grid, gint64 time_us);
