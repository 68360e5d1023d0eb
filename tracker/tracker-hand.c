#include "tracker-hand.h"

#include <math.h>
#include <string.h>

/* Where the hand is: within this of the hand joint (an adult's fingertips
 * are 110 to 130 mm from the palm's centre, and the joint may be a few
 * centimetres off), and on the hand's side of a plane this far from the
 * joint toward the elbow (an adult's wrist is 45 to 80 mm from the
 * palm's centre). */
#define BALL_MM  170.0
#define WRIST_MM 50.0
/* Where the ball cuts what lies ahead of the joint, past this along the
 * forearm, over more than a finger's width, the limb goes on: the joint
 * is not at its end, and what is about it is not the hand. */
#define AHEAD_MM     85.0
#define MAX_AHEAD_MM 30.0
/* An elbow this much nearer the sensor than its hand may be the hand,
 * if it ends the arm: nothing of the user within the ball about it lies
 * nearer the sensor than this (a hand's depth with its fingers, and the
 * joint's own depth behind the surface). */
#define FLIP_NEARER_MM 50.0
#define FLIP_END_MM    150.0
/* A hand joins its forearm at the wrist: where the forearm is seen
 * across the image, what is cut out must go on past the wrist over this
 * much, or it is some other part of the body the joint fell on. */
#define MIN_WRIST_MM 20.0
#define SEED_MM      90.0 /* the hand's nearest pixel is at most this far from the joint */
/* The joint must have been found, with some of the forearm seen. */
#define MIN_JOINT_CONFIDENCE 0.4
/* An adult's finger is 18 mm thick; the sensor smears edges over a
 * pixel or two, so that a finger narrower than this on the image, and
 * the gaps between fingers, are lost. */
#define FINGER_MM     18.0
#define MIN_FINGER_PX 3.5
#define SAMPLE_MM     2.0 /* pixels are sampled no finer than this */
#define MAX_SIDE      128 /* samples across the window about the hand */
#define MIN_SAMPLES   24
/* Samples this deep in, as a share of the deepest, may be the palm's centre. */
#define PALM_DEPTH_SHARE 0.85
/* A palm's largest disc: 30 to 50 mm in radius for adults and children. */
#define MIN_PALM_MM 18.0
#define MAX_PALM_MM 70.0
/* More of the outline than this is the ball's cut: merged with the body. */
#define MAX_CUT_SHARE 0.45
/* The circles past the palm, in palm radii, and their points. */
#define N_CIRCLE     48
#define FOREARM_COS  0.64 /* the side the forearm comes from: 50 degrees each way */
#define FOREARM_SEEN 0.35 /* ...when the forearm is seen this much across the image */
/* ...and what lies farther back along the forearm than this many palm
 * radii from the palm's centre: the wrist and a sleeve, not fingers. */
#define BEHIND_PALM 0.5
/* A fist leaves the circles nearly bare, spread fingers cover a quarter. */
#define CLOSED_MAX_COVER   0.08
#define OPEN_MIN_COVER     0.14
#define OPEN_FULL_COVER    0.24
#define ONE_RUN_CONFIDENCE 0.5
/* The hysteresis: frames running that the shown state survives without
 * support (a new state needs two frames running to show). */
#define HOLD_FRAMES 1

static const double circle_radii[] = { 1.6, 2.0 };

/* Chamfer distances: 3 a step across, 4 diagonally. */
#define STEP_ORTHO 3
#define STEP_DIAG  4

#define OUTSIDE (-1.0f) /* the depth of a sample past the image's edge */
#define UNREAD  (-2.0f) /* ...and of one not read yet */

struct _TrackerHandFinder {
	float z[MAX_SIDE * MAX_SIDE]; /* the user's depth per sample; 0: none */
	guint8 mask[MAX_SIDE * MAX_SIDE];
	guint16 dist[MAX_SIDE * MAX_SIDE];
	int queue[MAX_SIDE * MAX_SIDE];
};

