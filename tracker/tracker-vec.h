/* Small 3-vector helpers shared by the tracker and everything that feeds it.
 *
 * Camera space: millimetres, x to the image's right, y up, z away from the
 * sensor. Header-only so that hot loops inline them. */
#pragma once

#include <math.h>

typedef struct {
	double x, y, z;
} TrackerVec3;

static inline TrackerVec3
tracker_vec3(double x, double y, double z)
{
	TrackerVec3 v = { x, y, z };
	return v;
}

static inline TrackerVec3
tracker_vec3_add(TrackerVec3 a, TrackerVec3 b)
{
	return tracker_vec3(a.x + b.x, a.y + b.y, a.z + b.z);
}

static inline TrackerVec3
tracker_vec3_sub(TrackerVec3 a, TrackerVec3 b)
{
	return tracker_vec3(a.x - b.x, a.y - b.y, a.z - b.z);
}

static inline TrackerVec3
tracker_vec3_scale(TrackerVec3 a, double s)
{
	return tracker_vec3(a.x * s, a.y * s, a.z * s);
}

/* a + b * s */
static inline TrackerVec3
tracker_vec3_mad(TrackerVec3 a, TrackerVec3 b, double s)
{
	return tracker_vec3(a.x + b.x * s, a.y + b.y * s, a.z + b.z * s);
}

static inline double
tracker_vec3_dot(TrackerVec3 a, TrackerVec3 b)
{
	return a.x * b.x + a.y * b.y + a.z * b.z;
}

static inline TrackerVec3
tracker_vec3_cross(TrackerVec3 a, TrackerVec3 b)
{
	return tracker_vec3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}

static inline double
tracker_vec3_length(TrackerVec3 a)
{
	return sqrt(tracker_vec3_dot(a, a));
}

static inline double
tracker_vec3_distance(TrackerVec3 a, TrackerVec3 b)
{
	return tracker_vec3_length(tracker_vec3_sub(a, b));
}

/* The unit vector along a; the zero vector stays zero. */
static inline TrackerVec3
tracker_vec3_normalize(TrackerVec3 a)
{
	double len = tracker_vec3_length(a);
	return len > 0.0 ? tracker_vec3_scale(a, 1.0 / len) : a;
}

/* Linear interpolation: a at t = 0, b at t = 1. */
static inline TrackerVec3
tracker_vec3_lerp(TrackerVec3 a, TrackerVec3 b, double t)
{
	return tracker_vec3_mad(a, tracker_vec3_sub(b, a), t);
}
