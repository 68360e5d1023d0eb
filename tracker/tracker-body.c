#include "tracker-body.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define BAND_LOW        0.58 /* the torso band: belly to chest, fractions of H */
#define BAND_HIGH       0.78
#define BAND_REACH      0.22 /* ...within this of the head's axis */
#define MAX_FIT_POINTS  192
#define MIN_FIT_POINTS  12
#define SWEEP_STEPS     4 /* facings tried either side of facing the sensor */
#define GRID_HALF       4 /* lateral positions tried either side */
#define GRID_MM         40.0
#define SWEEP_RAD       (15.0 * G_PI / 180.0)
#define RECHECK_GAIN    0.8  /* a fresh fit this much better replaces the tracked one */
#define ROBUST_MM       20.0 /* farther out than this is an arm, not torso */
#define BEHIND_CAP_MM   45.0 /* ...mislabelled cells cost no more than this */
#define INSIDE_WEIGHT   4.0  /* ...but nothing is seen inside the torso */
#define HEAD_FREE_MM    30.0 /* the torso may sit this far off the head's axis */
#define HEAD_PRIOR      1.0  /* ...and costs this per mm squared beyond */
#define YAW_PRIOR       20.0 /* per point, side-on: see tracker_body_yaw_prior() */
#define HEAD_TO_CENTRE  0.058
#define NECK_RADIUS     0.028
#define SHOULDER_RADIUS 0.040
#define HIP_RADIUS      0.065
#define TORSO_LOW       0.560
#define TORSO_HIGH      0.790
/* The legs' column: a grid of points from just over the feet to just
 * under the pelvis, either side of the body's axis, their front surface
 * this far before it (fractions of H); the depth there within this of it
 * is the legs, nearer hides them. */
#define LEGS_LOW       0.12
#define LEGS_HIGH      0.44
#define LEGS_HALF      0.05
#define LEGS_ROWS      5
#define LEGS_COLUMNS   4
#define LEGS_FRONT     0.04
#define LEGS_DEPTH_MM  150.0
#define LEGS_NEARER_MM 150.0
#define LEGS_POLE      0.04 /* narrower than a shin seen side-on */
/* The lean: how much farther from the sensor the torso's front lies per
 * mm of height, measured across the torso band in LEAN_BINS heights of
 * at least LEAN_MIN_POINTS points; no more than LEAN_MAX (35 degrees). */
#define LEAN_BINS       5
#define LEAN_MIN_POINTS 6
#define LEAN_MAX        0.7
#define LEAN_FOLLOW     0.5 /* of the way from last frame's lean to this one's */

/* Seated, the head's top is at most this share of the standing height:
 * the trunk and head are about half of it, the seat a quarter. Leaning
 * back or stooping a little leaves more. */
#define SEATED_SHARE 0.8

typedef struct {
	double s[MAX_FIT_POINTS], t[MAX_FIT_POINTS];
	double h[MAX_FIT_POINTS]; /* height above the floor */
	/* The sensor's ray to each point, seen from above, and its length. */
	double ds[MAX_FIT_POINTS], dt[MAX_FIT_POINTS], len[MAX_FIT_POINTS];
	int n;
	double half, radius;   /* the stadium, mm */
	double head_weight;    /* of the head prior; 0 without a head */
	double head_s, head_t; /* where the head is, seen from above */
	double head_h;         /* ...and its height */
} TorsoPoints;

/* The stadium's pose seen from above: centre and yaw. */
typedef struct {
	double cs, ct, yaw;
} TorsoPose;

/* The squared distance from @p to the capsule's axis. */
static double
tracker_capsule_axis2(const TrackerCapsule *c, TrackerVec3 p)
{
	TrackerVec3 ab = tracker_vec3_sub(c->b, c->a), ap = tracker_vec3_sub(p, c->a), d;
	double len2 = tracker_vec3_dot(ab, ab);
	double t = len2 > 0.0 ? CLAMP(tracker_vec3_dot(ap, ab) / len2, 0.0, 1.0) : 0.0;

	d = tracker_vec3_sub(p, tracker_vec3_mad(c->a, ab, t));
	return tracker_vec3_dot(d, d);
}

gboolean
tracker_body_capsule_within(const TrackerCapsule *c, TrackerVec3 p, double margin)
{
	double reach = c->r + margin;

	return reach > 0.0 && tracker_capsule_axis2(c, p) <= reach * reach;
}

