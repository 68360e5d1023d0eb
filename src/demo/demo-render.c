#include "demo-render.h"

#include <math.h>
#include <string.h>

#include "base/depth.h"

typedef struct {
	float x, y, z;
} Ray;

struct _DemoRenderer {
	DemoRoom room;
	DemoView view;
	TrackerCamera camera;
	DemoSensor *sensor;
	TrackerVec3 origin;     /* the sensor in world space */
	TrackerVec3 xc, yc, zc; /* camera axes in world space */
	TrackerVec3 up_cam;     /* world up in camera space */
	Ray *ray_cam;           /* per pixel, unit length */
	Ray *ray_world;
	float *bg_z, *bg_cos, *bg_loss; /* the room and its fixtures */
	float *bg_raw;                  /* its exact disparity, worked out once */
	guint8 *bg_label;
	float *z, *cosine, *loss; /* the frame being drawn */
};

static TrackerVec3
ray_vec(const Ray *r)
{
	return tracker_vec3(r->x, r->y, r->z);
}

TrackerVec3
demo_renderer_to_camera(const DemoRenderer *r, TrackerVec3 world)
{
	TrackerVec3 d = tracker_vec3_sub(world, r->origin);

	return tracker_vec3(tracker_vec3_dot(d, r->xc), tracker_vec3_dot(d, r->yc),
	                    tracker_vec3_dot(d, r->zc));
}

DemoPose
demo_renderer_pose(const DemoRenderer *r)
{
	return demo_renderer_view_pose(&r->view);
}

TrackerVec3
demo_renderer_pose_to_camera(const DemoPose *pose, TrackerVec3 world)
{
	TrackerVec3 d = tracker_vec3_sub(world, pose->origin);

	return tracker_vec3(tracker_vec3_dot(d, pose->axis[0]), tracker_vec3_dot(d, pose->axis[1]),
	                    tracker_vec3_dot(d, pose->axis[2]));
}

TrackerVec3
demo_renderer_pose_to_world(const DemoPose *pose, TrackerVec3 camera)
{
	TrackerVec3 w = tracker_vec3_mad(pose->origin, pose->axis[0], camera.x);

	w = tracker_vec3_mad(w, pose->axis[1], camera.y);
	return tracker_vec3_mad(w, pose->axis[2], camera.z);
}

static TrackerVec3
camera_dir_to_world(const DemoRenderer *r, TrackerVec3 d)
{
	TrackerVec3 w = tracker_vec3_scale(r->xc, d.x);

	w = tracker_vec3_mad(w, r->yc, d.y);
	return tracker_vec3_mad(w, r->zc, d.z);
}

const TrackerCamera *
demo_renderer_camera(const DemoRenderer *r)
{
	return &r->camera;
}

/* Nearest hit of the ray at pixel @i with a plane n.p = d (world). */
static void
plane_hit(const DemoRenderer *r, int i, TrackerVec3 n, double d, guint8 label)
{
	TrackerVec3 dir = ray_vec(&r->ray_world[i]);
	double denom = tracker_vec3_dot(n, dir);
	double t;

	if (fabs(denom) < 1e-9)
		return;
	t = (d - tracker_vec3_dot(n, r->origin)) / denom;
	if (t <= 0.0 || t * r->ray_cam[i].z >= r->bg_z[i])
		return;
	r->bg_z[i] = (float)(t * r->ray_cam[i].z);
	r->bg_cos[i] = (float)fabs(denom);
	r->bg_label[i] = label;
}

/* The share of readings @material loses where its surface's normal has
 * @up_dot as its component along world up. */
static float
material_loss(DemoMaterial material, double up_dot)
{
	double top;

	switch (material) {
	case DEMO_MATERIAL_HAIR:
		/* From nothing at the temples to most on the crown. */
		top = CLAMP((up_dot - 0.1) / 0.6, 0.0, 1.0);
		return (float)(0.6 * top * top * (3.0 - 2.0 * top));
	case DEMO_MATERIAL_DARK:
		return 0.08f;
	case DEMO_MATERIAL_BLACK:
		return 0.85f;
	case DEMO_MATERIAL_GLASS:
		return 1.0f;
	case DEMO_MATERIAL_MATTE:
	case DEMO_N_MATERIALS:
	default:
		return 0.0f;
	}
}

