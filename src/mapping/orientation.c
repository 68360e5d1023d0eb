#include "orientation.h"

#include <math.h>

/* Per joint, its bone: the parent joint and the rest direction; the
 * torso carries the body's rotation (parent -1). */
static const struct {
	int parent;
	TrackerVec3 rest;
} bones[TRACKER_N_JOINTS] = {
	[TRACKER_JOINT_HEAD] = { TRACKER_JOINT_NECK, { 0, 1, 0 } },
	[TRACKER_JOINT_NECK] = { TRACKER_JOINT_TORSO, { 0, 1, 0 } },
	[TRACKER_JOINT_TORSO] = { -1, { 0, 1, 0 } },
	[TRACKER_JOINT_LEFT_SHOULDER] = { TRACKER_JOINT_NECK, { 1, 0, 0 } },
	[TRACKER_JOINT_RIGHT_SHOULDER] = { TRACKER_JOINT_NECK, { -1, 0, 0 } },
	[TRACKER_JOINT_LEFT_ELBOW] = { TRACKER_JOINT_LEFT_SHOULDER, { 1, 0, 0 } },
	[TRACKER_JOINT_RIGHT_ELBOW] = { TRACKER_JOINT_RIGHT_SHOULDER, { -1, 0, 0 } },
	[TRACKER_JOINT_LEFT_HAND] = { TRACKER_JOINT_LEFT_ELBOW, { 1, 0, 0 } },
	[TRACKER_JOINT_RIGHT_HAND] = { TRACKER_JOINT_RIGHT_ELBOW, { -1, 0, 0 } },
	[TRACKER_JOINT_LEFT_HIP] = { TRACKER_JOINT_TORSO, { 0.29, -0.957, 0 } },
	[TRACKER_JOINT_RIGHT_HIP] = { TRACKER_JOINT_TORSO, { -0.29, -0.957, 0 } },
	[TRACKER_JOINT_LEFT_KNEE] = { TRACKER_JOINT_LEFT_HIP, { 0, -1, 0 } },
	[TRACKER_JOINT_RIGHT_KNEE] = { TRACKER_JOINT_RIGHT_HIP, { 0, -1, 0 } },
	[TRACKER_JOINT_LEFT_FOOT] = { TRACKER_JOINT_LEFT_KNEE, { 0, -1, 0 } },
	[TRACKER_JOINT_RIGHT_FOOT] = { TRACKER_JOINT_RIGHT_KNEE, { 0, -1, 0 } },
};

gboolean
orientation_bone(TrackerJointId joint, TrackerJointId *parent, TrackerVec3 *rest)
{
	if ((guint)joint >= TRACKER_N_JOINTS || bones[joint].parent < 0)
		return FALSE;
	*parent = (TrackerJointId)bones[joint].parent;
	*rest = tracker_vec3_normalize(bones[joint].rest);
	return TRUE;
}

static OrientationQuat
orientation_multiply(OrientationQuat a, OrientationQuat b)
{
	return (OrientationQuat){ a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
		                  a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
		                  a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
		                  a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w };
}

static OrientationQuat
orientation_normalize(OrientationQuat q)
{
	double n = sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);

	/* The same rotation with w >= 0, so that it travels one way only. */
	if (q.w < 0)
		n = -n;
	return (OrientationQuat){ q.w / n, q.x / n, q.y / n, q.z / n };
}

TrackerVec3
orientation_rotate(OrientationQuat q, TrackerVec3 v)
{
	OrientationQuat p = { 0, v.x, v.y, v.z }, c = { q.w, -q.x, -q.y, -q.z };
	OrientationQuat r = orientation_multiply(orientation_multiply(q, p), c);

	return tracker_vec3(r.x, r.y, r.z);
}

/* The shortest turn taking unit @a to unit @b. */
static OrientationQuat
orientation_arc(TrackerVec3 a, TrackerVec3 b)
{
	TrackerVec3 axis = tracker_vec3_cross(a, b);
	double d = tracker_vec3_dot(a, b);

	if (d < -1.0 + 1e-9) {
		/* Half a turn, about any axis square to @a. */
		axis = tracker_vec3_cross(a, fabs(a.x) < 0.9 ? tracker_vec3(1, 0, 0)
		                                             : tracker_vec3(0, 1, 0));
		axis = tracker_vec3_normalize(axis);
		return (OrientationQuat){ 0, axis.x, axis.y, axis.z };
	}
	return orientation_normalize((OrientationQuat){ 1.0 + d, axis.x, axis.y, axis.z });
}

