/* Claps: both hands, apart, brought together quickly in front of the body,
 * where they stop (or bounce). Quickly means on average, from the last
 * moment they were apart to the moment they meet, so that a tracker's
 * jitter cannot make a quick clap out of hands brought together slowly.
 * Hands that pass each other are arms being folded, not a clap. */
#include "gesture-clap.h"

#include "gesture-config.h"

#include <math.h>

typedef enum {
	GESTURE_CLAP_INPUT_LOST,        /* a hand not found, or not long enough */
	GESTURE_CLAP_INPUT_APART,       /* at least the opening apart */
	GESTURE_CLAP_INPUT_NEAR,        /* neither apart nor together */
	GESTURE_CLAP_INPUT_MEET_MOVING, /* together in front, still moving fast */
	GESTURE_CLAP_INPUT_MEET_STILL,  /* together in front, stopped */
	GESTURE_CLAP_INPUT_CROSSED,     /* each hand on the other's side */
} GestureClapInput;

typedef struct {
	double distance; /* between the hands, body units */
	double relative; /* how fast they move against each other, body units per second */
	double sideways; /* how far the left hand is to the left of the right one */
} ClapMeasure;

static const char *
clap_state_to_str(GestureClapState state)
{
	switch (state) {
	case GESTURE_CLAP_STATE_IDLE:
		return "IDLE";
	case GESTURE_CLAP_STATE_OPEN:
		return "OPEN";
	case GESTURE_CLAP_STATE_MET:
		return "MET";
	case GESTURE_CLAP_STATE_TOGETHER:
		return "TOGETHER";
	case GESTURE_CLAP_STATE_COOLDOWN:
		return "COOLDOWN";
	}
	return "?";
}

static const char *
clap_input_to_str(GestureClapInput input)
{
	switch (input) {
	case GESTURE_CLAP_INPUT_LOST:
		return "LOST";
	case GESTURE_CLAP_INPUT_APART:
		return "APART";
	case GESTURE_CLAP_INPUT_NEAR:
		return "NEAR";
	case GESTURE_CLAP_INPUT_MEET_MOVING:
		return "MEET_MOVING";
	case GESTURE_CLAP_INPUT_MEET_STILL:
		return "MEET_STILL";
	case GESTURE_CLAP_INPUT_CROSSED:
		return "CROSSED";
	}
	return "?";
}

static ClapMeasure
clap_measure(const GestureHandSample *l, const GestureHandSample *r)
{
	/* Body x points to the user's left, where the left hand belongs. */
	ClapMeasure m = {
		tracker_vec3_distance(r->hand, l->hand),
		tracker_vec3_distance(r->velocity, l->velocity),
		l->hand.x - r->hand.x,
	};

	return m;
}

static GestureClapInput
clap_input(const GestureBody *body, const GestureConfig *c, ClapMeasure *m)
{
	const GestureHandSample *l = &body->hands[GESTURE_HAND_LEFT];
	const GestureHandSample *r = &body->hands[GESTURE_HAND_RIGHT];

	if (!l->moving_known || !r->moving_known)
		return GESTURE_CLAP_INPUT_LOST;
	*m = clap_measure(l, r);
	if (m->sideways < 0.0)
		return GESTURE_CLAP_INPUT_CROSSED;
	if (m->distance >= c->clap_min_open)
		return GESTURE_CLAP_INPUT_APART;
	if (m->distance > c->clap_max_gap || (l->hand.z + r->hand.z) / 2 < c->clap_min_forward)
		return GESTURE_CLAP_INPUT_NEAR;
	/* Hands passing each other are closest when they move the fastest
	 * against each other; hands that met in a clap have stopped. */
	return m->relative >= c->clap_min_speed ? GESTURE_CLAP_INPUT_MEET_MOVING
	                                        : GESTURE_CLAP_INPUT_MEET_STILL;
}

static void
clap_open(GestureClap *clap, const ClapMeasure *m, gint64 now_us)
{
	clap->state = GESTURE_CLAP_STATE_OPEN;
	clap->apart_us = now_us;
	clap->apart = m->distance;
}

/* From the last moment apart to meeting: quick enough for a clap? */
static gboolean
clap_quick(const GestureClap *clap, const ClapMeasure *m, GestureContext *ctx)
{
	double seconds = (ctx->now_us - clap->apart_us) / (double)G_USEC_PER_SEC;

	return seconds > 0.0 &&
	       (clap->apart - m->distance) / seconds >= ctx->config->clap_min_speed;
}

static void
clap_emit(GestureClap *clap, const GestureBody *body, const ClapMeasure *m, GestureContext *ctx)
{
	double seconds = (ctx->now_us - clap->apart_us) / (double)G_USEC_PER_SEC;
	GestureEvent event = { .kind = GESTURE_CLAP, .hand = GESTURE_HAND_BOTH };

	event.start_us = clap->apart_us;
	event.distance = (clap->apart - m->distance) * body->scale;
	event.speed = seconds > 0.0 ? event.distance / seconds : 0.0;
	event.position = tracker_vec3_lerp(body->hands[GESTURE_HAND_LEFT].camera,
	                                   body->hands[GESTURE_HAND_RIGHT].camera, 0.5);
	gesture_context_emit(ctx, &event);
	clap->state = GESTURE_CLAP_STATE_TOGETHER;
}

