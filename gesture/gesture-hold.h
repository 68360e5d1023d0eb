/* Holds, a raised hand and arms out: a pose kept still for a while. */
#pragma once

#include "gesture-body.h"
#include "gesture-context.h"

typedef enum {
	GESTURE_HOLD_RAISE,
	GESTURE_HOLD_ARMS_OUT,
} GestureHoldFamily;

typedef enum {
	GESTURE_HOLD_STATE_IDLE,
	GESTURE_HOLD_STATE_POSED,
	GESTURE_HOLD_STATE_HELD,
	GESTURE_HOLD_STATE_COOLDOWN,
} GestureHoldState;

typedef struct {
	GestureHoldFamily family;
	GestureHand hand; /* BOTH for arms out */
	GestureHoldState state;
	gint64 posed_us;  /* when the pose was taken */
	gint64 still_us;  /* since when it has been still */
	gboolean moving;  /* it moves now... */
	gint64 moving_us; /* ...since then */
	gint64 until_us;
} GestureHold;

void gesture_hold_init(GestureHold *hold, GestureHoldFamily family, GestureHand hand);
void gesture_hold_update(GestureHold *hold, const GestureBody *body, GestureContext *ctx);