/* The samples about the hand: every @step-th pixel from (u0, v0). */
typedef struct {
	int u0, v0, step, side;
	double sample_mm;        /* the side of a sample at the joint's depth */
	TrackerVec3 hand, along; /* the joint; unit, from the elbow through it */
	const TrackerHandImage *image;
	double ju, jv; /* the joint's pixel */
} HandWindow;

typedef struct {
	guint pixels;
	guint edge, cut; /* outline steps: a depth edge; the ball's cut */
	guint ahead;     /* ...of the cut, ahead of the joint */
	guint wrist;     /* outline steps on, past the wrist */
	int seed;
	int i0, j0, i1, j1; /* the samples' bounds, inclusive */
} HandRegion;

TrackerHandFinder *
tracker_hand_finder_new(void)
{
	return g_new0(TrackerHandFinder, 1);
}

void
tracker_hand_finder_free(TrackerHandFinder *finder)
{
	g_free(finder);
}

/* ---- the window ---- */

static gboolean
hand_window(const TrackerCamera *c, TrackerVec3 hand, TrackerVec3 elbow, HandWindow *w)
{
	double px_mm, half_px;
	int half;

	/* A hand out of the picture is not seen. */
	if (!tracker_camera_project(c, hand, &w->ju, &w->jv) ||
	    !(w->ju >= 0.0 && w->jv >= 0.0 && w->ju < c->width && w->jv < c->height))
		return FALSE;
	px_mm = hand.z / c->fx;
	if (!(FINGER_MM / px_mm >= MIN_FINGER_PX))
		return FALSE;
	half_px = BALL_MM / px_mm;
	w->step = MAX(1, (int)floor(SAMPLE_MM / px_mm + 0.5));
	w->step = MAX(w->step, (int)ceil((2.0 * half_px + 1.0) / MAX_SIDE));
	half = MIN((int)ceil(half_px / w->step), (MAX_SIDE - 1) / 2);
	w->side = 2 * half + 1;
	w->u0 = (int)floor(w->ju + 0.5) - half * w->step;
	w->v0 = (int)floor(w->jv + 0.5) - half * w->step;
	w->sample_mm = px_mm * w->step;
	w->hand = hand;
	w->along = tracker_vec3_normalize(tracker_vec3_sub(hand, elbow));
	return TRUE;
}

static gboolean
hand_is_user(const TrackerHandImage *image, int u, int v)
{
	int k = (v / image->label_step) * image->label_width + u / image->label_step;

	return image->labels[k] == image->label;
}

/* Marks every sample as not read yet: only those the hand reaches are. */
static void
hand_sample(TrackerHandFinder *f, const HandWindow *w)
{
	for (int k = 0; k < w->side * w->side; k++)
		f->z[k] = UNREAD;
}

/* The user's depth at sample @k (0: none; OUTSIDE past the image's edge,
 * where the outline is not seen), read the first time it is asked for. */
static float
hand_z(TrackerHandFinder *f, const HandWindow *w, int k)
{
	const TrackerHandImage *image = w->image;
	const TrackerCamera *c = image->camera;
	int u = w->u0 + (k % w->side) * w->step, v = w->v0 + (k / w->side) * w->step;

	if (f->z[k] != UNREAD)
		return f->z[k];
	if (u < 0 || v < 0 || u >= c->width || v >= c->height)
		f->z[k] = OUTSIDE;
	else
		f->z[k] = hand_is_user(image, u, v) ? image->depth_mm[v * c->width + u] : 0.0f;
	return f->z[k];
}

static TrackerVec3
hand_point(const TrackerCamera *c, const HandWindow *w, const TrackerHandFinder *f, int k)
{
	int i = k % w->side, j = k / w->side;

	return tracker_camera_unproject(c, w->u0 + i * w->step, w->v0 + j * w->step, f->z[k]);
}

/* ---- cutting the hand out ---- */

typedef enum {
	PLACE_HAND,  /* in the hand's space */
	PLACE_PAST,  /* past the ball */
	PLACE_AHEAD, /* past the ball ahead of the joint */
	PLACE_WRIST, /* past the wrist */
} HandPlace;

