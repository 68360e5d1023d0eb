#include "tracker-body.h"

#include <math.h>
#include <stdlib.h>

#define BAND_LOW        0.58 /* the torso band: belly to chest, fractions of H */
#define BAND_HIGH       0.78
#define BAND_REACH      0.22 /* ...within this of the head's axis */
#define MAX_FIT_POINTS  192
#define MIN_FIT_POINTS  12
#define SWEEP_STEPS     4 /* facings tried either side of facing the sensor */
#define SWEEP_RAD       (15.0 * G_PI / 180.0)
#define ROBUST_MM       20.0 /* farther out than this is an arm, not torso */
#define INSIDE_WEIGHT   4.0  /* ...but nothing is seen inside the torso */
#define HEAD_TO_CENTRE  0.058
#define NECK_RADIUS     0.028
#define SHOULDER_RADIUS 0.040
#define HIP_RADIUS      0.065
#define TORSO_LOW       0.560
#define TORSO_HIGH      0.790

typedef struct {
	double s[MAX_FIT_POINTS], t[MAX_FIT_POINTS];
	int n;
	double half, radius; /* the stadium, mm */
} TorsoPoints;

/* The stadium's pose seen from above: centre and yaw. */
typedef struct {
	double cs, ct, yaw;
} TorsoPose;

double
tracker_capsule_distance(const TrackerCapsule *c, TrackerVec3 p)
{
	TrackerVec3 ab = tracker_vec3_sub(c->b, c->a), ap = tracker_vec3_sub(p, c->a);
	double len2 = tracker_vec3_dot(ab, ab);
	double t = len2 > 0.0 ? CLAMP(tracker_vec3_dot(ap, ab) / len2, 0.0, 1.0) : 0.0;

	return tracker_vec3_distance(p, tracker_vec3_mad(c->a, ab, t)) - c->r;
}

TrackerVec3
tracker_body_point(const TrackerBody *body, double l, double u, double f)
{
	TrackerVec3 p = tracker_vec3_mad(body->origin, body->left, l);

	p = tracker_vec3_mad(p, body->up, u);
	return tracker_vec3_mad(p, body->forward, f);
}

/* A horizontal basis: e1 along the camera's x, e2 away from the camera. */
static void
tracker_body_ground_axes(TrackerVec3 up, TrackerVec3 *e1, TrackerVec3 *e2)
{
	TrackerVec3 x = tracker_vec3(1.0, 0.0, 0.0);

	*e1 = tracker_vec3_normalize(tracker_vec3_mad(x, up, -tracker_vec3_dot(x, up)));
	*e2 = tracker_vec3_cross(*e1, up);
}

static double
tracker_body_torso_cost(const TorsoPoints *pts, const TorsoPose *pose)
{
	double c = cos(pose->yaw), s = sin(pose->yaw), cost = 0.0;

	for (int i = 0; i < pts->n; i++) {
		double ds = pts->s[i] - pose->cs, dt = pts->t[i] - pose->ct;
		/* left = (cos, -sin), forward = (-sin, -cos) in (e1, e2) */
		double ql = ds * c - dt * s, qf = -ds * s - dt * c;
		double over = fabs(ql) - pts->half;
		double r = sqrt(qf * qf + (over > 0.0 ? over * over : 0.0)) - pts->radius;

		/* Points behind the torso's axis cannot be seen: the fit must
		 * not turn the stadium round to put them on its back. */
		if (qf < 0.0)
			r = fabs(r) + ROBUST_MM;
		/* The sensor cannot see into the torso, but an arm can lie in
		 * front of it: points inside cost much, points outside little. */
		cost += r < 0.0 ? INSIDE_WEIGHT * r * r : MIN(r * r, ROBUST_MM * ROBUST_MM);
	}
	return cost;
}

/* Pattern search: each parameter walks while the cost falls, then the
 * steps halve. No derivatives; the truncated cost has none to speak of. */
