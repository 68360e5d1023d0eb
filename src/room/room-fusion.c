#include "room-fusion.h"

#include <math.h>
#include <string.h>

/* Frames kept per sensor, to find the two either side of a time. */
#define HISTORY 4
/* A sensor's frame that has not come yet is foreseen this far at most. */
#define AHEAD_US 50000
/* People followed at once, seen or held. */
#define MAX_TRACKS 16
/* Depth noise grows with the square of the distance: a joint seen from
 * this far counts half as much as one seen from close by. */
#define HALF_WEIGHT_MM 3500.0
/* Another sensor's joint is averaged in when it lies this close to the
 * best one's, with at least this share of its confidence. */
#define AGREE_MM         150.0
#define AGREE_CONFIDENCE 0.5
/* A joint seen from behind the person counts this much of one seen face on. */
#define BEHIND_WEIGHT 0.25

/* One user of one sensor, in the room's frame, with how far from that
 * sensor each joint is. */
typedef struct {
	TrackerUser user;
	double range[TRACKER_N_JOINTS];
} Seen;

typedef struct {
	gint64 time_us;
	guint n;
	Seen seen[TRACKER_MAX_USERS];
} SensorFrame;

typedef struct {
	RoomSensor pose;
	TrackerVec3 at;              /* where it stands in the room */
	SensorFrame frames[HISTORY]; /* a ring; frames[(next - 1) % HISTORY] the last */
	guint next, count;
} Sensor;

/* A sensor's user as of the fused frame's time, and whose it is now. */
typedef struct {
	guint sensor;
	Seen seen;
	TrackerVec3 centre;
	int track; /* -1: nobody's yet */
	gboolean has_forward;
	TrackerVec3 forward; /* which way its sensor has them face, on the floor */
	double front;        /* how squarely its sensor sees their front, 0 to 1 */
} Candidate;

typedef struct {
	gboolean live;
	guint id;
	gint64 last_seen_us;
	TrackerVec3 centre;
	guint sensor_user[ROOM_MAX_SENSORS]; /* each sensor's id for them, 0 for none */
	gboolean has_facing;
	TrackerVec3 facing; /* which way they face, on the floor */
} Track;

struct _RoomFusion {
	guint n_sensors;
	Sensor sensors[ROOM_MAX_SENSORS];
	Track tracks[MAX_TRACKS];
	guint next_id;
	guint64 frames;
	Candidate candidates[ROOM_MAX_SENSORS * TRACKER_MAX_USERS];
	guint n_candidates;
};

RoomFusion *
room_fusion_new(const Room *room)
{
	RoomFusion *f;

	g_return_val_if_fail(room != NULL && room_n_sensors(room) > 0, NULL);

	f = g_new0(RoomFusion, 1);
	f->n_sensors = room_n_sensors(room);
	for (guint i = 0; i < f->n_sensors; i++) {
		f->sensors[i].pose = *room_get_sensor(room, i);
		f->sensors[i].pose.name = NULL;
		f->sensors[i].pose.source = NULL;
		f->sensors[i].at = room_sensor_to_room(&f->sensors[i].pose, tracker_vec3(0, 0, 0));
	}
	f->next_id = 1;
	return f;
}

void
room_fusion_free(RoomFusion *f)
{
	g_free(f);
}

/* ---- each sensor's frames ---- */

static const SensorFrame *
room_fusion_frame(const Sensor *s, guint back)
{
	return back < s->count ? &s->frames[(s->next + HISTORY - 1 - back) % HISTORY] : NULL;
}

/* @user of sensor @s in the room's frame. */
static void
room_fusion_to_room(const Sensor *s, const TrackerUser *user, Seen *seen)
{
	seen->user = *user;
	seen->user.centre = room_sensor_to_room(&s->pose, user->centre);
	for (int j = 0; j < TRACKER_N_JOINTS; j++) {
		TrackerVec3 p = user->joints[j].position;

		seen->range[j] = tracker_vec3_length(p);
		seen->user.joints[j].position = room_sensor_to_room(&s->pose, p);
	}
}