static HandPlace
hand_place(const TrackerCamera *c, const HandWindow *w, const TrackerHandFinder *f, int k)
{
	TrackerVec3 d = tracker_vec3_sub(hand_point(c, w, f, k), w->hand);
	double along = tracker_vec3_dot(d, w->along);

	if (along < -WRIST_MM)
		return PLACE_WRIST;
	if (tracker_vec3_dot(d, d) <= BALL_MM * BALL_MM)
		return PLACE_HAND;
	return along > AHEAD_MM ? PLACE_AHEAD : PLACE_PAST;
}

/* The sample nearest the joint, or -1 when none is near. */
static int
hand_seed(const TrackerCamera *c, const HandWindow *w, TrackerHandFinder *f)
{
	int mid = w->side / 2, reach = MIN(mid, (int)ceil(SEED_MM / w->sample_mm));
	double best = SEED_MM * SEED_MM;
	int seed = -1;

	for (int j = mid - reach; j <= mid + reach; j++) {
		for (int i = mid - reach; i <= mid + reach; i++) {
			int k = j * w->side + i;
			TrackerVec3 d;
			double d2;

			if (hand_z(f, w, k) <= 0.0f)
				continue;
			d = tracker_vec3_sub(hand_point(c, w, f, k), w->hand);
			d2 = tracker_vec3_dot(d, d);
			if (d2 < best) {
				best = d2;
				seed = k;
			}
		}
	}
	return seed;
}

/* One neighbour @n of hand sample @k: joined to the hand, or counted
 * as outline. */
static void
hand_visit(TrackerHandFinder *f, const TrackerCamera *c, const HandWindow *w, int k, int n,
           HandRegion *r, guint *tail)
{
	float zk = f->z[k], zn = n >= 0 ? hand_z(f, w, n) : OUTSIDE;
	HandPlace place;

	if (n >= 0 && f->mask[n])
		return;
	if (zn == OUTSIDE) {
		r->cut++;
		return;
	}
	if (zn <= 0.0f || fabsf(zn - zk) > 20.0f + 3.0e-6f * zk * zk) {
		r->edge++;
		return;
	}
	place = hand_place(c, w, f, n);
	r->cut += place == PLACE_PAST || place == PLACE_AHEAD;
	r->ahead += place == PLACE_AHEAD;
	r->wrist += place == PLACE_WRIST;
	if (place != PLACE_HAND)
		return;
	f->mask[n] = 1;
	f->queue[(*tail)++] = n;
	r->i0 = MIN(r->i0, n % w->side);
	r->i1 = MAX(r->i1, n % w->side);
	r->j0 = MIN(r->j0, n / w->side);
	r->j1 = MAX(r->j1, n / w->side);
}

/* Grows the hand from the seed through one surface. */
static void
hand_grow(TrackerHandFinder *f, const TrackerCamera *c, const HandWindow *w, HandRegion *r)
{
	guint head = 0, tail = 0;
	int side = w->side;

	memset(f->mask, 0, (size_t)side * side);
	r->i0 = r->i1 = r->seed % side;
	r->j0 = r->j1 = r->seed / side;
	f->mask[r->seed] = 1;
	f->queue[tail++] = r->seed;
	while (head < tail) {
		int k = f->queue[head++], i = k % side, j = k / side;

		hand_visit(f, c, w, k, i > 0 ? k - 1 : -1, r, &tail);
		hand_visit(f, c, w, k, i < side - 1 ? k + 1 : -1, r, &tail);
		hand_visit(f, c, w, k, j > 0 ? k - side : -1, r, &tail);
		hand_visit(f, c, w, k, j < side - 1 ? k + side : -1, r, &tail);
	}
	r->pixels = tail;
}

/* ---- the palm ---- */

/* The distance through neighbour (@i + @di, @j + @dj): a sample off the
 * hand is at 0, and so is anything past the hand's bounds. */
static guint16
hand_dist_min(const TrackerHandFinder *f, int side, int i, int j, int di, int dj, guint16 add)
{
	int ii = i + di, jj = j + dj, k = jj * side + ii;

	if (ii < 0 || jj < 0 || ii >= side || jj >= side || !f->mask[k])
		return add;
	return (guint16)MIN(G_MAXUINT16, f->dist[k] + add);
}

