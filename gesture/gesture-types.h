/* The gesture recognisers' types: the kinds of gesture, the hands, the
 * events, the settings. What a user of the recognisers handles; nothing
 * here does anything. */
#pragma once

#include <glib.h>

#include "tracker/tracker-types.h"

typedef enum {
	GESTURE_SWIPE_LEFT,  /* a fast sweep of one hand toward the user's left */
	GESTURE_SWIPE_RIGHT, /* ...toward the user's right */
	GESTURE_SWIPE_UP,
	GESTURE_SWIPE_DOWN,
	GESTURE_PUSH,       /* one hand thrust forward (at the sensor, facing it), quickly */
	GESTURE_WAVE,       /* a hand swinging side to side above its elbow */
	GESTURE_RAISE_HAND, /* a hand raised above the head and held */
	GESTURE_CLAP,       /* both hands brought together in front */
	GESTURE_ARMS_OUT,   /* both arms held out to the sides, still */
	GESTURE_N_KINDS
} GestureKind;

typedef enum {
	GESTURE_HAND_LEFT, /* anatomical sides, as the joints */
	GESTURE_HAND_RIGHT,
	GESTURE_HAND_BOTH, /* two-handed gestures: clap, arms_out */
	GESTURE_N_HANDS
} GestureHand;

typedef struct {
	GestureKind kind;
	guint user;           /* the tracker's user id */
	GestureHand hand;     /* the hand that made it, or BOTH */
	gint64 time_us;       /* the frame that completed the gesture */
	gint64 start_us;      /* when the motion began, or the pose was taken */
	double speed;         /* mm/s: mean hand speed over the motion; 0 for holds */
	double distance;      /* mm: straight-line travel of the hand; 0 for holds */
	guint count;          /* wave: half-cycles seen when it fired; else 0 */
	TrackerVec3 position; /* camera mm: the hand, or between the two hands */
} GestureEvent;

/*
 * Every threshold. Lengths are in body units (shoulder widths), speeds in
 * body units per second, times in seconds. gesture_config_init() sets the
 * defaults given here; gesture_config_key_info() documents each one.
 */
typedef struct {
	/* 0.7: joints below it are not used. The tracker is less sure than
	 * that of a hand when less than two fifths of its forearm shows (an
	 * arm behind the body), and the demo's truth gives a hidden joint
	 * 0.5: such a hand is a guess, and a guess makes no gesture. */
	double min_confidence;
	double velocity_window; /* 0.08 s: speeds are measured over this long */
	double still_window;    /* 0.3 s: stillness is measured over this long */
	double scale_smoothing; /* 1.0 s: time constant of the body unit */
	double turn_smoothing;  /* 0.1 s: time constant of the body's facing */
	double cooldown;        /* 0.5 s: after an event, the recogniser rests */
	double stroke_settle;   /* 0.5: a swipe or push ends below this part of its speed */

	double swipe_min_speed;    /* 2.5: hand speed across the body's front */
	double swipe_min_distance; /* 1.2: travel along the swipe's direction */
	double swipe_max_off_axis; /* 0.5: other travel, as a fraction of that */
	double swipe_max_duration; /* 1.0 s */
	double swipe_min_forward;  /* 0.4: hand in front of the shoulders */
	double swipe_min_elbow;    /* 0.25: elbow travel, as a fraction of the hand's */

	double push_min_speed;     /* 1.5: hand speed toward the front */
	double push_min_distance;  /* 0.5: forward travel */
	double push_max_off_axis;  /* 1.0: other travel, as a fraction of that */
	double push_max_duration;  /* 0.8 s */
	double push_min_reach;     /* 1.3: hand in front of the shoulders at the end */
	double push_min_extension; /* 0.9: the arm's straightness at the end */

	double wave_min_lift;        /* 0.3: hand above its elbow */
	double wave_min_amplitude;   /* 0.35: side-to-side travel of a half-cycle */
	double wave_min_half_cycles; /* 3 */
	double wave_max_half_period; /* 1.0 s: a slower swing ends the wave */

	double raise_min_height; /* 0.8: hand above the head joint */
	double raise_max_speed;  /* 1.0: the hand counts as held below this */
	double raise_hold_time;  /* 1.0 s */

	double clap_min_open;    /* 1.0: hands this far apart before */
	double clap_max_gap;     /* 0.4: hands this close count as together */
	double clap_min_speed;   /* 2.0: the hands' closing speed, from apart to together */
	double clap_min_forward; /* 0.3: hands in front of the shoulders */

	double arms_out_min_reach;  /* 1.5: each hand out from the body's centre */
	double arms_out_max_height; /* 0.6: each hand this close to shoulder height */
	double arms_out_max_speed;  /* 1.0: hands and body count as still below this */
	double arms_out_hold_time;  /* 1.5 s */
} GestureConfig;

/* Each recogniser fires at most once per frame: per user, four per hand
 * (swipe, push, wave, raise) and two with both hands. */
#define GESTURE_MAX_EVENTS_PER_USER 10
#define GESTURE_MAX_EVENTS          (TRACKER_MAX_USERS * GESTURE_MAX_EVENTS_PER_USER)

/* Receives one line, without a trailing newline, per state change, per
 * user coming or going and per event. */
typedef void (*GestureLogFunc)(const char *message, gpointer user_data);
