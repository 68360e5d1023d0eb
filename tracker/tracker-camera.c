#include "tracker-camera.h"

void
tracker_camera_init_kinect(TrackerCamera *camera)
{
	g_return_if_fail(camera != NULL);

	camera->fx = TRACKER_KINECT_FOCAL_PX;
	camera->fy = TRACKER_KINECT_FOCAL_PX;
	camera->cx = TRACKER_DEPTH_WIDTH / 2.0;
	camera->cy = TRACKER_DEPTH_HEIGHT / 2.0;
	camera->width = TRACKER_DEPTH_WIDTH;
	camera->height = TRACKER_DEPTH_HEIGHT;
}

TrackerVec3
tracker_camera_unproject(const TrackerCamera *camera, double u, double v, double z_mm)
{
	return tracker_vec3((u - camera->cx) * z_mm / camera->fx,
	                    (camera->cy - v) * z_mm / camera->fy, z_mm);
}

gboolean
tracker_camera_project(const TrackerCamera *camera, TrackerVec3 p, double *u, double *v)
{
	if (p.z <= 0.0)
		return FALSE;
	*u = camera->cx + camera->fx * p.x / p.z;
	*v = camera->cy - camera->fy * p.y / p.z;
	return TRUE;
}
