/* Holds: a pose kept still for a while. A raised hand is one hand above
 * the head; arms out is both hands out to the sides at shoulder height,
 * with the whole body still. The event comes once per hold; the pose must
 * be left before it can come again. */
#include "gesture-hold.h"

#include "gesture-config.h"

#include <math.h>

typedef enum {
	GESTURE_HOLD_INPUT_LOST, /* a joint the pose needs is not found */
	GESTURE_HOLD_INPUT_OFF,  /* not in the pose */
	GESTURE_HOLD_INPUT_MOVING,
	GESTURE_HOLD_INPUT_STILL,
} GestureHoldInput;

static const char *
hold_state_to_str(GestureHoldState state)
{
	switch (state) {
	case GESTURE_HOLD_STATE_IDLE:
		return "IDLE";
	case GESTURE_HOLD_STATE_POSED:
		return "POSED";
	case GESTURE_HOLD_STATE_HELD:
		return "HELD";
	case GESTURE_HOLD_STATE_COOLDOWN:
		return "COOLDOWN";
	}
	return "?";
}

static const char *
hold_input_to_str(GestureHoldInput input)
{
	switch (input) {
	case GESTURE_HOLD_INPUT_LOST:
		return "LOST";
	case GESTURE_HOLD_INPUT_OFF:
		return "OFF";
	case GESTURE_HOLD_INPUT_MOVING:
		return "MOVING";
	case GESTURE_HOLD_INPUT_STILL:
		return "STILL";
	}
	return "?";
}

/* Over the still window: a tracker's jitter averages out over it. */
static gboolean
hold_hand_still(const GestureHandSample *s, double max_speed)
{
	return s->drift_known && s->drift <= max_speed;
}

static GestureHoldInput
raise_input(GestureHand hand, const GestureBody *body, const GestureConfig *c)
{
	const GestureHandSample *s = &body->hands[hand];

	if (!s->found || !body->head_found)
		return GESTURE_HOLD_INPUT_LOST;
	if (s->hand.y - body->head.y < c->raise_min_height)
		return GESTURE_HOLD_INPUT_OFF;
	return hold_hand_still(s, c->raise_max_speed) ? GESTURE_HOLD_INPUT_STILL
	                                              : GESTURE_HOLD_INPUT_MOVING;
}

static double
raise_hold_time(const GestureConfig *c)
{
	return c->raise_hold_time;
}

static TrackerVec3
raise_position(GestureHand hand, const GestureBody *body)
{
	return body->hands[hand].camera;
}

static gboolean
arms_out_posed(const GestureBody *body, const GestureConfig *c)
{
	const GestureHandSample *l = &body->hands[GESTURE_HAND_LEFT];
	const GestureHandSample *r = &body->hands[GESTURE_HAND_RIGHT];

	/* Body x points to the user's left: the right hand reaches out to -x. */
	return l->hand.x >= c->arms_out_min_reach && -r->hand.x >= c->arms_out_min_reach &&
	       fabs(l->hand.y) <= c->arms_out_max_height &&
	       fabs(r->hand.y) <= c->arms_out_max_height;
}

/* Still means the whole body: arms held out while walking are no hold. */
static GestureHoldInput
arms_out_input(GestureHand hand G_GNUC_UNUSED, const GestureBody *body, const GestureConfig *c)
{
	const GestureHandSample *l = &body->hands[GESTURE_HAND_LEFT];
	const GestureHandSample *r = &body->hands[GESTURE_HAND_RIGHT];
	double max = c->arms_out_max_speed;

	if (!l->found || !r->found)
		return GESTURE_HOLD_INPUT_LOST;
	if (!arms_out_posed(body, c))
		return GESTURE_HOLD_INPUT_OFF;
	if (hold_hand_still(l, max) && hold_hand_still(r, max) && body->centre_known &&
	    body->centre_drift <= max)
		return GESTURE_HOLD_INPUT_STILL;
	return GESTURE_HOLD_INPUT_MOVING;
}

static double
arms_out_hold_time(const GestureConfig *c)
{
	return c->arms_out_hold_time;
}

static TrackerVec3
arms_out_position(GestureHand hand G_GNUC_UNUSED, const GestureBody *body)
{
	return tracker_vec3_lerp(body->hands[GESTURE_HAND_LEFT].camera,
	                         body->hands[GESTURE_HAND_RIGHT].camera, 0.5);
}

typedef struct {
	const char *name;
	GestureKind kind;
	GestureHoldInput (*input)(GestureHand hand, const GestureBody *body,
	                          const GestureConfig *c);
	double (*hold_time)(const GestureConfig *c);
	TrackerVec3 (*position)(GestureHand hand, const GestureBody *body);
} HoldFamily;

