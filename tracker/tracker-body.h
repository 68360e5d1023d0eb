/* The body model: human proportions as fractions of height, a body frame
 * (where the person stands and which way they face) fitted to the torso,
 * and the trunk's joints placed in that frame.
 *
 * Proportions are Drillis and Contini's fractions of body height for joint
 * centres (shoulders 0.815 H up and 0.2 H apart, hips 0.53 H up and 0.1 H
 * apart, upper arm 0.186 H, forearm 0.146 H, thigh 0.245 H, shank 0.246 H).
 * The torso's cross-section is a stadium 0.22 H wide and 0.14 H deep.
 *
 * Facing is found from the torso's cross-section seen from above: a torso
 * is wider than deep, so the visible front of a turned torso is a turned
 * stadium. A person is assumed to face the sensor (within 80 degrees);
 * sides are then anatomical: the user's left is the image's right. */
#pragma once

#include <glib.h>

#include "tracker-floor.h"
#include "tracker-grid.h"
#include "tracker-joint.h"
#include "tracker-segment.h"

/* Fractions of body height. */
#define TRACKER_BODY_PELVIS_UP     0.530
#define TRACKER_BODY_TORSO_UP      0.680
#define TRACKER_BODY_SHOULDER_UP   0.815
#define TRACKER_BODY_NECK_UP       0.830
#define TRACKER_BODY_SHOULDER_HALF 0.100
#define TRACKER_BODY_HIP_HALF      0.050
#define TRACKER_BODY_UPPER_ARM     0.186
#define TRACKER_BODY_FOREARM       0.146
#define TRACKER_BODY_PALM          0.045 /* wrist to the hand joint */
#define TRACKER_BODY_HAND          0.100 /* wrist to the fingertips */
#define TRACKER_BODY_THIGH         0.245
#define TRACKER_BODY_SHANK         0.246
#define TRACKER_BODY_TORSO_HALF    0.040 /* the stadium's half length */
#define TRACKER_BODY_TORSO_RADIUS  0.070
#define TRACKER_BODY_DEFAULT_H     1600.0 /* when no floor tells the height */

typedef struct {
	TrackerVec3 a, b;
	double r;
} TrackerCapsule;

#define TRACKER_BODY_N_CORE 6

typedef struct {
	double height;      /* H, mm */
	TrackerVec3 origin; /* on the floor, below the pelvis */
	TrackerVec3 up, left, forward;
	double yaw; /* radians; 0 faces the sensor, positive turns the left side away */
	/* The torso's stadium looks the same turned half a turn: whether the
	 * person faces away from the sensor, @left and @forward turned so.
	 * The fit keeps last frame's; tracker_body_turn() changes it. */
	gboolean away;
	/* How far the torso leans away from the sensor, as a tangent: the
	 * front of the torso band lies this many mm farther per mm higher
	 * (negative: leaning towards it). @up is the floor's up turned so. A
	 * camera tilted without a floor in view to say so looks the same;
	 * measured only then, and 0 while the floor is seen. */
	double lean;
	TrackerVec3 head;
	double head_radius;
	/* The trunk and head as capsules: what is not an arm or a leg. */
	TrackerCapsule core[TRACKER_BODY_N_CORE];
	/* A cylinder about the origin's vertical holding them all: heights
	 * above the origin and the radius, mm. */
	double core_low, core_high, core_reach;
	/* How badly the torso's stadium fits the torso band: the cost of
	 * tracker_body_fit()'s pose per point, the facing prior left out
	 * (tracker_body_refit() leaves it). A person's torso is a smooth
	 * surface the stadium lies on; a plant's leaves are not. */
	double torso_misfit;
	/* The share of the torso band's points that the same pose's stadium
	 * lies on (within the fit's robust distance, either side). None, when
	 * the stadium has retreated behind a shelf's or a desk's every point,
	 * each of them in front of it. */
	double torso_on;
} TrackerBody;

typedef struct {
	const TrackerGrid *grid;
	const TrackerFloor *floor;
	const float *heights;
	const guint16 *labels;
	guint16 label;
	const int *box;        /* the person's cells lie in u0, v0, u1, v1 */
	const guint8 *exclude; /* or NULL: cells known not to be the torso */
} TrackerBodyCells;

/* Iterates @k over the cells of @cells's box. */
#define TRACKER_BODY_FOREACH_CELL(cells, k)                                                        \
	for (int v_ = (cells)->box[1]; v_ <= (cells)->box[3]; v_++)                                \
		for (int k = v_ * (cells)->grid->width + (cells)->box[0],                          \
		         k_end_ = v_ * (cells)->grid->width + (cells)->box[2];                     \
		     k <= k_end_; k++)

/**
 * tracker_body_fit:
 * Fits @body to the cells labelled @cells->label: height from the head's
 * top above the floor (or, with no head seen, @height_hint, the tallest the
 * track was seen, unless @previous was seated and keeps its height; or a
 * default), then the torso's position and facing. @previous (or NULL) is
 * last frame's fit; without @search the torso is only refined from there.
 * FALSE when too little of the torso is in view.
 */
gboolean tracker_body_fit(TrackerBody *body, const TrackerBodyCells *cells,
                          const TrackerPerson *person, double height_hint,
                          const TrackerBody *previous, gboolean search);

/**
 * tracker_body_refit:
 * Fits @body's torso again from where it is, leaving out the cells in
 * @cells->exclude (an arm hanging in front of a turned torso's side).
 */
void tracker_body_refit(TrackerBody *body, const TrackerBodyCells *cells,
                        const TrackerPerson *person);

/** tracker_body_point: a point @l to the left, @u up and @f forward of the origin (mm). */
TrackerVec3 tracker_body_point(const TrackerBody *body, double l, double u, double f);

/**
 * tracker_body_turn:
 * Turns @body half a turn about its vertical: the same torso, facing the
 * other way (see TrackerBody's away).
 */
void tracker_body_turn(TrackerBody *body);

/** tracker_body_trunk: the head, neck, torso, shoulders and hips. */
void tracker_body_trunk(const TrackerBody *body, TrackerVec3 joints[TRACKER_N_JOINTS]);

/** tracker_body_capsule_within: whether @p lies within @margin of the capsule. */
gboolean tracker_body_capsule_within(const TrackerCapsule *c, TrackerVec3 p, double margin);

/** tracker_body_core_within: whether @p lies within @margin of the trunk or head. */
gboolean tracker_body_core_within(const TrackerBody *body, TrackerVec3 p, double margin);

/* What the depth shows where @body's legs would be: a column of points
 * from just over the feet to just under the pelvis, rows of them either
 * side of the body's axis. */
typedef struct {
	/* Points that tell something, and of those the ones the sensor sees
	 * past (points with no reading, out of view or hidden by something
	 * nearer tell nothing). A person's legs fill the column, or stride
	 * across it; a coat stand's pole or a plant's stem leaves it open. */
	guint judged, through;
	/* Rows with no more of the person about them than a pole's width,
	 * where the sensor sees past or sees only something else: legs reach
	 * down unbroken, a plant's stem between its leaves and its pot (or
	 * the pot, not the plant's own surface) does not. */
	guint open_rows;
	/* The person's surface below the pelvis, in square body heights: a
	 * person standing shows about 0.06, a seated one with thighs toward
	 * the sensor less, a coat stand's pole next to nothing. */
	double area;
} TrackerLegs;

/** tracker_body_legs: what the depth shows of @body's legs. */
void tracker_body_legs(const TrackerBody *body, const TrackerBodyCells *cells, TrackerLegs *legs);