static void
draw_room(DemoRenderer *r)
{
	const DemoRoom *room = &r->room;

	for (int i = 0; i < DEPTH_PIXELS; i++) {
		r->bg_z[i] = INFINITY;
		r->bg_cos[i] = 1.0f;
		r->bg_loss[i] = 0.0f;
		r->bg_label[i] = DEMO_LABEL_NONE;
		plane_hit(r, i, tracker_vec3(0, 1, 0), 0.0, DEMO_LABEL_FLOOR);
		if (room->ceiling_y > 0.0)
			plane_hit(r, i, tracker_vec3(0, 1, 0), room->ceiling_y, DEMO_LABEL_WALL);
		if (room->wall_z > 0.0)
			plane_hit(r, i, tracker_vec3(0, 0, 1), room->wall_z, DEMO_LABEL_WALL);
		if (room->side_wall_x > 0.0) {
			plane_hit(r, i, tracker_vec3(1, 0, 0), room->side_wall_x, DEMO_LABEL_WALL);
			plane_hit(r, i, tracker_vec3(1, 0, 0), -room->side_wall_x, DEMO_LABEL_WALL);
		}
	}
}

static void
setup_rays(DemoRenderer *r)
{
	for (int v = 0; v < DEPTH_HEIGHT; v++) {
		for (int u = 0; u < DEPTH_WIDTH; u++) {
			int i = v * DEPTH_WIDTH + u;
			TrackerVec3 d = tracker_vec3_normalize(
			        tracker_camera_unproject(&r->camera, u, v, 1.0));
			TrackerVec3 w = camera_dir_to_world(r, d);

			r->ray_cam[i] = (Ray){ (float)d.x, (float)d.y, (float)d.z };
			r->ray_world[i] = (Ray){ (float)w.x, (float)w.y, (float)w.z };
		}
	}
}

/* A direction turned about the vertical by @yaw, +z toward +x. */
static TrackerVec3
pose_turn(TrackerVec3 d, double yaw)
{
	double c = cos(yaw), s = sin(yaw);

	return tracker_vec3(d.x * c + d.z * s, d.y, d.z * c - d.x * s);
}

/* Level, then pitched down about x, then rolled about the viewing axis,
 * then turned about the vertical: turning last keeps pitch and roll the
 * sensor's own, and world up in camera space as without it. */
DemoPose
demo_renderer_view_pose(const DemoView *view)
{
	TrackerVec3 xc = tracker_vec3(1.0, 0.0, 0.0);
	TrackerVec3 yc = tracker_vec3(0.0, cos(view->pitch), sin(view->pitch));
	DemoPose pose;

	pose.origin = tracker_vec3(view->x, view->height, view->z);
	pose.axis[2] = tracker_vec3(0.0, -sin(view->pitch), cos(view->pitch));
	if (view->roll == 0.0) {
		pose.axis[0] = xc;
		pose.axis[1] = yc;
	} else {
		double c = cos(view->roll), s = sin(view->roll);

		pose.axis[0] = tracker_vec3_mad(tracker_vec3_scale(xc, c), yc, s);
		pose.axis[1] = tracker_vec3_mad(tracker_vec3_scale(yc, c), xc, -s);
	}
	if (view->yaw != 0.0) {
		for (int a = 0; a < 3; a++)
			pose.axis[a] = pose_turn(pose.axis[a], view->yaw);
	}
	return pose;
}

static void
setup_pose(DemoRenderer *r)
{
	DemoPose pose = demo_renderer_view_pose(&r->view);

	r->origin = pose.origin;
	r->xc = pose.axis[0];
	r->yc = pose.axis[1];
	r->zc = pose.axis[2];
	r->up_cam = tracker_vec3(r->xc.y, r->yc.y, r->zc.y);
}

static void
room_disparity(DemoRenderer *r)
{
	for (int i = 0; i < DEPTH_PIXELS; i++)
		r->bg_raw[i] = (float)depth_mm_to_raw_exact(r->bg_z[i]);
}

DemoRenderer *
demo_renderer_new(const DemoRoom *room)
{
	DemoView view = { .height = room->camera_height, .pitch = room->pitch, .roll = room->roll };

	return demo_renderer_new_view(room, &view);
}

DemoRenderer *
demo_renderer_new_view(const DemoRoom *room, const DemoView *view)
{
	DemoRenderer *r = g_new0(DemoRenderer, 1);

	r->room = *room;
	r->view = *view;
	tracker_camera_init_kinect(&r->camera);
	r->sensor = demo_sensor_new(room->sensor, room->noise, r->camera.fx);
	setup_pose(r);
	r->ray_cam = g_new(Ray, DEPTH_PIXELS);
	r->ray_world = g_new(Ray, DEPTH_PIXELS);
	r->bg_z = g_new(float, DEPTH_PIXELS);
	r->bg_cos = g_new(float, DEPTH_PIXELS);
	r->bg_loss = g_new(float, DEPTH_PIXELS);
	r->bg_raw = g_new(float, DEPTH_PIXELS);
	r->bg_label = g_new(guint8, DEPTH_PIXELS);
	r->z = g_new(float, DEPTH_PIXELS);
	r->cosine = g_new(float, DEPTH_PIXELS);
	r->loss = g_new(float, DEPTH_PIXELS);
	setup_rays(r);
	draw_room(r);
	room_disparity(r);
	return r;
}

