#include "tracker-limb.h"

#include <math.h>
#include <string.h>

#define N_DIRECTIONS    160
#define MAX_SAMPLES     640
#define KEEP_UPPER      5
#define KEEP_CHAINS     4
#define UPPER_SPREAD    0.35 /* radians between kept upper segments */
#define EDGE_REACH      0.5  /* of a segment: how far a limb may go on past an image edge */
#define EDGE_ACROSS     1.5  /* ...crossing it over this many of its radii */
#define COARSE_STEPS    12
#define FINE_STEPS      24
#define CORE_SIDE_MM    20.0 /* a cell this far beside the trunk is not the trunk's */
#define FOLLOW_KEEP     0.5  /* last frame's pose is kept while it scores half as well */
#define CONFLICT_SHARED 0.1  /* a forearm this much on the other's cells: try both orders */
/* A thigh turned inwards by more than this (about 9 degrees, the most a
 * stride brings) would cross the other leg: where the two overlap in the
 * image, the front one is then not taken for the back one. */
#define LEG_INWARD 0.15
/* What the samples of a pose cost. An arm behind a turned body or behind
 * a neighbour is common, so hidden samples cost little; a limb the depth
 * does not decide is pulled towards hanging down, where a hidden arm most
 * likely is. */
#define COST_NONE       0.3  /* no reading where the limb would be */
#define COST_HIDDEN     0.1  /* something in front of the limb */
#define COST_HIDDEN_FAR 0.03 /* the far arm of a turned person, behind its trunk */
#define COST_SHARED     0.1  /* on cells another limb explains */
#define COST_BARE       1.0  /* a cell of the person that nothing explains */
#define COST_FREE       1.0  /* the sensor sees past where the limb would be */
#define COST_COLLIDE    3.0  /* a point of an arm deep inside the trunk */
#define PRIOR_PREVIOUS  1.0  /* per radian away from last frame's pose */
#define PRIOR_REST      0.6  /* per radian away from hanging down */
#define FAR_SIDE        0.34 /* a shoulder turned away by 20 degrees is the far one */

typedef struct {
	TrackerVec3 root;
	double len1, len2, reach2, r1, r2;
	double past_end; /* how far the body goes on past the end joint */
	double side;     /* +1 for the left limbs, -1 for the right */
	gboolean leg;
	double hidden_trunk; /* what a sample hidden behind the trunk costs */
} LimbModel;

typedef struct {
	int cell;
	float e;    /* where the limb's front surface would be, mm */
	guint8 seg; /* 0 upper, 1 lower */
} Sample;

typedef struct {
	TrackerVec3 upper, lower;
	double score;
} Chain;

typedef struct {
	double credit, cost;
	guint seen[2], in_view[2]; /* samples each segment has credit for, and in view */
	guint shared;              /* lower segment's samples on cells another limb explains */
} Tally;

struct _TrackerLimbFitter {
	const TrackerGrid *grid;
	const TrackerBodyCells *cells;
	const TrackerBody *body;
	guint32 *stamp; /* per cell: the pose that last drew it */
	int *slot;      /* ...and its sample */
	guint32 now;
	guint8 *core;         /* per cell: explained by the trunk */
	guint8 *claimed;      /* per cell: explained by a limb fitted already */
	guint8 *claimed_legs; /* ...by the legs alone, while the arms are tried */
	gboolean right_first; /* this person's fit took the right arm first */
	Sample samples[MAX_SAMPLES];
	int n_samples;
	TrackerVec3 dirs[N_DIRECTIONS];
};

static const TrackerVec3 arm_rest[2] = { { 0.12, -0.99, 0.0 }, { 0.08, -0.99, 0.08 } };
static const TrackerVec3 leg_rest[2] = { { 0.02, -1.0, 0.0 }, { 0.02, -1.0, 0.0 } };

TrackerLimbFitter *
tracker_limb_fitter_new(const TrackerGrid *grid)
{
	TrackerLimbFitter *f = g_new0(TrackerLimbFitter, 1);
	double golden = G_PI * (3.0 - sqrt(5.0));

	f->stamp = g_new0(guint32, grid->n);
	f->slot = g_new0(int, grid->n);
	f->core = g_new0(guint8, grid->n);
	f->claimed = g_new0(guint8, grid->n);
	f->claimed_legs = g_new0(guint8, grid->n);
	/* A Fibonacci sphere: directions spread evenly, about 16 degrees apart. */
	for (int i = 0; i < N_DIRECTIONS; i++) {
		double y = 1.0 - 2.0 * (i + 0.5) / N_DIRECTIONS, r = sqrt(1.0 - y * y);

		f->dirs[i] = tracker_vec3(r * cos(golden * i), y, r * sin(golden * i));
	}
	return f;
}

void
tracker_limb_fitter_free(TrackerLimbFitter *f)
{
	if (f == NULL)
		return;
	g_free(f->stamp);
	g_free(f->slot);
	g_free(f->core);
	g_free(f->claimed);
	g_free(f->claimed_legs);
	g_free(f);
}

/* ---- the limbs' shapes ---- */

