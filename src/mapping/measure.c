#include "measure.h"

#include <math.h>

/* Per joint, the far ends of its two bones; -1 for joints without two. */
static const int bones[TRACKER_N_JOINTS][2] = {
	[TRACKER_JOINT_HEAD] = { -1, -1 },
	[TRACKER_JOINT_NECK] = { TRACKER_JOINT_HEAD, TRACKER_JOINT_TORSO },
	[TRACKER_JOINT_TORSO] = { -1, -1 },
	[TRACKER_JOINT_LEFT_SHOULDER] = { TRACKER_JOINT_LEFT_ELBOW, TRACKER_JOINT_LEFT_HIP },
	[TRACKER_JOINT_RIGHT_SHOULDER] = { TRACKER_JOINT_RIGHT_ELBOW, TRACKER_JOINT_RIGHT_HIP },
	[TRACKER_JOINT_LEFT_ELBOW] = { TRACKER_JOINT_LEFT_SHOULDER, TRACKER_JOINT_LEFT_HAND },
	[TRACKER_JOINT_RIGHT_ELBOW] = { TRACKER_JOINT_RIGHT_SHOULDER, TRACKER_JOINT_RIGHT_HAND },
	[TRACKER_JOINT_LEFT_HAND] = { -1, -1 },
	[TRACKER_JOINT_RIGHT_HAND] = { -1, -1 },
	[TRACKER_JOINT_LEFT_HIP] = { TRACKER_JOINT_LEFT_SHOULDER, TRACKER_JOINT_LEFT_KNEE },
	[TRACKER_JOINT_RIGHT_HIP] = { TRACKER_JOINT_RIGHT_SHOULDER, TRACKER_JOINT_RIGHT_KNEE },
	[TRACKER_JOINT_LEFT_KNEE] = { TRACKER_JOINT_LEFT_HIP, TRACKER_JOINT_LEFT_FOOT },
	[TRACKER_JOINT_RIGHT_KNEE] = { TRACKER_JOINT_RIGHT_HIP, TRACKER_JOINT_RIGHT_FOOT },
	[TRACKER_JOINT_LEFT_FOOT] = { -1, -1 },
	[TRACKER_JOINT_RIGHT_FOOT] = { -1, -1 },
};

gboolean
measure_angle_bones(TrackerJointId joint, TrackerJointId *a, TrackerJointId *b)
{
	if ((guint)joint >= TRACKER_N_JOINTS || bones[joint][0] < 0)
		return FALSE;
	*a = (TrackerJointId)bones[joint][0];
	*b = (TrackerJointId)bones[joint][1];
	return TRUE;
}

double
measure_angle(TrackerVec3 at, TrackerVec3 a, TrackerVec3 b)
{
	TrackerVec3 da = tracker_vec3_sub(a, at), db = tracker_vec3_sub(b, at);
	double la = tracker_vec3_length(da), lb = tracker_vec3_length(db);

	if (la <= 0.0 || lb <= 0.0)
		return NAN;
	/* atan2 of the cross and dot products keeps its precision near 0 and
	 * 180 degrees, where acos of the cosine loses it. */
	return atan2(tracker_vec3_length(tracker_vec3_cross(da, db)), tracker_vec3_dot(da, db)) *
	       180.0 / G_PI;
}

double
measure_speed(TrackerVec3 before, TrackerVec3 after, gint64 dt_us)
{
	if (dt_us <= 0)
		return NAN;
	return tracker_vec3_distance(before, after) * G_USEC_PER_SEC / (double)dt_us;
}
