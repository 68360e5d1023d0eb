/* Waves: a hand above its elbow swinging side to side. Each swing of at
 * least the amplitude in a new direction is a half-cycle; after enough of
 * them the wave fires, once, however long the waving goes on. A swing that
 * takes too long, or the hand dropping, ends the wave. */
#include "gesture-wave.h"

#include "gesture-config.h"

#include <math.h>

typedef enum {
	GESTURE_WAVE_INPUT_LOST,  /* hand or elbow not found */
	GESTURE_WAVE_INPUT_LOW,   /* the hand is not above its elbow */
	GESTURE_WAVE_INPUT_UP,    /* above, nothing new */
	GESTURE_WAVE_INPUT_SWING, /* a new half-cycle */
	GESTURE_WAVE_INPUT_STALL, /* no half-cycle for too long */
} GestureWaveInput;

static const char *
wave_state_to_str(GestureWaveState state)
{
	switch (state) {
	case GESTURE_WAVE_STATE_IDLE:
		return "IDLE";
	case GESTURE_WAVE_STATE_RAISED:
		return "RAISED";
	case GESTURE_WAVE_STATE_SWINGING:
		return "SWINGING";
	case GESTURE_WAVE_STATE_WAVING:
		return "WAVING";
	case GESTURE_WAVE_STATE_COOLDOWN:
		return "COOLDOWN";
	}
	return "?";
}

static const char *
wave_input_to_str(GestureWaveInput input)
{
	switch (input) {
	case GESTURE_WAVE_INPUT_LOST:
		return "LOST";
	case GESTURE_WAVE_INPUT_LOW:
		return "LOW";
	case GESTURE_WAVE_INPUT_UP:
		return "UP";
	case GESTURE_WAVE_INPUT_SWING:
		return "SWING";
	case GESTURE_WAVE_INPUT_STALL:
		return "STALL";
	}
	return "?";
}

/* The hand's side-to-side position: from its elbow, so that the whole
 * arm moving (a reach, a swipe) swings nothing. */
static double
wave_x(const GestureHandSample *s)
{
	return s->hand.x - s->elbow.x;
}

static void
wave_restart(GestureWave *wave, const GestureHandSample *s, gint64 now_us)
{
	wave->low = wave->high = wave_x(s);
	wave->direction = 0;
	wave->count = 0;
	wave->swing_us = now_us;
	wave->start_us = now_us;
	wave->path = 0.0;
	wave->last_x = wave_x(s);
}

/* Follows the swing; TRUE when the hand has come back @amplitude from its
 * last extreme, that is, a new half-cycle is under way. */
static gboolean
wave_track(GestureWave *wave, double x, double amplitude)
{
	if (wave->direction >= 0)
		wave->high = MAX(wave->high, x);
	if (wave->direction <= 0)
		wave->low = MIN(wave->low, x);
	if (wave->direction >= 0 && wave->high - x >= amplitude) {
		wave->direction = -1;
		wave->low = x;
		return TRUE;
	}
	if (wave->direction <= 0 && x - wave->low >= amplitude) {
		wave->direction = 1;
		wave->high = x;
		return TRUE;
	}
	return FALSE;
}

static gboolean
wave_tracking(const GestureWave *wave)
{
	switch (wave->state) {
	case GESTURE_WAVE_STATE_RAISED:
	case GESTURE_WAVE_STATE_SWINGING:
	case GESTURE_WAVE_STATE_WAVING:
		return TRUE;
	case GESTURE_WAVE_STATE_IDLE:
	case GESTURE_WAVE_STATE_COOLDOWN:
		return FALSE;
	}
	return FALSE;
}

static GestureWaveInput
wave_input(GestureWave *wave, const GestureBody *body, GestureContext *ctx)
{
	const GestureHandSample *s = &body->hands[wave->hand];
	const GestureConfig *c = ctx->config;
	double x = wave_x(s);

	if (!s->elbow_found)
		return GESTURE_WAVE_INPUT_LOST;
	if (s->hand.y - s->elbow.y < c->wave_min_lift)
		return GESTURE_WAVE_INPUT_LOW;
	if (!wave_tracking(wave))
		return GESTURE_WAVE_INPUT_UP;
	wave->path += fabs(x - wave->last_x);
	wave->last_x = x;
	if (wave_track(wave, x, c->wave_min_amplitude))
		return GESTURE_WAVE_INPUT_SWING;
	if (ctx->now_us - wave->swing_us > gesture_config_us(c->wave_max_half_period))
		return GESTURE_WAVE_INPUT_STALL;
	return GESTURE_WAVE_INPUT_UP;
}