static double
tracker_body_torso_descend(const TorsoPoints *pts, TorsoPose *pose, double step, int levels,
                           int params)
{
	double steps[3] = { step, step, step / 160.0 }, best = tracker_body_torso_cost(pts, pose);

	for (int level = 0; level < levels; level++) {
		for (int p = 0; p < params; p++) {
			for (int sign = -1; sign <= 1; sign += 2) {
				for (int walk = 0; walk < 8; walk++) {
					TorsoPose trial = *pose;
					double *v = p == 0   ? &trial.cs
					            : p == 1 ? &trial.ct
					                     : &trial.yaw;
					double cost;

					*v += sign * steps[p];
					trial.yaw = CLAMP(trial.yaw, -1.4, 1.4);
					cost = tracker_body_torso_cost(pts, &trial);
					if (cost >= best)
						break;
					best = cost;
					*pose = trial;
				}
			}
		}
		for (int p = 0; p < 3; p++)
			steps[p] *= 0.5;
	}
	return best;
}

static int
tracker_body_compare_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double
tracker_body_median(const double *values, int n)
{
	double sorted[MAX_FIT_POINTS];

	for (int i = 0; i < n; i++)
		sorted[i] = values[i];
	qsort(sorted, n, sizeof(double), tracker_body_compare_double);
	return sorted[n / 2];
}

/* Drops what sticks out in front of the torso (arms) or far behind it. */
static void
tracker_body_torso_trim(TorsoPoints *pts, double H)
{
	double mid = tracker_body_median(pts->t, pts->n);
	int n = 0;

	for (int i = 0; i < pts->n; i++) {
		if (pts->t[i] < mid - 0.09 * H || pts->t[i] > mid + 0.2 * H)
			continue;
		pts->s[n] = pts->s[i];
		pts->t[n] = pts->t[i];
		n++;
	}
	pts->n = n;
}

/* The person's cells in the torso band, seen from above. */
static void
tracker_body_torso_points(const TrackerBodyCells *cells, const TrackerPerson *person, double level0,
                          double H, TrackerVec3 e1, TrackerVec3 e2, TorsoPoints *pts)
{
	const TrackerGrid *grid = cells->grid;
	double lo = level0 + BAND_LOW * H, hi = level0 + BAND_HIGH * H;
	double head_s = tracker_vec3_dot(person->head.centre, e1);
	double head_t = tracker_vec3_dot(person->head.centre, e2);
	guint in_band = 0, stride;

	for (int k = 0; k < grid->n; k++)
		in_band += cells->labels[k] == cells->label && cells->heights[k] >= lo &&
		           cells->heights[k] <= hi;
	stride = MAX(1u, (in_band + MAX_FIT_POINTS - 1) / MAX_FIT_POINTS);
	pts->n = 0;
	for (int k = 0, seen = 0; k < grid->n && pts->n < MAX_FIT_POINTS; k++) {
		TrackerVec3 p;
		double s, t;

		if (cells->labels[k] != cells->label || cells->heights[k] < lo ||
		    cells->heights[k] > hi || seen++ % stride != 0 ||
		    (cells->exclude != NULL && cells->exclude[k]))
			continue;
		p = tracker_grid_point(grid, k);
		s = tracker_vec3_dot(p, e1);
		t = tracker_vec3_dot(p, e2);
		if (person->head.found && hypot(s - head_s, t - head_t) > BAND_REACH * H)
			continue;
		pts->s[pts->n] = s;
		pts->t[pts->n] = t;
		pts->n++;
	}
	pts->half = TRACKER_BODY_TORSO_HALF * H;
	pts->radius = TRACKER_BODY_TORSO_RADIUS * H;
}

/* Places the stadium at facings 15 degrees apart and at last frame's
 * facing (the cost has local minima a turn apart); the best place is
 * then refined, facing included. */
