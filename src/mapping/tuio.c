#include "tuio.h"

#include <math.h>
#include <string.h>

#include "mapping-hands.h"

#define DEFAULT_REACH_MM 650.0               /* an adult's shoulder to hand joint */
#define REACH_SMOOTHING  0.9                 /* per frame; the reach hardly changes */
#define ID_RANGE         (TUIO_ID_LIMIT - 1) /* ids run from 1 to this */

typedef struct {
	gboolean active;
	gboolean moved; /* has a previous position */
	gint32 session;
	double x, y, z;
	double speed;
	gint64 time_us;
	MappingGrip grip; /* touch = grip */
} HandTrack;

typedef struct {
	guint id; /* 0: slot free */
	gboolean seen;
	double reach;
	HandTrack hands[2];
} UserTrack;

struct _TuioState {
	TuioConfig config;
	gint32 next_session;
	gint32 next_fseq;
	gint32 last_fseq; /* 0 before the first frame */
	UserTrack users[TRACKER_MAX_USERS];
	guint empty_left;
	gboolean sent_any;
	gint64 last_sent_us;
};

static const TrackerJointId hand_joint[2] = { TRACKER_JOINT_LEFT_HAND, TRACKER_JOINT_RIGHT_HAND };

void
tuio_config_init(TuioConfig *config)
{
	memset(config, 0, sizeof(*config));
	config->profile = TUIO_PROFILE_2DCUR;
	config->touch = TUIO_TOUCH_PUSH;
	config->push_depth = 0.6;
	config->push_release = 0.5;
	config->raised_height = 0.0;
	config->raised_release = -0.08;
	config->min_confidence = 0.3;
	config->box = TUIO_BOX_BODY;
	config->body_width = 1.2;
	config->body_height = 1.0;
	config->body_raise = -0.1;
	config->camera_min = tracker_vec3(-800, -300, 1200);
	config->camera_max = tracker_vec3(800, 900, 3500);
	config->mirror = TRUE;
	config->empty_repeats = 5;
	config->keepalive_us = G_USEC_PER_SEC;
}

gint32
tuio_seed_from_clock(gint64 unix_time_us)
{
	gint64 ticks = unix_time_us / G_USEC_PER_SEC * 30 +
	               unix_time_us % G_USEC_PER_SEC * 30 / G_USEC_PER_SEC;

	return (gint32)(ticks % ID_RANGE) + 1;
}

guint32
tuio_seed_spread(const char *text)
{
	guint8 digest[32];
	gsize length = sizeof(digest);
	g_autoptr(GChecksum) checksum = g_checksum_new(G_CHECKSUM_SHA256);
	guint64 v = 0;

	g_checksum_update(checksum, (const guchar *)text, -1);
	g_checksum_get_digest(checksum, digest, &length);
	for (guint i = 0; i < 8; i++)
		v = v << 8 | digest[i];
	return (guint32)(v % ID_RANGE);
}

gint32
tuio_seed_mix(gint32 seed, guint32 spread)
{
	return (gint32)(((gint64)seed - 1 + spread % ID_RANGE) % ID_RANGE) + 1;
}

gboolean
tuio_fseq_after(gint32 a, gint32 b)
{
	gint64 ahead = (((gint64)a - b) % ID_RANGE + ID_RANGE) % ID_RANGE;

	return ahead > 0 && ahead < ID_RANGE / 2;
}

TuioState *
tuio_state_new_full(const TuioConfig *config, gint32 session_seed, gint32 fseq_seed)
{
	TuioState *state;

	g_return_val_if_fail(session_seed > 0 && session_seed < TUIO_ID_LIMIT, NULL);
	g_return_val_if_fail(fseq_seed > 0 && fseq_seed < TUIO_ID_LIMIT, NULL);
	state = g_new0(TuioState, 1);
	state->config = *config;
	state->next_session = session_seed;
	state->next_fseq = fseq_seed;
	return state;
}

TuioState *
tuio_state_new(const TuioConfig *config, gint32 seed)
{
	return tuio_state_new_full(config, seed, seed);
}

