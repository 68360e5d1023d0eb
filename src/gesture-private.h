/* Inside the gesture recognisers: the body as the recognisers see it, the
 * context a recogniser runs in, and the four state machines (strokes,
 * holds, waves, claps) that the nine gestures share. */
#pragma once

#include "gesture.h"

/* ---- the body in its own frame (gesture-body.c) ----
 *
 * Positions are relative to the midpoint of the shoulders, in body units,
 * along the body's own axes: x toward the user's left, y up, z toward the
 * front (toward the sensor when the user faces it). Walking, turning and
 * swaying move this frame, not the hands in it. */

/* Frames remembered per user: a second at 60 frames per second, more than
 * the longest window a setting allows. */
#define GESTURE_HISTORY 64

typedef struct {
	gboolean found;          /* the hand and the body frame are confident */
	gboolean elbow_found;    /* ...and the elbow too */
	TrackerVec3 hand, elbow; /* body frame */
	TrackerVec3 camera;      /* the hand, camera mm (for events) */
	gboolean moving_known;   /* a velocity could be measured: */
	TrackerVec3 velocity;    /* body units per second, over the window */
	TrackerVec3 from;        /* the hand at the window's start */
	gint64 from_us;
	gboolean from_elbow_found; /* the elbow now and at the window's start: */
	TrackerVec3 from_elbow;
	gboolean drift_known; /* a speed over the longer, steadier window: */
	double drift;         /* body units per second */
} GestureHandSample;

typedef struct {
	gboolean found; /* both shoulders are confident */
	double scale;   /* mm per body unit (the smoothed shoulder width) */
	gboolean head_found;
	TrackerVec3 head;           /* body frame */
	gboolean centre_known;      /* how fast the shoulders' midpoint moves */
	double centre_drift;        /* over the still window, body units per second */
	GestureHandSample hands[2]; /* indexed by GestureHand */
} GestureBody;

typedef struct {
	gint64 time_us;
	gboolean found;
	TrackerVec3 centre; /* camera mm */
	gboolean hand_found[2], elbow_found[2];
	TrackerVec3 hand[2], elbow[2]; /* body frame */
} GestureBodyEntry;

/* What one user's body was doing over the last few frames. */
typedef struct {
	GestureBodyEntry entries[GESTURE_HISTORY];
	guint n, next;
	double scale;       /* mm; 0 until the shoulders were first seen */
	TrackerVec3 facing; /* the smoothed direction to the user's left */
	gint64 smoothed_us; /* when scale and facing were last updated */
} GestureBodyHistory;

void gesture_body_history_init(GestureBodyHistory *history);

/**
 * gesture_body_update:
 * Measures @user at @now_us into @body and remembers it in @history.
 */
void gesture_body_update(GestureBodyHistory *history, const TrackerUser *user, gint64 now_us,
                         const GestureConfig *config, GestureBody *body);

/* ---- where a recogniser runs (gesture.c) ---- */

typedef struct {
	const GestureConfig *config;
	guint user;
	gint64 now_us;
	GestureLogFunc log;
	gpointer log_data;
	GestureEvent *events;
	guint n_events;
} GestureContext;

/** gesture_context_logging: whether anyone reads the log (to skip formatting). */
gboolean gesture_context_logging(const GestureContext *ctx);

/**
 * gesture_context_transition:
 * Logs one state change of @machine ("swipe"), for @hand, caused by
 * @input, with an optional reason @why.
 */
void gesture_context_transition(GestureContext *ctx, const char *machine, GestureHand hand,
                                const char *from, const char *input, const char *to,
                                const char *why);

/** gesture_context_emit: hands an event to the caller, stamped with the user and time. */
void gesture_context_emit(GestureContext *ctx, GestureEvent *event);

/** gesture_us: seconds (a setting) as microseconds. */
gint64 gesture_us(double seconds);

/* ---- strokes: swipes and pushes (gesture-stroke.c) ----
 * One fast, mostly straight movement of a hand, judged when it settles or
 * turns aside. */

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

/* ---- holds: a raised hand, arms out (gesture-hold.c) ----
 * A pose kept still for a while. */

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

/* ---- waves (gesture-wave.c) ---- */

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

/* ---- claps (gesture-clap.c) ---- */

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