static LimbModel
tracker_limb_model(const TrackerBody *body, TrackerLimbId id)
{
	double H = body->height;
	LimbModel m;

	m.side = (id == TRACKER_LIMB_LEFT_ARM || id == TRACKER_LIMB_LEFT_LEG) ? 1.0 : -1.0;
	m.leg = id >= TRACKER_LIMB_LEFT_LEG;
	if (m.leg) {
		m.root = tracker_body_point(body, m.side * TRACKER_BODY_HIP_HALF * H,
		                            TRACKER_BODY_PELVIS_UP * H, 0.0);
		m.len1 = TRACKER_BODY_THIGH * H;
		m.len2 = TRACKER_BODY_SHANK * H;
		m.reach2 = m.len2;
		m.r1 = 0.045 * H;
		m.r2 = 0.030 * H;
		m.past_end = m.r2; /* the heel under the ankle */
	} else {
		m.root = tracker_body_point(body, m.side * TRACKER_BODY_SHOULDER_HALF * H,
		                            TRACKER_BODY_SHOULDER_UP * H, 0.0);
		m.len1 = TRACKER_BODY_UPPER_ARM * H;
		m.len2 = (TRACKER_BODY_FOREARM + TRACKER_BODY_PALM) * H;
		m.reach2 = (TRACKER_BODY_FOREARM + TRACKER_BODY_HAND) * H;
		m.r1 = 0.032 * H;
		m.r2 = 0.022 * H;
		m.past_end = m.reach2 - m.len2; /* the fingers */
	}
	/* A turned person's far arm swings behind the trunk, out of sight:
	 * there it is most likely, not merely allowed. */
	m.hidden_trunk = COST_HIDDEN;
	if (!m.leg && tracker_vec3_dot(tracker_vec3_scale(body->left, m.side),
	                               tracker_vec3_normalize(body->origin)) > FAR_SIDE)
		m.hidden_trunk = COST_HIDDEN_FAR;
	return m;
}

/* A body-frame direction of @m's side in camera space. */
static TrackerVec3
tracker_limb_to_camera(const TrackerBody *body, const LimbModel *m, TrackerVec3 d)
{
	TrackerVec3 c = tracker_vec3_scale(body->left, m->side * d.x);

	c = tracker_vec3_mad(c, body->up, d.y);
	return tracker_vec3_mad(c, body->forward, d.z);
}

static gboolean
tracker_limb_upper_ok(const LimbModel *m, TrackerVec3 u)
{
	if (m->leg)
		return u.y <= -0.55 && u.x >= -LEG_INWARD && u.x <= 0.6;
	return u.z >= -0.6 && u.x >= -0.5;
}

/* Elbows bend up to 150 degrees; knees up to 130, and only backwards. */
static gboolean
tracker_limb_lower_ok(const LimbModel *m, TrackerVec3 u, TrackerVec3 l)
{
	double bend = tracker_vec3_dot(u, l);

	if (m->leg)
		return l.y <= -0.3 && bend >= -0.64 && l.z <= u.z + 0.15;
	return bend >= -0.87;
}

/* ---- drawing a pose into the cells ---- */

static double
tracker_limb_tolerance(double z)
{
	return 30.0 + 4.0e-6 * z * z;
}

static void
tracker_limb_add(TrackerLimbFitter *f, double gu, double gv, double e, guint8 seg)
{
	int cell = tracker_grid_index(f->grid, gu, gv);
	Sample *s;

	/* Outside the image: no evidence either way. */
	if (cell < 0)
		return;
	/* A cell drawn twice shows the nearer surface. */
	if (f->stamp[cell] == f->now) {
		s = &f->samples[f->slot[cell]];
		if (e < s->e) {
			s->e = (float)e;
			s->seg = seg;
		}
		return;
	}
	if (f->n_samples >= MAX_SAMPLES)
		return;
	f->stamp[cell] = f->now;
	f->slot[cell] = f->n_samples;
	f->samples[f->n_samples++] = (Sample){ cell, (float)e, seg };
}

/* Draws the segment @a..@b of radius @r: its axis, and with @wide two
 * lines either side of it. The ray through an axis point enters the
 * cylinder r / sin(angle between ray and axis) before it, no nearer than
 * the front of the nearer end: a limb pointing at the sensor shows its
 * side at pixels whose axis points lie far behind. */
static void
tracker_limb_draw(TrackerLimbFitter *f, TrackerVec3 a, TrackerVec3 b, double r, gboolean wide,
                  guint8 seg)
{
	TrackerVec3 mid = tracker_vec3_normalize(tracker_vec3_lerp(a, b, 0.5));
	double sine = tracker_vec3_length(
	        tracker_vec3_cross(tracker_vec3_normalize(tracker_vec3_sub(b, a)), mid));
	double front = MIN(a.z, b.z) - r, reach = r / MAX(sine, 0.05);
	double au, av, bu, bv, len, pu = 1.0, pv = 0.0;
	int steps;

	if (!tracker_grid_locate(f->grid, a, &au, &av) ||
	    !tracker_grid_locate(f->grid, b, &bu, &bv))
		return;
	len = MAX(fabs(bu - au), fabs(bv - av));
	steps = CLAMP((int)ceil(len / 0.8) + 1, 2, wide ? FINE_STEPS : COARSE_STEPS);
	if (len > 0.5) {
		double n = hypot(bu - au, bv - av);

		pu = -(bv - av) / n;
		pv = (bu - au) / n;
	}
	for (int k = 0; k < steps; k++) {
		TrackerVec3 p = tracker_vec3_lerp(a, b, (double)k / (steps - 1));
		double gu, gv, off;

		if (!tracker_grid_locate(f->grid, p, &gu, &gv))
			continue;
		tracker_limb_add(f, gu, gv, MAX(p.z - reach, front), seg);
		if (!wide)
			continue;
		off = 0.6 * r / tracker_grid_cell_mm(f->grid, p.z);
		if (off < 0.5)
			continue;
		/* 0.6 r off the axis the chord is 0.8 of the way through. */
		tracker_limb_add(f, gu + off * pu, gv + off * pv, MAX(p.z - 0.8 * reach, front),
		                 seg);
		tracker_limb_add(f, gu - off * pu, gv - off * pv, MAX(p.z - 0.8 * reach, front),
		                 seg);
	}
}