static TorsoPose
tracker_body_torso_fit(const TorsoPoints *pts, const TorsoPose *previous)
{
	double s0 = tracker_body_median(pts->s, pts->n);
	double t0 = tracker_body_median(pts->t, pts->n) + 0.8 * pts->radius;
	TorsoPose best = { s0, t0, 0.0 };
	double best_cost = G_MAXDOUBLE;

	for (int i = -SWEEP_STEPS; i <= SWEEP_STEPS + 1; i++) {
		TorsoPose pose = { s0, t0, i * SWEEP_RAD };
		double cost;

		if (i == SWEEP_STEPS + 1) {
			if (previous == NULL)
				break;
			pose = *previous;
		}
		cost = tracker_body_torso_descend(pts, &pose, 40.0, 6, 2);
		if (cost < best_cost) {
			best_cost = cost;
			best = pose;
		}
	}
	tracker_body_torso_descend(pts, &best, 10.0, 5, 3);
	return best;
}

static void
tracker_body_core(TrackerBody *body)
{
	double H = body->height;
	TrackerCapsule *c = body->core;

	for (int side = 0; side < 2; side++) {
		double l = (side == 0 ? 1 : -1) * TRACKER_BODY_TORSO_HALF * H;

		c[side].a = tracker_body_point(body, l, TORSO_LOW * H, 0.0);
		c[side].b = tracker_body_point(body, l, TORSO_HIGH * H, 0.0);
		c[side].r = TRACKER_BODY_TORSO_RADIUS * H;
	}
	c[2].a = tracker_body_point(body, TRACKER_BODY_SHOULDER_HALF * H,
	                            TRACKER_BODY_SHOULDER_UP * H, 0.0);
	c[2].b = tracker_body_point(body, -TRACKER_BODY_SHOULDER_HALF * H,
	                            TRACKER_BODY_SHOULDER_UP * H, 0.0);
	c[2].r = SHOULDER_RADIUS * H;
	c[3].a = tracker_body_point(body, TRACKER_BODY_HIP_HALF * H, TRACKER_BODY_PELVIS_UP * H,
	                            0.0);
	c[3].b = tracker_body_point(body, -TRACKER_BODY_HIP_HALF * H, TRACKER_BODY_PELVIS_UP * H,
	                            0.0);
	c[3].r = HIP_RADIUS * H;
	c[4].a = tracker_body_point(body, 0.0, TRACKER_BODY_NECK_UP * H, 0.0);
	c[4].b = body->head;
	c[4].r = NECK_RADIUS * H;
	c[5].a = c[5].b = body->head;
	c[5].r = body->head_radius;
}

/* The frame from the fitted stadium; the origin is on the floor. */
static void
tracker_body_frame(TrackerBody *body, const TrackerFloor *floor, TorsoPose pose, double level0,
                   TrackerVec3 e1, TrackerVec3 e2)
{
	double c = cos(pose.yaw), s = sin(pose.yaw);

	body->yaw = pose.yaw;
	body->up = floor->up;
	body->left = tracker_vec3_add(tracker_vec3_scale(e1, c), tracker_vec3_scale(e2, -s));
	body->forward = tracker_vec3_add(tracker_vec3_scale(e1, -s), tracker_vec3_scale(e2, -c));
	body->origin =
	        tracker_vec3_add(tracker_vec3_scale(e1, pose.cs), tracker_vec3_scale(e2, pose.ct));
	body->origin = tracker_vec3_mad(body->origin, floor->up, level0 - floor->offset);
}

/* Body height, and the height of the floor under the person (0 when the
 * floor is known; from the head's top and an assumed height when not). */
static gboolean
tracker_body_height(const TrackerBodyCells *cells, const TrackerPerson *person, double height_hint,
                    double *H, double *level0)
{
	gboolean floor = cells->floor->found;

	*H = height_hint > 0.0 ? height_hint : TRACKER_BODY_DEFAULT_H;
	*level0 = 0.0;
	if (!person->head.found)
		return floor && height_hint > 0.0;
	if (floor)
		*H = CLAMP(person->head.top_height, 800.0, 2400.0);
	else
		*level0 = person->head.top_height - *H;
	return TRUE;
}