void
demo_renderer_free(DemoRenderer *r)
{
	if (r == NULL)
		return;
	demo_sensor_free(r->sensor);
	g_free(r->ray_cam);
	g_free(r->ray_world);
	g_free(r->bg_z);
	g_free(r->bg_cos);
	g_free(r->bg_loss);
	g_free(r->bg_raw);
	g_free(r->bg_label);
	g_free(r->z);
	g_free(r->cosine);
	g_free(r->loss);
	g_free(r);
}

/* ---- pixel rectangles ---- */

typedef struct {
	int u0, v0, u1, v1; /* inclusive */
} Rect;

static gboolean
rect_clip(Rect *rect)
{
	rect->u0 = MAX(rect->u0, 0);
	rect->v0 = MAX(rect->v0, 0);
	rect->u1 = MIN(rect->u1, DEPTH_WIDTH - 1);
	rect->v1 = MIN(rect->v1, DEPTH_HEIGHT - 1);
	return rect->u0 <= rect->u1 && rect->v0 <= rect->v1;
}

static const Rect full_rect = { 0, 0, DEPTH_WIDTH - 1, DEPTH_HEIGHT - 1 };

/* Grows @rect to hold a camera-space sphere's image; FALSE if the sphere
 * reaches behind the near plane (then anything may be covered). */
static gboolean
rect_add_sphere(const DemoRenderer *r, Rect *rect, TrackerVec3 c, double radius)
{
	const TrackerCamera *cam = &r->camera;
	double zn = c.z - radius, zf = c.z + radius;

	if (zn < 10.0)
		return FALSE;
	/* x/z over the sphere's bounding box is extreme at its corners. */
	rect->u0 = MIN(
	        rect->u0,
	        (int)floor(cam->cx + cam->fx * MIN((c.x - radius) / zn, (c.x - radius) / zf)) - 1);
	rect->u1 = MAX(
	        rect->u1,
	        (int)ceil(cam->cx + cam->fx * MAX((c.x + radius) / zn, (c.x + radius) / zf)) + 1);
	rect->v0 = MIN(
	        rect->v0,
	        (int)floor(cam->cy - cam->fy * MAX((c.y + radius) / zn, (c.y + radius) / zf)) - 1);
	rect->v1 = MAX(
	        rect->v1,
	        (int)ceil(cam->cy - cam->fy * MIN((c.y - radius) / zn, (c.y - radius) / zf)) + 1);
	return TRUE;
}

/* ---- capsules ---- */

typedef struct {
	TrackerVec3 a, b, ba;
	double r, baba;
} CapsuleCam;

/* Ray from the camera centre along unit @d against capsule @c. */
static gboolean
capsule_hit(const CapsuleCam *c, TrackerVec3 d, double *t_out, TrackerVec3 *normal)
{
	TrackerVec3 oa = tracker_vec3_scale(c->a, -1.0);
	double bard = tracker_vec3_dot(c->ba, d);
	double baoa = tracker_vec3_dot(c->ba, oa);
	double rdoa = tracker_vec3_dot(d, oa);
	double oaoa = tracker_vec3_dot(oa, oa);
	double A = c->baba - bard * bard;
	double B = c->baba * rdoa - baoa * bard;
	double C = c->baba * oaoa - baoa * baoa - c->r * c->r * c->baba;
	double h = B * B - A * C;
	double y = -1.0, t;
	TrackerVec3 centre;

	if (c->baba > 1e-6) {
		if (h < 0.0)
			return FALSE;
		t = (-B - sqrt(h)) / A;
		y = baoa + t * bard;
		if (y > 0.0 && y < c->baba) {
			TrackerVec3 p = tracker_vec3_scale(d, t);
			centre = tracker_vec3_mad(c->a, c->ba, y / c->baba);
			*normal = tracker_vec3_scale(tracker_vec3_sub(p, centre), 1.0 / c->r);
			*t_out = t;
			return t > 0.0;
		}
	}
	/* The end caps are spheres. */
	centre = y <= 0.0 ? c->a : c->b;
	B = -tracker_vec3_dot(d, centre);
	C = tracker_vec3_dot(centre, centre) - c->r * c->r;
	h = B * B - C;
	if (h <= 0.0)
		return FALSE;
	t = -B - sqrt(h);
	*normal =
	        tracker_vec3_scale(tracker_vec3_sub(tracker_vec3_scale(d, t), centre), 1.0 / c->r);
	*t_out = t;
	return t > 0.0;
}