static void
tracker_limb_begin(TrackerLimbFitter *f)
{
	f->now++;
	f->n_samples = 0;
}

/* Begins a pose with @n samples already drawn (@drawn, as an earlier
 * pose left them): what drawing them again would give. */
static void
tracker_limb_begin_with(TrackerLimbFitter *f, const Sample *drawn, int n)
{
	tracker_limb_begin(f);
	for (int i = 0; i < n; i++) {
		f->stamp[drawn[i].cell] = f->now;
		f->slot[drawn[i].cell] = i;
		f->samples[i] = drawn[i];
	}
	f->n_samples = n;
}

/* What the drawn samples say about the pose. */
static void
tracker_limb_tally(TrackerLimbFitter *f, const LimbModel *m, Tally *t)
{
	const TrackerGrid *grid = f->grid;
	const guint16 *labels = f->cells->labels;

	memset(t, 0, sizeof(*t));
	for (int i = 0; i < f->n_samples; i++) {
		const Sample *s = &f->samples[i];
		double z = grid->z[s->cell], tol, d;
		gboolean own = labels[s->cell] == f->cells->label;
		gboolean trunk = own && f->core[s->cell];

		t->in_view[s->seg]++;
		if (z <= 0.0) {
			t->cost += COST_NONE;
			continue;
		}
		d = z - s->e;
		tol = tracker_limb_tolerance(s->e);
		if (d > tol) {
			t->cost += COST_FREE * MIN(1.0, (d - tol) / tol);
		} else if (d < -tol) {
			t->cost += trunk ? m->hidden_trunk : COST_HIDDEN;
		} else if (own && !trunk) {
			/* Seen: by cells that nothing else explains. A limb laid
			 * over the trunk's own surface is not seen, only allowed;
			 * one laid over another limb is as good as hidden. */
			if (f->claimed[s->cell]) {
				t->shared += s->seg;
				t->cost += COST_SHARED;
				continue;
			}
			t->seen[s->seg]++;
			t->credit += 1.0;
		}
	}
}

/* ---- scoring a pose ---- */

/* The chord between two unit directions: the angle, near enough. */
static double
tracker_limb_angle(TrackerVec3 a, TrackerVec3 b)
{
	return sqrt(MAX(0.0, 2.0 - 2.0 * tracker_vec3_dot(a, b)));
}

/* An arm deep inside the trunk is impossible: its joints, and the points
 * a quarter of the way along each segment, each cost COST_COLLIDE. Joints
 * alone let an upper arm run through the chest to an elbow just in front
 * of it (the hidden far arm of a walker, laid across the trunk). One
 * segment, @a to @b of radius @r, at a time: its far end and the points
 * a quarter, a half and three quarters of the way. */
static double
tracker_limb_collisions(const TrackerLimbFitter *f, const LimbModel *m, TrackerVec3 a,
                        TrackerVec3 b, double r)
{
	double cost = 0.0;

	if (m->leg)
		return 0.0;
	for (int i = 1; i <= 4; i++) {
		if (tracker_body_core_within(f->body, tracker_vec3_lerp(a, b, 0.25 * i), -0.5 * r))
			cost += COST_COLLIDE;
	}
	return cost;
}

static double
tracker_limb_prior(const LimbModel *m, TrackerVec3 u, TrackerVec3 l, const TrackerLimbPose *prev)
{
	const TrackerVec3 *rest = m->leg ? leg_rest : arm_rest;
	double cost = PRIOR_REST * (tracker_limb_angle(u, tracker_vec3_normalize(rest[0])) +
	                            tracker_limb_angle(l, tracker_vec3_normalize(rest[1])));

	if (prev != NULL && prev->valid)
		cost += PRIOR_PREVIOUS *
		        (tracker_limb_angle(u, prev->upper) + tracker_limb_angle(l, prev->lower));
	return cost;
}

/* Begins a pose with its upper segment, along @u, drawn; returns the
 * segment's far end (the elbow or the knee). */
static TrackerVec3
tracker_limb_draw_upper(TrackerLimbFitter *f, const LimbModel *m, TrackerVec3 u, gboolean wide)
{
	TrackerVec3 mid = tracker_vec3_mad(m->root, tracker_limb_to_camera(f->body, m, u), m->len1);

	tracker_limb_begin(f);
	tracker_limb_draw(f, m->root, mid, m->r1, wide, 0);
	return mid;
}

/* The upper segment alone, along its axis. */
static double
tracker_limb_score_upper(TrackerLimbFitter *f, const LimbModel *m, TrackerVec3 u)
{
	Tally t;

	tracker_limb_draw_upper(f, m, u, FALSE);
	tracker_limb_tally(f, m, &t);
	return t.credit - t.cost;
}

/* The chain's score once its upper segment is drawn (ending at @mid,
 * colliding at a cost of @collide_upper): the lower one drawn too. */