static gboolean
room_fusion_keep(Sensor *s, const TrackerFrame *frame)
{
	const SensorFrame *last = room_fusion_frame(s, 0);
	SensorFrame *f;

	if (last != NULL && frame->time_us <= last->time_us)
		return FALSE;
	f = &s->frames[s->next];
	f->time_us = frame->time_us;
	f->n = MIN(frame->n_users, TRACKER_MAX_USERS);
	for (guint u = 0; u < f->n; u++)
		room_fusion_to_room(s, &frame->users[u], &f->seen[u]);
	s->next = (s->next + 1) % HISTORY;
	s->count = MIN(s->count + 1, HISTORY);
	return TRUE;
}

static const Seen *
room_fusion_find(const SensorFrame *f, guint id)
{
	for (guint i = 0; i < f->n; i++) {
		if (f->seen[i].user.id == id)
			return &f->seen[i];
	}
	return NULL;
}

/* @a and @b, a fraction @w of the way from @a; joints only either has
 * are @b's (the later frame's). */
static void
room_fusion_lerp(const Seen *a, const Seen *b, double w, Seen *out)
{
	*out = *b;
	out->user.centre = tracker_vec3_lerp(a->user.centre, b->user.centre, w);
	for (int j = 0; j < TRACKER_N_JOINTS; j++) {
		const TrackerJoint *ja = &a->user.joints[j], *jb = &b->user.joints[j];

		if (ja->confidence <= 0.0 || jb->confidence <= 0.0)
			continue;
		out->user.joints[j].position = tracker_vec3_lerp(ja->position, jb->position, w);
		out->user.joints[j].u = ja->u + (jb->u - ja->u) * w;
		out->user.joints[j].v = ja->v + (jb->v - ja->v) * w;
		out->range[j] = a->range[j] + (b->range[j] - a->range[j]) * w;
	}
}

/* The frames of @s either side of @time_us; or, past its last frame, the
 * last two (to go on from); or the one nearest it (@before NULL). FALSE
 * when none is within ROOM_FUSION_MAX_AGE_US. */
static gboolean
room_fusion_bracket(const Sensor *s, gint64 time_us, const SensorFrame **before,
                    const SensorFrame **after)
{
	const SensorFrame *later = NULL;

	for (guint back = 0; back < s->count; back++) {
		const SensorFrame *f = room_fusion_frame(s, back);

		if (f->time_us > time_us) {
			later = f;
			continue;
		}
		/* The last frame at or before the time. */
		if (later != NULL && later->time_us - f->time_us <= ROOM_FUSION_MAX_AGE_US) {
			*before = f;
			*after = later;
			return TRUE;
		}
		/* The time is past the last frame: from the last two. */
		*before = room_fusion_frame(s, back + 1);
		*after = f;
		if (*before != NULL && f->time_us - (*before)->time_us > ROOM_FUSION_MAX_AGE_US)
			*before = NULL;
		return time_us - f->time_us <= ROOM_FUSION_MAX_AGE_US;
	}
	*before = NULL;
	*after = later;
	return later != NULL && later->time_us - time_us <= ROOM_FUSION_MAX_AGE_US;
}

/* Where @user is, to tell who is who by: the torso joint, or the centre
 * of their points when it is not found. */
static TrackerVec3
room_fusion_trunk(const TrackerUser *user)
{
	const TrackerJoint *torso = &user->joints[TRACKER_JOINT_TORSO];

	return torso->confidence > 0.0 ? torso->position : user->centre;
}

/* How far apart two people are on the floor: what one sensor sees of
 * someone half hidden puts their centre low, not elsewhere. */
static double
room_fusion_apart(TrackerVec3 a, TrackerVec3 b)
{
	return hypot(a.x - b.x, a.z - b.z);
}

