/* Strokes: a swipe or a push is one fast, mostly straight movement of a
 * hand. A stroke begins when the hand moves fast, from where it was last
 * at rest, and ends when the hand settles or turns; then it is judged from
 * its start to the furthest it went: how far, which way, how straight,
 * how quickly, and where the hand was. A swing back right after is part
 * of the same gesture and is swallowed by the cool-down. */
#include "gesture-stroke.h"

#include "gesture-config.h"

#include <math.h>
#include <stdio.h>

typedef enum {
	GESTURE_STROKE_INPUT_LOST,  /* the hand not found long enough to time it */
	GESTURE_STROKE_INPUT_STILL, /* all but stopped (during a stroke: for a while) */
	GESTURE_STROKE_INPUT_DRIFT, /* moving, slower than a gesture starts */
	GESTURE_STROKE_INPUT_FAST,  /* as fast as a gesture */
	GESTURE_STROKE_INPUT_TURN,  /* heading away from the way the stroke went */
} GestureStrokeInput;

typedef struct {
	const char *name;
	gboolean needs_elbow;
	/* The speed that counts, and how fast that is for a gesture. */
	double (*speed)(TrackerVec3 velocity);
	double (*min_speed)(const GestureConfig *config);
	/* FALSE with a reason in @why when the stroke is not this gesture. */
	gboolean (*judge)(const GestureStrokePoint *start, const GestureStrokePoint *end,
	                  GestureHand hand, const GestureConfig *config, GestureKind *kind,
	                  char *why, gsize why_size);
} StrokeFamily;

static const char *
stroke_state_to_str(GestureStrokeState state)
{
	switch (state) {
	case GESTURE_STROKE_STATE_IDLE:
		return "IDLE";
	case GESTURE_STROKE_STATE_MOVING:
		return "MOVING";
	case GESTURE_STROKE_STATE_COOLDOWN:
		return "COOLDOWN";
	}
	return "?";
}

static const char *
stroke_input_to_str(GestureStrokeInput input)
{
	switch (input) {
	case GESTURE_STROKE_INPUT_LOST:
		return "LOST";
	case GESTURE_STROKE_INPUT_STILL:
		return "STILL";
	case GESTURE_STROKE_INPUT_DRIFT:
		return "DRIFT";
	case GESTURE_STROKE_INPUT_FAST:
		return "FAST";
	case GESTURE_STROKE_INPUT_TURN:
		return "TURN";
	}
	return "?";
}

/* Across the body's front, any direction. */
static double
swipe_speed(TrackerVec3 v)
{
	return hypot(v.x, v.y);
}

static double
swipe_min_speed(const GestureConfig *config)
{
	return config->swipe_min_speed;
}

static double
stroke_seconds(const GestureStrokePoint *a, const GestureStrokePoint *b)
{
	return (b->time_us - a->time_us) / (double)G_USEC_PER_SEC;
}

static gboolean
swipe_judge(const GestureStrokePoint *a, const GestureStrokePoint *b,
            GestureHand hand G_GNUC_UNUSED, const GestureConfig *c, GestureKind *kind, char *why,
            gsize why_size)
{
	TrackerVec3 d = tracker_vec3_sub(b->hand, a->hand);
	TrackerVec3 e = tracker_vec3_sub(b->elbow, a->elbow);
	gboolean across = fabs(d.x) >= fabs(d.y);
	double along = across ? fabs(d.x) : fabs(d.y);
	double off = sqrt(MAX(0.0, tracker_vec3_dot(d, d) - along * along));
	/* How far the elbow went the hand's way. */
	double follow = across ? (d.x < 0.0 ? -e.x : e.x) : (d.y < 0.0 ? -e.y : e.y);

	if (along < c->swipe_min_distance)
		snprintf(why, why_size, "travel %.2f < %.2f", along, c->swipe_min_distance);
	else if (off > c->swipe_max_off_axis * along)
		snprintf(why, why_size, "off its axis by %.2f of %.2f", off, along);
	else if (stroke_seconds(a, b) > c->swipe_max_duration)
		snprintf(why, why_size, "took %.2f s", stroke_seconds(a, b));
	else if (MIN(a->hand.z, b->hand.z) < c->swipe_min_forward)
		snprintf(why, why_size, "hand %.2f in front", MIN(a->hand.z, b->hand.z));
	else if (follow < c->swipe_min_elbow * along)
		snprintf(why, why_size, "elbow followed %.2f of %.2f", follow, along);
	else if (across)
		*kind = d.x > 0.0 ? GESTURE_SWIPE_LEFT : GESTURE_SWIPE_RIGHT;
	else
		*kind = d.y > 0.0 ? GESTURE_SWIPE_UP : GESTURE_SWIPE_DOWN;
	return why[0] == '\0';
}