static double
tracker_limb_score_lower(TrackerLimbFitter *f, const LimbModel *m, TrackerVec3 u, TrackerVec3 l,
                         TrackerVec3 mid, double collide_upper, gboolean wide,
                         const TrackerLimbPose *prev, Tally *t)
{
	TrackerVec3 cl = tracker_limb_to_camera(f->body, m, l);

	tracker_limb_draw(f, mid, tracker_vec3_mad(mid, cl, m->reach2), m->r2, wide, 1);
	tracker_limb_tally(f, m, t);
	return t->credit - t->cost -
	       (collide_upper +
	        tracker_limb_collisions(f, m, mid, tracker_vec3_mad(mid, cl, m->len2), m->r2)) -
	       tracker_limb_prior(m, u, l, prev);
}

static double
tracker_limb_score(TrackerLimbFitter *f, const LimbModel *m, TrackerVec3 u, TrackerVec3 l,
                   gboolean wide, const TrackerLimbPose *prev, Tally *t)
{
	TrackerVec3 mid = tracker_limb_draw_upper(f, m, u, wide);
	double collide = tracker_limb_collisions(f, m, m->root, mid, m->r1);

	return tracker_limb_score_lower(f, m, u, l, mid, collide, wide, prev, t);
}

/* An upper segment drawn once, replayed under each lower one tried. */
typedef struct {
	TrackerVec3 upper, mid;
	double collide;
	Sample drawn[3 * FINE_STEPS]; /* a sample a step and, wide, two beside it */
	int n;
} UpperDrawn;

static void
tracker_limb_upper_drawn(TrackerLimbFitter *f, const LimbModel *m, TrackerVec3 u, gboolean wide,
                         UpperDrawn *d)
{
	d->upper = u;
	d->mid = tracker_limb_draw_upper(f, m, u, wide);
	d->collide = tracker_limb_collisions(f, m, m->root, d->mid, m->r1);
	d->n = f->n_samples;
	g_assert(d->n <= (int)G_N_ELEMENTS(d->drawn));
	memcpy(d->drawn, f->samples, d->n * sizeof(Sample));
}

/* tracker_limb_score() of @d's upper segment and @l: the same figure,
 * the upper segment not drawn again. */
static double
tracker_limb_score_on(TrackerLimbFitter *f, const LimbModel *m, const UpperDrawn *d, TrackerVec3 l,
                      gboolean wide, const TrackerLimbPose *prev, Tally *t)
{
	tracker_limb_begin_with(f, d->drawn, d->n);
	return tracker_limb_score_lower(f, m, d->upper, l, d->mid, d->collide, wide, prev, t);
}

/* ---- searching ---- */

/* Inserts @c into @best (sorted, @n of at most @max), best first. */
static void
tracker_limb_keep(Chain *best, int *n, int max, Chain c)
{
	int i;

	if (*n == max && c.score <= best[max - 1].score)
		return;
	i = *n < max ? (*n)++ : max - 1;
	while (i > 0 && best[i - 1].score < c.score) {
		best[i] = best[i - 1];
		i--;
	}
	best[i] = c;
}

/* The best upper segments, each at least UPPER_SPREAD from the others. */
static int
tracker_limb_uppers(TrackerLimbFitter *f, const LimbModel *m, const TrackerLimbPose *prev,
                    Chain *kept)
{
	Chain all[N_DIRECTIONS + 1];
	int n_all = 0, n_kept = 0;

	for (int i = 0; i <= N_DIRECTIONS; i++) {
		TrackerVec3 u = i < N_DIRECTIONS ? f->dirs[i]
		                : prev != NULL   ? prev->upper
		                                 : f->dirs[0];

		if ((i == N_DIRECTIONS && (prev == NULL || !prev->valid)) ||
		    !tracker_limb_upper_ok(m, u))
			continue;
		all[n_all] = (Chain){ u, u, tracker_limb_score_upper(f, m, u) };
		n_all++;
	}
	while (n_kept < KEEP_UPPER) {
		int best = -1;

		for (int i = 0; i < n_all; i++) {
			gboolean near = FALSE;

			for (int k = 0; k < n_kept && !near; k++)
				near = tracker_limb_angle(all[i].upper, kept[k].upper) <
				       UPPER_SPREAD;
			if (!near && (best < 0 || all[i].score > all[best].score))
				best = i;
		}
		if (best < 0)
			break;
		kept[n_kept++] = all[best];
		all[best].score = -G_MAXDOUBLE;
	}
	return n_kept;
}

/* Every lower segment on each kept upper one, along the axes. */
static int
tracker_limb_chains(TrackerLimbFitter *f, const LimbModel *m, const TrackerLimbPose *prev,
                    Chain *best)
{
	Chain uppers[KEEP_UPPER];
	int n_uppers = tracker_limb_uppers(f, m, prev, uppers), n = 0;
	Tally t;

	for (int k = 0; k < n_uppers; k++) {
		TrackerVec3 u = uppers[k].upper;
		UpperDrawn drawn;

		tracker_limb_upper_drawn(f, m, u, FALSE, &drawn);
		for (int i = 0; i <= N_DIRECTIONS; i++) {
			TrackerVec3 l = i < N_DIRECTIONS ? f->dirs[i]
			                : prev != NULL   ? prev->lower
			                                 : f->dirs[0];
			Chain c = { u, l, 0.0 };

			if ((i == N_DIRECTIONS && (prev == NULL || !prev->valid)) ||
			    !tracker_limb_lower_ok(m, u, l))
				continue;
			c.score = tracker_limb_score_on(f, m, &drawn, l, FALSE, prev, &t);
			tracker_limb_keep(best, &n, KEEP_CHAINS, c);
		}
	}
	return n;
}

