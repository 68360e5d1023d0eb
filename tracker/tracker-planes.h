/* The room's large flat surfaces: walls, doors, cabinet fronts, a table's
 * top, a sofa's back, the floor. No person is one, and a person who
 * stands against one, sits on one or leans on one is apart from it once
 * its cells are taken out.
 *
 * Cells are grown into flat regions from their normals: a region takes a
 * neighbour on its surface that lies on its plane and faces its way, and
 * its plane is fitted again as it grows. The room stands still, so this
 * runs every few frames; in between, a cell is on a flat surface when it
 * lies on the plane it was found on (a person in front of it is not). A region is a flat surface of
 * the room when its true area (not its area in the image: a wall seen at
 * a slant is as big as it is) is more than any part of a person is
 * flat over: level ones as big as a small table, upright ones wider than
 * a person and as big as a door. */
#pragma once

#include <glib.h>

#include "tracker-grid.h"

typedef struct _TrackerPlanes TrackerPlanes;

TrackerPlanes *tracker_planes_new(const TrackerGrid *grid);
void tracker_planes_free(TrackerPlanes *planes);

/**
 * tracker_planes_find:
 * Finds the flat surfaces in @grid, a frame of a sequence; @up is the
 * room's up (the floor's normal, or the camera's best guess) in camera
 * space.
 */
void tracker_planes_find(TrackerPlanes *planes, const TrackerGrid *grid, TrackerVec3 up);

/** tracker_planes_reset: a new sequence: the next frame is searched afresh. */
void tracker_planes_reset(TrackerPlanes *planes);

/** tracker_planes_mask: per cell, whether the last frame had it on a flat surface. */
const guint8 *tracker_planes_mask(const TrackerPlanes *planes);
