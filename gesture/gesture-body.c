/* The body as the recognisers see it: the hands and head in the body's own
 * frame, in body units, with their speeds over a short window (for
 * strokes) and a longer one (for holding still). */
#include "gesture-body.h"

#include "gesture-config.h"

#include <math.h>
#include <string.h>

/* Shoulders closer than this are a tracking glitch, not a body. */
#define MIN_SHOULDER_WIDTH_MM 50.0

typedef struct {
	TrackerVec3 origin; /* the shoulders' midpoint, camera mm */
	TrackerVec3 left, up, forward;
	double width; /* shoulder to shoulder, mm */
} BodyFrame;

static gboolean
body_joint_found(const TrackerUser *user, TrackerJointId joint, const GestureConfig *config)
{
	double confidence = user->joints[joint].confidence;

	/* 0 means not found, whatever the threshold says. */
	return confidence > 0.0 && confidence >= config->min_confidence;
}

/* The frame stays upright (camera y is up) so that leaning or a shrug
 * does not tilt every hand position; only the shoulders turn it. */
static gboolean
body_frame(const TrackerUser *user, const GestureConfig *config, BodyFrame *frame)
{
	TrackerVec3 l = user->joints[TRACKER_JOINT_LEFT_SHOULDER].position;
	TrackerVec3 r = user->joints[TRACKER_JOINT_RIGHT_SHOULDER].position;
	TrackerVec3 across = tracker_vec3_sub(l, r);

	if (!body_joint_found(user, TRACKER_JOINT_LEFT_SHOULDER, config) ||
	    !body_joint_found(user, TRACKER_JOINT_RIGHT_SHOULDER, config))
		return FALSE;
	frame->width = tracker_vec3_length(across);
	across.y = 0.0;
	if (frame->width < MIN_SHOULDER_WIDTH_MM ||
	    tracker_vec3_length(across) < MIN_SHOULDER_WIDTH_MM / 2)
		return FALSE;
	frame->origin = tracker_vec3_lerp(l, r, 0.5);
	frame->left = tracker_vec3_normalize(across);
	frame->up = tracker_vec3(0.0, 1.0, 0.0);
	return TRUE;
}

/* How far a smoothed value moves toward a new measurement after @dt_us
 * with time constant @seconds: 1 when there is nothing to smooth. */
static double
body_follow(gint64 dt_us, double seconds)
{
	if (seconds <= 0.0)
		return 1.0;
	return 1.0 - exp(-(dt_us / (double)G_USEC_PER_SEC) / seconds);
}

/* The body unit and the facing follow the shoulders slowly: one jittery
 * shoulder would otherwise move and turn every hand with it, the more the
 * further out the hand is. */
static void
body_smooth(GestureBodyHistory *history, BodyFrame *frame, gint64 now_us,
            const GestureConfig *config)
{
	gint64 dt = now_us - history->smoothed_us;

	TrackerVec3 facing;

	if (history->scale <= 0.0) {
		history->scale = frame->width;
		history->facing = frame->left;
	}
	history->scale +=
	        body_follow(dt, config->scale_smoothing) * (frame->width - history->scale);
	facing = tracker_vec3_lerp(history->facing, frame->left,
	                           body_follow(dt, config->turn_smoothing));
	/* Exactly about-face in one frame (shoulders swapped): take it as is. */
	history->facing =
	        tracker_vec3_length(facing) > 1e-6 ? tracker_vec3_normalize(facing) : frame->left;
	history->smoothed_us = now_us;
	frame->left = history->facing;
	frame->forward = tracker_vec3_cross(frame->up, frame->left);
}

static TrackerVec3
body_local(const BodyFrame *frame, double scale, TrackerVec3 p)
{
	TrackerVec3 d = tracker_vec3_sub(p, frame->origin);

	return tracker_vec3(tracker_vec3_dot(d, frame->left) / scale,
	                    tracker_vec3_dot(d, frame->up) / scale,
	                    tracker_vec3_dot(d, frame->forward) / scale);
}

static void
body_measure_hand(GestureBody *body, const TrackerUser *user, GestureHand side,
                  const BodyFrame *frame, const GestureConfig *config)
{
	TrackerJointId hand = TRACKER_JOINT_LEFT_HAND + side;
	TrackerJointId elbow = TRACKER_JOINT_LEFT_ELBOW + side;
	GestureHandSample *s = &body->hands[side];

	s->found = body_joint_found(user, hand, config);
	s->elbow_found = s->found && body_joint_found(user, elbow, config);
	s->camera = user->joints[hand].position;
	s->hand = body_local(frame, body->scale, s->camera);
	s->elbow = body_local(frame, body->scale, user->joints[elbow].position);
}