/* Sensor @i's users as of @time_us, as candidates. */
static void
room_fusion_gather(RoomFusion *f, guint i, gint64 time_us)
{
	const SensorFrame *before, *after;
	double w;

	if (!room_fusion_bracket(&f->sensors[i], time_us, &before, &after))
		return;
	/* Past the last frame, each joint goes on as it went between the
	 * last two, for at most AHEAD_US. */
	w = before == NULL ? 1.0
	                   : (double)(MIN(time_us, after->time_us + AHEAD_US) - before->time_us) /
	                             (after->time_us - before->time_us);
	for (guint u = 0; u < after->n; u++) {
		Candidate *c = &f->candidates[f->n_candidates];
		const Seen *earlier =
		        before != NULL ? room_fusion_find(before, after->seen[u].user.id) : NULL;

		/* Someone who came into view after the time is not there yet. */
		if (before != NULL && earlier == NULL && w < 0.5 && after->time_us > time_us)
			continue;
		if (earlier != NULL)
			room_fusion_lerp(earlier, &after->seen[u], w, &c->seen);
		else
			c->seen = after->seen[u];
		c->sensor = i;
		c->track = -1;
		c->centre = room_fusion_trunk(&c->seen.user);
		f->n_candidates++;
	}
}

/* ---- who is who ---- */

static guint
room_fusion_new_track(RoomFusion *f, gint64 time_us, TrackerVec3 centre)
{
	guint oldest = 0;

	for (guint k = 0; k < MAX_TRACKS; k++) {
		if (!f->tracks[k].live) {
			oldest = k;
			break;
		}
		if (f->tracks[k].last_seen_us < f->tracks[oldest].last_seen_us)
			oldest = k;
	}
	memset(&f->tracks[oldest], 0, sizeof(Track));
	f->tracks[oldest].live = TRUE;
	f->tracks[oldest].id = f->next_id++;
	f->tracks[oldest].last_seen_us = time_us;
	f->tracks[oldest].centre = centre;
	return oldest;
}

/* Whether track @k has a candidate of sensor @sensor this frame. */
static gboolean
room_fusion_has_sensor(const RoomFusion *f, int k, guint sensor)
{
	for (guint i = 0; i < f->n_candidates; i++) {
		if (f->candidates[i].track == k && f->candidates[i].sensor == sensor)
			return TRUE;
	}
	return FALSE;
}

/* A sensor's user stays with the person it was given to last frame. */
static void
room_fusion_stick(RoomFusion *f)
{
	for (guint i = 0; i < f->n_candidates; i++) {
		Candidate *c = &f->candidates[i];

		for (int k = 0; k < MAX_TRACKS; k++) {
			if (f->tracks[k].live &&
			    f->tracks[k].sensor_user[c->sensor] == c->seen.user.id) {
				c->track = k;
				break;
			}
		}
	}
}

/* Two sensors' views of one person that have come apart are two people:
 * the one farther from where the person was leaves. */
static void
room_fusion_split(RoomFusion *f)
{
	for (guint i = 0; i < f->n_candidates; i++) {
		Candidate *a = &f->candidates[i];

		for (guint j = 0; j < f->n_candidates && a->track >= 0; j++) {
			Candidate *b = &f->candidates[j];
			TrackerVec3 was;

			if (j == i || b->track != a->track ||
			    room_fusion_apart(a->centre, b->centre) <= ROOM_FUSION_APART_MM)
				continue;
			was = f->tracks[a->track].centre;
			if (room_fusion_apart(a->centre, was) > room_fusion_apart(b->centre, was))
				a->track = -1;
			else
				b->track = -1;
		}
	}
}

/* Where track @k is this frame: its candidates' mean, or where it was. */
static TrackerVec3
room_fusion_track_centre(const RoomFusion *f, int k)
{
	TrackerVec3 sum = tracker_vec3(0, 0, 0);
	guint n = 0;

	for (guint i = 0; i < f->n_candidates; i++) {
		if (f->candidates[i].track == k) {
			sum = tracker_vec3_add(sum, f->candidates[i].centre);
			n++;
		}
	}
	return n > 0 ? tracker_vec3_scale(sum, 1.0 / n) : f->tracks[k].centre;
}

/* The nearest person that @c may be: one no user of @c's sensor is given
 * to this frame, within ROOM_FUSION_SAME_MM of where they are now (or
 * ROOM_FUSION_PICK_UP_MM of where they were last seen, when no sensor
 * sees them now); -1 when none. */