/* The rotation whose matrix has columns @c0 @c1 @c2 (orthonormal, right-handed). */
static OrientationQuat
orientation_from_axes(TrackerVec3 c0, TrackerVec3 c1, TrackerVec3 c2)
{
	double trace = c0.x + c1.y + c2.z;

	if (trace > 0) {
		double s = 2.0 * sqrt(1.0 + trace);

		return orientation_normalize((OrientationQuat){
		        s / 4, (c1.z - c2.y) / s, (c2.x - c0.z) / s, (c0.y - c1.x) / s });
	}
	if (c0.x > c1.y && c0.x > c2.z) {
		double s = 2.0 * sqrt(1.0 + c0.x - c1.y - c2.z);

		return orientation_normalize((OrientationQuat){
		        (c1.z - c2.y) / s, s / 4, (c1.x + c0.y) / s, (c2.x + c0.z) / s });
	}
	if (c1.y > c2.z) {
		double s = 2.0 * sqrt(1.0 + c1.y - c0.x - c2.z);

		return orientation_normalize((OrientationQuat){
		        (c2.x - c0.z) / s, (c1.x + c0.y) / s, s / 4, (c2.y + c1.z) / s });
	}
	{
		double s = 2.0 * sqrt(1.0 + c2.z - c0.x - c1.y);

		return orientation_normalize((OrientationQuat){
		        (c0.y - c1.x) / s, (c2.x + c0.z) / s, (c2.y + c1.z) / s, s / 4 });
	}
}

/* The body's rotation from the rest pose: its up from the torso to the
 * neck, its left from the right shoulder to the left one, square to up. */
static gboolean
orientation_body(const TrackerJoint *joints, const gboolean *found, OrientationQuat *q)
{
	TrackerVec3 up, left;

	if (!found[TRACKER_JOINT_TORSO] || !found[TRACKER_JOINT_NECK] ||
	    !found[TRACKER_JOINT_LEFT_SHOULDER] || !found[TRACKER_JOINT_RIGHT_SHOULDER])
		return FALSE;
	up = tracker_vec3_sub(joints[TRACKER_JOINT_NECK].position,
	                      joints[TRACKER_JOINT_TORSO].position);
	left = tracker_vec3_sub(joints[TRACKER_JOINT_LEFT_SHOULDER].position,
	                        joints[TRACKER_JOINT_RIGHT_SHOULDER].position);
	if (tracker_vec3_length(up) <= 0.0)
		return FALSE;
	up = tracker_vec3_normalize(up);
	left = tracker_vec3_mad(left, up, -tracker_vec3_dot(left, up));
	if (tracker_vec3_length(left) <= 0.0)
		return FALSE;
	left = tracker_vec3_normalize(left);
	/* At rest left is +x, up +y and the third axis +z (the user faces -z). */
	*q = orientation_from_axes(left, up, tracker_vec3_cross(left, up));
	return TRUE;
}

gboolean
orientation_joint(const TrackerJoint *joints, const gboolean *found, TrackerJointId joint,
                  gboolean in_body, OrientationQuat *q)
{
	OrientationQuat body, inverse;
	TrackerJointId parent;
	TrackerVec3 rest, dir;

	if (!orientation_body(joints, found, &body))
		return FALSE;
	if (!orientation_bone(joint, &parent, &rest)) {
		*q = in_body ? (OrientationQuat){ 1, 0, 0, 0 } : body;
		return TRUE;
	}
	if (!found[joint] || !found[parent])
		return FALSE;
	dir = tracker_vec3_sub(joints[joint].position, joints[parent].position);
	if (tracker_vec3_length(dir) <= 0.0)
		return FALSE;
	inverse = (OrientationQuat){ body.w, -body.x, -body.y, -body.z };
	*q = orientation_arc(rest, orientation_rotate(inverse, tracker_vec3_normalize(dir)));
	if (!in_body)
		*q = orientation_normalize(orientation_multiply(body, *q));
	return TRUE;
}

void
orientation_euler(OrientationQuat q, double *yaw, double *pitch, double *roll)
{
	/* The matrix's entries that R = Ry Rx Rz gives away. */
	double r02 = 2 * (q.x * q.z + q.w * q.y), r22 = 1 - 2 * (q.x * q.x + q.y * q.y);
	double r12 = 2 * (q.y * q.z - q.w * q.x), r10 = 2 * (q.x * q.y + q.w * q.z);
	double r11 = 1 - 2 * (q.x * q.x + q.z * q.z);

	*yaw = atan2(r02, r22) * 180.0 / G_PI;
	*pitch = asin(CLAMP(-r12, -1.0, 1.0)) * 180.0 / G_PI;
	*roll = atan2(r10, r11) * 180.0 / G_PI;
}