/* @d turned by @a and @b about two axes square to it. */
static TrackerVec3
tracker_limb_turn(TrackerVec3 d, double a, double b)
{
	TrackerVec3 helper = fabs(d.y) < 0.9 ? tracker_vec3(0, 1, 0) : tracker_vec3(1, 0, 0);
	TrackerVec3 p1 = tracker_vec3_normalize(tracker_vec3_cross(d, helper));
	TrackerVec3 p2 = tracker_vec3_cross(d, p1);

	return tracker_vec3_normalize(tracker_vec3_mad(tracker_vec3_mad(d, p1, a), p2, b));
}

/* Local descent over the chain's four angles, drawing wide; the lower
 * segment's turns are tried on the upper one as drawn. */
static void
tracker_limb_descend(TrackerLimbFitter *f, const LimbModel *m, const TrackerLimbPose *prev,
                     Chain *c)
{
	UpperDrawn drawn;
	Tally t;

	tracker_limb_upper_drawn(f, m, c->upper, TRUE, &drawn);
	c->score = tracker_limb_score_on(f, m, &drawn, c->lower, TRUE, prev, &t);
	for (double step = 0.2; step > 0.04; step *= 0.5) {
		for (int param = 0; param < 8; param++) {
			double a = (param & 1) ? step : -step;
			Chain trial = *c;

			if (param < 4)
				trial.upper = tracker_limb_turn(c->upper, param < 2 ? a : 0,
				                                param < 2 ? 0 : a);
			else
				trial.lower = tracker_limb_turn(c->lower, param < 6 ? a : 0,
				                                param < 6 ? 0 : a);
			if (!tracker_limb_upper_ok(m, trial.upper) ||
			    !tracker_limb_lower_ok(m, trial.upper, trial.lower))
				continue;
			/* An upper turn taken since it was drawn: drawn again. */
			if (param >= 4 && memcmp(&drawn.upper, &c->upper, sizeof(c->upper)) != 0)
				tracker_limb_upper_drawn(f, m, c->upper, TRUE, &drawn);
			trial.score = param < 4 ? tracker_limb_score(f, m, trial.upper, trial.lower,
			                                             TRUE, prev, &t)
			                        : tracker_limb_score_on(f, m, &drawn, trial.lower,
			                                                TRUE, prev, &t);
			if (trial.score > c->score)
				*c = trial;
		}
	}
}

/* Scores the chosen chain and how much of it the depth shows. */
static void
tracker_limb_finish(TrackerLimbFitter *f, const LimbModel *m, const TrackerLimbPose *prev,
                    const Chain *best, TrackerLimbPose *out)
{
	Tally t;

	out->upper = best->upper;
	out->lower = best->lower;
	out->score = tracker_limb_score(f, m, best->upper, best->lower, TRUE, prev, &t);
	out->seen_upper = (double)t.seen[0] / MAX(1u, t.in_view[0]);
	out->seen_lower = (double)t.seen[1] / MAX(1u, t.in_view[1]);
	out->shared = (double)t.shared / MAX(1u, t.in_view[1]);
}

static void
tracker_limb_search(TrackerLimbFitter *f, const LimbModel *m, const TrackerLimbPose *prev,
                    TrackerLimbPose *out)
{
	Chain chains[KEEP_CHAINS + 1], best;
	int n = tracker_limb_chains(f, m, prev, chains);

	if (prev != NULL && prev->valid)
		chains[n++] = (Chain){ prev->upper, prev->lower, 0.0 };
	best.score = -G_MAXDOUBLE;
	for (int i = 0; i < n; i++) {
		tracker_limb_descend(f, m, prev, &chains[i]);
		if (chains[i].score > best.score)
			best = chains[i];
	}
	out->valid = n > 0;
	if (out->valid)
		tracker_limb_finish(f, m, prev, &best, out);
}

/* Last frame's pose, refined; FALSE when it no longer fits (its score
 * fell by half) and a search is due. */
static gboolean
tracker_limb_follow(TrackerLimbFitter *f, const LimbModel *m, const TrackerLimbPose *prev,
                    TrackerLimbPose *out)
{
	Chain c;

	if (prev == NULL || !prev->valid || prev->score <= 0.0)
		return FALSE;
	c = (Chain){ prev->upper, prev->lower, 0.0 };
	tracker_limb_descend(f, m, prev, &c);
	out->valid = TRUE;
	tracker_limb_finish(f, m, prev, &c, out);
	return out->score >= FOLLOW_KEEP * prev->score;
}

/* ---- the person's cells ---- */

/* Whether the trunk explains a surface point @p. In front of the trunk,
 * within @depth_tol of it (the sensor's depth is that uncertain, and a
 * forearm laid on the chest is no nearer). Beside the trunk the depth's
 * uncertainty says nothing about where a cell lies across the image, which
 * is known to a cell or so: there the point, taken back along its ray by
 * up to @depth_tol, must lie within CORE_SIDE_MM of the trunk. So a thin
 * arm hanging close by the trunk stays the arm's however far away the
 * person stands, where a margin of @depth_tol all round took it. */
static gboolean
tracker_limb_core_cell(const TrackerLimbFitter *f, TrackerVec3 p, double depth_tol)
{
	TrackerVec3 ray = tracker_vec3_normalize(p);
	double side = fabs(tracker_vec3_dot(tracker_vec3_sub(p, f->body->origin), f->body->left));
	double half = (TRACKER_BODY_TORSO_HALF + TRACKER_BODY_TORSO_RADIUS) * f->body->height;

	if (side < half - CORE_SIDE_MM)
		return tracker_body_core_within(f->body, p, depth_tol);
	for (int i = 0; i <= 2; i++) {
		if (tracker_body_core_within(f->body, tracker_vec3_mad(p, ray, 0.5 * i * depth_tol),
		                             CORE_SIDE_MM))
			return TRUE;
	}
	return FALSE;
}