void
tuio_state_free(TuioState *state)
{
	g_free(state);
}

void
tuio_state_set_config(TuioState *state, const TuioConfig *config)
{
	state->config = *config;
}

/* Ids and sequence numbers only grow; at the limit they start again low,
 * which clients take for a restart (more than 100 below the last). */
static gint32
next_id(gint32 *counter)
{
	gint32 id = *counter;

	*counter = id >= TUIO_ID_LIMIT - 1 ? 1 : id + 1;
	return id;
}

static gboolean
joint_ok(const TuioState *state, const TrackerUser *user, TrackerJointId j)
{
	return user->joints[j].confidence >= state->config.min_confidence;
}

static TrackerVec3
joint_pos(const TrackerUser *user, TrackerJointId j)
{
	return user->joints[j].position;
}

static UserTrack *
find_track(TuioState *state, guint id)
{
	UserTrack *free_slot = NULL;

	for (guint i = 0; i < TRACKER_MAX_USERS; i++) {
		if (state->users[i].id == id)
			return &state->users[i];
		if (state->users[i].id == 0 && free_slot == NULL)
			free_slot = &state->users[i];
	}
	if (free_slot != NULL) {
		memset(free_slot, 0, sizeof(*free_slot));
		free_slot->id = id;
	}
	return free_slot;
}

/* Shoulder to elbow to hand, on the better-tracked side. */
static double
measure_reach(const TuioState *state, const TrackerUser *user)
{
	double best = 0.0;

	for (int side = 0; side < 2; side++) {
		TrackerJointId s = TRACKER_JOINT_LEFT_SHOULDER + side;

		if (!joint_ok(state, user, s) || !joint_ok(state, user, s + 2) ||
		    !joint_ok(state, user, s + 4))
			continue;
		best = MAX(best, tracker_vec3_distance(joint_pos(user, s), joint_pos(user, s + 2)) +
		                         tracker_vec3_distance(joint_pos(user, s + 2),
		                                               joint_pos(user, s + 4)));
	}
	return best;
}

static void
update_reach(const TuioState *state, UserTrack *track, const TrackerUser *user)
{
	double reach = measure_reach(state, user);

	if (reach <= 0.0)
		reach = track->reach > 0.0 ? track->reach : DEFAULT_REACH_MM;
	track->reach = track->reach > 0.0
	                       ? REACH_SMOOTHING * track->reach + (1.0 - REACH_SMOOTHING) * reach
	                       : reach;
}

/* The user's own left, horizontal; the image's +x for a user facing us. */
static TrackerVec3
body_left(const TuioState *state, const TrackerUser *user)
{
	TrackerVec3 d;

	if (!joint_ok(state, user, TRACKER_JOINT_LEFT_SHOULDER) ||
	    !joint_ok(state, user, TRACKER_JOINT_RIGHT_SHOULDER))
		return tracker_vec3(1, 0, 0);
	d = tracker_vec3_sub(joint_pos(user, TRACKER_JOINT_LEFT_SHOULDER),
	                     joint_pos(user, TRACKER_JOINT_RIGHT_SHOULDER));
	d.y = 0.0;
	return tracker_vec3_length(d) > 1.0 ? tracker_vec3_normalize(d) : tracker_vec3(1, 0, 0);
}

/* The way the user faces: toward the sensor for a user facing us. */
static TrackerVec3
body_forward(TrackerVec3 left)
{
	return tracker_vec3(left.z, 0.0, -left.x);
}

static TrackerVec3
shoulder_centre(const TrackerUser *user)
{
	return tracker_vec3_scale(tracker_vec3_add(joint_pos(user, TRACKER_JOINT_LEFT_SHOULDER),
	                                           joint_pos(user, TRACKER_JOINT_RIGHT_SHOULDER)),
	                          0.5);
}

/* How far the hand is in front of its shoulder, in reaches. */
static double
hand_depth(const TuioState *state, const TrackerUser *user, int side, double reach)
{
	TrackerVec3 forward = body_forward(body_left(state, user));
	TrackerVec3 d = tracker_vec3_sub(joint_pos(user, hand_joint[side]),
	                                 joint_pos(user, TRACKER_JOINT_LEFT_SHOULDER + side));

	return tracker_vec3_dot(d, forward) / reach;
}

