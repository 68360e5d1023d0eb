/* The depth camera model: a pinhole with libfreenect's Kinect v1 constants. */
#pragma once

#include <glib.h>

#include "tracker-vec.h"

#define TRACKER_DEPTH_WIDTH  640
#define TRACKER_DEPTH_HEIGHT 480

/* libfreenect's model: reference distance 120 mm over twice the reference
 * pixel size 0.1042 mm gives the focal length in 640x480 pixels. */
#define TRACKER_KINECT_FOCAL_PX (120.0 / (2.0 * 0.1042))

typedef struct {
	double fx, fy; /* focal lengths in pixels */
	double cx, cy; /* principal point in pixels */
	int width, height;
} TrackerCamera;

/**
 * tracker_camera_init_kinect:
 * Fills @camera with libfreenect's Kinect v1 depth camera: f = 575.8157 px,
 * principal point (320, 240), 640x480.
 */
void tracker_camera_init_kinect(TrackerCamera *camera);

/**
 * tracker_camera_unproject:
 * The camera-space point (mm) seen at pixel (@u, @v) at depth @z_mm.
 * Pixel v grows downwards, camera y grows upwards.
 */
TrackerVec3 tracker_camera_unproject(const TrackerCamera *camera, double u, double v, double z_mm);

/**
 * tracker_camera_project:
 * The pixel where camera-space point @p is seen. Returns FALSE (and leaves
 * @u and @v alone) when @p is not in front of the camera.
 */
gboolean tracker_camera_project(const TrackerCamera *camera, TrackerVec3 p, double *u, double *v);
