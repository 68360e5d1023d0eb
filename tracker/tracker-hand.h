/* Whether a hand is open or closed, from the depth about the hand joint.
 *
 * The hand is cut out of the user's pixels: those reached from the one
 * nearest the hand joint through pixels of one surface (no jump in
 * depth between neighbours), within a ball about the joint and on the
 * hand's side of the wrist (the forearm's direction from the elbow says
 * where that is). Where the outline of what is cut out is mostly the
 * ball's cut and not an edge in depth, the hand lies on something of the
 * same depth (the chest, the face) and cannot be told. Otherwise the
 * palm is the largest disc that fits in the cut-out and a circle about
 * it half as wide again crosses what goes on past the palm: the fingers
 * of an open hand; nothing of a fist, which is about as wide as the
 * palm. The share of that circle on the hand, leaving out the side the
 * forearm comes from, tells the state; everything is measured in
 * millimetres, so that it does not depend on distance. Past the
 * distance at which the sensor no longer resolves a finger, or when the
 * hand joint was not found, the hand is unknown.
 *
 * The state reported goes through a little hysteresis: a new state
 * shows once two frames running say it, and one frame that says
 * otherwise or cannot tell does not end the old one. */
#pragma once

#include <glib.h>

#include "tracker-camera.h"
#include "tracker-types.h"

/* The pixels to look at: a depth image and which pixels are the user's,
 * from a label image of cells @label_step pixels square (1: per pixel). */
typedef struct {
	const TrackerCamera *camera;
	const guint16 *depth_mm; /* camera width x height; 0 = no reading */
	const guint16 *labels;
	int label_step, label_width; /* pixels per cell side, cells per row */
	guint16 label;               /* the user's */
} TrackerHandImage;

/* What the hand's pixels measured, for tests and tuning. */
typedef struct {
	guint pixels;       /* samples cut out as the hand */
	double sample_mm;   /* the side of one sample at the hand */
	double palm_mm;     /* radius of the largest disc in the hand */
	double cut_share;   /* share of the outline cut by the ball, not a depth edge */
	double coverage;    /* share of the circles past the palm on the hand */
	guint circle_count; /* points of the circles judged */
	guint runs;         /* separate runs on the hand along the most broken circle */
} TrackerHandMeasure;

/* What one hand showed lately, for the hysteresis. */
typedef struct {
	TrackerHand shown;
	TrackerHandState pending; /* a state seen on the last frame, not yet shown */
	double pending_confidence;
	guint misses; /* frames running that did not say the shown state */
} TrackerHandMemory;

typedef struct _TrackerHandFinder TrackerHandFinder;

/** tracker_hand_finder_new: scratch space for measuring hands. */
TrackerHandFinder *tracker_hand_finder_new(void);
void tracker_hand_finder_free(TrackerHandFinder *finder);

/**
 * tracker_hand_classify:
 * This frame's state of the hand at @hand (camera space, mm) whose
 * forearm comes from the elbow at @elbow, the hand joint found with
 * @confidence (0: not found). Unknown, with confidence 0, when it cannot
 * be told. @measure (or NULL) receives the figures.
 */
TrackerHand tracker_hand_classify(TrackerHandFinder *finder, const TrackerHandImage *image,
                                  TrackerVec3 hand, TrackerVec3 elbow, double confidence,
                                  TrackerHandMeasure *measure);

/** tracker_hand_memory_reset: nothing shown yet. */
void tracker_hand_memory_reset(TrackerHandMemory *memory);

/**
 * tracker_hand_update:
 * The state to report, from this frame's @seen and what @memory holds.
 */
TrackerHand tracker_hand_update(TrackerHandMemory *memory, TrackerHand seen);