/* Marks the person's cells that the trunk explains, and clears claims. */
static void
tracker_limb_mark_core(TrackerLimbFitter *f)
{
	const TrackerGrid *grid = f->grid;

	TRACKER_BODY_FOREACH_CELL(f->cells, k)
	{
		f->claimed[k] = 0;
		f->core[k] = 0;
		if (f->cells->labels[k] != f->cells->label)
			continue;
		f->core[k] = tracker_limb_core_cell(f, tracker_grid_point(grid, k),
		                                    tracker_limb_tolerance(grid->z[k]) - 10.0);
	}
}

/* Claims the person's cells near the fitted limb for it alone, looking
 * only within the limb's own box on the grid. */
static void
tracker_limb_claim(TrackerLimbFitter *f, const LimbModel *m, const TrackerLimbPose *pose)
{
	const TrackerGrid *grid = f->grid;
	TrackerCapsule seg[2];
	double u0 = G_MAXDOUBLE, v0 = G_MAXDOUBLE, u1 = -G_MAXDOUBLE, v1 = -G_MAXDOUBLE, margin;
	TrackerVec3 ends[3];

	seg[0].a = m->root;
	seg[0].b =
	        tracker_vec3_mad(m->root, tracker_limb_to_camera(f->body, m, pose->upper), m->len1);
	seg[0].r = m->r1;
	seg[1].a = seg[0].b;
	seg[1].b = tracker_vec3_mad(seg[1].a, tracker_limb_to_camera(f->body, m, pose->lower),
	                            m->reach2);
	seg[1].r = m->r2;
	ends[0] = seg[0].a;
	ends[1] = seg[0].b;
	ends[2] = seg[1].b;
	for (int i = 0; i < 3; i++) {
		double gu, gv;

		if (!tracker_grid_locate(grid, ends[i], &gu, &gv))
			return;
		margin = (m->r1 + tracker_limb_tolerance(ends[i].z)) /
		         tracker_grid_cell_mm(grid, ends[i].z);
		u0 = MIN(u0, gu - margin);
		v0 = MIN(v0, gv - margin);
		u1 = MAX(u1, gu + margin);
		v1 = MAX(v1, gv + margin);
	}
	for (int v = MAX(0, (int)v0); v <= MIN(grid->height - 1, (int)v1); v++) {
		for (int u = MAX(0, (int)u0); u <= MIN(grid->width - 1, (int)u1); u++) {
			int k = v * grid->width + u;
			TrackerVec3 p;
			double tol;

			if (f->cells->labels[k] != f->cells->label || f->claimed[k])
				continue;
			p = tracker_grid_point(grid, k);
			/* Tight: the trunk next to the limb stays the trunk's. */
			tol = 0.5 * tracker_limb_tolerance(p.z);
			f->claimed[k] = tracker_body_capsule_within(&seg[0], p, tol) ||
			                tracker_body_capsule_within(&seg[1], p, tol);
		}
	}
}

/* Fits limb @id, from last frame's pose unless @search or it no longer
 * fits, and claims its cells. */
static void
tracker_limb_fit_one(TrackerLimbFitter *f, TrackerLimbId id, const TrackerLimbPose *previous,
                     gboolean search, TrackerLimbPose *pose)
{
	LimbModel m = tracker_limb_model(f->body, id);
	const TrackerLimbPose *prev = previous != NULL ? &previous[id] : NULL;

	if (search || !tracker_limb_follow(f, &m, prev, pose))
		tracker_limb_search(f, &m, prev, pose);
	if (pose->valid)
		tracker_limb_claim(f, &m, pose);
}

/* Copies the claims on the person's cells. */
static void
tracker_limb_save_claims(TrackerLimbFitter *f, guint8 *from, guint8 *to)
{
	TRACKER_BODY_FOREACH_CELL(f->cells, k)
	to[k] = from[k];
}

/* What the two arms explain together, less what they leave: the person's
 * cells that neither the trunk nor any limb explains. An arm laid over
 * the other one's hand takes its credit, and leaves its own cells bare. */
static double
tracker_limb_pair_score(const TrackerLimbFitter *f, const TrackerLimbPose poses[TRACKER_N_LIMBS])
{
	double s = 0.0;

	for (int id = TRACKER_LIMB_LEFT_ARM; id <= TRACKER_LIMB_RIGHT_ARM; id++)
		s += poses[id].valid ? poses[id].score : 0.0;
	TRACKER_BODY_FOREACH_CELL(f->cells, k)
	{
		if (f->cells->labels[k] == f->cells->label && !f->core[k] && !f->claimed[k])
			s -= COST_BARE;
	}
	return s;
}

/* Both arms, @first then the other (ids 0 and 1): the first takes the
 * cells it explains, and the second is fitted to what is left. */
static void
tracker_limb_fit_arms(TrackerLimbFitter *f, TrackerLimbId first, const TrackerLimbPose *previous,
                      gboolean search, TrackerLimbPose poses[TRACKER_N_LIMBS])
{
	tracker_limb_fit_one(f, first, previous, search, &poses[first]);
	tracker_limb_fit_one(f, first ^ 1, previous, search, &poses[first ^ 1]);
}