static void
clap_handle_idle(GestureClap *clap, GestureClapInput input, const ClapMeasure *m,
                 GestureContext *ctx)
{
	switch (input) {
	case GESTURE_CLAP_INPUT_APART:
		clap_open(clap, m, ctx->now_us);
		break;
	case GESTURE_CLAP_INPUT_LOST:
	case GESTURE_CLAP_INPUT_NEAR:
	case GESTURE_CLAP_INPUT_MEET_MOVING:
	case GESTURE_CLAP_INPUT_MEET_STILL:
	case GESTURE_CLAP_INPUT_CROSSED:
		break;
	}
}

static void
clap_handle_open(GestureClap *clap, GestureClapInput input, const GestureBody *body,
                 const ClapMeasure *m, GestureContext *ctx)
{
	switch (input) {
	case GESTURE_CLAP_INPUT_APART:
		clap_open(clap, m, ctx->now_us);
		break;
	case GESTURE_CLAP_INPUT_NEAR:
		break;
	case GESTURE_CLAP_INPUT_MEET_MOVING:
	case GESTURE_CLAP_INPUT_MEET_STILL:
		if (!clap_quick(clap, m, ctx))
			clap->state = GESTURE_CLAP_STATE_IDLE; /* hands folded together */
		else if (input == GESTURE_CLAP_INPUT_MEET_MOVING)
			clap->state = GESTURE_CLAP_STATE_MET;
		else
			clap_emit(clap, body, m, ctx);
		break;
	case GESTURE_CLAP_INPUT_LOST:
	case GESTURE_CLAP_INPUT_CROSSED:
		clap->state = GESTURE_CLAP_STATE_IDLE;
		break;
	}
}

/* Met at speed: a clap once they stop or bounce, unless they pass. A
 * bounce parts the hands sideways, each back to its own side; hands about
 * to pass each other are side by side, if apart at all. */
static void
clap_handle_met(GestureClap *clap, GestureClapInput input, const GestureBody *body,
                const ClapMeasure *m, GestureContext *ctx)
{
	switch (input) {
	case GESTURE_CLAP_INPUT_MEET_MOVING:
		break;
	case GESTURE_CLAP_INPUT_APART:
	case GESTURE_CLAP_INPUT_NEAR:
		if (m->sideways > ctx->config->clap_max_gap)
			clap_emit(clap, body, m, ctx);
		break;
	case GESTURE_CLAP_INPUT_MEET_STILL:
		clap_emit(clap, body, m, ctx);
		break;
	case GESTURE_CLAP_INPUT_LOST:
	case GESTURE_CLAP_INPUT_CROSSED:
		clap->state = GESTURE_CLAP_STATE_IDLE;
		break;
	}
}

static void
clap_handle_together(GestureClap *clap, GestureClapInput input, GestureContext *ctx)
{
	switch (input) {
	case GESTURE_CLAP_INPUT_MEET_MOVING:
	case GESTURE_CLAP_INPUT_MEET_STILL:
	case GESTURE_CLAP_INPUT_CROSSED:
		break;
	case GESTURE_CLAP_INPUT_APART:
	case GESTURE_CLAP_INPUT_NEAR:
	case GESTURE_CLAP_INPUT_LOST:
		clap->state = GESTURE_CLAP_STATE_COOLDOWN;
		clap->until_us = ctx->now_us + gesture_config_us(ctx->config->cooldown);
		break;
	}
}

static void
clap_handle_cooldown(GestureClap *clap, GestureClapInput input, GestureContext *ctx)
{
	switch (input) {
	case GESTURE_CLAP_INPUT_LOST:
	case GESTURE_CLAP_INPUT_APART:
	case GESTURE_CLAP_INPUT_NEAR:
	case GESTURE_CLAP_INPUT_MEET_MOVING:
	case GESTURE_CLAP_INPUT_MEET_STILL:
	case GESTURE_CLAP_INPUT_CROSSED:
		if (ctx->now_us >= clap->until_us)
			clap->state = GESTURE_CLAP_STATE_IDLE;
		break;
	}
}

void
gesture_clap_init(GestureClap *clap)
{
	GestureClap fresh = { .state = GESTURE_CLAP_STATE_IDLE };

	*clap = fresh;
}

void
gesture_clap_update(GestureClap *clap, const GestureBody *body, GestureContext *ctx)
{
	GestureClapState old = clap->state;
	ClapMeasure m = { 0.0, 0.0, 0.0 };
	GestureClapInput input = clap_input(body, ctx->config, &m);

	switch (clap->state) {
	case GESTURE_CLAP_STATE_IDLE:
		clap_handle_idle(clap, input, &m, ctx);
		break;
	case GESTURE_CLAP_STATE_OPEN:
		clap_handle_open(clap, input, body, &m, ctx);
		break;
	case GESTURE_CLAP_STATE_MET:
		clap_handle_met(clap, input, body, &m, ctx);
		break;
	case GESTURE_CLAP_STATE_TOGETHER:
		clap_handle_together(clap, input, ctx);
		break;
	case GESTURE_CLAP_STATE_COOLDOWN:
		clap_handle_cooldown(clap, input, ctx);
		break;
	}
	if (clap->state != old)
		gesture_context_transition(ctx, "clap", GESTURE_HAND_BOTH, clap_state_to_str(old),
		                           clap_input_to_str(input), clap_state_to_str(clap->state),
		                           NULL);
}
