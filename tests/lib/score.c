#include "score.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/stats.h"

/* How far user @u is from person @p, for matching: the lower median, over
 * the joints the user reports, of each joint's distance to the person's
 * same joint or its mirror, whichever is nearer. So a user matches a
 * person when at least half its joints lie within SCORE_MATCH_MM of theirs.
 *
 * Matching decides who a user is, nothing more: how good the joints are
 * and whether the sides are swapped are scored after it. A mean over the
 * joints let one arm flung wide, or sides swapped with the arms out, turn
 * a user standing on the person into a missed person and a phantom; the
 * median ignores a minority of wild joints. Every joint the user reports
 * counts, whether the person's is in view or not: a user on someone at
 * the image's edge whose joints all lie beyond it had no distance and was
 * a phantom. The user's centre of points, or its torso alone, would do on
 * a whole body but not on a part of one: the centre of an arm reaching in
 * from the edge, or of the head and shoulders of someone close to the
 * sensor, lies far from the true torso, and a user seen only in part may
 * report no torso at all. The centre is left for a user that reports no
 * joint. */
static double
score_match_distance(const DemoTruthPerson *p, const TrackerUser *u)
{
	double d[TRACKER_N_JOINTS];
	guint n = 0;

	for (int j = 0; j < TRACKER_N_JOINTS; j++) {
		TrackerVec3 at = u->joints[j].position;

		if (u->joints[j].confidence <= 0.0)
			continue;
		d[n++] = MIN(tracker_vec3_distance(p->joints[j], at),
		             tracker_vec3_distance(p->joints[tracker_joint_mirror(j)], at));
	}
	if (n == 0)
		return tracker_vec3_distance(p->joints[TRACKER_JOINT_TORSO], u->centre);
	stats_sort(d, n);
	return d[(n - 1) / 2];
}

/* Greedy matching, nearest pair first; @user_of gets a user per person. */
static void
score_match(const DemoTruth *truth, const TrackerFrame *frame, int *user_of)
{
	gboolean taken[TRACKER_MAX_USERS] = { FALSE };

	for (guint p = 0; p < truth->n_people; p++)
		user_of[p] = -1;
	for (;;) {
		double best = SCORE_MATCH_MM;
		int bp = -1, bu = -1;

		for (guint p = 0; p < truth->n_people; p++) {
			for (guint u = 0; u < frame->n_users && user_of[p] < 0; u++) {
				double d = taken[u] ? G_MAXDOUBLE
				                    : score_match_distance(&truth->people[p],
				                                           &frame->users[u]);

				if (d < best) {
					best = d;
					bp = (int)p;
					bu = (int)u;
				}
			}
		}
		if (bp < 0)
			return;
		user_of[bp] = bu;
		taken[bu] = TRUE;
	}
}

/* The person's turn from facing the sensor, from the shoulder line. */
static double
score_turn_deg(const DemoTruthPerson *p)
{
	TrackerVec3 l = p->joints[TRACKER_JOINT_LEFT_SHOULDER];
	TrackerVec3 r = p->joints[TRACKER_JOINT_RIGHT_SHOULDER];

	return fabs(atan2(l.z - r.z, l.x - r.x)) * 180.0 / G_PI;
}

/* Swapped: the user's sided joints fit the truth better the other way. */
static gboolean
score_swapped(const DemoTruthPerson *p, const TrackerUser *u)
{
	double direct = 0.0, swapped = 0.0;

	for (int j = TRACKER_JOINT_LEFT_SHOULDER; j < TRACKER_N_JOINTS; j++) {
		int m = tracker_joint_mirror(j);

		if (!p->in_view[j] || !p->in_view[m] || u->joints[j].confidence <= 0.0)
			continue;
		direct += tracker_vec3_distance(u->joints[j].position, p->joints[j]);
		swapped += tracker_vec3_distance(u->joints[j].position, p->joints[m]);
	}
	return swapped < 0.7 * direct;
}

static void
score_person(const DemoTruthPerson *p, const TrackerUser *u, ScoreTally *t)
{
	gboolean facing = score_turn_deg(p) < SCORE_FACING_DEG;

	t->people++;
	t->facing += facing;
	if (u == NULL) {
		t->missed++;
		for (int j = 0; j < TRACKER_N_JOINTS; j++)
			t->total[j] += p->in_view[j];
		return;
	}
	if (score_swapped(p, u)) {
		t->swaps++;
		t->facing_swaps += facing;
	}
	for (int j = 0; j < TRACKER_N_JOINTS; j++) {
		double d;

		if (!p->in_view[j])
			continue;
		t->total[j]++;
		if (u->joints[j].confidence <= 0.0)
			continue;
		d = tracker_vec3_distance(u->joints[j].position, p->joints[j]);
		t->reported[j]++;
		t->error_sum[j] += d;
		t->found[j] += d < SCORE_NEAR_MM;
	}
}

