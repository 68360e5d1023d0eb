/* Scoring a tracker against the demo scene's truth: which true people it
 * found, how near each joint is, sides swapped, people missed and people
 * made up. Shared by the tracker's tests and its benchmark. */
#pragma once

#include <glib.h>

#include "demo/demo-scene.h"
#include "marks.h"
#include "tracker/tracker-types.h"

#define SCORE_NEAR_MM    100.0 /* a joint this near the truth is found */
#define SCORE_MIN_PIXELS 1500  /* fewer and a true person is not scored */
#define SCORE_MATCH_MM   500.0 /* a user this far from a person is not them */
#define SCORE_FACING_DEG 30.0  /* turned less than this: facing the sensor */

typedef struct {
	guint total[TRACKER_N_JOINTS]; /* in view, scored */
	guint found[TRACKER_N_JOINTS]; /* reported within SCORE_NEAR_MM */
	guint reported[TRACKER_N_JOINTS];
	double error_sum[TRACKER_N_JOINTS]; /* over reported joints, mm */
	guint people;                       /* true people scored: person-frames */
	guint missed;                       /* ...that no user matched */
	guint phantoms;                     /* users that match no one */
	guint phantom_frames;               /* frames with at least one phantom */
	guint facing, facing_swaps;         /* people facing the sensor, swapped */
	guint swaps;                        /* all swapped people */
	guint frames;
} ScoreTally;

/**
 * score_frame:
 * Adds @frame's users against @truth to @tally. Users and true people are
 * matched one to one (score.c says how); every true person with at least
 * SCORE_MIN_PIXELS depth pixels is scored, found or missed; a user
 * matching a person with fewer is neither scored nor a phantom.
 */
void score_frame(const DemoTruth *truth, const TrackerFrame *frame, ScoreTally *tally);

/** score_add: adds @b into @a. */
void score_add(ScoreTally *a, const ScoreTally *b);

/** score_share: found over total for the joints in @mask (1 << joint). */
double score_share(const ScoreTally *tally, guint mask);

/** score_mean_error: mean error of reported joints in @mask, mm. */
double score_mean_error(const ScoreTally *tally, guint mask);

/** score_missed_share: people missed over people scored (0 when none were). */
double score_missed_share(const ScoreTally *tally);

/** score_phantom_frame_share: frames with a phantom over frames (0 when none). */
double score_phantom_frame_share(const ScoreTally *tally);

/** score_people_in_view: the true people in @truth that are scored. */
guint score_people_in_view(const DemoTruth *truth);

#define SCORE_UPPER_BODY                                                                           \
	((1u << TRACKER_JOINT_HEAD) | (1u << TRACKER_JOINT_LEFT_SHOULDER) |                        \
	 (1u << TRACKER_JOINT_RIGHT_SHOULDER) | (1u << TRACKER_JOINT_LEFT_ELBOW) |                 \
	 (1u << TRACKER_JOINT_RIGHT_ELBOW) | (1u << TRACKER_JOINT_LEFT_HAND) |                     \
	 (1u << TRACKER_JOINT_RIGHT_HAND))
#define SCORE_ALL_JOINTS ((1u << TRACKER_N_JOINTS) - 1)

#define SCORE_INSIDE_FRONT_MM 30.0  /* a joint may be this far before the surface */
#define SCORE_INSIDE_BACK_MM  150.0 /* ...and this far behind it (a head's centre) */

/**
 * score_inside:
 * Whether @joint lies inside the body seen in @mm (640x480 millimetres):
 * its pixel has a reading and the joint is no more than
 * SCORE_INSIDE_FRONT_MM before nor SCORE_INSIDE_BACK_MM behind it.
 * @behind_mm gets how far behind the surface it is.
 */
gboolean score_inside(const guint16 *mm, const TrackerJoint *joint, double *behind_mm);

/**
 * score_main_user:
 * The user of @frame with the most pixels (a real frame can show a
 * second person behind the first), or NULL when there is none.
 */
const TrackerUser *score_main_user(const TrackerFrame *frame);

/**
 * score_mark_found:
 * Whether @user (or NULL) reports the joint @mark marks by hand and puts
 * it within SCORE_NEAR_MM of the mark. @distance_mm gets how far it is,
 * or -1 when it is not reported.
 */
gboolean score_mark_found(const MarksJoint *mark, const TrackerUser *user, double *distance_mm);