static void
body_measure(GestureBody *body, const TrackerUser *user, const BodyFrame *frame,
             const GestureConfig *config)
{
	body->head_found = body_joint_found(user, TRACKER_JOINT_HEAD, config);
	body->head = body_local(frame, body->scale, user->joints[TRACKER_JOINT_HEAD].position);
	body_measure_hand(body, user, GESTURE_HAND_LEFT, frame, config);
	body_measure_hand(body, user, GESTURE_HAND_RIGHT, frame, config);
}

/* The newest remembered frame at least @window_us old: speeds measured
 * over it are steady at any frame rate. A frame rate so high that the
 * history is shorter than the window makes do with the oldest frame. */
static const GestureBodyEntry *
body_reference(const GestureBodyHistory *history, gint64 now_us, gint64 window_us)
{
	guint k = 0;

	for (guint i = 0; i < history->n; i++) {
		k = (history->next + GESTURE_HISTORY - 1 - i) % GESTURE_HISTORY;
		if (now_us - history->entries[k].time_us >= window_us)
			return &history->entries[k];
	}
	return history->n == GESTURE_HISTORY ? &history->entries[k] : NULL;
}

static double
body_seconds(const GestureBodyEntry *now, const GestureBodyEntry *ref)
{
	return (now->time_us - ref->time_us) / (double)G_USEC_PER_SEC;
}

/* Velocities over the short window, for strokes. */
static void
body_velocities(GestureBody *body, const GestureBodyEntry *now, const GestureBodyEntry *ref)
{
	double dt = body_seconds(now, ref);

	for (int side = 0; side < 2; side++) {
		GestureHandSample *s = &body->hands[side];

		if (!s->found || !ref->hand_found[side])
			continue;
		s->moving_known = TRUE;
		s->from = ref->hand[side];
		s->from_us = ref->time_us;
		s->velocity = tracker_vec3_scale(tracker_vec3_sub(s->hand, s->from), 1.0 / dt);
		s->from_elbow_found = s->elbow_found && ref->elbow_found[side];
		s->from_elbow = ref->elbow[side];
	}
}

/* Speeds over the longer window, for holding still. */
static void
body_drifts(GestureBody *body, const GestureBodyEntry *now, const GestureBodyEntry *ref)
{
	double dt = body_seconds(now, ref);

	if (ref->found && now->found) {
		body->centre_known = TRUE;
		body->centre_drift =
		        tracker_vec3_distance(now->centre, ref->centre) / body->scale / dt;
	}
	for (int side = 0; side < 2; side++) {
		GestureHandSample *s = &body->hands[side];

		if (!s->found || !ref->hand_found[side])
			continue;
		s->drift_known = TRUE;
		s->drift = tracker_vec3_distance(s->hand, ref->hand[side]) / dt;
	}
}

static void
body_remember(GestureBodyHistory *history, const GestureBodyEntry *entry)
{
	history->entries[history->next] = *entry;
	history->next = (history->next + 1) % GESTURE_HISTORY;
	history->n = MIN(history->n + 1, GESTURE_HISTORY);
}

static void
body_entry(const GestureBody *body, const BodyFrame *frame, GestureBodyEntry *entry)
{
	entry->found = TRUE;
	entry->centre = frame->origin;
	for (int side = 0; side < 2; side++) {
		entry->hand_found[side] = body->hands[side].found;
		entry->hand[side] = body->hands[side].hand;
		entry->elbow_found[side] = body->hands[side].elbow_found;
		entry->elbow[side] = body->hands[side].elbow;
	}
}

void
gesture_body_history_init(GestureBodyHistory *history)
{
	memset(history, 0, sizeof(*history));
}

void
gesture_body_update(GestureBodyHistory *history, const TrackerUser *user, gint64 now_us,
                    const GestureConfig *config, GestureBody *body)
{
	GestureBodyEntry entry = { .time_us = now_us };
	const GestureBodyEntry *ref;
	BodyFrame frame;

	memset(body, 0, sizeof(*body));
	if (body_frame(user, config, &frame)) {
		body_smooth(history, &frame, now_us, config);
		body->found = TRUE;
		body->scale = history->scale;
		body_measure(body, user, &frame, config);
		body_entry(body, &frame, &entry);
	}
	ref = body_reference(history, now_us, gesture_config_us(config->velocity_window));
	if (ref != NULL)
		body_velocities(body, &entry, ref);
	ref = body_reference(history, now_us, gesture_config_us(config->still_window));
	if (ref != NULL)
		body_drifts(body, &entry, ref);
	body_remember(history, &entry);
}