static void
draw_capsule(DemoRenderer *r, const DemoCapsule *capsule, guint8 *labels)
{
	CapsuleCam c;
	Rect rect = { G_MAXINT, G_MAXINT, G_MININT, G_MININT };

	c.a = demo_renderer_to_camera(r, capsule->a);
	c.b = demo_renderer_to_camera(r, capsule->b);
	c.ba = tracker_vec3_sub(c.b, c.a);
	c.baba = tracker_vec3_dot(c.ba, c.ba);
	c.r = capsule->r;
	if (MAX(c.a.z, c.b.z) + c.r <= 0.0)
		return;
	if (!rect_add_sphere(r, &rect, c.a, c.r) || !rect_add_sphere(r, &rect, c.b, c.r))
		rect = full_rect;
	if (!rect_clip(&rect))
		return;
	for (int v = rect.v0; v <= rect.v1; v++) {
		for (int u = rect.u0; u <= rect.u1; u++) {
			int i = v * DEPTH_WIDTH + u;
			TrackerVec3 d = ray_vec(&r->ray_cam[i]), n;
			double t, z;

			if (!capsule_hit(&c, d, &t, &n))
				continue;
			z = t * d.z;
			if (z >= r->z[i])
				continue;
			r->z[i] = (float)z;
			r->cosine[i] = (float)fabs(tracker_vec3_dot(n, d));
			r->loss[i] =
			        material_loss(capsule->material, tracker_vec3_dot(n, r->up_cam));
			labels[i] = capsule->label;
		}
	}
}

/* ---- boxes ---- */

/* Slab test; the normal is the axis of the entry face. */
static gboolean
slab_hit(const double o3[3], const double d3[3], const double lo[3], const double hi[3],
         double *t_out, int *axis)
{
	double tmin = -INFINITY, tmax = INFINITY;

	for (int k = 0; k < 3; k++) {
		double t0, t1;

		if (fabs(d3[k]) < 1e-12) {
			if (o3[k] < lo[k] || o3[k] > hi[k])
				return FALSE;
			continue;
		}
		t0 = (lo[k] - o3[k]) / d3[k];
		t1 = (hi[k] - o3[k]) / d3[k];
		if (t0 > t1) {
			double tmp = t0;
			t0 = t1;
			t1 = tmp;
		}
		if (t0 > tmin) {
			tmin = t0;
			*axis = k;
		}
		tmax = MIN(tmax, t1);
	}
	*t_out = tmin;
	return tmin <= tmax && tmin > 0.0;
}

/* Slab test in world space. */
static gboolean
box_hit(const DemoBox *box, TrackerVec3 o, TrackerVec3 d, double *t_out, int *axis)
{
	double o3[3] = { o.x, o.y, o.z }, d3[3] = { d.x, d.y, d.z };
	double lo[3] = { box->min.x, box->min.y, box->min.z };
	double hi[3] = { box->max.x, box->max.y, box->max.z };

	return slab_hit(o3, d3, lo, hi, t_out, axis);
}

static Rect
box_rect(const DemoRenderer *r, const DemoBox *box)
{
	Rect rect = { G_MAXINT, G_MAXINT, G_MININT, G_MININT };

	for (int k = 0; k < 8; k++) {
		TrackerVec3 corner = tracker_vec3(k & 1 ? box->max.x : box->min.x,
		                                  k & 2 ? box->max.y : box->min.y,
		                                  k & 4 ? box->max.z : box->min.z);

		if (!rect_add_sphere(r, &rect, demo_renderer_to_camera(r, corner), 0.0))
			return full_rect;
	}
	return rect;
}

static void
draw_box(DemoRenderer *r, const DemoBox *box, guint8 *labels)
{
	Rect rect = box_rect(r, box);

	if (!rect_clip(&rect))
		return;
	for (int v = rect.v0; v <= rect.v1; v++) {
		for (int u = rect.u0; u <= rect.u1; u++) {
			int i = v * DEPTH_WIDTH + u;
			TrackerVec3 d = ray_vec(&r->ray_world[i]);
			double t, z, n3[3];
			int axis = 0;

			if (!box_hit(box, r->origin, d, &t, &axis))
				continue;
			z = t * r->ray_cam[i].z;
			if (z >= r->z[i])
				continue;
			n3[0] = d.x, n3[1] = d.y, n3[2] = d.z;
			r->z[i] = (float)z;
			r->cosine[i] = (float)fabs(n3[axis]);
			r->loss[i] = 0.0f;
			labels[i] = box->label;
		}
	}
}