/* The arms, fitted one after the other. Whichever goes first can take the
 * other's cells (a hidden far arm laid over the near one, a hanging arm
 * reaching over the head for the raised one), and the second is left a
 * guess over the first: when the second lies largely on the first's
 * cells, the other order is tried too and the pair that explains more is
 * kept. */
static void
tracker_limb_fit_pair(TrackerLimbFitter *f, const TrackerLimbPose *previous, gboolean search,
                      TrackerLimbPose poses[TRACKER_N_LIMBS])
{
	TrackerLimbPose other[TRACKER_N_LIMBS];
	double first;

	f->right_first = FALSE;
	tracker_limb_save_claims(f, f->claimed, f->claimed_legs);
	tracker_limb_fit_arms(f, TRACKER_LIMB_LEFT_ARM, previous, search, poses);
	if (!poses[TRACKER_LIMB_RIGHT_ARM].valid ||
	    poses[TRACKER_LIMB_RIGHT_ARM].shared < CONFLICT_SHARED)
		return;
	first = tracker_limb_pair_score(f, poses);
	tracker_limb_save_claims(f, f->claimed_legs, f->claimed);
	memcpy(other, poses, sizeof(other));
	tracker_limb_fit_arms(f, TRACKER_LIMB_RIGHT_ARM, previous, search, other);
	if (tracker_limb_pair_score(f, other) > first) {
		memcpy(poses, other, sizeof(other));
		f->right_first = TRUE;
		return;
	}
	/* The first order stays: its claims again. */
	tracker_limb_save_claims(f, f->claimed_legs, f->claimed);
	for (int id = TRACKER_LIMB_LEFT_ARM; id <= TRACKER_LIMB_RIGHT_ARM; id++) {
		LimbModel m = tracker_limb_model(f->body, (TrackerLimbId)id);

		if (poses[id].valid)
			tracker_limb_claim(f, &m, &poses[id]);
	}
}

void
tracker_limb_fit(TrackerLimbFitter *f, const TrackerBody *body, const TrackerBodyCells *cells,
                 const TrackerLimbPose *previous, gboolean search,
                 TrackerLimbPose poses[TRACKER_N_LIMBS])
{
	f->grid = cells->grid;
	f->cells = cells;
	f->body = body;
	tracker_limb_mark_core(f);
	/* Legs first: a hanging hand beside a thigh is then the arm's. */
	tracker_limb_fit_one(f, TRACKER_LIMB_LEFT_LEG, previous, search,
	                     &poses[TRACKER_LIMB_LEFT_LEG]);
	tracker_limb_fit_one(f, TRACKER_LIMB_RIGHT_LEG, previous, search,
	                     &poses[TRACKER_LIMB_RIGHT_LEG]);
	tracker_limb_fit_pair(f, previous, search, poses);
}

void
tracker_limb_refine(TrackerLimbFitter *f, const TrackerBody *body, const TrackerBodyCells *cells,
                    const TrackerLimbPose *previous, TrackerLimbPose poses[TRACKER_N_LIMBS])
{
	TrackerLimbId first = f->right_first ? TRACKER_LIMB_RIGHT_ARM : TRACKER_LIMB_LEFT_ARM;
	const TrackerLimbId order[TRACKER_N_LIMBS] = { TRACKER_LIMB_LEFT_LEG,
		                                       TRACKER_LIMB_RIGHT_LEG, first, first ^ 1 };

	f->grid = cells->grid;
	f->cells = cells;
	f->body = body;
	/* The trunk moved a little since it was marked: the marks still do. */
	TRACKER_BODY_FOREACH_CELL(cells, k)
	f->claimed[k] = 0;
	for (int i = 0; i < TRACKER_N_LIMBS; i++) {
		TrackerLimbId id = order[i];
		LimbModel m = tracker_limb_model(body, id);
		const TrackerLimbPose *prev = previous != NULL ? &previous[id] : NULL;
		Chain c = { poses[id].upper, poses[id].lower, 0.0 };

		if (!poses[id].valid)
			continue;
		tracker_limb_descend(f, &m, prev, &c);
		tracker_limb_finish(f, &m, prev, &c, &poses[id]);
		tracker_limb_claim(f, &m, &poses[id]);
	}
}

const guint8 *
tracker_limb_claims(const TrackerLimbFitter *f)
{
	return f->claimed;
}

const guint8 *
tracker_limb_core(const TrackerLimbFitter *f)
{
	return f->core;
}

/* ---- joints ---- */

/* How sure a joint is: what the depth shows of the segment leading to it;
 * a joint the depth does not show at all is a guess. */
static double
tracker_limb_confidence(double seen)
{
	return seen < 0.15 ? 0.2 : 0.4 + 0.6 * MIN(1.0, seen / 0.8);
}

/* Whether cell @k is the person's and so are its four neighbours. */
static gboolean
tracker_limb_inner_cell(const TrackerBodyCells *cells, int k)
{
	const TrackerGrid *grid = cells->grid;
	int u = k % grid->width, v = k / grid->width;

	if (cells->labels[k] != cells->label || u == 0 || v == 0 || u == grid->width - 1 ||
	    v == grid->height - 1)
		return FALSE;
	return cells->labels[k - 1] == cells->label && cells->labels[k + 1] == cells->label &&
	       cells->labels[k - grid->width] == cells->label &&
	       cells->labels[k + grid->width] == cells->label;
}

