/* The body as the gesture recognisers see it: positions relative to the
 * midpoint of the shoulders, in body units, along the body's own axes: x
 * toward the user's left, y up, z toward the front (toward the sensor when
 * the user faces it). Walking, turning and swaying move this frame, not
 * the hands in it. */
#pragma once

#include "gesture-types.h"

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