/* ---- blocks ---- */

static TrackerVec3
block_corner(const DemoBlock *block, int k)
{
	TrackerVec3 p = block->centre;

	for (int a = 0; a < 3; a++)
		p = tracker_vec3_mad(p, block->axis[a],
		                     k & (1 << a) ? block->half[a] : -block->half[a]);
	return p;
}

static Rect
block_rect(const DemoRenderer *r, const DemoBlock *block)
{
	Rect rect = { G_MAXINT, G_MAXINT, G_MININT, G_MININT };

	for (int k = 0; k < 8; k++) {
		TrackerVec3 corner = demo_renderer_to_camera(r, block_corner(block, k));

		if (!rect_add_sphere(r, &rect, corner, 0.0))
			return full_rect;
	}
	return rect;
}

/* The slab test in the block's own axes. */
static void
draw_block(DemoRenderer *r, const DemoBlock *block, guint8 *labels)
{
	Rect rect = block_rect(r, block);
	TrackerVec3 o = tracker_vec3_sub(r->origin, block->centre);
	double o3[3], lo[3], hi[3];

	for (int a = 0; a < 3; a++) {
		o3[a] = tracker_vec3_dot(o, block->axis[a]);
		lo[a] = -block->half[a];
		hi[a] = block->half[a];
	}
	if (!rect_clip(&rect))
		return;
	for (int v = rect.v0; v <= rect.v1; v++) {
		for (int u = rect.u0; u <= rect.u1; u++) {
			int i = v * DEPTH_WIDTH + u, axis = 0;
			TrackerVec3 d = ray_vec(&r->ray_world[i]);
			double d3[3] = { tracker_vec3_dot(d, block->axis[0]),
				         tracker_vec3_dot(d, block->axis[1]),
				         tracker_vec3_dot(d, block->axis[2]) };
			double t, z;

			if (!slab_hit(o3, d3, lo, hi, &t, &axis))
				continue;
			z = t * r->ray_cam[i].z;
			if (z >= r->z[i])
				continue;
			r->z[i] = (float)z;
			r->cosine[i] = (float)fabs(d3[axis]);
			/* The ray enters through the face whose normal points back at it. */
			r->loss[i] = material_loss(block->material, d3[axis] < 0.0
			                                                    ? block->axis[axis].y
			                                                    : -block->axis[axis].y);
			labels[i] = block->label;
		}
	}
}

/* ---- frames ---- */

static void
draw_shapes(DemoRenderer *r, const DemoShapes *shapes, guint8 *labels)
{
	for (guint k = 0; k < shapes->n_boxes; k++)
		draw_box(r, &shapes->boxes[k], labels);
	for (guint k = 0; k < shapes->n_blocks; k++)
		draw_block(r, &shapes->blocks[k], labels);
	for (guint k = 0; k < shapes->n_capsules; k++)
		draw_capsule(r, &shapes->capsules[k], labels);
}

static void
start_frame(DemoRenderer *r)
{
	memcpy(r->z, r->bg_z, DEPTH_PIXELS * sizeof(float));
	memcpy(r->cosine, r->bg_cos, DEPTH_PIXELS * sizeof(float));
	memcpy(r->loss, r->bg_loss, DEPTH_PIXELS * sizeof(float));
}

void
demo_renderer_add_fixtures(DemoRenderer *r, const DemoShapes *shapes)
{
	start_frame(r);
	draw_shapes(r, shapes, r->bg_label);
	memcpy(r->bg_z, r->z, DEPTH_PIXELS * sizeof(float));
	memcpy(r->bg_cos, r->cosine, DEPTH_PIXELS * sizeof(float));
	memcpy(r->bg_loss, r->loss, DEPTH_PIXELS * sizeof(float));
	room_disparity(r);
}

void
demo_renderer_draw(DemoRenderer *r, const DemoShapes *shapes, guint64 seed, guint16 *raw,
                   guint16 *mm, guint8 *labels)
{
	DemoSensorView view = { r->z, r->cosine, r->loss, r->bg_z, r->bg_raw };

	start_frame(r);
	memcpy(labels, r->bg_label, DEPTH_PIXELS);
	draw_shapes(r, shapes, labels);
	demo_sensor_read(r->sensor, &view, seed, raw, mm);
}