void
score_frame(const DemoTruth *truth, const TrackerFrame *frame, ScoreTally *tally)
{
	int user_of[DEMO_MAX_PEOPLE];
	gboolean matched[TRACKER_MAX_USERS] = { FALSE };
	guint phantoms = 0;

	score_match(truth, frame, user_of);
	for (guint p = 0; p < truth->n_people; p++) {
		const DemoTruthPerson *person = &truth->people[p];

		if (user_of[p] >= 0)
			matched[user_of[p]] = TRUE;
		if (person->pixels < SCORE_MIN_PIXELS)
			continue;
		score_person(person, user_of[p] >= 0 ? &frame->users[user_of[p]] : NULL, tally);
	}
	for (guint u = 0; u < frame->n_users; u++)
		phantoms += !matched[u];
	tally->phantoms += phantoms;
	tally->phantom_frames += phantoms > 0;
	tally->frames++;
}

void
score_add(ScoreTally *a, const ScoreTally *b)
{
	for (int j = 0; j < TRACKER_N_JOINTS; j++) {
		a->total[j] += b->total[j];
		a->found[j] += b->found[j];
		a->reported[j] += b->reported[j];
		a->error_sum[j] += b->error_sum[j];
	}
	a->people += b->people;
	a->missed += b->missed;
	a->phantoms += b->phantoms;
	a->phantom_frames += b->phantom_frames;
	a->facing += b->facing;
	a->facing_swaps += b->facing_swaps;
	a->swaps += b->swaps;
	a->frames += b->frames;
}

double
score_share(const ScoreTally *t, guint mask)
{
	guint found = 0, total = 0;

	for (int j = 0; j < TRACKER_N_JOINTS; j++) {
		if (!(mask & (1u << j)))
			continue;
		found += t->found[j];
		total += t->total[j];
	}
	return total > 0 ? (double)found / total : 0.0;
}

double
score_mean_error(const ScoreTally *t, guint mask)
{
	double sum = 0.0;
	guint n = 0;

	for (int j = 0; j < TRACKER_N_JOINTS; j++) {
		if (!(mask & (1u << j)))
			continue;
		sum += t->error_sum[j];
		n += t->reported[j];
	}
	return n > 0 ? sum / n : 0.0;
}

double
score_missed_share(const ScoreTally *t)
{
	return t->people > 0 ? (double)t->missed / t->people : 0.0;
}

double
score_phantom_frame_share(const ScoreTally *t)
{
	return t->frames > 0 ? (double)t->phantom_frames / t->frames : 0.0;
}

guint
score_people_in_view(const DemoTruth *truth)
{
	guint n = 0;

	for (guint p = 0; p < truth->n_people; p++)
		n += truth->people[p].pixels >= SCORE_MIN_PIXELS;
	return n;
}

gboolean
score_inside(const guint16 *mm, const TrackerJoint *joint, double *behind_mm)
{
	int u = (int)floor(joint->u + 0.5), v = (int)floor(joint->v + 0.5);
	guint16 surface;

	*behind_mm = 0.0;
	if (joint->confidence <= 0.0 || u < 0 || v < 0 || u >= DEPTH_WIDTH || v >= DEPTH_HEIGHT)
		return FALSE;
	surface = mm[v * DEPTH_WIDTH + u];
	if (surface == 0)
		return FALSE;
	*behind_mm = joint->position.z - surface;
	return *behind_mm >= -SCORE_INSIDE_FRONT_MM && *behind_mm <= SCORE_INSIDE_BACK_MM;
}

const TrackerUser *
score_main_user(const TrackerFrame *frame)
{
	const TrackerUser *main_user = NULL;

	for (guint u = 0; u < frame->n_users; u++) {
		if (main_user == NULL || frame->users[u].n_pixels > main_user->n_pixels)
			main_user = &frame->users[u];
	}
	return main_user;
}

gboolean
score_mark_found(const MarksJoint *mark, const TrackerUser *user, double *distance_mm)
{
	const TrackerJoint *joint = user != NULL ? &user->joints[mark->joint] : NULL;

	*distance_mm = -1.0;
	if (joint == NULL || joint->confidence <= 0.0)
		return FALSE;
	*distance_mm = tracker_vec3_distance(joint->position, marks_joint_position(mark));
	return *distance_mm < SCORE_NEAR_MM;
}