/* Chamfer distance to the nearest sample off the hand, forward then
 * back over the hand's bounds; returns the sample farthest in, the
 * palm's centre. */
static int
hand_distance(TrackerHandFinder *f, int side, const HandRegion *r)
{
	int best = r->seed;

	for (int j = r->j0; j <= r->j1; j++) {
		for (int i = r->i0; i <= r->i1; i++) {
			int k = j * side + i;

			f->dist[k] = 0;
			if (f->mask[k])
				f->dist[k] =
				        MIN(MIN(hand_dist_min(f, side, i, j, -1, 0, STEP_ORTHO),
				                hand_dist_min(f, side, i, j, 0, -1, STEP_ORTHO)),
				            MIN(hand_dist_min(f, side, i, j, -1, -1, STEP_DIAG),
				                hand_dist_min(f, side, i, j, 1, -1, STEP_DIAG)));
		}
	}
	for (int j = r->j1; j >= r->j0; j--) {
		for (int i = r->i1; i >= r->i0; i--) {
			int k = j * side + i;

			if (!f->mask[k])
				continue;
			f->dist[k] =
			        MIN(MIN(f->dist[k], hand_dist_min(f, side, i, j, 1, 0, STEP_ORTHO)),
			            MIN(hand_dist_min(f, side, i, j, 0, 1, STEP_ORTHO),
			                MIN(hand_dist_min(f, side, i, j, 1, 1, STEP_DIAG),
			                    hand_dist_min(f, side, i, j, -1, 1, STEP_DIAG))));
			best = f->dist[k] > f->dist[best] ? k : best;
		}
	}
	return best;
}

/* The palm's centre: of the samples about as far in as @deepest, the
 * one farthest along the forearm. A fist on a forearm as wide as itself
 * (a sleeve) is a sausage, and the palm is at its end. */
static int
hand_palm(const TrackerHandFinder *f, const TrackerCamera *c, const HandWindow *w,
          const HandRegion *r, int deepest)
{
	double floor_dist = PALM_DEPTH_SHARE * f->dist[deepest], best = -G_MAXDOUBLE;
	int palm = deepest;

	for (int j = r->j0; j <= r->j1; j++) {
		for (int i = r->i0; i <= r->i1; i++) {
			int k = j * w->side + i;
			double along;

			if (!f->mask[k] || f->dist[k] < floor_dist)
				continue;
			along = tracker_vec3_dot(hand_point(c, w, f, k), w->along);
			if (along > best) {
				best = along;
				palm = k;
			}
		}
	}
	return palm;
}

/* ---- the circles past the palm ---- */

/* The way the forearm comes into the image from the joint, unit; FALSE
 * when it points along the view and hides behind the hand. */
static gboolean
hand_forearm_dir(const HandWindow *w, double *du, double *dv)
{
	double across = sqrt(w->along.x * w->along.x + w->along.y * w->along.y);

	if (across < FOREARM_SEEN)
		return FALSE;
	/* Image v grows downwards; the forearm lies against @along. */
	*du = -w->along.x / across;
	*dv = w->along.y / across;
	return TRUE;
}

/* Whether circle point (@i, @j) is on the hand (1), off it (0), or on
 * the hand more than @behind mm back from the palm's centre @palm toward
 * the wrist (-1: not judged). */
static int
hand_circle_point(const TrackerHandFinder *f, const TrackerCamera *c, const HandWindow *w,
                  TrackerVec3 palm, double behind, int i, int j)
{
	int k = j * w->side + i;

	if (i < 0 || j < 0 || i >= w->side || j >= w->side || !f->mask[k])
		return 0;
	return tracker_vec3_dot(tracker_vec3_sub(hand_point(c, w, f, k), palm), w->along) < -behind
	               ? -1
	               : 1;
}

/* The circles about sample @centre, @radius samples: the share of their
 * points on the hand, leaving out the forearm's side, into @m, and how
 * many separate runs of points on the hand the most broken one has. */
