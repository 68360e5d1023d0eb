/* Measures of a skeleton that mapping rules send beside raw positions: the
 * angle a joint makes between its two bones, the distance between two
 * joints, a joint's speed. Pure geometry on camera-space millimetres. */
#pragma once

#include <glib.h>

#include "tracker/tracker-joint.h"
#include "tracker/tracker-vec.h"

/**
 * measure_angle_bones:
 * The joints at the far ends of the two bones that meet at @joint, in
 * @a and @b: neck (head, torso), shoulder (elbow, hip of its side), elbow
 * (shoulder, hand), hip (shoulder of its side, knee), knee (hip, foot).
 * FALSE for a joint with one bone or none (head, torso, hands, feet).
 */
gboolean measure_angle_bones(TrackerJointId joint, TrackerJointId *a, TrackerJointId *b);

/**
 * measure_angle:
 * The angle at @at between the bones to @a and @b, in degrees from 0 to
 * 180: 180 for a straight elbow or knee, 0 for an arm hanging by the
 * side at the shoulder. NaN when a bone has no length.
 */
double measure_angle(TrackerVec3 at, TrackerVec3 a, TrackerVec3 b);

/**
 * measure_speed:
 * How fast a point went from @before to @after in @dt_us microseconds,
 * in millimetres per second; NaN when @dt_us is not positive.
 */
double measure_speed(TrackerVec3 before, TrackerVec3 after, gint64 dt_us);