static int
room_fusion_nearest(const RoomFusion *f, const Candidate *c)
{
	int best = -1;
	double best_d = G_MAXDOUBLE;

	for (int k = 0; k < MAX_TRACKS; k++) {
		gboolean seen = FALSE;
		double d, within;

		if (!f->tracks[k].live || room_fusion_has_sensor(f, k, c->sensor))
			continue;
		for (guint i = 0; i < f->n_candidates; i++)
			seen = seen || f->candidates[i].track == k;
		d = room_fusion_apart(c->centre, room_fusion_track_centre(f, k));
		within = seen ? ROOM_FUSION_SAME_MM : ROOM_FUSION_PICK_UP_MM;
		if (d < within && d < best_d) {
			best = k;
			best_d = d;
		}
	}
	return best;
}

/* Every candidate not given to anyone joins the nearest person it may
 * be, or is someone new. */
static void
room_fusion_join(RoomFusion *f, gint64 time_us)
{
	for (guint i = 0; i < f->n_candidates; i++) {
		Candidate *c = &f->candidates[i];

		if (c->track >= 0)
			continue;
		c->track = room_fusion_nearest(f, c);
		if (c->track < 0)
			c->track = (int)room_fusion_new_track(f, time_us, c->centre);
	}
}

/* Each person's ids per sensor, place and time, as of this frame; those
 * no sensor has seen for ROOM_FUSION_HOLD_US are gone. */
static void
room_fusion_update_tracks(RoomFusion *f, gint64 time_us)
{
	for (int k = 0; k < MAX_TRACKS; k++) {
		Track *t = &f->tracks[k];
		gboolean seen = FALSE;

		if (!t->live)
			continue;
		memset(t->sensor_user, 0, sizeof(t->sensor_user));
		for (guint i = 0; i < f->n_candidates; i++) {
			if (f->candidates[i].track == k) {
				t->sensor_user[f->candidates[i].sensor] =
				        f->candidates[i].seen.user.id;
				seen = TRUE;
			}
		}
		if (seen) {
			t->centre = room_fusion_track_centre(f, k);
			t->last_seen_us = time_us;
		} else if (time_us - t->last_seen_us > ROOM_FUSION_HOLD_US) {
			t->live = FALSE;
		}
	}
}

/* ---- which way each person faces ---- */

/* Which way @u faces on the floor, from the line through its shoulders
 * and hips (right minus left, turned a quarter to the front); FALSE when
 * those are not found. */
static gboolean
room_fusion_forward(const TrackerUser *u, TrackerVec3 *forward)
{
	static const int pairs[][2] = {
		{ TRACKER_JOINT_LEFT_SHOULDER, TRACKER_JOINT_RIGHT_SHOULDER },
		{ TRACKER_JOINT_LEFT_HIP, TRACKER_JOINT_RIGHT_HIP },
	};
	TrackerVec3 lateral = tracker_vec3(0, 0, 0);

	for (guint i = 0; i < G_N_ELEMENTS(pairs); i++) {
		const TrackerJoint *l = &u->joints[pairs[i][0]], *r = &u->joints[pairs[i][1]];

		if (l->confidence >= AGREE_CONFIDENCE && r->confidence >= AGREE_CONFIDENCE)
			lateral = tracker_vec3_add(lateral,
			                           tracker_vec3_sub(r->position, l->position));
	}
	lateral.y = 0.0;
	if (tracker_vec3_length(lateral) < 50.0)
		return FALSE;
	*forward = tracker_vec3_normalize(tracker_vec3_cross(lateral, tracker_vec3(0, 1, 0)));
	return TRUE;
}

/* The user's left and right the other way round: a sensor that sees a
 * person's back takes it for their front. */
static void
room_fusion_mirror(TrackerUser *u)
{
	TrackerHand hand = u->hands[TRACKER_HAND_LEFT];

	for (int j = TRACKER_JOINT_LEFT_SHOULDER; j < TRACKER_N_JOINTS; j += 2) {
		TrackerJoint left = u->joints[j];

		u->joints[j] = u->joints[j + 1];
		u->joints[j + 1] = left;
	}
	u->hands[TRACKER_HAND_LEFT] = u->hands[TRACKER_HAND_RIGHT];
	u->hands[TRACKER_HAND_RIGHT] = hand;
}

