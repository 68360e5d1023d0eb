/* Arms and legs: each a chain of two segments of known length hanging
 * from the trunk (shoulder or hip), fitted to the depth cells by
 * generating poses and scoring how well each explains what the sensor
 * sees.
 *
 * A pose is drawn into the cell grid as the depth its front surface would
 * have. A cell of the person at that depth supports it (once per pose, and
 * only if no other limb and not the trunk explains the cell); a cell seen
 * behind where the limb would be means the limb is not there (free space,
 * the strongest evidence); a cell seen in front hides the limb and costs a
 * little. So an arm hidden behind the body is allowed but not preferred
 * (except a turned person's far arm, behind the trunk, where it likely is), an
 * arm pointing at the sensor is found by its hand in front of the chest,
 * and a hand on the hip is found from the forearm that leads to it.
 *
 * The search scores every upper segment direction from a fixed set, keeps
 * the best few, scores every lower segment direction on each, and refines
 * the best few chains, and last frame's, by local descent.
 *
 * Legs go first, then the arms one after the other; when the second arm
 * lies on the first one's cells, the other order is tried too and the
 * pair that explains more of the person is kept. */
#pragma once

#include <glib.h>

#include "tracker-body.h"

typedef enum {
	TRACKER_LIMB_LEFT_ARM,
	TRACKER_LIMB_RIGHT_ARM,
	TRACKER_LIMB_LEFT_LEG,
	TRACKER_LIMB_RIGHT_LEG,
	TRACKER_N_LIMBS
} TrackerLimbId;

typedef struct {
	gboolean valid;
	/* Unit directions in the body frame: x out to the limb's side, y up,
	 * z forward. In the body frame a pose survives the person turning. */
	TrackerVec3 upper, lower;
	double score;
	double seen_upper, seen_lower; /* share of each segment the depth shows */
	double shared; /* share of the lower segment on cells another limb explains */
} TrackerLimbPose;

typedef struct _TrackerLimbFitter TrackerLimbFitter;

TrackerLimbFitter *tracker_limb_fitter_new(const TrackerGrid *grid);
void tracker_limb_fitter_free(TrackerLimbFitter *fitter);

/**
 * tracker_limb_fit:
 * Fits the four limbs of @body to @cells. @previous (or NULL) holds last
 * frame's poses, used as starting points and as a weak prior. Without
 * @search, a limb is only refined from last frame's pose unless that no
 * longer fits.
 */
void tracker_limb_fit(TrackerLimbFitter *fitter, const TrackerBody *body,
                      const TrackerBodyCells *cells, const TrackerLimbPose *previous,
                      gboolean search, TrackerLimbPose poses[TRACKER_N_LIMBS]);

/**
 * tracker_limb_refine:
 * Improves @poses locally for @body (moved a little since they were
 * fitted), claiming cells again as tracker_limb_fit() does.
 */
void tracker_limb_refine(TrackerLimbFitter *fitter, const TrackerBody *body,
                         const TrackerBodyCells *cells, const TrackerLimbPose *previous,
                         TrackerLimbPose poses[TRACKER_N_LIMBS]);

/**
 * tracker_limb_claims:
 * Per cell, whether the last fit gave it to a limb.
 */
const guint8 *tracker_limb_claims(const TrackerLimbFitter *fitter);

/**
 * tracker_limb_core:
 * Per cell, whether the last fit found the trunk explains it.
 */
const guint8 *tracker_limb_core(const TrackerLimbFitter *fitter);

/**
 * tracker_limb_joints:
 * The elbows, hands, knees and feet of @poses, with a confidence each from
 * how much of the segments leading to them the depth shows. A joint
 * beside the limb's cells (a body of other proportions) moves onto them.
 */
void tracker_limb_joints(const TrackerBody *body, const TrackerBodyCells *cells,
                         const TrackerLimbPose poses[TRACKER_N_LIMBS],
                         TrackerVec3 joints[TRACKER_N_JOINTS], double confidence[TRACKER_N_JOINTS]);