static void
hand_circles(const TrackerHandFinder *f, const TrackerCamera *c, const HandWindow *w, int centre,
             double radius, TrackerHandMeasure *m)
{
	int ci = centre % w->side, cj = centre / w->side;
	TrackerVec3 palm = hand_point(c, w, f, centre);
	double fu = 0.0, fv = 0.0;
	gboolean forearm = hand_forearm_dir(w, &fu, &fv);
	double behind = BEHIND_PALM * radius * w->sample_mm;
	guint on = 0, n = 0;

	m->runs = 0;
	for (guint r = 0; r < G_N_ELEMENTS(circle_radii); r++) {
		int point[N_CIRCLE];
		guint runs = 0;

		for (int p = 0; p < N_CIRCLE; p++) {
			double a = 2.0 * G_PI * p / N_CIRCLE, cu = cos(a), cv = sin(a);
			int i = (int)floor(ci + cu * circle_radii[r] * radius + 0.5);
			int j = (int)floor(cj + cv * circle_radii[r] * radius + 0.5);

			point[p] = forearm && cu * fu + cv * fv > FOREARM_COS
			                   ? -1
			                   : hand_circle_point(f, c, w, palm, behind, i, j);
			n += point[p] >= 0;
			on += point[p] > 0;
		}
		for (int p = 0; p < N_CIRCLE; p++)
			runs += point[p] > 0 && point[(p + N_CIRCLE - 1) % N_CIRCLE] <= 0;
		m->runs = MAX(m->runs, runs);
	}
	m->circle_count = n;
	m->coverage = n > 0 ? (double)on / n : 0.0;
}

/* ---- the state ---- */

static TrackerHand
hand_state_from(const TrackerHandMeasure *m)
{
	TrackerHand hand = { TRACKER_HAND_UNKNOWN, 0.0 };
	double c = m->coverage;

	if (c <= CLOSED_MAX_COVER) {
		hand.state = TRACKER_HAND_CLOSED;
		hand.confidence = 1.0 - 0.5 * c / CLOSED_MAX_COVER;
	} else if (c >= OPEN_MIN_COVER) {
		hand.state = TRACKER_HAND_OPEN;
		hand.confidence = 0.5 + 0.5 * MIN(1.0, (c - OPEN_MIN_COVER) /
		                                               (OPEN_FULL_COVER - OPEN_MIN_COVER));
		/* One run is something that goes on past the palm, fingers
		 * held together or a fist seen end on; gaps between runs are
		 * spread fingers. */
		if (m->runs < 2)
			hand.confidence = MIN(hand.confidence, ONE_RUN_CONFIDENCE);
	}
	return hand;
}

/* Whether the window's centre ends the limb coming into it: nothing of
 * the user within a hand's ball about it lies much nearer the sensor. A
 * forearm held toward the sensor shows its fist in front of the elbow. */
static gboolean
hand_ends_limb(TrackerHandFinder *f, const HandWindow *w)
{
	int mid = w->side / 2;
	double reach = BALL_MM / w->sample_mm;

	for (int j = 0; j < w->side; j++) {
		for (int i = 0; i < w->side; i++) {
			float z;

			if (hypot(i - mid, j - mid) > reach)
				continue;
			z = hand_z(f, w, j * w->side + i);
			if (z > 0.0f && z < w->hand.z - FLIP_END_MM)
				return FALSE;
		}
	}
	return TRUE;
}

/* Measures the hand in @w; FALSE when it cannot be told, or with
 * @ends_limb, when its centre does not end the limb. */