/* How squarely the sensor of @c looks at the front of someone facing
 * @facing: 1 face on, 0 side-on or from behind. */
static double
room_fusion_front(const RoomFusion *f, const Candidate *c, TrackerVec3 facing)
{
	TrackerVec3 to = tracker_vec3_sub(f->sensors[c->sensor].at, c->centre);

	to.y = 0.0;
	return MAX(0.0, tracker_vec3_dot(facing, tracker_vec3_normalize(to)));
}

/* Which way track @k faces before this frame: as it did, or for someone
 * new, as the sensor that sees their front most squarely has it (where
 * sensors disagree, one of them sees their back). */
static gboolean
room_fusion_reference(const RoomFusion *f, int k, TrackerVec3 *reference)
{
	double best = -1.0;

	if (f->tracks[k].has_facing) {
		*reference = f->tracks[k].facing;
		return TRUE;
	}
	for (guint i = 0; i < f->n_candidates; i++) {
		const Candidate *c = &f->candidates[i];
		double front;

		if (c->track != k || !c->has_forward)
			continue;
		front = room_fusion_front(f, c, c->forward);
		if (front > best) {
			best = front;
			*reference = c->forward;
		}
	}
	return best >= 0.0;
}

/* Every person's candidates made to agree on which way they face, by
 * the way they faced (people turn; sensors' sides do not jump), and how
 * squarely each sensor now sees their front. */
static void
room_fusion_orient(RoomFusion *f)
{
	for (guint i = 0; i < f->n_candidates; i++) {
		Candidate *c = &f->candidates[i];

		c->has_forward = room_fusion_forward(&c->seen.user, &c->forward);
		c->front = 0.5;
	}
	for (int k = 0; k < MAX_TRACKS; k++) {
		TrackerVec3 reference = tracker_vec3(0, 0, 1), sum = tracker_vec3(0, 0, 0);

		if (!f->tracks[k].live || !room_fusion_reference(f, k, &reference))
			continue;
		for (guint i = 0; i < f->n_candidates; i++) {
			Candidate *c = &f->candidates[i];

			if (c->track != k || !c->has_forward)
				continue;
			if (tracker_vec3_dot(c->forward, reference) < 0.0) {
				room_fusion_mirror(&c->seen.user);
				c->forward = tracker_vec3_scale(c->forward, -1.0);
			}
			sum = tracker_vec3_add(sum, c->forward);
		}
		if (tracker_vec3_length(sum) < 1e-6)
			continue;
		f->tracks[k].facing = tracker_vec3_normalize(sum);
		f->tracks[k].has_facing = TRUE;
		for (guint i = 0; i < f->n_candidates; i++) {
			if (f->candidates[i].track == k)
				f->candidates[i].front = room_fusion_front(f, &f->candidates[i],
				                                           f->tracks[k].facing);
		}
	}
}

/* ---- each joint from who sees it best ---- */

/* How much sensor @c's joint @j counts: its confidence, less with range
 * and less from behind (arms in front of the body are hidden from it). */
static double
room_fusion_weight(const Candidate *c, int j)
{
	double r = c->seen.range[j] / HALF_WEIGHT_MM;

	return c->seen.user.joints[j].confidence / (1.0 + r * r) *
	       (BEHIND_WEIGHT + (1.0 - BEHIND_WEIGHT) * c->front);
}

