#include "demo-render.h"

#include <math.h>
#include <string.h>

#include "depth.h"

#define NEAR_MM         450.0  /* the Kinect reads nothing nearer */
#define FAR_MM          9000.0 /* nor farther */
#define DISPARITY_SIGMA 0.33   /* raw units */
#define GRAZING_COS     0.30   /* dropouts start below this |cos| */

typedef struct {
	float x, y, z;
} Ray;

struct _DemoRenderer {
	DemoRoom room;
	TrackerCamera camera;
	TrackerVec3 origin;     /* the sensor in world space */
	TrackerVec3 xc, yc, zc; /* camera axes in world space */
	Ray *ray_cam;           /* per pixel, unit length */
	Ray *ray_world;
	float *bg_z, *bg_cos; /* the empty room */
	float *bg_raw;        /* its exact disparity, worked out once */
	guint8 *bg_label;
	float *z, *cosine; /* the frame being drawn */
};

/* A hit: camera-space z and the |cos| between ray and surface normal. */
typedef struct {
	float z, cosine;
} Hit;

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

static void
draw_room(DemoRenderer *r)
{
	const DemoRoom *room = &r->room;

	for (int i = 0; i < DEPTH_PIXELS; i++) {
		r->bg_z[i] = INFINITY;
		r->bg_cos[i] = 1.0f;
		r->bg_label[i] = DEMO_LABEL_NONE;
		plane_hit(r, i, tracker_vec3(0, 1, 0), 0.0, DEMO_LABEL_FLOOR);
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

DemoRenderer *
demo_renderer_new(const DemoRoom *room)
{
	DemoRenderer *r = g_new0(DemoRenderer, 1);

	r->room = *room;
	tracker_camera_init_kinect(&r->camera);
	r->origin = tracker_vec3(0.0, room->camera_height, 0.0);
	r->xc = tracker_vec3(1.0, 0.0, 0.0);
	r->yc = tracker_vec3(0.0, cos(room->pitch), sin(room->pitch));
	r->zc = tracker_vec3(0.0, -sin(room->pitch), cos(room->pitch));
	r->ray_cam = g_new(Ray, DEPTH_PIXELS);
	r->ray_world = g_new(Ray, DEPTH_PIXELS);
	r->bg_z = g_new(float, DEPTH_PIXELS);
	r->bg_cos = g_new(float, DEPTH_PIXELS);
	r->bg_raw = g_new(float, DEPTH_PIXELS);
	r->bg_label = g_new(guint8, DEPTH_PIXELS);
	r->z = g_new(float, DEPTH_PIXELS);
	r->cosine = g_new(float, DEPTH_PIXELS);
	setup_rays(r);
	draw_room(r);
	for (int i = 0; i < DEPTH_PIXELS; i++)
		r->bg_raw[i] = (float)depth_mm_to_raw_exact(r->bg_z[i]);
	return r;
}

void
demo_renderer_free(DemoRenderer *r)
{
	if (r == NULL)
		return;
	g_free(r->ray_cam);
	g_free(r->ray_world);
	g_free(r->bg_z);
	g_free(r->bg_cos);
	g_free(r->bg_raw);
	g_free(r->bg_label);
	g_free(r->z);
	g_free(r->cosine);
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
			labels[i] = capsule->label;
		}
	}
}

/* ---- boxes ---- */

/* Slab test in world space; the normal is the axis of the entry face. */
static gboolean
box_hit(const DemoBox *box, TrackerVec3 o, TrackerVec3 d, double *t_out, int *axis)
{
	double o3[3] = { o.x, o.y, o.z }, d3[3] = { d.x, d.y, d.z };
	double lo[3] = { box->min.x, box->min.y, box->min.z };
	double hi[3] = { box->max.x, box->max.y, box->max.z };
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
			labels[i] = box->label;
		}
	}
}

/* ---- the sensor ---- */

static inline guint64
splitmix64(guint64 *state)
{
	guint64 z = (*state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* Points the projector cannot light: scanning a row from the right, a
 * point is in shadow when something to its right lands at or left of it in
 * the projector's view. */
static void
cast_shadow(DemoRenderer *r)
{
	double fb = r->camera.fx * DEMO_PROJECTOR_BASELINE_MM;

	for (int v = 0; v < DEPTH_HEIGHT; v++) {
		float *z = r->z + v * DEPTH_WIDTH;
		double min_up = INFINITY;

		for (int u = DEPTH_WIDTH - 1; u >= 0; u--) {
			double up;

			if (!isfinite(z[u]))
				continue;
			up = u - fb / z[u];
			if (up >= min_up)
				z[u] = NAN;
			else
				min_up = up;
		}
	}
}

/* @raw_exact is the disparity of @z before noise and rounding. */
static guint16
sense_pixel(float z, double raw_exact, float cosine, guint64 bits, gboolean noise)
{
	double raw = raw_exact;

	if (!(z >= NEAR_MM && z <= FAR_MM))
		return DEPTH_RAW_NONE;
	if (noise) {
		/* Irwin-Hall: four uniforms make a near-Gaussian. */
		double g = ((bits & 0xfff) + ((bits >> 12) & 0xfff) + ((bits >> 24) & 0xfff) +
		            ((bits >> 36) & 0xfff)) /
		                   4096.0 -
		           2.0;
		double drop = (bits >> 48) / 65536.0;

		if (cosine < GRAZING_COS && drop < 0.85 * (GRAZING_COS - cosine) / GRAZING_COS)
			return DEPTH_RAW_NONE;
		raw += DISPARITY_SIGMA * sqrt(3.0) * g;
	}
	/* Positive here, so truncating rounds. */
	if (raw < 0.0 || raw >= DEPTH_RAW_NONE - 0.5)
		return DEPTH_RAW_NONE;
	return (guint16)(raw + 0.5);
}

static void
sense(DemoRenderer *r, guint64 seed, guint16 *raw, guint16 *mm)
{
	const guint16 *table = depth_raw_to_mm_table();
	guint64 state = seed * 0x2545f4914f6cdd1dULL + 0x1234567;

	if (r->room.noise)
		cast_shadow(r);
	for (int i = 0; i < DEPTH_PIXELS; i++) {
		float z = r->z[i];
		/* The room's disparity is known; only objects need working out. */
		double exact = z == r->bg_z[i] ? r->bg_raw[i] : depth_mm_to_raw_exact(z);

		raw[i] = sense_pixel(z, exact, r->cosine[i], splitmix64(&state), r->room.noise);
		mm[i] = table[raw[i]];
		if (mm[i] == 0)
			raw[i] = DEPTH_RAW_NONE;
	}
}

void
demo_renderer_draw(DemoRenderer *r, const DemoCapsule *capsules, guint n_capsules,
                   const DemoBox *boxes, guint n_boxes, guint64 seed, guint16 *raw, guint16 *mm,
                   guint8 *labels)
{
	memcpy(r->z, r->bg_z, DEPTH_PIXELS * sizeof(float));
	memcpy(r->cosine, r->bg_cos, DEPTH_PIXELS * sizeof(float));
	memcpy(labels, r->bg_label, DEPTH_PIXELS);
	for (guint k = 0; k < n_boxes; k++)
		draw_box(r, &boxes[k], labels);
	for (guint k = 0; k < n_capsules; k++)
		draw_capsule(r, &capsules[k], labels);
	sense(r, seed, raw, mm);
}
