/* The floor: a plane fitted to the depth image with RANSAC, kept from frame
 * to frame until the depth disproves it, and searched for again when it is
 * gone.
 *
 * It gives every point a height and the tracker its up direction. The
 * camera pose from the settings is a prior: it says where to look for the
 * floor (a cone about its up), and while no floor is seen it gives the up
 * direction and, when the camera's height is given, a plane used as if it
 * had been seen. A floor in view always wins over the prior.
 *
 * Up from the pose: the camera starts level, pitches down by the tilt t
 * about its x axis, then rolls by r about its viewing axis (positive:
 * counter-clockwise as seen from behind it). Its axes in the world are then
 * x = (cos r, sin r cos t, sin r sin t), y = (-sin r, cos r cos t, cos r sin t)
 * and z = (0, -sin t, cos t), so the world's up (0, 1, 0) has the camera
 * coordinates up = (sin r cos t, cos r cos t, -sin t): (0, cos t, -sin t) for a
 * pure tilt, (sin r, cos r, 0) for a pure roll. Back again: t = -asin(up.z),
 * r = atan2(up.x, up.y). */
#pragma once

#include <glib.h>

#include "tracker-grid.h"

/* Cells of a fitted floor remembered to check it by: at most this many,
 * spread over the whole floor in view. */
#define TRACKER_FLOOR_KEPT 1024

typedef struct {
	gboolean found;       /* a plane to measure heights from: seen, or the prior's */
	gboolean seen;        /* ...fitted to the depth, not taken from the prior */
	TrackerVec3 up;       /* unit normal, pointing away from the floor */
	double offset;        /* height of p above the floor: dot(up, p) + offset */
	guint support;        /* cells on the plane when it was fitted */
	guint32 rng;          /* RANSAC's own generator: deterministic */
	guint misses;         /* frames in a row that disproved the kept plane */
	guint waited;         /* frames without a floor seen or with it hidden */
	guint fitted;         /* frames the kept plane fitted since it was last looked past */
	TrackerVec3 prior_up; /* the camera pose's up */
	double prior_height;  /* the camera's height above the floor; 0: not given */
	guint n_kept;
	int kept[TRACKER_FLOOR_KEPT]; /* cells on the plane when it was fitted */
} TrackerFloor;

/** tracker_floor_init: no plane, and a prior of a level camera at no known height. */
void tracker_floor_init(TrackerFloor *floor);

/**
 * tracker_floor_set_prior:
 * The camera pose to assume while no floor is seen: @up, the world's up in
 * camera coordinates (unit), and the camera's @height above the floor in
 * mm (0: not known). Searches look within 30 degrees of @up from now on.
 */
void tracker_floor_set_prior(TrackerFloor *floor, TrackerVec3 up, double height);

/** tracker_floor_reset: forgets the plane seen; the prior stays and stands in for it. */
void tracker_floor_reset(TrackerFloor *floor);

/**
 * tracker_floor_update:
 * Checks the kept plane against @grid, or looks for one: a level plane
 * whose normal is within 30 degrees of the prior's up, below the camera,
 * that enough cells lie on (on the first frame without one, and every 8th
 * after). A kept plane goes when readings show through it or when another
 * plane explains the depth much better (the sensor moved); people
 * standing on it and hiding most of it do neither.
 */
void tracker_floor_update(TrackerFloor *floor, const TrackerGrid *grid);

/** tracker_floor_up_from_pose: the world's up in camera coordinates (see above). */
TrackerVec3 tracker_floor_up_from_pose(double tilt_deg, double roll_deg);

/** tracker_floor_pose_from_up: tilt and roll of a camera that sees the world's up as @up. */
void tracker_floor_pose_from_up(TrackerVec3 up, double *tilt_deg, double *roll_deg);

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