gboolean
tracker_body_core_within(const TrackerBody *body, TrackerVec3 p, double margin)
{
	TrackerVec3 d = tracker_vec3_sub(p, body->origin);
	double h = tracker_vec3_dot(d, body->up), reach = body->core_reach + margin;

	/* Most of a person (legs, arms held out) is outside the cylinder. */
	if (h < body->core_low - margin || h > body->core_high + margin || reach <= 0.0 ||
	    tracker_vec3_dot(d, d) - h * h > reach * reach)
		return FALSE;
	for (int i = 0; i < TRACKER_BODY_N_CORE; i++) {
		if (tracker_body_capsule_within(&body->core[i], p, margin))
			return TRUE;
	}
	return FALSE;
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

/* A stadium placed: its ends and its axes, and what the rays of all the
 * points share, computed once per pose: the cost takes hundreds of
 * points through each of thousands of poses a frame. */
typedef struct {
	double c, sn;          /* cos and sin of the yaw */
	double as, at, bs, bt; /* the ends of its segment */
	double fs, ft;         /* forward: (-sin, -cos) in (e1, e2) */
	double cs, ct, half, radius;
	double ca, cb;       /* each end circle's |centre|^2 - radius^2 */
	double es, et;       /* the segment, a to b */
	double ps[2], pt[2]; /* a pushed out by the radius: front side, back side */
	double num[2];       /* (p x e) of each side: the distance along a ray, times den */
} Stadium;

static Stadium
tracker_body_stadium(const TorsoPose *pose, double half, double radius)
{
	Stadium st;

	st.c = cos(pose->yaw);
	st.sn = sin(pose->yaw);
	/* left = (cos, -sin) in (e1, e2) */
	st.as = pose->cs - half * st.c;
	st.at = pose->ct + half * st.sn;
	st.bs = pose->cs + half * st.c;
	st.bt = pose->ct - half * st.sn;
	st.fs = -st.sn;
	st.ft = -st.c;
	st.cs = pose->cs;
	st.ct = pose->ct;
	st.half = half;
	st.radius = radius;
	st.ca = st.as * st.as + st.at * st.at - radius * radius;
	st.cb = st.bs * st.bs + st.bt * st.bt - radius * radius;
	st.es = st.bs - st.as;
	st.et = st.bt - st.at;
	for (int side = 0; side < 2; side++) {
		double ns = side == 0 ? st.fs : -st.fs, nt = side == 0 ? st.ft : -st.ft;

		st.ps[side] = st.as + radius * ns;
		st.pt[side] = st.at + radius * nt;
		st.num[side] = st.ps[side] * st.et - st.pt[side] * st.es;
	}
	return st;
}

/* Where the sensor's ray towards (@s, @t), seen from above, enters the
 * circle at (@cx, @cy) whose |centre|^2 - radius^2 is @c: the distance
 * along the ray, or G_MAXDOUBLE when it misses. @ds, @dt is the ray's
 * unit direction. */
static double
tracker_body_ray_circle(double ds, double dt, double cx, double cy, double c)
{
	double b = ds * cx + dt * cy, h = b * b - c;

	return h < 0.0 ? G_MAXDOUBLE : b - sqrt(h);
}

/* The same for one of the stadium's straight sides (0 the front, 1 the
 * back): the segment pushed out by the radius along its normal. */
static double
tracker_body_ray_side(const Stadium *st, int side, double ds, double dt)
{
	double den = ds * st->et - dt * st->es, u;

	if (fabs(den) < 1e-9)
		return G_MAXDOUBLE;
	u = (st->ps[side] * dt - st->pt[side] * ds) / den; /* along the side, 0..1 */
	return u >= 0.0 && u <= 1.0 ? st->num[side] / den : G_MAXDOUBLE;
}

/* The residual of point @i against the stadium, as the sensor sees it:
 * behind the torso's visible surface along its own ray (impossible, so
 * costly), in front of it (an arm, say), or beside it. */
static double
tracker_body_torso_residual(const Stadium *st, const TorsoPoints *pts, int i)
{
	double ds = pts->ds[i], dt = pts->dt[i], enter, ql, qf, over;
	/* The side facing the sensor: the back one when forward is away. */
	int side = st->fs * ds + st->ft * dt > 0.0;

	enter = MIN(tracker_body_ray_circle(ds, dt, st->as, st->at, st->ca),
	            tracker_body_ray_circle(ds, dt, st->bs, st->bt, st->cb));
	enter = MIN(enter, tracker_body_ray_side(st, side, ds, dt));
	if (enter < G_MAXDOUBLE)
		return pts->len[i] - enter; /* > 0: behind the surface */
	ql = (pts->s[i] - st->cs) * st->c - (pts->t[i] - st->ct) * st->sn;
	qf = -(pts->s[i] - st->cs) * st->sn - (pts->t[i] - st->ct) * st->c;
	over = MAX(0.0, fabs(ql) - st->half);
	return -(sqrt(over * over + qf * qf) - st->radius); /* beside: < 0 */
}

/* An upright body's torso is under its head: an arm hanging in front of
 * a turned torso's near side leaves the data alone undecided. */
static double
tracker_body_head_prior(const TorsoPoints *pts, const TorsoPose *pose)
{
	double off;

	off = sqrt((pose->cs - pts->head_s) * (pose->cs - pts->head_s) +
	           (pose->ct - pts->head_t) * (pose->ct - pts->head_t));
	off = MAX(0.0, off - HEAD_FREE_MM);
	return pts->head_weight * off * off;
}

/* The facing prior, per point. People face the sensor far more often
 * than not, and a torso seen from the front, leaning back or with an arm
 * across it, can fit the stadium turned side-on about as well: a woman
 * leaning on a wall was fitted 70 degrees turned. So each point costs
 * more the more side-on the stadium: YAW_PRIOR times sin^2 of the yaw,
 * nothing facing the sensor (or away), at most a twentieth of what a
 * point off the torso costs. A walker, side-on, still fits side-on. The
 * misfit leaves it out. */
static double
tracker_body_yaw_prior(double yaw)
{
	double s = sin(yaw);

	return YAW_PRIOR * s * s;
}

static double
tracker_body_torso_cost(const TorsoPoints *pts, const TorsoPose *pose)
{
	double cost =
	        tracker_body_head_prior(pts, pose) + pts->n * tracker_body_yaw_prior(pose->yaw);
	Stadium st = tracker_body_stadium(pose, pts->half, pts->radius);

	for (int i = 0; i < pts->n; i++) {
		double r = tracker_body_torso_residual(&st, pts, i);

		/* The sensor cannot see behind the torso's surface, but an arm
		 * can lie in front of it or beside it: points behind cost much,
		 * points in front little. */
		cost += r > 0.0 ? INSIDE_WEIGHT * MIN(r * r, BEHIND_CAP_MM * BEHIND_CAP_MM)
		                : MIN(r * r, ROBUST_MM * ROBUST_MM);
	}
	return cost;
}

/* The share of @pts that the stadium of @pose lies on. */
static double
tracker_body_torso_on(const TorsoPoints *pts, const TorsoPose *pose)
{
	Stadium st = tracker_body_stadium(pose, pts->half, pts->radius);
	int on = 0;

	for (int i = 0; i < pts->n; i++)
		on += fabs(tracker_body_torso_residual(&st, pts, i)) <= ROBUST_MM;
	return (double)on / pts->n;
}

/* Pattern search: each parameter walks while the cost falls, then the
 * steps halve. No derivatives; the truncated cost has none to speak of. */
static double
tracker_body_torso_descend(const TorsoPoints *pts, TorsoPose *pose, double step, int levels,
                           int params)
{
	double steps[3] = { step, step, step / 160.0 }, best = tracker_body_torso_cost(pts, pose);

	/* @params: 3 all, 2 position, -1 depth only */
	int first = params < 0 ? 1 : 0, last = params < 0 ? 2 : params;

	for (int level = 0; level < levels; level++) {
		for (int p = first; p < last; p++) {
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

/* The value of rank n / 2 (the one sorting would put there), by
 * selection: a torso has hundreds of points and this runs every frame. */
static double
tracker_body_median(const double *values, int n)
{
	double v[MAX_FIT_POINTS];
	int lo = 0, hi = n - 1, k = n / 2;

	memcpy(v, values, n * sizeof(double));
	while (lo < hi) {
		double pivot = v[(lo + hi) / 2];
		int i = lo, j = hi;

		while (i <= j) {
			while (v[i] < pivot)
				i++;
			while (v[j] > pivot)
				j--;
			if (i <= j) {
				double t = v[i];

				v[i++] = v[j];
				v[j--] = t;
			}
		}
		if (k <= j)
			hi = j;
		else if (k >= i)
			lo = i;
		else
			break;
	}
	return v[k];
}

static void
tracker_body_torso_add(TorsoPoints *pts, int i, double s, double t, double h)
{
	double len = sqrt(s * s + t * t);

	pts->s[i] = s;
	pts->t[i] = t;
	pts->h[i] = h;
	pts->len[i] = len;
	pts->ds[i] = s / len;
	pts->dt[i] = t / len;
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
		tracker_body_torso_add(pts, n++, pts->s[i], pts->t[i], pts->h[i]);
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

	guint seen = 0;

	TRACKER_BODY_FOREACH_CELL(cells, k)
	in_band += cells->labels[k] == cells->label && cells->heights[k] >= lo &&
	           cells->heights[k] <= hi;
	stride = MAX(1u, (in_band + MAX_FIT_POINTS - 1) / MAX_FIT_POINTS);
	pts->n = 0;
	TRACKER_BODY_FOREACH_CELL(cells, k)
	{
		TrackerVec3 p;
		double s, t;

		if (cells->labels[k] != cells->label || cells->heights[k] < lo ||
		    cells->heights[k] > hi || seen++ % stride != 0 ||
		    (cells->exclude != NULL && cells->exclude[k]) || pts->n >= MAX_FIT_POINTS)
			continue;
		p = tracker_grid_point(grid, k);
		s = tracker_vec3_dot(p, e1);
		t = tracker_vec3_dot(p, e2);
		if (person->head.found &&
		    (s - head_s) * (s - head_s) + (t - head_t) * (t - head_t) >
		            BAND_REACH * H * BAND_REACH * H)
			continue;
		tracker_body_torso_add(pts, pts->n++, s, t, cells->heights[k]);
	}
	pts->half = TRACKER_BODY_TORSO_HALF * H;
	pts->radius = TRACKER_BODY_TORSO_RADIUS * H;
	pts->head_weight = person->head.found ? HEAD_PRIOR : 0.0;
	pts->head_s = head_s;
	pts->head_t = head_t;
	pts->head_h = tracker_floor_height(cells->floor, person->head.centre);
}

/* How far the torso leans away from the sensor (the tangent: mm farther
 * per mm higher), from the points of the band @lo..@hi: the median depth
 * at each of LEAN_BINS heights, and the median of the slopes between
 * them (Theil and Sen's), so that a forearm across one of the heights
 * leaves it be. A camera tilted up or down shows an upright person
 * leaning just the same, and a person who leans back in a chair or
 * forward over a desk leans. 0 when too few heights have points. */
static double
tracker_body_lean(const TorsoPoints *pts, double lo, double hi)
{
	double t[LEAN_BINS], h[LEAN_BINS], slopes[LEAN_BINS * (LEAN_BINS - 1) / 2];
	double v[MAX_FIT_POINTS];
	int n_bins = 0, n_slopes = 0;

	for (int b = 0; b < LEAN_BINS; b++) {
		double b0 = lo + (hi - lo) * b / LEAN_BINS,
		       b1 = lo + (hi - lo) * (b + 1) / LEAN_BINS;
		int n = 0;

		for (int i = 0; i < pts->n; i++) {
			if (pts->h[i] >= b0 && pts->h[i] < b1)
				v[n++] = pts->t[i];
		}
		if (n < LEAN_MIN_POINTS)
			continue;
		t[n_bins] = tracker_body_median(v, n);
		h[n_bins++] = 0.5 * (b0 + b1);
	}
	if (n_bins < 3)
		return 0.0;
	for (int i = 0; i < n_bins; i++) {
		for (int j = i + 1; j < n_bins; j++)
			slopes[n_slopes++] = (t[j] - t[i]) / (h[j] - h[i]);
	}
	return CLAMP(tracker_body_median(slopes, n_slopes), -LEAN_MAX, LEAN_MAX);
}

/* The points as an upright torso's: each moved towards the sensor by
 * @lean times its height above @pivot, and the head with them. */
static void
tracker_body_torso_unlean(TorsoPoints *pts, double lean, double pivot)
{
	for (int i = 0; i < pts->n; i++)
		tracker_body_torso_add(pts, i, pts->s[i], pts->t[i] - lean * (pts->h[i] - pivot),
		                       pts->h[i]);
	pts->head_t -= lean * (pts->head_h - pivot);
}

/* The best centre along a row of lateral positions around @s0 for
 * @pose's yaw; for each, depth is searched (the cost is sharp in depth:
 * points just inside the torso are expensive). */
static double
tracker_body_torso_grid(const TorsoPoints *pts, double s0, double t0, int half, TorsoPose *pose)
{
	double best = G_MAXDOUBLE;

	for (int i = -half; i <= half; i++) {
		TorsoPose trial = *pose;
		double cost;

		trial.cs = s0 + i * GRID_MM;
		trial.ct = t0;
		cost = tracker_body_torso_descend(pts, &trial, 40.0, 4, -1);
		if (cost < best) {
			best = cost;
			*pose = trial;
		}
	}
	return best;
}

/* Every other point: enough to tell good places from bad ones. */
static void
tracker_body_torso_thin(const TorsoPoints *pts, TorsoPoints *thin)
{
	*thin = *pts;
	thin->n = 0;
	/* Half the points, half the prior. */
	thin->head_weight *= 0.5;
	for (int i = 0; i < pts->n; i += 2)
		tracker_body_torso_add(thin, thin->n++, pts->s[i], pts->t[i], pts->h[i]);
}

/* The cost has local minima a turn or a hand's breadth apart: the
 * stadium is tried at lateral positions a few centimetres apart at
 * facings 15 degrees apart (near last frame's facing and position when
 * there is one), and the best is refined, facing included. */
static TorsoPose
tracker_body_torso_fit(const TorsoPoints *pts, const TorsoPose *previous, double *cost_out)
{
	double s0 = tracker_body_median(pts->s, pts->n);
	double t0 = tracker_body_median(pts->t, pts->n) + 0.5 * pts->radius;
	int from = -SWEEP_STEPS, to = SWEEP_STEPS, half = GRID_HALF;
	TorsoPose best = { s0, t0, 0.0 };
	double best_cost = G_MAXDOUBLE, yaw0 = 0.0;
	TorsoPoints thin;

	if (previous != NULL) {
		s0 = previous->cs;
		yaw0 = previous->yaw;
		from = -1;
		to = 1;
		half = 2;
	}
	tracker_body_torso_thin(pts, &thin);
	for (int i = from; i <= to; i++) {
		TorsoPose pose = { s0, t0, yaw0 + i * SWEEP_RAD };
		double cost;

		/* Laterally too the cost is sharper than the row's spacing. */
		tracker_body_torso_grid(&thin, s0, t0, half, &pose);
		cost = tracker_body_torso_descend(&thin, &pose, 10.0, 3, 2);

		if (cost < best_cost) {
			best_cost = cost;
			best = pose;
		}
	}
	*cost_out = tracker_body_torso_descend(pts, &best, 20.0, 5, 3);
	return best;
}

/* The cylinder about the body's vertical that holds the core: a capsule
 * reaches no higher, lower or farther out than its end spheres. */
static void
tracker_body_core_bounds(TrackerBody *body)
{
	body->core_low = G_MAXDOUBLE;
	body->core_high = -G_MAXDOUBLE;
	body->core_reach = 0.0;
	for (int i = 0; i < TRACKER_BODY_N_CORE; i++) {
		const TrackerCapsule *c = &body->core[i];

		for (int e = 0; e < 2; e++) {
			TrackerVec3 d = tracker_vec3_sub(e == 0 ? c->a : c->b, body->origin);
			double h = tracker_vec3_dot(d, body->up);
			double out = sqrt(MAX(0.0, tracker_vec3_dot(d, d) - h * h));

			body->core_low = MIN(body->core_low, h - c->r);
			body->core_high = MAX(body->core_high, h + c->r);
			body->core_reach = MAX(body->core_reach, out + c->r);
		}
	}
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
	tracker_body_core_bounds(body);
}

/* Left and forward turned half a turn about up. */
static void
tracker_body_reverse(TrackerBody *body)
{
	body->left = tracker_vec3_scale(body->left, -1.0);
	body->forward = tracker_vec3_scale(body->forward, -1.0);
}

/* The frame turned half a turn about the vertical; the core as it was. */
static void
tracker_body_about(TrackerBody *body)
{
	body->away = !body->away;
	tracker_body_reverse(body);
}

/* The torso joint: the middle of the torso band, where the stadium's
 * centre is fitted and about which the body leans. */
static TrackerVec3
tracker_body_centre(const TrackerBody *body)
{
	return tracker_body_point(body, 0.0, TRACKER_BODY_TORSO_UP * body->height, 0.0);
}

/* The frame from the fitted stadium and @body->lean: the torso joint at
 * the stadium's centre, @level0 + TORSO_UP H above the floor, the body's
 * up turned from the floor's by the lean, away from the sensor, and the
 * origin under the pelvis that much down along it. */
static void
tracker_body_frame(TrackerBody *body, const TrackerFloor *floor, TorsoPose pose, double level0,
                   TrackerVec3 e1, TrackerVec3 e2)
{
	double c = cos(pose.yaw), s = sin(pose.yaw),
	       centre_up = TRACKER_BODY_TORSO_UP * body->height;
	TrackerVec3 centre, up;

	body->yaw = pose.yaw;
	body->left = tracker_vec3_add(tracker_vec3_scale(e1, c), tracker_vec3_scale(e2, -s));
	body->forward = tracker_vec3_add(tracker_vec3_scale(e1, -s), tracker_vec3_scale(e2, -c));
	if (body->away)
		tracker_body_reverse(body);
	up = tracker_vec3_normalize(tracker_vec3_mad(floor->up, e2, body->lean));
	body->up = up;
	body->left = tracker_vec3_normalize(
	        tracker_vec3_mad(body->left, up, -tracker_vec3_dot(body->left, up)));
	body->forward = tracker_vec3_normalize(
	        tracker_vec3_mad(body->forward, up, -tracker_vec3_dot(body->forward, up)));
	centre = tracker_vec3_add(tracker_vec3_scale(e1, pose.cs), tracker_vec3_scale(e2, pose.ct));
	centre = tracker_vec3_mad(centre, floor->up, level0 + centre_up - floor->offset);
	body->origin = tracker_vec3_mad(centre, up, -centre_up);
}

/* The floor's height under the body (@level0 of tracker_body_frame()):
 * the torso joint's height less TORSO_UP H. */
static double
tracker_body_level(const TrackerBody *body, const TrackerFloor *floor)
{
	return tracker_floor_height(floor, tracker_body_centre(body)) -
	       TRACKER_BODY_TORSO_UP * body->height;
}

/* The torso's lean this frame, the points unleant by it: half way from
 * last frame's lean (@previous, or NULL) to what the points show.
 *
 * Only while the floor is not seen. Then up is the settings' guess, and a
 * camera tilted otherwise than they say (on a desk looking up at a
 * seated user, on a shelf looking down) shows everyone leaning: the
 * torso is the best measure of up there is. With the floor seen, up is
 * measured and the lean is the body's own; the band's slope does not yet
 * tell that from arms held across part of it, so the body stands upright. */
static void
tracker_body_lean_points(TrackerBody *body, TorsoPoints *pts, const TrackerFloor *floor,
                         double level0, double H, const TrackerBody *previous)
{
	double lean =
	        floor->seen ? 0.0
	                    : tracker_body_lean(pts, level0 + BAND_LOW * H, level0 + BAND_HIGH * H);

	if (previous != NULL)
		lean = previous->lean + LEAN_FOLLOW * (lean - previous->lean);
	body->lean = lean;
	tracker_body_torso_unlean(pts, lean, level0 + TRACKER_BODY_TORSO_UP * H);
}

/* Body height, and the height of the floor under the person (0 when the
 * floor is known; from the head's top and an assumed height when not).
 * With no head seen, @height_hint (the tallest the track was seen) is
 * the height, unless the body was last fitted seated (@previous): then
 * it stays seated. Standing, its torso band would lie over the seated
 * person's shoulders, on the sofa's back or on nothing. */
static gboolean
tracker_body_height(const TrackerBodyCells *cells, const TrackerPerson *person, double height_hint,
                    const TrackerBody *previous, double *H, double *level0)
{
	gboolean floor = cells->floor->found;

	*H = height_hint > 0.0 ? height_hint : TRACKER_BODY_DEFAULT_H;
	*level0 = 0.0;
	if (!person->head.found && floor && previous != NULL &&
	    previous->height < SEATED_SHARE * height_hint) {
		*H = previous->height;
		return TRUE;
	}
	if (!person->head.found)
		return floor && height_hint > 0.0;
	/* A head cut off by the image's top is no measure of height. */
	if (floor && !person->head.cut_top) {
		*H = CLAMP(person->head.top_height, 800.0, 2400.0);
		return TRUE;
	}
	if (floor) {
		*H = MAX(*H, person->head.top_height);
		*level0 =
		        person->head.top_height - person->head.radius - (1.0 - HEAD_TO_CENTRE) * *H;
		*level0 = MIN(*level0, 0.0);
		return TRUE;
	}
	/* No floor: hang the body from the head's centre, which hair that
	 * sticks up moves less than the top. */
	*level0 = person->head.top_height - person->head.radius - (1.0 - HEAD_TO_CENTRE) * *H;
	return TRUE;
}

gboolean
tracker_body_fit(TrackerBody *body, const TrackerBodyCells *cells, const TrackerPerson *person,
                 double height_hint, const TrackerBody *previous, gboolean search)
{
	TrackerVec3 e1, e2;
	TorsoPoints pts;
	TorsoPose pose, prev;
	double H, level0, cost = 0.0, fresh_cost;

	if (!tracker_body_height(cells, person, height_hint, previous, &H, &level0))
		return FALSE;
	tracker_body_ground_axes(cells->floor->up, &e1, &e2);
	tracker_body_torso_points(cells, person, level0, H, e1, e2, &pts);
	if (pts.n >= MIN_FIT_POINTS)
		tracker_body_torso_trim(&pts, H);
	if (pts.n < MIN_FIT_POINTS)
		return FALSE;
	tracker_body_lean_points(body, &pts, cells->floor, level0, H, previous);
	if (previous != NULL) {
		prev.cs = tracker_vec3_dot(tracker_body_centre(previous), e1);
		prev.ct = tracker_vec3_dot(tracker_body_centre(previous), e2);
		prev.yaw = previous->yaw;
	}
	if (previous != NULL && !search) {
		pose = prev;
		cost = tracker_body_torso_descend(&pts, &pose, 20.0, 5, 3);
	} else {
		pose = tracker_body_torso_fit(&pts, previous != NULL ? &prev : NULL, &cost);
	}
	/* Now and then every facing again, as on a first frame: a turn taken
	 * the wrong way (45 degrees one way looks much like 45 the other)
	 * would otherwise last as long as the person stays. */
	if (previous != NULL && search) {
		TorsoPose fresh = tracker_body_torso_fit(&pts, NULL, &fresh_cost);

		if (fresh_cost < RECHECK_GAIN * cost) {
			pose = fresh;
			cost = fresh_cost;
		}
	}
	body->away = previous != NULL && previous->away;
	body->torso_misfit = cost / pts.n - tracker_body_yaw_prior(pose.yaw);
	body->torso_on = tracker_body_torso_on(&pts, &pose);
	body->height = H;
	tracker_body_frame(body, cells->floor, pose, level0, e1, e2);
	/* Across side-on, the yaw wraps (the stadium turned 80 degrees one
	 * way is the one turned 100 degrees the other): the facing stays the
	 * nearer to last frame's. */
	if (previous != NULL && tracker_vec3_dot(body->forward, previous->forward) < 0.0)
		tracker_body_about(body);
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
	double level0 = tracker_body_level(body, cells->floor);
	TrackerVec3 e1, e2;
	TorsoPoints pts;
	TorsoPose pose;

	tracker_body_ground_axes(cells->floor->up, &e1, &e2);
	tracker_body_torso_points(cells, person, level0, body->height, e1, e2, &pts);
	if (pts.n >= MIN_FIT_POINTS)
		tracker_body_torso_trim(&pts, body->height);
	if (pts.n < MIN_FIT_POINTS)
		return;
	tracker_body_torso_unlean(&pts, body->lean, level0 + TRACKER_BODY_TORSO_UP * body->height);
	pose.cs = tracker_vec3_dot(tracker_body_centre(body), e1);
	pose.ct = tracker_vec3_dot(tracker_body_centre(body), e2);
	pose.yaw = body->yaw;
	tracker_body_torso_descend(&pts, &pose, 20.0, 5, 3);
	tracker_body_frame(body, cells->floor, pose, level0, e1, e2);
	tracker_body_core(body);
}

void
tracker_body_turn(TrackerBody *body)
{
	tracker_body_about(body);
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

/* ---- is it a person? ---- */

/* What the depth shows at a point of the legs' column @p: nothing to go
 * on (no reading, out of the image, something nearer hiding it), a
 * surface where the legs would be (the person's own, or another's), or
 * the room seen past where they would be. */
typedef enum { LEGS_UNKNOWN, LEGS_FILLED, LEGS_OWN, LEGS_THROUGH } LegsSample;

static LegsSample
tracker_body_legs_sample(const TrackerBody *body, const TrackerBodyCells *cells, TrackerVec3 p)
{
	const TrackerGrid *grid = cells->grid;
	double gu, gv, front, d;
	int k;

	if (!tracker_grid_locate(grid, p, &gu, &gv) || (k = tracker_grid_index(grid, gu, gv)) < 0 ||
	    grid->z[k] <= 0.0f)
		return LEGS_UNKNOWN;
	front = p.z - LEGS_FRONT * body->height;
	d = grid->z[k] - front;
	if (d < -LEGS_NEARER_MM)
		return LEGS_UNKNOWN;
	return d > LEGS_DEPTH_MM                  ? LEGS_THROUGH
	       : cells->labels[k] == cells->label ? LEGS_OWN
	                                          : LEGS_FILLED;
}

/* The person's surface about each row of the column, as a width: the
 * area of their cells at that height over the band's. */
static void
tracker_body_legs_widths(const TrackerBody *body, const TrackerBodyCells *cells,
                         double width[LEGS_ROWS], double *area)
{
	const TrackerGrid *grid = cells->grid;
	double H = body->height, step = (LEGS_HIGH - LEGS_LOW) / (LEGS_ROWS - 1) * H;
	double below = LEGS_HIGH * H;

	*area = 0.0;
	memset(width, 0, LEGS_ROWS * sizeof(double));
	TRACKER_BODY_FOREACH_CELL(cells, k)
	{
		double z = grid->z[k], up, a;
		int row;

		if (cells->labels[k] != cells->label)
			continue;
		up = tracker_vec3_dot(tracker_vec3_sub(tracker_grid_point(grid, k), body->origin),
		                      body->up);
		if (up > below + 0.5 * step)
			continue;
		a = grid->count[k] * (z / grid->camera.fx) * (z / grid->camera.fy);
		if (up <= below)
			*area += a;
		row = (int)floor((up - LEGS_LOW * H) / step + 0.5);
		if (row >= 0 && row < LEGS_ROWS)
			width[row] += a / step;
	}
	*area /= H * H;
}

void
tracker_body_legs(const TrackerBody *body, const TrackerBodyCells *cells, TrackerLegs *legs)
{
	double H = body->height, width[LEGS_ROWS];
	/* Across the view, whichever way the person faces: side-on, a
	 * person's legs are as wide as a thigh is deep. */
	TrackerVec3 across = tracker_vec3_normalize(tracker_vec3_cross(body->up, body->origin));

	memset(legs, 0, sizeof(*legs));
	tracker_body_legs_widths(body, cells, width, &legs->area);
	for (int i = 0; i < LEGS_ROWS; i++) {
		double up = (LEGS_LOW + (LEGS_HIGH - LEGS_LOW) * i / (LEGS_ROWS - 1)) * H;
		TrackerVec3 axis = tracker_body_point(body, 0.0, up, 0.0);
		guint judged = 0, through = 0, own = 0;

		for (int j = 0; j < LEGS_COLUMNS; j++) {
			double l = (-LEGS_HALF + 2.0 * LEGS_HALF * j / (LEGS_COLUMNS - 1)) * H;
			LegsSample s = tracker_body_legs_sample(body, cells,
			                                        tracker_vec3_mad(axis, across, l));

			judged += s != LEGS_UNKNOWN;
			through += s == LEGS_THROUGH;
			own += s == LEGS_OWN;
		}
		legs->judged += judged;
		legs->through += through;
		/* No more of the person there than a pole, and the sensor sees
		 * past it, or what fills it is something else (a pot). */
		legs->open_rows +=
		        (through > 0 || (judged >= 2 && own == 0)) && width[i] < LEGS_POLE * H;
	}
}
