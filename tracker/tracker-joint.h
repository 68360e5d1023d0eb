/* The fifteen joints every user has, named as on the wire. Sides are
 * anatomical: left_hand is the user's own left hand. */
#pragma once

#include <glib.h>

typedef enum {
	TRACKER_JOINT_HEAD,
	TRACKER_JOINT_NECK,
	TRACKER_JOINT_TORSO,
	TRACKER_JOINT_LEFT_SHOULDER,
	TRACKER_JOINT_RIGHT_SHOULDER,
	TRACKER_JOINT_LEFT_ELBOW,
	TRACKER_JOINT_RIGHT_ELBOW,
	TRACKER_JOINT_LEFT_HAND,
	TRACKER_JOINT_RIGHT_HAND,
	TRACKER_JOINT_LEFT_HIP,
	TRACKER_JOINT_RIGHT_HIP,
	TRACKER_JOINT_LEFT_KNEE,
	TRACKER_JOINT_RIGHT_KNEE,
	TRACKER_JOINT_LEFT_FOOT,
	TRACKER_JOINT_RIGHT_FOOT,
	TRACKER_N_JOINTS
} TrackerJointId;

/** tracker_joint_name: the wire name ("left_hand"), or NULL when out of range. */
const char *tracker_joint_name(TrackerJointId joint);

/** tracker_joint_from_name: looks a wire name up; FALSE when unknown. */
gboolean tracker_joint_from_name(const char *name, TrackerJointId *joint);

/** tracker_joint_mirror: the same joint on the other side (head stays head). */
TrackerJointId tracker_joint_mirror(TrackerJointId joint);

/** tracker_joint_is_upper_body: head, shoulders, elbows and hands. */
gboolean tracker_joint_is_upper_body(TrackerJointId joint);
