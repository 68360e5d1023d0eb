#include "tracker-joint.h"

#include <string.h>

static const char *const joint_names[TRACKER_N_JOINTS] = {
	[TRACKER_JOINT_HEAD] = "head",
	[TRACKER_JOINT_NECK] = "neck",
	[TRACKER_JOINT_TORSO] = "torso",
	[TRACKER_JOINT_LEFT_SHOULDER] = "left_shoulder",
	[TRACKER_JOINT_RIGHT_SHOULDER] = "right_shoulder",
	[TRACKER_JOINT_LEFT_ELBOW] = "left_elbow",
	[TRACKER_JOINT_RIGHT_ELBOW] = "right_elbow",
	[TRACKER_JOINT_LEFT_HAND] = "left_hand",
	[TRACKER_JOINT_RIGHT_HAND] = "right_hand",
	[TRACKER_JOINT_LEFT_HIP] = "left_hip",
	[TRACKER_JOINT_RIGHT_HIP] = "right_hip",
	[TRACKER_JOINT_LEFT_KNEE] = "left_knee",
	[TRACKER_JOINT_RIGHT_KNEE] = "right_knee",
	[TRACKER_JOINT_LEFT_FOOT] = "left_foot",
	[TRACKER_JOINT_RIGHT_FOOT] = "right_foot",
};

const char *
tracker_joint_name(TrackerJointId joint)
{
	if ((guint)joint >= TRACKER_N_JOINTS)
		return NULL;
	return joint_names[joint];
}

gboolean
tracker_joint_from_name(const char *name, TrackerJointId *joint)
{
	for (guint i = 0; i < TRACKER_N_JOINTS; i++) {
		if (strcmp(name, joint_names[i]) == 0) {
			*joint = (TrackerJointId)i;
			return TRUE;
		}
	}
	return FALSE;
}

TrackerJointId
tracker_joint_mirror(TrackerJointId joint)
{
	/* Sided joints come in left, right pairs from the shoulders on. */
	if (joint < TRACKER_JOINT_LEFT_SHOULDER || joint >= TRACKER_N_JOINTS)
		return joint;
	return (joint - TRACKER_JOINT_LEFT_SHOULDER) % 2 == 0 ? joint + 1 : joint - 1;
}

gboolean
tracker_joint_is_upper_body(TrackerJointId joint)
{
	return joint == TRACKER_JOINT_HEAD ||
	       (joint >= TRACKER_JOINT_LEFT_SHOULDER && joint <= TRACKER_JOINT_RIGHT_HAND);
}
