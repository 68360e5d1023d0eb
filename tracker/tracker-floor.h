/* The floor: a plane fitted to the depth image with RANSAC, kept from frame
 * to frame while it still fits, and searched for again when it does not.
 *
 * It gives every point a height and the tracker its up direction. A frame
 * with no floor in view (a close-up, or a frame whose background was cut
 * away) keeps the camera's own up and measures heights from the camera. */
#pragma once

#include <glib.h>

#include "tracker-grid.h"

typedef struct {
	gboolean found;
	TrackerVec3 up; /* unit normal, pointing away from the floor */
	double offset;  /* height of p above the floor: dot(up, p) + offset */
	guint support;  /* cells on the plane when it was fitted */
	guint32 rng;    /* RANSAC's own generator: deterministic */
	guint misses;   /* frames in a row that the kept plane did not fit */
} TrackerFloor;

/** tracker_floor_reset: forgets the plane. */
void tracker_floor_reset(TrackerFloor *floor);

/**
 * tracker_floor_update:
 * Checks the kept plane against @grid, or looks for one: a plane whose
 * normal is within 30 degrees of the camera's up, below the camera, that
 * enough cells lie on.
 */
void tracker_floor_update(TrackerFloor *floor, const TrackerGrid *grid);

/** tracker_floor_height: the height of @p above the floor (mm). */
static inline double
tracker_floor_height(const TrackerFloor *floor, TrackerVec3 p)
{
	return tracker_vec3_dot(floor->up, p) + floor->offset;
}

/**
 * tracker_floor_tolerance:
 * How far from the plane a point at depth @z may be and still be floor:
 * the sensor's error grows with distance.
 */
static inline double
tracker_floor_tolerance(double z)
{
	return 35.0 + 0.012 * z;
}