/* Toward the front only: pulling the hand back is no push. */
static double
push_speed(TrackerVec3 v)
{
	return v.z;
}

static double
push_min_speed(const GestureConfig *config)
{
	return config->push_min_speed;
}

/* How straight the arm is at @p: the hand's distance from its shoulder
 * over the arm's length, 1 when straight. The shoulders sit half a body
 * unit either side of the body frame's origin. */
static double
push_extension(const GestureStrokePoint *p, GestureHand hand)
{
	TrackerVec3 shoulder = tracker_vec3(hand == GESTURE_HAND_LEFT ? 0.5 : -0.5, 0.0, 0.0);
	double length = tracker_vec3_distance(p->elbow, shoulder) +
	                tracker_vec3_distance(p->hand, p->elbow);

	return length > 0.0 ? tracker_vec3_distance(p->hand, shoulder) / length : 0.0;
}

static gboolean
push_judge(const GestureStrokePoint *a, const GestureStrokePoint *b, GestureHand hand,
           const GestureConfig *c, GestureKind *kind, char *why, gsize why_size)
{
	TrackerVec3 d = tracker_vec3_sub(b->hand, a->hand);
	double off = hypot(d.x, d.y);
	double extension = push_extension(b, hand);

	if (d.z < c->push_min_distance)
		snprintf(why, why_size, "travel %.2f < %.2f", d.z, c->push_min_distance);
	else if (off > c->push_max_off_axis * d.z)
		snprintf(why, why_size, "off its axis by %.2f of %.2f", off, d.z);
	else if (stroke_seconds(a, b) > c->push_max_duration)
		snprintf(why, why_size, "took %.2f s", stroke_seconds(a, b));
	else if (b->hand.z < c->push_min_reach)
		snprintf(why, why_size, "reach %.2f < %.2f", b->hand.z, c->push_min_reach);
	else if (extension < c->push_min_extension)
		snprintf(why, why_size, "arm %.2f straight < %.2f", extension,
		         c->push_min_extension);
	else
		*kind = GESTURE_PUSH;
	return why[0] == '\0';
}

static const StrokeFamily families[] = {
	[GESTURE_STROKE_SWIPE] = { "swipe", TRUE, swipe_speed, swipe_min_speed, swipe_judge },
	[GESTURE_STROKE_PUSH] = { "push", TRUE, push_speed, push_min_speed, push_judge },
};

/* At rest means the whole hand, whichever way it goes: a hand reaching
 * forward is not at rest for a swipe. Settled is at rest over the still
 * window too, so that a tracker's jitter does not cut a movement short. */
static gboolean
stroke_at_rest(const GestureHandSample *s, double settle)
{
	return tracker_vec3_length(s->velocity) < settle;
}

static gboolean
stroke_settled(const GestureHandSample *s, double settle)
{
	return stroke_at_rest(s, settle) && (!s->drift_known || s->drift < settle);
}

/* Heading more than 60 degrees away from the way the stroke went: one
 * movement flowing into another (up to the chest, then a push) is two. */
static gboolean
stroke_turned(TrackerVec3 velocity, TrackerVec3 so_far)
{
	return tracker_vec3_dot(velocity, so_far) <
	       0.5 * tracker_vec3_length(velocity) * tracker_vec3_length(so_far);
}