gboolean
tracker_body_fit(TrackerBody *body, const TrackerBodyCells *cells, const TrackerPerson *person,
                 double height_hint, const TrackerBody *previous)
{
	TrackerVec3 e1, e2;
	TorsoPoints pts;
	TorsoPose pose, prev;
	double H, level0;

	if (!tracker_body_height(cells, person, height_hint, &H, &level0))
		return FALSE;
	tracker_body_ground_axes(cells->floor->up, &e1, &e2);
	tracker_body_torso_points(cells, person, level0, H, e1, e2, &pts);
	if (pts.n >= MIN_FIT_POINTS)
		tracker_body_torso_trim(&pts, H);
	if (pts.n < MIN_FIT_POINTS)
		return FALSE;
	if (previous != NULL) {
		prev.cs = tracker_vec3_dot(previous->origin, e1);
		prev.ct = tracker_vec3_dot(previous->origin, e2);
		prev.yaw = previous->yaw;
	}
	pose = tracker_body_torso_fit(&pts, previous != NULL ? &prev : NULL);
	body->height = H;
	tracker_body_frame(body, cells->floor, pose, level0, e1, e2);
	body->head_radius = person->head.found ? person->head.radius : HEAD_TO_CENTRE * H;
	body->head = person->head.found
	                     ? person->head.centre
	                     : tracker_body_point(body, 0.0, (1.0 - HEAD_TO_CENTRE) * H, 0.01 * H);
	tracker_body_core(body);
	return TRUE;
}

void
tracker_body_refit(TrackerBody *body, const TrackerBodyCells *cells, const TrackerPerson *person)
{
	double level0 = tracker_floor_height(cells->floor, body->origin);
	TrackerVec3 e1, e2;
	TorsoPoints pts;
	TorsoPose pose;

	tracker_body_ground_axes(cells->floor->up, &e1, &e2);
	tracker_body_torso_points(cells, person, level0, body->height, e1, e2, &pts);
	if (pts.n >= MIN_FIT_POINTS)
		tracker_body_torso_trim(&pts, body->height);
	if (pts.n < MIN_FIT_POINTS)
		return;
	pose.cs = tracker_vec3_dot(body->origin, e1);
	pose.ct = tracker_vec3_dot(body->origin, e2);
	pose.yaw = body->yaw;
	tracker_body_torso_descend(&pts, &pose, 20.0, 5, 3);
	tracker_body_frame(body, cells->floor, pose, level0, e1, e2);
	tracker_body_core(body);
}

void
tracker_body_trunk(const TrackerBody *body, TrackerVec3 joints[TRACKER_N_JOINTS])
{
	double H = body->height, sh = TRACKER_BODY_SHOULDER_HALF * H;
	double hh = TRACKER_BODY_HIP_HALF * H;

	joints[TRACKER_JOINT_HEAD] = body->head;
	joints[TRACKER_JOINT_NECK] = tracker_body_point(body, 0.0, TRACKER_BODY_NECK_UP * H, 0.0);
	joints[TRACKER_JOINT_TORSO] = tracker_body_point(body, 0.0, TRACKER_BODY_TORSO_UP * H, 0.0);
	joints[TRACKER_JOINT_LEFT_SHOULDER] =
	        tracker_body_point(body, sh, TRACKER_BODY_SHOULDER_UP * H, 0.0);
	joints[TRACKER_JOINT_RIGHT_SHOULDER] =
	        tracker_body_point(body, -sh, TRACKER_BODY_SHOULDER_UP * H, 0.0);
	joints[TRACKER_JOINT_LEFT_HIP] =
	        tracker_body_point(body, hh, TRACKER_BODY_PELVIS_UP * H, 0.0);
	joints[TRACKER_JOINT_RIGHT_HIP] =
	        tracker_body_point(body, -hh, TRACKER_BODY_PELVIS_UP * H, 0.0);
}

double
tracker_body_core_distance(const TrackerBody *body, TrackerVec3 p)
{
	double best = G_MAXDOUBLE;

	for (int i = 0; i < TRACKER_BODY_N_CORE; i++)
		best = MIN(best, tracker_capsule_distance(&body->core[i], p));
	return best;
}