static gboolean
hand_touches(const TuioState *state, const TrackerUser *user, int side, double reach,
             gboolean active)
{
	const TuioConfig *c = &state->config;
	TrackerJointId shoulder = TRACKER_JOINT_LEFT_SHOULDER + side;
	double height;

	if (!joint_ok(state, user, hand_joint[side]))
		return FALSE;
	switch (c->touch) {
	case TUIO_TOUCH_ALWAYS:
		return TRUE;
	case TUIO_TOUCH_PUSH:
		if (!joint_ok(state, user, shoulder))
			return FALSE;
		return hand_depth(state, user, side, reach) >
		       (active ? c->push_release : c->push_depth);
	case TUIO_TOUCH_RAISED:
		if (!joint_ok(state, user, shoulder))
			return FALSE;
		height =
		        (joint_pos(user, hand_joint[side]).y - joint_pos(user, shoulder).y) / reach;
		return height > (active ? c->raised_release : c->raised_height);
	case TUIO_TOUCH_GRIP:
		return FALSE; /* hand_grips() */
	}
	return FALSE;
}

/* touch = grip: the hand touches while it is closed. */
static gboolean
hand_grips(const TuioState *state, HandTrack *hand, const TrackerUser *user, int side,
           gint64 time_us)
{
	TrackerHand seen = user->hands[side];
	gboolean found = joint_ok(state, user, hand_joint[side]);

	if (!found)
		seen.state = TRACKER_HAND_UNKNOWN;
	return mapping_hands_grip_update(&hand->grip, &seen, time_us) && found;
}

static double
clamp01(double v)
{
	return CLAMP(v, 0.0, 1.0);
}

static void
body_box_position(const TuioState *state, const TrackerUser *user, int side, double reach,
                  double out[3])
{
	const TuioConfig *c = &state->config;
	TrackerVec3 left = body_left(state, user);
	TrackerVec3 d = tracker_vec3_sub(joint_pos(user, hand_joint[side]), shoulder_centre(user));
	double lateral = tracker_vec3_dot(d, left) / (c->body_width * reach);
	double up = (d.y / reach - c->body_raise) / c->body_height;

	out[0] = clamp01(c->mirror ? 0.5 - lateral : 0.5 + lateral);
	out[1] = clamp01(0.5 - up);
	out[2] = clamp01(hand_depth(state, user, side, reach));
}

static void
camera_box_position(const TuioState *state, TrackerVec3 p, double out[3])
{
	const TuioConfig *c = &state->config;
	TrackerVec3 lo = c->camera_min, hi = c->camera_max;
	double x = (p.x - lo.x) / (hi.x - lo.x);

	out[0] = clamp01(c->mirror ? 1.0 - x : x);
	out[1] = clamp01((hi.y - p.y) / (hi.y - lo.y));
	out[2] = clamp01((hi.z - p.z) / (hi.z - lo.z));
}

/* Moves the hand's cursor to its new place and works out its motion. */
static void
hand_move(const TuioState *state, HandTrack *hand, const double pos[3], gint64 time_us,
          TuioCursor *cursor)
{
	double dt = (time_us - hand->time_us) / (double)G_USEC_PER_SEC;
	gboolean moving = hand->moved && dt > 0.0;
	double vx = moving ? (pos[0] - hand->x) / dt : 0.0;
	double vy = moving ? (pos[1] - hand->y) / dt : 0.0;
	double vz = moving ? (pos[2] - hand->z) / dt : 0.0;
	gboolean depth = state->config.profile != TUIO_PROFILE_2DCUR;
	double speed = sqrt(vx * vx + vy * vy + (depth ? vz * vz : 0.0));

	cursor->session = hand->session;
	cursor->x = (float)pos[0];
	cursor->y = (float)pos[1];
	cursor->z = (float)pos[2];
	cursor->vx = (float)vx;
	cursor->vy = (float)vy;
	cursor->vz = (float)vz;
	cursor->accel = moving ? (float)((speed - hand->speed) / dt) : 0.0f;
	hand->x = pos[0];
	hand->y = pos[1];
	hand->z = pos[2];
	hand->speed = speed;
	hand->time_us = time_us;
	hand->moved = TRUE;
}