static GestureStrokeInput
stroke_input(const GestureStroke *stroke, const GestureBody *body, const GestureConfig *config)
{
	const GestureHandSample *s = &body->hands[stroke->hand];
	const StrokeFamily *family = &families[stroke->family];
	TrackerVec3 so_far = tracker_vec3_sub(stroke->far.hand, stroke->start.hand);
	double min = family->min_speed(config), settle, speed;

	if (!s->found || !s->moving_known || (family->needs_elbow && !s->from_elbow_found))
		return GESTURE_STROKE_INPUT_LOST;
	speed = family->speed(s->velocity);
	settle = config->stroke_settle * min;
	if (stroke->state == GESTURE_STROKE_STATE_IDLE ? stroke_at_rest(s, settle)
	                                               : stroke_settled(s, settle))
		return GESTURE_STROKE_INPUT_STILL;
	if (stroke->state == GESTURE_STROKE_STATE_MOVING && stroke_turned(s->velocity, so_far))
		return GESTURE_STROKE_INPUT_TURN;
	return speed >= min ? GESTURE_STROKE_INPUT_FAST : GESTURE_STROKE_INPUT_DRIFT;
}

static GestureStrokePoint
stroke_point(const GestureHandSample *s, gint64 now_us)
{
	GestureStrokePoint p = { now_us, s->hand, s->elbow };

	return p;
}

static void
stroke_rest(GestureStroke *stroke, const GestureStrokePoint *p)
{
	stroke->rest_known = TRUE;
	stroke->rest = *p;
}

/* A stroke starts where the hand was last at rest, so that its duration
 * is the whole movement's: a slow reach that a tracker's jitter pushes
 * over the speed for a moment is still slow. Without a rest (the hand
 * came moving), it starts where its speed was measured from. */
static void
stroke_begin(GestureStroke *stroke, const GestureHandSample *s, gint64 now_us)
{
	GestureStrokePoint from = { s->from_us, s->from, s->from_elbow };

	stroke->state = GESTURE_STROKE_STATE_MOVING;
	stroke->start = stroke->rest_known ? stroke->rest : from;
	stroke->rest_known = FALSE;
	stroke->far = stroke_point(s, now_us);
}

static void
stroke_extend(GestureStroke *stroke, const GestureHandSample *s, gint64 now_us)
{
	if (tracker_vec3_distance(s->hand, stroke->start.hand) >=
	    tracker_vec3_distance(stroke->far.hand, stroke->start.hand))
		stroke->far = stroke_point(s, now_us);
}

static void
stroke_emit(GestureStroke *stroke, GestureKind kind, const GestureBody *body, GestureContext *ctx)
{
	double seconds = stroke_seconds(&stroke->start, &stroke->far);
	GestureEvent event = { .kind = kind, .hand = stroke->hand };

	event.start_us = stroke->start.time_us;
	event.distance = tracker_vec3_distance(stroke->far.hand, stroke->start.hand) * body->scale;
	event.speed = seconds > 0.0 ? event.distance / seconds : 0.0;
	event.position = body->hands[stroke->hand].camera;
	gesture_context_emit(ctx, &event);
}

/* The hand has settled or turned: from its start to the furthest it went,
 * was that a gesture? */
static void
stroke_finish(GestureStroke *stroke, const GestureBody *body, GestureContext *ctx, char *why,
              gsize why_size)
{
	const GestureStrokePoint *a = &stroke->start, *b = &stroke->far;
	GestureKind kind;

	if (!families[stroke->family].judge(a, b, stroke->hand, ctx->config, &kind, why,
	                                    why_size)) {
		stroke->state = GESTURE_STROKE_STATE_IDLE;
		return;
	}
	/* What made it a gesture, for whoever tunes the thresholds. */
	if (gesture_context_logging(ctx))
		snprintf(why, why_size, "travel %.2f in %.2f s",
		         tracker_vec3_distance(b->hand, a->hand), stroke_seconds(a, b));
	stroke_emit(stroke, kind, body, ctx);
	stroke->state = GESTURE_STROKE_STATE_COOLDOWN;
	stroke->until_us = ctx->now_us + gesture_config_us(ctx->config->cooldown);
}

