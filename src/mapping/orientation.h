/* Bone orientations: how each bone of a skeleton is turned from the rest
 * pose, for driving a character rig. The rest pose is a T-pose facing the
 * sensor: arms straight out to the sides, legs and spine straight, in
 * camera space (x to the image's right, y up, z away from the sensor), so
 * the user's left arm points along +x. A bone's rotation is the body's
 * (from its shoulders and spine) followed by the shortest turn from the
 * bone's rest direction to where it points in the body: depth shows where
 * a bone points, not how it is twisted about itself, and the twist is
 * taken from the body's facing. Pure geometry on camera-space mm. */
#pragma once

#include <glib.h>

#include "tracker/tracker-joint.h"
#include "tracker/tracker-types.h"

typedef struct {
	double w, x, y, z;
} OrientationQuat;

/**
 * orientation_bone:
 * The bone whose rotation joint @joint carries: its parent joint in
 * @parent and its direction in the rest pose in @rest. FALSE for the torso,
 * which carries the body's own rotation.
 */
gboolean orientation_bone(TrackerJointId joint, TrackerJointId *parent, TrackerVec3 *rest);

/**
 * orientation_joint:
 * The rotation from the rest pose carried by @joint (its bone's, the
 * body's for the torso) in @q: in camera space, or relative to the body
 * with @in_body. FALSE when a joint it needs is not among @found (the
 * body needs the torso, neck and both shoulders).
 */
gboolean orientation_joint(const TrackerJoint *joints, const gboolean *found, TrackerJointId joint,
                           gboolean in_body, OrientationQuat *q);

/**
 * orientation_euler:
 * @q as Euler angles in degrees: the rotation is Ry(@yaw) Rx(@pitch)
 * Rz(@roll), turning about y (up) first, then x, then z, each about the
 * axes as turned by the ones before.
 */
void orientation_euler(OrientationQuat q, double *yaw, double *pitch, double *roll);

/** orientation_rotate: @v turned by @q. */
TrackerVec3 orientation_rotate(OrientationQuat q, TrackerVec3 v);