/* A joint on the edge of the person's outline, or off it, sits beside the
 * limb rather than in it (a body of other proportions than the model's):
 * it moves to the middle of the person's cells within @reach of it, each
 * taken @r behind its surface, on the limb's axis. A joint hidden behind
 * the person's own body is left where it is. */
static TrackerVec3
tracker_limb_snap(const TrackerBodyCells *cells, TrackerVec3 joint, double r, double reach)
{
	const TrackerGrid *grid = cells->grid;
	TrackerVec3 sum = tracker_vec3(0, 0, 0);
	double gu, gv;
	int k, half;
	guint n = 0;

	if (!tracker_grid_locate(grid, joint, &gu, &gv))
		return joint;
	k = tracker_grid_index(grid, gu, gv);
	if (k < 0 || tracker_limb_inner_cell(cells, k))
		return joint;
	half = (int)ceil(reach / tracker_grid_cell_mm(grid, joint.z));
	for (int v = MAX(0, (int)gv - half); v <= MIN(grid->height - 1, (int)gv + half); v++) {
		for (int u = MAX(0, (int)gu - half); u <= MIN(grid->width - 1, (int)gu + half);
		     u++) {
			TrackerVec3 p = tracker_grid_point(grid, v * grid->width + u);

			if (cells->labels[v * grid->width + u] != cells->label)
				continue;
			p = tracker_vec3_mad(p, tracker_vec3_normalize(p), r);
			if (tracker_vec3_distance(p, joint) > reach)
				continue;
			sum = tracker_vec3_add(sum, p);
			n++;
		}
	}
	return n >= 3 ? tracker_vec3_scale(sum, 1.0 / n) : joint;
}

/* Whether the person's cells within @reach of @joint, and past it going
 * from @from (all round it when @from is @joint), cross the image's left
 * or right edge over @across or more, as a limb's width does: the limb
 * may go on past the edge, and where it ends is a guess dragged into
 * view (an arm held out past the side). A fist that only touches the
 * edge crosses it over less, and the trunk cut by the edge behind a hand
 * is not past it. The bottom edge is left alone: hands rest on a desk
 * there, in view, with the trunk cut beside them, and forearms hanging
 * past it at close range are not told apart. */
static gboolean
tracker_limb_runs_off(const TrackerBodyCells *cells, TrackerVec3 from, TrackerVec3 joint,
                      double reach, double across)
{
	const TrackerGrid *grid = cells->grid;
	TrackerVec3 dir = tracker_vec3_sub(joint, from);
	double gu, gv, cell_mm = tracker_grid_cell_mm(grid, joint.z);
	int half, n = 0;

	/* Out of the image, the joint is left out anyway (what is past it is
	 * judged on its own). */
	if (!tracker_grid_locate(grid, joint, &gu, &gv))
		return FALSE;
	half = (int)ceil(reach / cell_mm);
	for (int v = MAX(0, (int)gv - half); v <= MIN(grid->height - 1, (int)gv + half); v++) {
		for (int u = MAX(0, (int)gu - half); u <= MIN(grid->width - 1, (int)gu + half);
		     u++) {
			int k = v * grid->width + u;

			n += tracker_grid_on_side(grid, u) && cells->labels[k] == cells->label &&
			     tracker_vec3_dot(tracker_vec3_sub(tracker_grid_point(grid, k), joint),
			                      dir) >= 0.0;
		}
	}
	return n * cell_mm >= across;
}

void
tracker_limb_joints(const TrackerBody *body, const TrackerBodyCells *cells,
                    const TrackerLimbPose poses[TRACKER_N_LIMBS],
                    TrackerVec3 joints[TRACKER_N_JOINTS], double confidence[TRACKER_N_JOINTS])
{
	for (int id = 0; id < TRACKER_N_LIMBS; id++) {
		LimbModel m = tracker_limb_model(body, (TrackerLimbId)id);
		/* Joint ids: elbows 5/6, hands 7/8, knees 11/12, feet 13/14. */
		int mid = (m.leg ? TRACKER_JOINT_LEFT_KNEE : TRACKER_JOINT_LEFT_ELBOW) + (id & 1);
		int end = mid + 2;
		const TrackerLimbPose *p = &poses[id];

		if (!p->valid) {
			confidence[mid] = confidence[end] = 0.0;
			continue;
		}
		joints[mid] = tracker_vec3_mad(m.root, tracker_limb_to_camera(body, &m, p->upper),
		                               m.len1);
		joints[end] = tracker_vec3_mad(joints[mid],
		                               tracker_limb_to_camera(body, &m, p->lower), m.len2);
		/* Legs end where the floor was cut away: their edge is no sign. */
		if (!m.leg) {
			joints[mid] = tracker_limb_snap(cells, joints[mid], m.r1, 2.0 * m.r1);
			joints[end] = tracker_limb_snap(cells, joints[end], m.r2, 2.0 * m.r1);
		}
		confidence[mid] = tracker_limb_confidence(MAX(p->seen_upper, p->seen_lower));
		confidence[end] = tracker_limb_confidence(p->seen_lower);
		/* What lies past a joint: the forearm past an elbow (half of
		 * it: the model's lengths are that far off), the fingers past
		 * a hand. */
		if (tracker_limb_runs_off(cells, joints[mid], joints[mid], EDGE_REACH * m.len2,
		                          EDGE_ACROSS * m.r2))
			confidence[mid] = confidence[end] = 0.0;
		else if (tracker_limb_runs_off(cells, joints[mid], joints[end], m.past_end,
		                               EDGE_ACROSS * m.r2))
			confidence[end] = 0.0;
	}
}