static void
stroke_handle_idle(GestureStroke *stroke, GestureStrokeInput input, const GestureBody *body,
                   GestureContext *ctx)
{
	GestureStrokePoint now = stroke_point(&body->hands[stroke->hand], ctx->now_us);

	switch (input) {
	case GESTURE_STROKE_INPUT_LOST:
		stroke->rest_known = FALSE;
		break;
	case GESTURE_STROKE_INPUT_STILL:
		stroke_rest(stroke, &now);
		break;
	case GESTURE_STROKE_INPUT_DRIFT:
		break;
	case GESTURE_STROKE_INPUT_FAST:
	case GESTURE_STROKE_INPUT_TURN:
		stroke_begin(stroke, &body->hands[stroke->hand], ctx->now_us);
		break;
	}
}

static void
stroke_handle_moving(GestureStroke *stroke, GestureStrokeInput input, const GestureBody *body,
                     GestureContext *ctx, char *why, gsize why_size)
{
	GestureStrokePoint now = stroke_point(&body->hands[stroke->hand], ctx->now_us);

	switch (input) {
	case GESTURE_STROKE_INPUT_LOST:
		stroke->state = GESTURE_STROKE_STATE_IDLE;
		break;
	case GESTURE_STROKE_INPUT_FAST:
	case GESTURE_STROKE_INPUT_DRIFT:
		stroke_extend(stroke, &body->hands[stroke->hand], ctx->now_us);
		break;
	case GESTURE_STROKE_INPUT_STILL:
		stroke_finish(stroke, body, ctx, why, why_size);
		stroke_rest(stroke, &now);
		break;
	case GESTURE_STROKE_INPUT_TURN:
		/* The next stroke starts at the corner. */
		stroke_finish(stroke, body, ctx, why, why_size);
		stroke_rest(stroke, &stroke->far);
		break;
	}
}

/* Until the cool-down is over, a fast hand is the gesture going on (a
 * swing back); after it, a fast hand starts a new stroke. */
static void
stroke_handle_cooldown(GestureStroke *stroke, GestureStrokeInput input, const GestureBody *body,
                       GestureContext *ctx)
{
	GestureStrokePoint now = stroke_point(&body->hands[stroke->hand], ctx->now_us);
	gboolean over = ctx->now_us >= stroke->until_us;

	switch (input) {
	case GESTURE_STROKE_INPUT_LOST:
		stroke->rest_known = FALSE;
		if (over)
			stroke->state = GESTURE_STROKE_STATE_IDLE;
		break;
	case GESTURE_STROKE_INPUT_STILL:
		stroke_rest(stroke, &now);
		if (over)
			stroke->state = GESTURE_STROKE_STATE_IDLE;
		break;
	case GESTURE_STROKE_INPUT_DRIFT:
		break;
	case GESTURE_STROKE_INPUT_FAST:
	case GESTURE_STROKE_INPUT_TURN:
		if (over)
			stroke_begin(stroke, &body->hands[stroke->hand], ctx->now_us);
		break;
	}
}

void
gesture_stroke_init(GestureStroke *stroke, GestureStrokeFamily family, GestureHand hand)
{
	GestureStroke fresh = { .family = family, .hand = hand };

	*stroke = fresh;
}

void
gesture_stroke_update(GestureStroke *stroke, const GestureBody *body, GestureContext *ctx)
{
	GestureStrokeState old = stroke->state;
	GestureStrokeInput input = stroke_input(stroke, body, ctx->config);
	char why[96] = "";

	switch (stroke->state) {
	case GESTURE_STROKE_STATE_IDLE:
		stroke_handle_idle(stroke, input, body, ctx);
		break;
	case GESTURE_STROKE_STATE_MOVING:
		stroke_handle_moving(stroke, input, body, ctx, why, sizeof(why));
		break;
	case GESTURE_STROKE_STATE_COOLDOWN:
		stroke_handle_cooldown(stroke, input, body, ctx);
		break;
	}
	if (stroke->state != old)
		gesture_context_transition(ctx, families[stroke->family].name, stroke->hand,
		                           stroke_state_to_str(old), stroke_input_to_str(input),
		                           stroke_state_to_str(stroke->state), why[0] ? why : NULL);
}