static void
follow_hand(TuioState *state, UserTrack *track, const TrackerUser *user, int side, gint64 time_us,
            TuioFrame *out)
{
	HandTrack *hand = &track->hands[side];
	double pos[3];
	TuioCursor *cursor;
	gboolean touches = state->config.touch == TUIO_TOUCH_GRIP
	                           ? hand_grips(state, hand, user, side, time_us)
	                           : hand_touches(state, user, side, track->reach, hand->active);

	if (!touches) {
		MappingGrip grip = hand->grip;

		memset(hand, 0, sizeof(*hand));
		hand->grip = grip;
		return;
	}
	if (!hand->active) {
		hand->active = TRUE;
		hand->session = next_id(&state->next_session);
	}
	if (state->config.box == TUIO_BOX_BODY)
		body_box_position(state, user, side, track->reach, pos);
	else
		camera_box_position(state, joint_pos(user, hand_joint[side]), pos);
	cursor = &out->cursors[out->n_cursors++];
	cursor->user = user->id;
	cursor->hand = hand_joint[side];
	hand_move(state, hand, pos, time_us, cursor);
}

static int
compare_session(const void *a, const void *b)
{
	gint32 x = ((const TuioCursor *)a)->session, y = ((const TuioCursor *)b)->session;

	return (x > y) - (x < y);
}

static void
follow_users(TuioState *state, const TrackerFrame *frame, TuioFrame *out)
{
	for (guint i = 0; i < TRACKER_MAX_USERS; i++)
		state->users[i].seen = FALSE;
	for (guint i = 0; i < frame->n_users; i++) {
		const TrackerUser *user = &frame->users[i];
		UserTrack *track = find_track(state, user->id);

		if (track == NULL)
			continue;
		track->seen = TRUE;
		update_reach(state, track, user);
		for (int side = 0; side < 2; side++)
			follow_hand(state, track, user, side, frame->time_us, out);
	}
	/* A user who left takes their cursors along. */
	for (guint i = 0; i < TRACKER_MAX_USERS; i++) {
		if (!state->users[i].seen)
			memset(&state->users[i], 0, sizeof(UserTrack));
	}
	qsort(out->cursors, out->n_cursors, sizeof(TuioCursor), compare_session);
}

static gboolean
frame_due(TuioState *state, const TuioFrame *out)
{
	if (out->n_cursors > 0) {
		state->empty_left = state->config.empty_repeats;
		return TRUE;
	}
	if (state->empty_left > 0) {
		state->empty_left--;
		return TRUE;
	}
	return !state->sent_any || out->time_us - state->last_sent_us >= state->config.keepalive_us;
}

gboolean
tuio_state_update(TuioState *state, const TrackerFrame *frame, TuioFrame *out)
{
	memset(out, 0, sizeof(*out));
	out->time_us = frame->time_us;
	follow_users(state, frame, out);
	if (!frame_due(state, out))
		return FALSE;
	out->fseq = state->last_fseq = next_id(&state->next_fseq);
	state->sent_any = TRUE;
	state->last_sent_us = frame->time_us;
	return TRUE;
}

void
tuio_state_finish(TuioState *state, gint64 time_us, TuioFrame *out)
{
	memset(out, 0, sizeof(*out));
	memset(state->users, 0, sizeof(state->users));
	out->time_us = time_us;
	out->fseq = state->last_fseq = next_id(&state->next_fseq);
	state->last_sent_us = time_us;
}

void
tuio_state_raise_fseq(TuioState *state, gint32 floor)
{
	g_return_if_fail(floor > 0 && floor < TUIO_ID_LIMIT);
	if (tuio_fseq_after(floor, state->next_fseq))
		state->next_fseq = floor;
}

gint32
tuio_state_last_fseq(const TuioState *state)
{
	return state->last_fseq;
}
