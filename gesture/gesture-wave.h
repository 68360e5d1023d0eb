/* Waves: a hand swinging side to side above its elbow. */
#pragma once

#include "gesture-body.h"
#include "gesture-context.h"

typedef enum {
	GESTURE_WAVE_STATE_IDLE,
	GESTURE_WAVE_STATE_RAISED,
	GESTURE_WAVE_STATE_SWINGING,
	GESTURE_WAVE_STATE_WAVING,
	GESTURE_WAVE_STATE_COOLDOWN,
} GestureWaveState;

typedef struct {
	GestureHand hand;
	GestureWaveState state;
	/* The side-to-side swing: the hand's x from its elbow, its extremes
	 * since the last turn and the direction it now goes (0: none yet). */
	double low, high;
	int direction;
	guint count;     /* half-cycles */
	gint64 swing_us; /* the last half-cycle (or the hand going up) */
	gint64 start_us; /* when the swinging was first followed */
	double path;     /* side-to-side travel since then, body units */
	double last_x;
	gint64 until_us;
} GestureWave;

void gesture_wave_init(GestureWave *wave, GestureHand hand);
void gesture_wave_update(GestureWave *wave, const GestureBody *body, GestureContext *ctx);