static void
wave_emit(GestureWave *wave, const GestureBody *body, GestureContext *ctx)
{
	double seconds = (ctx->now_us - wave->start_us) / (double)G_USEC_PER_SEC;
	GestureEvent event = { .kind = GESTURE_WAVE, .hand = wave->hand };

	event.start_us = wave->start_us;
	event.count = wave->count;
	event.speed = seconds > 0.0 ? wave->path * body->scale / seconds : 0.0;
	event.position = body->hands[wave->hand].camera;
	gesture_context_emit(ctx, &event);
}

/* Counts a half-cycle; the one that makes enough fires the wave. */
static void
wave_swing(GestureWave *wave, const GestureBody *body, GestureContext *ctx)
{
	wave->count++;
	wave->swing_us = ctx->now_us;
	if (wave->state == GESTURE_WAVE_STATE_WAVING)
		return;
	wave->state = GESTURE_WAVE_STATE_SWINGING;
	if (wave->count < (guint)ctx->config->wave_min_half_cycles)
		return;
	wave_emit(wave, body, ctx);
	wave->state = GESTURE_WAVE_STATE_WAVING;
}

static void
wave_handle_idle(GestureWave *wave, GestureWaveInput input, const GestureBody *body,
                 GestureContext *ctx)
{
	switch (input) {
	case GESTURE_WAVE_INPUT_LOST:
	case GESTURE_WAVE_INPUT_LOW:
		break;
	case GESTURE_WAVE_INPUT_UP:
	case GESTURE_WAVE_INPUT_SWING:
	case GESTURE_WAVE_INPUT_STALL:
		wave->state = GESTURE_WAVE_STATE_RAISED;
		wave_restart(wave, &body->hands[wave->hand], ctx->now_us);
		break;
	}
}

/* Raised or swinging, the same: a stall starts the count again. */
static void
wave_handle_counting(GestureWave *wave, GestureWaveInput input, const GestureBody *body,
                     GestureContext *ctx)
{
	switch (input) {
	case GESTURE_WAVE_INPUT_LOST:
	case GESTURE_WAVE_INPUT_LOW:
		wave->state = GESTURE_WAVE_STATE_IDLE;
		break;
	case GESTURE_WAVE_INPUT_UP:
		break;
	case GESTURE_WAVE_INPUT_STALL:
		/* Held up without waving: the wave starts with the next swing. */
		wave->state = GESTURE_WAVE_STATE_RAISED;
		wave_restart(wave, &body->hands[wave->hand], ctx->now_us);
		break;
	case GESTURE_WAVE_INPUT_SWING:
		wave_swing(wave, body, ctx);
		break;
	}
}

static void
wave_handle_waving(GestureWave *wave, GestureWaveInput input, const GestureBody *body,
                   GestureContext *ctx)
{
	switch (input) {
	case GESTURE_WAVE_INPUT_LOST:
	case GESTURE_WAVE_INPUT_LOW:
	case GESTURE_WAVE_INPUT_STALL:
		wave->state = GESTURE_WAVE_STATE_COOLDOWN;
		wave->until_us = ctx->now_us + gesture_config_us(ctx->config->cooldown);
		break;
	case GESTURE_WAVE_INPUT_UP:
		break;
	case GESTURE_WAVE_INPUT_SWING:
		wave_swing(wave, body, ctx);
		break;
	}
}

static void
wave_handle_cooldown(GestureWave *wave, GestureWaveInput input, GestureContext *ctx)
{
	switch (input) {
	case GESTURE_WAVE_INPUT_LOST:
	case GESTURE_WAVE_INPUT_LOW:
	case GESTURE_WAVE_INPUT_UP:
	case GESTURE_WAVE_INPUT_SWING:
	case GESTURE_WAVE_INPUT_STALL:
		if (ctx->now_us >= wave->until_us)
			wave->state = GESTURE_WAVE_STATE_IDLE;
		break;
	}
}

void
gesture_wave_init(GestureWave *wave, GestureHand hand)
{
	GestureWave fresh = { .hand = hand };

	*wave = fresh;
}

void
gesture_wave_update(GestureWave *wave, const GestureBody *body, GestureContext *ctx)
{
	GestureWaveState old = wave->state;
	GestureWaveInput input = wave_input(wave, body, ctx);

	switch (wave->state) {
	case GESTURE_WAVE_STATE_IDLE:
		wave_handle_idle(wave, input, body, ctx);
		break;
	case GESTURE_WAVE_STATE_RAISED:
	case GESTURE_WAVE_STATE_SWINGING:
		wave_handle_counting(wave, input, body, ctx);
		break;
	case GESTURE_WAVE_STATE_WAVING:
		wave_handle_waving(wave, input, body, ctx);
		break;
	case GESTURE_WAVE_STATE_COOLDOWN:
		wave_handle_cooldown(wave, input, ctx);
		break;
	}
	if (wave->state != old)
		gesture_context_transition(ctx, "wave", wave->hand, wave_state_to_str(old),
		                           wave_input_to_str(input), wave_state_to_str(wave->state),
		                           NULL);
}
