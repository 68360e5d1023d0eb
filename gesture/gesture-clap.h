/* Claps: both hands brought together in front. */
#pragma once

#include "gesture-body.h"
#include "gesture-context.h"

typedef enum {
	GESTURE_CLAP_STATE_IDLE,
	GESTURE_CLAP_STATE_OPEN,
	GESTURE_CLAP_STATE_MET,
	GESTURE_CLAP_STATE_TOGETHER,
	GESTURE_CLAP_STATE_COOLDOWN,
} GestureClapState;

typedef struct {
	GestureClapState state;
	gint64 apart_us; /* the last time the hands were apart */
	double apart;    /* how far apart they were then, body units */
	gint64 until_us;
} GestureClap;

void gesture_clap_init(GestureClap *clap);
void gesture_clap_update(GestureClap *clap, const GestureBody *body, GestureContext *ctx);
