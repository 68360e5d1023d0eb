/* Strokes, swipes and pushes: one fast, mostly straight movement of a
 * hand, judged when it settles or turns aside. */
#pragma once

#include "gesture-body.h"
#include "gesture-context.h"

typedef enum {
	GESTURE_STROKE_SWIPE,
	GESTURE_STROKE_PUSH,
} GestureStrokeFamily;

typedef enum {
	GESTURE_STROKE_STATE_IDLE,
	GESTURE_STROKE_STATE_MOVING,
	GESTURE_STROKE_STATE_COOLDOWN,
} GestureStrokeState;

/* Where a hand and its elbow were, body frame, and when. */
typedef struct {
	gint64 time_us;
	TrackerVec3 hand, elbow;
} GestureStrokePoint;

typedef struct {
	GestureStrokeFamily family;
	GestureHand hand;
	GestureStrokeState state;
	gboolean rest_known;
	GestureStrokePoint rest;  /* where the hand was last still (or turned) */
	GestureStrokePoint start; /* where the stroke began */
	GestureStrokePoint far;   /* the furthest it has gone from there */
	gint64 until_us;          /* end of the cool-down */
} GestureStroke;

void gesture_stroke_init(GestureStroke *stroke, GestureStrokeFamily family, GestureHand hand);
void gesture_stroke_update(GestureStroke *stroke, const GestureBody *body, GestureContext *ctx);