static gboolean
hand_measure(TrackerHandFinder *f, const TrackerHandImage *image, const HandWindow *w,
             gboolean ends_limb, TrackerHandMeasure *m)
{
	HandRegion r = { .seed = -1 };
	double fu, fv;
	int palm;

	hand_sample(f, w);
	if (ends_limb && !hand_ends_limb(f, w))
		return FALSE;
	r.seed = hand_seed(image->camera, w, f);
	if (r.seed < 0)
		return FALSE;
	hand_grow(f, image->camera, w, &r);
	m->pixels = r.pixels;
	m->cut_share = r.edge + r.cut > 0 ? (double)r.cut / (r.edge + r.cut) : 1.0;
	if (r.pixels < MIN_SAMPLES || m->cut_share > MAX_CUT_SHARE ||
	    r.ahead * w->sample_mm > MAX_AHEAD_MM)
		return FALSE;
	if (hand_forearm_dir(w, &fu, &fv) && r.wrist * w->sample_mm < MIN_WRIST_MM)
		return FALSE;
	palm = hand_palm(f, image->camera, w, &r, hand_distance(f, w->side, &r));
	m->palm_mm = f->dist[palm] / (double)STEP_ORTHO * w->sample_mm;
	if (m->palm_mm < MIN_PALM_MM || m->palm_mm > MAX_PALM_MM)
		return FALSE;
	hand_circles(f, image->camera, w, palm, f->dist[palm] / (double)STEP_ORTHO, m);
	return m->circle_count > 0;
}

/* Measures the hand at @hand, its forearm coming from @elbow; FALSE
 * when it cannot be told (see hand_measure()). */
static gboolean
hand_measure_at(TrackerHandFinder *f, const TrackerHandImage *image, TrackerVec3 hand,
                TrackerVec3 elbow, gboolean ends_limb, TrackerHandMeasure *m)
{
	HandWindow w;

	memset(m, 0, sizeof(*m));
	if (!hand_window(image->camera, hand, elbow, &w))
		return FALSE;
	w.image = image;
	m->sample_mm = w.sample_mm;
	return hand_measure(f, image, &w, ends_limb, m);
}

TrackerHand
tracker_hand_classify(TrackerHandFinder *finder, const TrackerHandImage *image, TrackerVec3 hand,
                      TrackerVec3 elbow, double confidence, TrackerHandMeasure *measure)
{
	TrackerHand unknown = { TRACKER_HAND_UNKNOWN, 0.0 };
	TrackerHandMeasure m, other;
	gboolean found;

	g_return_val_if_fail(finder != NULL && image != NULL, unknown);

	memset(&m, 0, sizeof(m));
	if (confidence < MIN_JOINT_CONFIDENCE)
		found = FALSE;
	/* An arm held up in front can be fitted the wrong way round, the
	 * elbow where the hand is and the hand on the elbow: an elbow
	 * nearer the sensor than the hand that ends an arm as a hand does
	 * is taken for the hand. */
	else if (elbow.z < hand.z - FLIP_NEARER_MM &&
	         hand_measure_at(finder, image, elbow, hand, TRUE, &other)) {
		m = other;
		found = TRUE;
	} else
		found = hand_measure_at(finder, image, hand, elbow, FALSE, &m);
	if (measure != NULL)
		*measure = m;
	return found ? hand_state_from(&m) : unknown;
}

/* ---- over time ---- */

void
tracker_hand_memory_reset(TrackerHandMemory *memory)
{
	memset(memory, 0, sizeof(*memory));
}

TrackerHand
tracker_hand_update(TrackerHandMemory *memory, TrackerHand seen)
{
	TrackerHand *shown = &memory->shown;

	if (seen.state == shown->state) {
		memory->misses = 0;
		memory->pending = TRACKER_HAND_UNKNOWN;
		shown->confidence = 0.5 * (shown->confidence + seen.confidence);
		return *shown;
	}
	memory->misses++;
	if (seen.state != TRACKER_HAND_UNKNOWN && seen.state == memory->pending) {
		shown->state = seen.state;
		shown->confidence = 0.5 * (memory->pending_confidence + seen.confidence);
		memory->misses = 0;
		memory->pending = TRACKER_HAND_UNKNOWN;
		return *shown;
	}
	memory->pending = seen.state;
	memory->pending_confidence = seen.confidence;
	if (memory->misses > HOLD_FRAMES) {
		shown->state = TRACKER_HAND_UNKNOWN;
		shown->confidence = 0.0;
	}
	return *shown;
}