static const HoldFamily families[] = {
	[GESTURE_HOLD_RAISE] = { "raise", GESTURE_RAISE_HAND, raise_input, raise_hold_time,
	                         raise_position },
	[GESTURE_HOLD_ARMS_OUT] = { "arms_out", GESTURE_ARMS_OUT, arms_out_input,
	                            arms_out_hold_time, arms_out_position },
};

static void
hold_emit(GestureHold *hold, const GestureBody *body, GestureContext *ctx)
{
	const HoldFamily *family = &families[hold->family];
	GestureEvent event = { .kind = family->kind,
		               .hand = hold->hand,
		               .start_us = hold->posed_us };

	event.position = family->position(hold->hand, body);
	gesture_context_emit(ctx, &event);
}

static void
hold_handle_idle(GestureHold *hold, GestureHoldInput input, GestureContext *ctx)
{
	switch (input) {
	case GESTURE_HOLD_INPUT_LOST:
	case GESTURE_HOLD_INPUT_OFF:
		break;
	case GESTURE_HOLD_INPUT_MOVING:
	case GESTURE_HOLD_INPUT_STILL:
		hold->state = GESTURE_HOLD_STATE_POSED;
		hold->posed_us = ctx->now_us;
		hold->still_us = ctx->now_us;
		hold->moving = FALSE;
		break;
	}
}

/* Moving breaks the hold, and the time held starts again; but not for a
 * moment shorter than the velocity window, a frame or two, as a tracker's
 * jitter can look like movement. */
static void
hold_moving(GestureHold *hold, GestureContext *ctx)
{
	if (!hold->moving) {
		hold->moving = TRUE;
		hold->moving_us = ctx->now_us;
	}
	if (ctx->now_us - hold->moving_us >= gesture_config_us(ctx->config->velocity_window))
		hold->still_us = ctx->now_us;
}

static void
hold_handle_posed(GestureHold *hold, GestureHoldInput input, const GestureBody *body,
                  GestureContext *ctx)
{
	switch (input) {
	case GESTURE_HOLD_INPUT_LOST:
	case GESTURE_HOLD_INPUT_OFF:
		hold->state = GESTURE_HOLD_STATE_IDLE;
		break;
	case GESTURE_HOLD_INPUT_MOVING:
		hold_moving(hold, ctx);
		break;
	case GESTURE_HOLD_INPUT_STILL:
		hold->moving = FALSE;
		if (ctx->now_us - hold->still_us <
		    gesture_config_us(families[hold->family].hold_time(ctx->config)))
			break;
		hold_emit(hold, body, ctx);
		hold->state = GESTURE_HOLD_STATE_HELD;
		break;
	}
}

static void
hold_handle_held(GestureHold *hold, GestureHoldInput input, GestureContext *ctx)
{
	switch (input) {
	case GESTURE_HOLD_INPUT_LOST:
	case GESTURE_HOLD_INPUT_OFF:
		hold->state = GESTURE_HOLD_STATE_COOLDOWN;
		hold->until_us = ctx->now_us + gesture_config_us(ctx->config->cooldown);
		break;
	case GESTURE_HOLD_INPUT_MOVING:
	case GESTURE_HOLD_INPUT_STILL:
		break;
	}
}

static void
hold_handle_cooldown(GestureHold *hold, GestureHoldInput input, GestureContext *ctx)
{
	switch (input) {
	case GESTURE_HOLD_INPUT_LOST:
	case GESTURE_HOLD_INPUT_OFF:
	case GESTURE_HOLD_INPUT_MOVING:
	case GESTURE_HOLD_INPUT_STILL:
		if (ctx->now_us >= hold->until_us)
			hold->state = GESTURE_HOLD_STATE_IDLE;
		break;
	}
}

void
gesture_hold_init(GestureHold *hold, GestureHoldFamily family, GestureHand hand)
{
	GestureHold fresh = { .family = family, .hand = hand };

	*hold = fresh;
}

void
gesture_hold_update(GestureHold *hold, const GestureBody *body, GestureContext *ctx)
{
	GestureHoldState old = hold->state;
	GestureHoldInput input = families[hold->family].input(hold->hand, body, ctx->config);

	switch (hold->state) {
	case GESTURE_HOLD_STATE_IDLE:
		hold_handle_idle(hold, input, ctx);
		break;
	case GESTURE_HOLD_STATE_POSED:
		hold_handle_posed(hold, input, body, ctx);
		break;
	case GESTURE_HOLD_STATE_HELD:
		hold_handle_held(hold, input, ctx);
		break;
	case GESTURE_HOLD_STATE_COOLDOWN:
		hold_handle_cooldown(hold, input, ctx);
		break;
	}
	if (hold->state != old)
		gesture_context_transition(ctx, families[hold->family].name, hold->hand,
		                           hold_state_to_str(old), hold_input_to_str(input),
		                           hold_state_to_str(hold->state), NULL);
}