/* Joint @j of track @k: the best-seen one, averaged with those that agree. */
static void
room_fusion_joint(const RoomFusion *f, int k, int j, TrackerUser *out)
{
	const Candidate *best = NULL;
	TrackerVec3 sum = tracker_vec3(0, 0, 0);
	double total = 0.0;

	for (guint i = 0; i < f->n_candidates; i++) {
		const Candidate *c = &f->candidates[i];

		if (c->track == k && c->seen.user.joints[j].confidence > 0.0 &&
		    (best == NULL || room_fusion_weight(c, j) > room_fusion_weight(best, j)))
			best = c;
	}
	if (best == NULL) {
		memset(&out->joints[j], 0, sizeof(TrackerJoint));
		return;
	}
	out->joints[j] = best->seen.user.joints[j];
	for (guint i = 0; i < f->n_candidates; i++) {
		const Candidate *c = &f->candidates[i];
		const TrackerJoint *cj = &c->seen.user.joints[j];
		double w = room_fusion_weight(c, j);

		if (c->track != k ||
		    cj->confidence < AGREE_CONFIDENCE * out->joints[j].confidence ||
		    tracker_vec3_distance(cj->position, out->joints[j].position) > AGREE_MM)
			continue;
		sum = tracker_vec3_mad(sum, cj->position, w);
		total += w;
	}
	out->joints[j].position = tracker_vec3_scale(sum, 1.0 / total);
	if (j == TRACKER_JOINT_LEFT_HAND || j == TRACKER_JOINT_RIGHT_HAND) {
		int h = j == TRACKER_JOINT_LEFT_HAND ? TRACKER_HAND_LEFT : TRACKER_HAND_RIGHT;

		out->hands[h] = best->seen.user.hands[h];
	}
}

static void
room_fusion_user(const RoomFusion *f, int k, TrackerUser *out)
{
	memset(out, 0, sizeof(*out));
	out->id = f->tracks[k].id;
	out->centre = f->tracks[k].centre;
	for (guint i = 0; i < f->n_candidates; i++) {
		if (f->candidates[i].track == k)
			out->n_pixels += f->candidates[i].seen.user.n_pixels;
	}
	for (int j = 0; j < TRACKER_N_JOINTS; j++)
		room_fusion_joint(f, k, j, out);
}

static int
room_fusion_compare_users(gconstpointer a, gconstpointer b)
{
	guint x = ((const TrackerUser *)a)->id, y = ((const TrackerUser *)b)->id;

	return (x > y) - (x < y);
}

/* The people seen this frame, by id, at most TRACKER_MAX_USERS of them. */
static void
room_fusion_output(RoomFusion *f, gint64 time_us, TrackerFrame *out)
{
	out->frame = f->frames++;
	out->time_us = time_us;
	out->n_users = 0;
	for (int k = 0; k < MAX_TRACKS && out->n_users < TRACKER_MAX_USERS; k++) {
		if (f->tracks[k].live && f->tracks[k].last_seen_us == time_us)
			room_fusion_user(f, k, &out->users[out->n_users++]);
	}
	qsort(out->users, out->n_users, sizeof(TrackerUser), room_fusion_compare_users);
}

/* ---- a frame in ---- */

guint
room_fusion_lead_of(const gint64 *last_us, guint n)
{
	gint64 newest = G_MININT64;

	for (guint i = 0; i < n; i++) {
		if (last_us[i] != ROOM_FUSION_NO_FRAME)
			newest = MAX(newest, last_us[i]);
	}
	for (guint i = 0; i < n; i++) {
		if (last_us[i] != ROOM_FUSION_NO_FRAME &&
		    newest - last_us[i] <= ROOM_FUSION_STALE_US)
			return i;
	}
	return 0;
}

guint
room_fusion_lead(const RoomFusion *f)
{
	gint64 last_us[ROOM_MAX_SENSORS];

	for (guint i = 0; i < f->n_sensors; i++) {
		const SensorFrame *last = room_fusion_frame(&f->sensors[i], 0);

		last_us[i] = last != NULL ? last->time_us : ROOM_FUSION_NO_FRAME;
	}
	return room_fusion_lead_of(last_us, f->n_sensors);
}

gboolean
room_fusion_process(RoomFusion *f, guint sensor, const TrackerFrame *frame, TrackerFrame *out)
{
	g_return_val_if_fail(f != NULL && sensor < f->n_sensors && frame != NULL, FALSE);

	if (!room_fusion_keep(&f->sensors[sensor], frame) || room_fusion_lead(f) != sensor)
		return FALSE;
	f->n_candidates = 0;
	for (guint i = 0; i < f->n_sensors; i++)
		room_fusion_gather(f, i, frame->time_us);
	room_fusion_stick(f);
	room_fusion_split(f);
	room_fusion_join(f, frame->time_us);
	room_fusion_orient(f);
	room_fusion_update_tracks(f, frame->time_us);
	room_fusion_output(f, frame->time_us, out);
	return TRUE;
}
