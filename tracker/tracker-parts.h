/* Body parts per pixel: a randomised decision forest on depth-difference
 * features (Shotton et al., "Real-time human pose recognition in parts
 * from single depth images", CVPR 2011). An experiment beside the limb
 * fitter: tools/train-parts trains it on the demo renderer's frames.
 *
 * A feature at pixel x compares the depth at two probes, x + a / d(x) and
 * x + b / d(x), the offsets a and b scaled by the depth d(x) at x so that
 * the feature does not change with distance: f = d(x + a / d) - d(x + b / d).
 * A probe off the person (another label, no reading, out of the image)
 * reads TRACKER_PARTS_FAR. Each node sends a pixel left when f is under
 * its threshold; each tree's leaf holds a distribution over the parts,
 * and the forest's is their mean.
 *
 * Sides are anatomical, as the joints': the user's own left. */
#pragma once

#include <glib.h>

typedef enum {
	TRACKER_PART_HEAD,  /* head and neck */
	TRACKER_PART_CHEST, /* neck to the torso joint */
	TRACKER_PART_BELLY, /* torso joint to the hips */
	TRACKER_PART_LEFT_UPPER_ARM,
	TRACKER_PART_RIGHT_UPPER_ARM,
	TRACKER_PART_LEFT_FOREARM,
	TRACKER_PART_RIGHT_FOREARM,
	TRACKER_PART_LEFT_HAND,
	TRACKER_PART_RIGHT_HAND,
	TRACKER_PART_LEFT_THIGH,
	TRACKER_PART_RIGHT_THIGH,
	TRACKER_PART_LEFT_SHIN,
	TRACKER_PART_RIGHT_SHIN,
	TRACKER_N_PARTS
} TrackerPartId;

#define TRACKER_PARTS_FAR 10000 /* mm: what a probe off the person reads */

/* A split: probes at offsets (au, av) and (bu, bv), in pixels at 1 m
 * (divided by the depth in metres), and the threshold in mm. A child
 * index >= 0 is a node; a negative one, -1 - i, is leaf i. */
typedef struct {
	gint16 au, av, bu, bv;
	gint16 threshold;
	gint32 left, right;
} TrackerPartsNode;

typedef struct {
	guint n_trees, n_nodes, n_leaves;
	guint32 *roots;          /* n_trees: each tree's first node */
	TrackerPartsNode *nodes; /* n_nodes */
	guint8 *leaves;          /* n_leaves x TRACKER_N_PARTS, each leaf summing to about 255 */
} TrackerPartsForest;

/* The depth image the features read: @mm (0: no reading) and, when not
 * NULL, per pixel @labels of which only @label is the person's. */
typedef struct {
	const guint16 *mm;
	const guint8 *labels;
	guint8 label;
	int width, height;
} TrackerPartsImage;

/** tracker_parts_part_name: "left_forearm", or NULL when out of range. */
const char *tracker_parts_part_name(TrackerPartId part);

/** tracker_parts_mirror: the same part on the other side (head stays head). */
TrackerPartId tracker_parts_mirror(TrackerPartId part);

/**
 * tracker_parts_on_person:
 * Whether pixel (@x, @y) is in the image, has a reading and is the
 * person's: what the features probe and what is classified.
 */
gboolean tracker_parts_on_person(const TrackerPartsImage *image, int x, int y);

/**
 * tracker_parts_feature:
 * The feature of @node at pixel (@x, @y), which must be the person's and
 * have a reading.
 */
int tracker_parts_feature(const TrackerPartsImage *image, int x, int y,
                          const TrackerPartsNode *node);

/**
 * tracker_parts_classify:
 * The forest's distribution over the parts at pixel (@x, @y), which must
 * be the person's and have a reading, into @probs (summing to 1).
 */
void tracker_parts_classify(const TrackerPartsForest *forest, const TrackerPartsImage *image, int x,
                            int y, float probs[TRACKER_N_PARTS]);

/**
 * tracker_parts_forest_new_from_bytes:
 * A forest from its serialised form (tracker_parts_forest_to_bytes()),
 * checked throughout: a truncated or corrupt model is an error, never a
 * read out of bounds.
 */
TrackerPartsForest *tracker_parts_forest_new_from_bytes(GBytes *bytes, GError **error);

/** tracker_parts_forest_to_bytes: the forest serialised, little-endian. */
GBytes *tracker_parts_forest_to_bytes(const TrackerPartsForest *forest);

void tracker_parts_forest_free(TrackerPartsForest *forest);
G_DEFINE_AUTOPTR_CLEANUP_FUNC(TrackerPartsForest, tracker_parts_forest_free)

#define TRACKER_PARTS_ERROR (tracker_parts_error_quark())
GQuark tracker_parts_error_quark(void);

typedef enum {
	TRACKER_PARTS_ERROR_FORMAT, /* not a forest, or a damaged one */
} TrackerPartsError;
